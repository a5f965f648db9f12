"""Fit a solid's pose to a blob of foreground: where it stands and how it is turned, by matching outlines.

A piece of known shape standing at (x, y) turned by ``angle`` has one outline in the picture (see
:mod:`vision.pieces.solids`). :func:`fit_outline` moves (x, y) until that outline's centroid sits
on the blob's, tries a few turns, and scores the fit by intersection over union with the blob.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.pieces.camera import TableCamera
from vision.pieces.solids import outline_mask

Points = Callable[[float, float, float], np.ndarray]  # (x, y, angle) -> 3D table points
TURNS = (0.0, 15.0, 30.0, 45.0, 60.0, 75.0)


@dataclass
class Blob:
    """One connected region of foreground: its pixels as a mask over ``box`` (x0, y0, x1, y1)."""

    box: tuple[int, int, int, int]
    mask: np.ndarray  # uint8 0/1 over the box

    @cached_property
    def area(self) -> int:
        return int(self.mask.sum())

    @cached_property  # a blob is fitted a dozen times: its centroid once
    def centroid(self) -> np.ndarray:
        m = cv2.moments(self.mask, binaryImage=True)
        return np.array([m["m10"] / max(m["m00"], 1), m["m01"] / max(m["m00"], 1)]) + self.box[:2]


@dataclass
class Fit:
    x: float
    y: float
    angle: float
    iou: float
    outline_px: np.ndarray  # the fitted outline's corners in the picture


def fit_outline(blob: Blob, camera: TableCamera, points: Points, turns=TURNS, steps: int = 4) -> Fit:
    """The pose whose projected outline best covers ``blob``."""
    (x, y), to_table = _start(blob, camera)
    angle = 0.0
    for step in range(steps):
        middle = _hull_centroid(camera.project(points(x, y, angle)))
        if middle is None:
            break
        x, y = np.array([x, y]) + to_table @ (blob.centroid - middle)
        if step == 1:  # once near, pick the turn that fits best
            angle = max(turns, key=lambda a: _iou(blob, camera.project(points(x, y, a))))
    pixels = camera.project(points(x, y, angle))
    return Fit(float(x), float(y), angle, _iou(blob, pixels), pixels)


def fit_turning(blob: Blob, camera: TableCamera, points: Points, turns, fine_deg: float = 15.0) -> Fit:
    """As :func:`fit_outline`, for a solid whose outline's middle moves with its turn (a pyramid lying on
    its side, its tip one way): each turn is placed on the blob's centroid on its own, then the best turn
    is searched again in steps of a sixth of ``fine_deg`` round it."""
    start, to_table = _start(blob, camera)

    def placed(angle: float) -> Fit:
        x, y = start
        for _ in range(2):
            middle = _hull_centroid(camera.project(points(x, y, angle)))
            if middle is None:
                break
            x, y = np.array([x, y]) + to_table @ (blob.centroid - middle)
        pixels = camera.project(points(x, y, angle))
        return Fit(float(x), float(y), angle % 360, _iou(blob, pixels), pixels)

    best = max((placed(a) for a in turns), key=lambda f: f.iou)
    fine = [best.angle + d for d in np.linspace(-fine_deg / 2, fine_deg / 2, 7) if d]
    return max([best, *(placed(a) for a in fine)], key=lambda f: f.iou)


def _start(blob: Blob, camera: TableCamera) -> tuple[np.ndarray, np.ndarray]:
    """Where on the table the blob's centroid is seen, and the matrix that turns a small shift in pixels there
    into millimetres on the table (the inverse of the view's local Jacobian): the same for every solid fitted
    to the blob, so it is worked out once per blob and camera."""
    cache = blob.__dict__.setdefault("_starts", {})
    if id(camera) not in cache:
        x, y = camera.to_table(blob.centroid.reshape(1, 2))[0]
        p = camera.image_points(np.array([[x, y], [x + 1, y], [x, y + 1]]))
        cache[id(camera)] = (np.array([x, y]), np.linalg.inv(np.column_stack([p[1] - p[0], p[2] - p[0]])))
    return cache[id(camera)]


def _hull_centroid(pixels: np.ndarray) -> np.ndarray | None:
    """The centroid of the area inside the convex hull of ``pixels``; None when it has no area."""
    m = cv2.moments(cv2.convexHull(pixels.astype(np.float32)))
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]]) if m["m00"] > 0 else None


def _iou(blob: Blob, pixels: np.ndarray) -> float:
    x0, y0, x1, y1 = blob.box
    px0, py0 = np.floor(pixels.min(axis=0)).astype(int)
    px1, py1 = np.ceil(pixels.max(axis=0)).astype(int) + 1
    if px1 - px0 > 4000 or py1 - py0 > 4000:
        return 0.0
    outline = outline_mask(pixels, (int(px0), int(py0), int(px1), int(py1)))  # over its own box
    # the two boxes' overlap, where the outline and the blob can meet
    ox0, oy0, ox1, oy1 = max(x0, px0), max(y0, py0), min(x1, px1), min(y1, py1)
    inter = 0
    if ox1 > ox0 and oy1 > oy0:
        inter = np.count_nonzero(outline[oy0 - py0:oy1 - py0, ox0 - px0:ox1 - px0]
                                 & blob.mask[oy0 - y0:oy1 - y0, ox0 - x0:ox1 - x0])
    union = np.count_nonzero(outline) + blob.area - inter
    return inter / union if union else 0.0
