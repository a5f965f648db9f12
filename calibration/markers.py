"""ArUco markers: the dictionary the mats use, and detection with sub-pixel corners."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

DICTIONARY_ID = cv2.aruco.DICT_4X4_100


@cache
def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


def marker_bits(marker_id: int) -> np.ndarray:
    """The marker's cells including its one-cell black border: 0 black, 1 white (6x6 for 4x4 markers)."""
    side = dictionary().markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary(), marker_id, side, borderBits=1)
    return (image > 127).astype(np.uint8)


@dataclass(frozen=True)
class DetectedMarker:
    id: int
    corners_px: np.ndarray  # 4x2 float: top-left, top-right, bottom-right, bottom-left as printed


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 5
    params.cornerRefinementMinAccuracy = 0.01
    params.cornerRefinementMaxIterations = 50
    return cv2.aruco.ArucoDetector(dictionary(), params)


def detect_markers(image: np.ndarray) -> list[DetectedMarker]:
    """Every marker of the mats' dictionary visible in a BGR or grey image, corners refined."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(grey)
    if ids is None:
        return []
    smooth = grey.astype(np.float32)
    found = []
    for marker_id, c in zip(ids.ravel(), corners):
        rough = c.reshape(4, 2).astype(np.float64)
        found.append(DetectedMarker(int(marker_id), refine_corners(smooth, rough)))
    return sorted(found, key=lambda m: m.id)


def refine_corners(grey: np.ndarray, corners: np.ndarray, samples: int = 24) -> np.ndarray:
    """Corners as intersections of straight lines fitted to the marker's four outer edges.

    Each edge point is where the intensity profile across the edge crosses halfway between the
    black border and the white paper, so the estimate has no bias towards either side (corner
    detectors drift inwards on blurred corners). Falls back to the given corners where an edge is
    too short or too faint to measure.
    """
    side = min(np.linalg.norm(corners[(k + 1) % 4] - corners[k]) for k in range(4))
    reach = min(4.0, side / (2 * (dictionary().markerSize + 2)) * 1.6)  # stay inside the one-cell border
    if side < 12 or reach < 1.5:
        return corners
    centre = corners.mean(axis=0)
    offsets = np.linspace(-reach, reach, int(reach * 8) + 1)
    fractions = np.linspace(0.12, 0.88, samples)
    lines = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        along = (b - a) / np.linalg.norm(b - a)
        normal = np.array([-along[1], along[0]])
        if np.dot(centre - a, normal) > 0:
            normal = -normal  # point outwards, from black border to white paper
        bases = a + fractions[:, None] * (b - a)  # samples x 2
        where = bases[:, None, :] + offsets[None, :, None] * normal  # samples x offsets x 2
        profiles = cv2.remap(grey, where[..., 0].astype(np.float32), where[..., 1].astype(np.float32),
                             cv2.INTER_LINEAR)
        crossings = _half_crossings(profiles, offsets)
        ok = ~np.isnan(crossings)
        if ok.sum() < samples // 2:
            return corners
        points = bases[ok] + crossings[ok, None] * normal
        vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    refined = np.array([_intersect(lines[(k - 1) % 4], lines[k]) for k in range(4)])
    if not np.isfinite(refined).all() or np.abs(refined - corners).max() > 2 * reach:
        return corners
    return refined


def _half_crossings(profiles: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per profile (row), where it first rises through halfway from dark to light; NaN if it never does."""
    quarter = profiles.shape[1] // 4
    dark, light = profiles[:, :quarter].mean(axis=1), profiles[:, -quarter:].mean(axis=1)
    level = (dark + light) / 2
    above = profiles >= level[:, None]
    first = np.argmax(above, axis=1)
    valid = (light - dark >= 20) & above.any(axis=1) & (first > 0)
    i = np.clip(first, 1, profiles.shape[1] - 1)
    rows = np.arange(len(profiles))
    lo, hi = profiles[rows, i - 1], profiles[rows, i]
    frac = (level - lo) / np.maximum(hi - lo, 1e-6)
    crossing = offsets[i - 1] + frac * (offsets[i] - offsets[i - 1])
    return np.where(valid, crossing, np.nan)


def _intersect(line_a, line_b) -> np.ndarray:
    (pa, da), (pb, db) = line_a, line_b
    matrix = np.column_stack([da, -db])
    if abs(np.linalg.det(matrix)) < 1e-9:
        return np.array([np.nan, np.nan])
    t, _ = np.linalg.solve(matrix, pb - pa)
    return pa + t * da
