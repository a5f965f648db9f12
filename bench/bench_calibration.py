"""Calibration figures: the per-frame cost of finding the mat and fitting the table homography."""

from __future__ import annotations

import time

import cv2
import numpy as np

from bench import benchmark, percentiles
from calibration.markers import detect_markers
from calibration.mats import mat_layout
from calibration.tracker import MatTracker
from vision.synth.camera import PinholeCamera, render_plane


def _frames(count: int = 8) -> tuple[object, list[np.ndarray]]:
    layout = mat_layout("pungo", "A3")
    texture = layout.drawing().raster(6)
    ox, oy = layout.origin_on_paper
    centre = (layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy)
    rng = np.random.default_rng(0)
    frames = []
    for i in range(count):
        camera = PinholeCamera.looking_at(centre, 1000, 30, yaw_deg=-30 + 60 * i / count, size=(1280, 720), hfov_deg=60)
        grey = render_plane(texture, 6, (-ox, -oy), camera, supersample=2).astype(np.float32)
        grey += rng.normal(0, 2.0, grey.shape)
        frames.append(cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR))
    return layout, frames


@benchmark("calibration_frame_1280x720", "ms",
           "detect the mat's markers (edge-refined corners) and update the tracked homography, one 1280x720 frame")
def frame_cost() -> dict[str, float]:
    layout, frames = _frames()
    tracker = MatTracker(layout, (1280, 720))
    samples = []
    for _ in range(10):
        for frame in frames:
            started = time.perf_counter()
            tracker.update(detect_markers(frame))
            samples.append(1000 * (time.perf_counter() - started))
    return percentiles(samples)
