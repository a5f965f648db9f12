"""Top-down views of the table for vision: any table rectangle at a chosen pixels-per-millimetre."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.homography import TableCalibration


def rectify(image: np.ndarray, calibration: TableCalibration, area_mm: tuple[float, float, float, float],
            px_per_mm: float) -> np.ndarray:
    """The table area ``(x, y, width, height)`` in mm seen from straight above.

    Output pixel (i, j) shows table point ``(x + (j + 0.5) / px_per_mm, y + (i + 0.5) / px_per_mm)``; lens
    distortion is removed on the way when the calibration has intrinsics.
    """
    x, y, w, h = area_mm
    cols, rows = round(w * px_per_mm), round(h * px_per_mm)
    if cols <= 0 or rows <= 0 or cols * rows > 50_000_000:
        raise ValueError(f"a {w} x {h} mm area at {px_per_mm} px/mm is not a sensible image size")
    if calibration.intrinsics is None:  # one homography all the way: OpenCV's warp, no per-pixel maps
        from_output = np.array([[1 / px_per_mm, 0, x + 0.5 / px_per_mm], [0, 1 / px_per_mm, y + 0.5 / px_per_mm],
                                [0, 0, 1]])
        return cv2.warpPerspective(image, calibration.image_from_table @ from_output, (cols, rows),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT)
    jj, ii = np.meshgrid(np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64))
    table = np.stack([x + (jj + 0.5) / px_per_mm, y + (ii + 0.5) / px_per_mm], -1).reshape(-1, 2)
    source = calibration.to_image(table).astype(np.float32).reshape(rows, cols, 2)
    return cv2.remap(image, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def rectified_to_table(points_px: np.ndarray, area_mm: tuple[float, float, float, float],
                       px_per_mm: float) -> np.ndarray:
    """Table mm of pixel positions in a rectified image (continuous coordinates, centres at integers)."""
    pts = np.asarray(points_px, np.float64).reshape(-1, 2)
    return np.asarray(area_mm[:2]) + (pts + 0.5) / px_per_mm


def table_to_rectified(points_mm: np.ndarray, area_mm: tuple[float, float, float, float],
                       px_per_mm: float) -> np.ndarray:
    pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
    return (pts - np.asarray(area_mm[:2])) * px_per_mm - 0.5
