"""Top-down views of the table for vision: any table rectangle at a chosen pixels-per-millimetre."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.homography import TableCalibration

# The last per-pixel map built for a lens model: projecting every output pixel through the lens takes
# about a second at 720p, and a calibration is the same object frame after frame while the table stays.
_last_map: tuple = (None, None, None)  # (calibration, (area_mm, px_per_mm), (map x, map y))
LENS_STEP = 8  # output pixels between two projected through the lens (the error between: hundredths of a pixel)


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
    return cv2.remap(image, *_lens_map(calibration, area_mm, px_per_mm, cols, rows), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT)


def _lens_map(calibration: TableCalibration, area_mm: tuple[float, float, float, float], px_per_mm: float,
              cols: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """For each output pixel, where it lies in the camera's (distorted) picture, as remap's two maps."""
    global _last_map
    known, key, maps = _last_map
    if known is calibration and key == (tuple(area_mm), px_per_mm):
        return maps
    # the lens bends the picture smoothly: project every LENS_STEP-th pixel, interpolate between them
    x, y = area_mm[:2]
    jc = np.arange(0, cols - 1 + LENS_STEP, LENS_STEP, dtype=np.float64)
    ic = np.arange(0, rows - 1 + LENS_STEP, LENS_STEP, dtype=np.float64)
    jj, ii = np.meshgrid(jc, ic)
    table = np.stack([x + (jj + 0.5) / px_per_mm, y + (ii + 0.5) / px_per_mm], -1).reshape(-1, 2)
    coarse = calibration.to_image(table).astype(np.float32).reshape(len(ic), len(jc), 2)
    at_j = np.broadcast_to(np.arange(cols, dtype=np.float32) / LENS_STEP, (rows, cols))
    at_i = np.broadcast_to(np.arange(rows, dtype=np.float32)[:, None] / LENS_STEP, (rows, cols))
    source = cv2.remap(coarse, np.ascontiguousarray(at_j), np.ascontiguousarray(at_i), cv2.INTER_LINEAR)
    maps = cv2.convertMaps(source[..., 0], source[..., 1], cv2.CV_16SC2)  # fixed point: remap runs faster
    _last_map = (calibration, (tuple(area_mm), px_per_mm), maps)
    return maps


def rectified_to_table(points_px: np.ndarray, area_mm: tuple[float, float, float, float],
                       px_per_mm: float) -> np.ndarray:
    """Table mm of pixel positions in a rectified image (continuous coordinates, centres at integers)."""
    pts = np.asarray(points_px, np.float64).reshape(-1, 2)
    return np.asarray(area_mm[:2]) + (pts + 0.5) / px_per_mm


def table_to_rectified(points_mm: np.ndarray, area_mm: tuple[float, float, float, float],
                       px_per_mm: float) -> np.ndarray:
    pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
    return (pts - np.asarray(area_mm[:2])) * px_per_mm - 0.5
