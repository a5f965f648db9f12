"""Capture and stabilisation figures: what the stabiliser costs per 1280x720 frame, and what the capture
thread adds between a camera's read and the pipeline."""

from __future__ import annotations

import time

import cv2
import numpy as np

from bench import benchmark, per_call, percentiles
from referee.snapshot import CardSighting, TableSnapshot
from vision.capture import CaptureThread
from vision.stabilise import Stabiliser

SIZE = (1280, 720)
FPS = 30


def _frames(count: int = 8) -> list[np.ndarray]:
    """A drawn table with 30 cards; each frame has its own sensor noise (the stabiliser's usual input)."""
    base = np.full((SIZE[1], SIZE[0], 3), (40, 110, 50), np.uint8)
    for i in range(30):
        x, y = 80 + (i % 10) * 115, 120 + (i // 10) * 200
        cv2.rectangle(base, (x, y), (x + 70, y + 100), (235, 235, 235), -1)
    rng = np.random.default_rng(0)
    return [np.clip(base + rng.normal(0, 2.5, base.shape), 0, 255).astype(np.uint8) for _ in range(count)]


def _snapshot(t: float, rng: np.random.Generator) -> TableSnapshot:
    cards = []
    for i in range(30):
        x, y = 60 + (i % 10) * 65 + rng.uniform(-1, 1), 60 + (i // 10) * 100 + rng.uniform(-1, 1)
        corners = ((x - 31.5, y - 44), (x + 31.5, y - 44), (x + 31.5, y + 44), (x - 31.5, y + 44))
        cards.append(CardSighting("QH", True, (x, y), corners, 0.0, 0.9))
    return TableSnapshot(t, tuple(cards))


def _push_times(with_snapshots: bool) -> list[float]:
    frames, rng = _frames(), np.random.default_rng(1)
    stabiliser, samples = Stabiliser(), []
    for i in range(240):  # 8 s at 30 fps: settling, then stable (voting every frame)
        snapshot = _snapshot(i / FPS, rng) if with_snapshots else None
        started = time.perf_counter()
        stabiliser.push(i / FPS, frames[i % len(frames)], snapshot)
        samples.append(1000 * (time.perf_counter() - started))
    return samples


@benchmark("stabiliser_frame_1280x720", "ms", "Stabiliser.push on one 1280x720 frame, pixels only (motion measure)")
def stabiliser_frame() -> dict[str, float]:
    return percentiles(_push_times(False))


@benchmark("stabiliser_frame_30_cards", "ms",
           "Stabiliser.push on one 1280x720 frame with a 30-card snapshot (motion + identity voting over 0.4 s)")
def stabiliser_frame_with_cards() -> dict[str, float]:
    return percentiles(_push_times(True))


class _MemoryCamera:
    """A live source that hands out prebuilt 1280x720 frames, optionally at a camera's pace."""

    description = "memory camera"
    frame_interval = None

    def __init__(self, period_s: float = 0.0) -> None:
        self.frames, self.period_s = _frames(4), period_s
        self.n = 0

    def read(self) -> np.ndarray:
        if self.period_s:
            time.sleep(self.period_s)
        self.n += 1
        return self.frames[self.n % 4]

    def reopen(self) -> None:
        pass

    def close(self) -> None:
        pass


@benchmark("capture_thread_per_frame", "us",
           "capture thread cost per 1280x720 frame read (checks, hand-off, bookkeeping) with a free-running source")
def capture_thread_per_frame() -> float:
    camera = _MemoryCamera()
    source_cost = per_call(camera.read, min_seconds=0.2)
    with CaptureThread(camera) as capture:
        time.sleep(0.2)  # warm up
        first = capture.state.frames_read
        started = time.perf_counter()
        time.sleep(1.0)
        count = capture.state.frames_read - first
        elapsed = time.perf_counter() - started
    return 1e6 * (elapsed / count - source_cost)


@benchmark("capture_handoff_latency", "us",
           "time from a frame's read to a waiting consumer holding it, camera at 30 fps (p50/p95)")
def capture_handoff_latency() -> dict[str, float]:
    samples: list[float] = []
    with CaptureThread(_MemoryCamera(1 / FPS)) as capture:
        frame = None
        while len(samples) < 90:
            frame = capture.next_frame(after=frame.number if frame else 0, timeout=1)
            samples.append(1e6 * (time.monotonic() - frame.t))
    return percentiles(samples)
