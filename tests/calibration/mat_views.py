"""Camera views of printed mats, rendered exactly (vision.synth.camera) with a little sensor noise."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from calibration.mats import mat_layout
from vision.synth.camera import PinholeCamera, render_plane

SIZE = (1280, 720)
PX_PER_MM = 6


@cache
def _texture(game: str, paper: str):
    layout = mat_layout(game, paper)
    return layout, layout.drawing().raster(PX_PER_MM)


def mat_centre(layout) -> tuple[float, float]:
    ox, oy = layout.origin_on_paper
    return layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy


def camera_over(layout, tilt=30.0, yaw=0.0, distance=1000.0, dist=(0, 0, 0, 0, 0)) -> PinholeCamera:
    return PinholeCamera.looking_at(mat_centre(layout), distance, tilt, yaw_deg=yaw, size=SIZE, hfov_deg=60, dist=dist)


def view(game: str, paper: str, camera: PinholeCamera, seed: int = 0) -> np.ndarray:
    """The mat as ``camera`` sees it, with optics blur and sensor noise, as a BGR frame."""
    layout, texture = _texture(game, paper)
    ox, oy = layout.origin_on_paper
    grey = render_plane(texture, PX_PER_MM, (-ox, -oy), camera, supersample=2).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (0, 0), 0.6)
    grey += np.random.default_rng(seed).normal(0, 2.0, grey.shape)
    return cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def area_grid(layout, yaw: float = 0.0, half_mm: float = 300.0, n: int = 25) -> np.ndarray:
    """Table points over the (2 * half_mm) square the camera looks at, centred on the mat and turned
    with the camera's yaw (so the whole square is in view): where accuracy is measured."""
    cx, cy = mat_centre(layout)
    offsets = np.array([[x, y] for x in np.linspace(-half_mm, half_mm, n) for y in np.linspace(-half_mm, half_mm, n)])
    a = np.radians(yaw)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.array([cx, cy]) + offsets @ turn.T


def table_errors(calibration, camera, points_mm) -> np.ndarray:
    """How far (mm) the calibration puts each table point, seen through the true camera. Every point
    must be in view: accuracy outside the picture means nothing."""
    seen = camera.project(points_mm)
    assert (seen >= 0).all() and (seen[:, 0] <= camera.width - 1).all() and (seen[:, 1] <= camera.height - 1).all()
    return np.linalg.norm(calibration.to_table(seen) - points_mm, axis=1)


def cover(frame: np.ndarray, camera, layout, marker_ids, grey=(70, 90, 110)) -> np.ndarray:
    """Lay a 'hand' (a skin-grey blob) over the given markers in the frame."""
    out = frame.copy()
    for marker_id in marker_ids:
        corners = layout.marker(marker_id).corners_mm()
        centre = corners.mean(axis=0)
        bigger = centre + (corners - centre) * 1.6
        cv2.fillConvexPoly(out, camera.project(bigger).astype(np.int32), grey)
    return out


