"""Where a perched pyramid of the *same* colour begins: the line its base draws across the one below.

A red small on a red large's tip has the large's outline and colour, so colour bands cannot see it.
What shows is the join: the small's base edge crosses each face of the large at the perch height,
a thin line brighter or darker than the plastic just above and below it. :func:`join_strength`
measures that line on the faces turned to the camera, and compares it with the same measure a few
millimetres higher and lower, where a lone pyramid's face is smooth.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.pyramids import Size
from vision.pieces.camera import TableCamera
from vision.pieces.fitting import Fit

STEP_MM = 2.5  # how far above and below the line the plastic is compared
SAMPLES = 12  # points along each face


def _ring(fit: Fit, size: Size, height: float, camera: TableCamera) -> np.ndarray:
    """Points (N x 3) along the camera-facing sides of the pyramid's cross-section at ``height``."""
    half = size.base_mm / 2 * (1 - height / size.height_mm)
    a = np.radians(fit.angle)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    corners = [np.array([fit.x, fit.y]) + half * (sx * ex + sy * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    eye = camera.centre_mm
    t = (np.arange(SAMPLES) + 0.5) / SAMPLES * 0.8 + 0.1  # keep away from the corners
    sides = []
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        mid = (p + q) / 2
        outward = mid - (fit.x, fit.y)
        if outward @ (eye[:2] - mid) > 0:  # a side faces the camera when the camera is beyond it
            sides.append(p + (q - p) * t[:, None])
    if not sides:
        return np.empty((0, 3))
    xy = np.vstack(sides)
    return np.column_stack([xy, np.full(len(xy), -height)])


def _line_contrast(grey: np.ndarray, fit: Fit, size: Size, height: float, camera: TableCamera) -> float:
    """Mean of |L(height) - (L(height - step) + L(height + step)) / 2| over the facing sides."""
    rows = []
    for h in (height - STEP_MM, height, height + STEP_MM):
        ring = _ring(fit, size, h, camera)
        if not len(ring):
            return 0.0
        px = camera.project(ring).astype(np.float32)
        rows.append(cv2.remap(grey, px[:, 0:1], px[:, 1:2], cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE).ravel().astype(np.float32))
    n = min(len(r) for r in rows)
    low, mid, high = (r[:n] for r in rows)
    return float(np.mean(np.abs(mid - (low + high) / 2)))


def join_strength(grey: np.ndarray, fit: Fit, size: Size, height: float, camera: TableCamera) -> float:
    """How much more a line stands out at ``height`` than a little above and below it (about 1 on a smooth
    face, clearly more where a perched pyramid's base edge crosses it)."""
    at = _line_contrast(grey, fit, size, height, camera)
    around = [_line_contrast(grey, fit, size, h, camera) for h in (height - 2 * STEP_MM, height + 2 * STEP_MM)
              if 2 * STEP_MM < h < size.height_mm - 2 * STEP_MM]
    reference = float(np.mean(around)) if around else at
    return (at + 1.0) / (reference + 1.0)
