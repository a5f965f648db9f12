"""The table homography: camera pixels to table millimetres and back.

A :class:`TableCalibration` holds the homography between *undistorted* pixels and the table
plane, and optionally the camera's intrinsics; it maps points both ways, undistorting or
distorting on the way. It comes from a mat's markers (:func:`fit_markers`, one marker is enough,
every visible one is used) or, without a mat, from four clicked corners of a known-size area
(:func:`from_corners`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.intrinsics import CameraIntrinsics
from calibration.markers import DetectedMarker
from calibration.mats import MatLayout


class CalibrationError(ValueError):
    """Points that cannot give a calibration: says why and what to do."""


@dataclass(frozen=True)
class TableCalibration:
    image_from_table: np.ndarray  # 3x3, table mm -> undistorted px
    image_size: tuple[int, int]  # (width, height) the calibration was made at
    intrinsics: CameraIntrinsics | None = None
    mat: tuple[str, str] | None = None  # (game, paper) when fitted from a mat
    rms_px: float = 0.0  # fit residual at the points used

    @property
    def table_from_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_from_table)

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        """Table millimetres of image points (N x 2, distorted pixels as the camera delivers them)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        if self.intrinsics is not None:
            pts = self.intrinsics.undistort_points(pts)
        return cv2.perspectiveTransform(pts, self.table_from_image).reshape(-1, 2)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Image pixels (as the camera delivers them) of table points (N x 2)."""
        pts = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), self.image_from_table)
        if self.intrinsics is not None:
            pts = self.intrinsics.distort_points(pts)
        return pts.reshape(-1, 2)


def fit_points(table_mm: np.ndarray, image_px: np.ndarray, image_size: tuple[int, int],
               intrinsics: CameraIntrinsics | None = None, mat: tuple[str, str] | None = None) -> TableCalibration:
    """Least-squares homography through point pairs (at least 4, not all on one line)."""
    table_mm = np.asarray(table_mm, np.float64).reshape(-1, 2)
    image_px = np.asarray(image_px, np.float64).reshape(-1, 2)
    if intrinsics is not None:
        image_px = intrinsics.undistort_points(image_px.reshape(-1, 1, 2)).reshape(-1, 2)
    _require_spread(table_mm, "table points")
    _require_spread(image_px, "image points")
    H, _ = cv2.findHomography(table_mm, image_px, 0)
    if H is None or not np.isfinite(H).all() or abs(np.linalg.det(H)) < 1e-12:
        raise CalibrationError("these points give no usable homography; check that they match the real corners")
    projected = cv2.perspectiveTransform(table_mm.reshape(-1, 1, 2), H).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((projected - image_px) ** 2, axis=1))))
    return TableCalibration(H / H[2, 2], tuple(image_size), intrinsics, mat, rms)


def fit_markers(markers: Sequence[DetectedMarker], layout: MatLayout, image_size: tuple[int, int],
                intrinsics: CameraIntrinsics | None = None) -> TableCalibration:
    """Fit the homography to the corners of every detected marker that belongs to ``layout``."""
    ours = [m for m in markers if any(p.id == m.id for p in layout.markers)]
    if not ours:
        raise CalibrationError(f"none of the {layout.title}'s markers is visible")
    table = np.concatenate([layout.marker(m.id).corners_mm() for m in ours])
    image = np.concatenate([m.corners_px for m in ours])
    return fit_points(table, image, image_size, intrinsics, (layout.game, layout.paper))


def from_corners(corners_px: Sequence[tuple[float, float]], width_mm: float, height_mm: float,
                 image_size: tuple[int, int], intrinsics: CameraIntrinsics | None = None) -> TableCalibration:
    """Calibrate without a mat: the image points of a known-size rectangle's corners, clockwise from
    the top-left (the table frame's origin)."""
    corners = np.asarray(corners_px, np.float64)
    if corners.shape != (4, 2):
        raise CalibrationError(f"give exactly four corners as (x, y) pixels; got {len(corners)}")
    if width_mm <= 0 or height_mm <= 0:
        raise CalibrationError(f"the area must have a positive size; got {width_mm} x {height_mm} mm")
    for i in range(4):
        a, b, c = corners[i], corners[(i + 1) % 4], corners[(i + 2) % 4]
        if abs(_cross(b - a, c - b)) < 1e-3 * max(1.0, np.linalg.norm(b - a) * np.linalg.norm(c - b)):
            raise CalibrationError(f"corners {i + 1}, {(i + 1) % 4 + 1} and {(i + 2) % 4 + 1} lie on one line; "
                                   "click the four corners of the area")
    turns = [np.sign(_cross(corners[(i + 1) % 4] - corners[i], corners[(i + 2) % 4] - corners[(i + 1) % 4]))
             for i in range(4)]
    if len(set(turns)) != 1:
        raise CalibrationError("the four corners do not form a convex outline; click them in order around the area")
    table = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], np.float64)
    return fit_points(table, corners, image_size, intrinsics)


def _require_spread(points: np.ndarray, what: str) -> None:
    if len(points) < 4:
        raise CalibrationError(f"a homography needs at least 4 {what}; got {len(points)}")
    centred = points - points.mean(axis=0)
    singular = np.linalg.svd(centred, compute_uv=False)
    if singular[1] < 1e-6 * max(1.0, singular[0]):
        raise CalibrationError(f"the {what} all lie on one line")


def _cross(u: np.ndarray, v: np.ndarray) -> float:
    return float(u[0] * v[1] - u[1] * v[0])
