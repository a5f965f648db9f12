"""Camera pictures of a table for the calibration tests, rendered exactly (vision.synth.camera).

``mat_picture``: a printed mat seen at an angle, as a webcam would. ``board_picture``: no mat, a
checkerboard of 50 mm squares (a measured play area) whose true corners in the picture are known.
Each is written into a folder of its own, which ``vision.capture`` opens as a camera.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from calibration.mats import mat_layout
from vision.synth.camera import PinholeCamera, render_plane

SIZE = (1280, 720)
PX_PER_MM = 5
BOARD_MM = (600.0, 400.0)
SQUARE_MM = 50.0


def mat_picture(game: str = "pouches", paper: str = "A4", tilt: float = 25.0, yaw: float = 8.0):
    """(BGR picture, layout, camera) of ``game``'s mat seen from 700 mm at ``tilt`` degrees."""
    layout = mat_layout(game, paper)
    ox, oy = layout.origin_on_paper
    centre = (layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy)
    camera = PinholeCamera.looking_at(centre, 700.0, tilt, yaw_deg=yaw, size=SIZE, hfov_deg=60)
    texture = layout.drawing().raster(PX_PER_MM)
    grey = render_plane(texture, PX_PER_MM, (-ox, -oy), camera, supersample=2)
    return cv2.cvtColor(grey.astype(np.uint8), cv2.COLOR_GRAY2BGR), layout, camera


def board_texture(px_per_mm: float) -> np.ndarray:
    """The checkerboard as seen from straight above, ``px_per_mm`` pixels per millimetre."""
    w, h = round(BOARD_MM[0] * px_per_mm), round(BOARD_MM[1] * px_per_mm)
    ys, xs = np.mgrid[0:h, 0:w]
    squares = (np.floor((xs + 0.5) / px_per_mm / SQUARE_MM) + np.floor((ys + 0.5) / px_per_mm / SQUARE_MM)) % 2
    return np.where(squares == 0, 235, 40).astype(np.uint8)


def board_camera(tilt: float = 30.0, yaw: float = -10.0) -> PinholeCamera:
    return PinholeCamera.looking_at((BOARD_MM[0] / 2, BOARD_MM[1] / 2), 900.0, tilt, yaw_deg=yaw, size=SIZE,
                                    hfov_deg=60)


def board_picture():
    """(BGR picture, the board's corners in the picture clockwise from its top-left) as board_camera() sees it."""
    camera = board_camera()
    grey = render_plane(board_texture(PX_PER_MM), PX_PER_MM, (0.0, 0.0), camera, background=120, supersample=2)
    w, h = BOARD_MM
    corners = camera.project(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    return cv2.cvtColor(grey.astype(np.uint8), cv2.COLOR_GRAY2BGR), corners


def as_camera(folder: Path, picture: np.ndarray) -> str:
    """A folder holding just this picture: a capture source that shows it."""
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "frame.png"), picture)
    return str(folder)
