"""Keeping the table homography locked while people play.

Hands cover markers, cameras get knocked. :class:`MatTracker` remembers where each marker was last
seen and fits the homography to every remembered marker whose position the visible ones confirm,
so covering markers costs no accuracy. When the visible markers all sit somewhere else for
``relock_frames`` frames in a row, the camera was bumped: the memory is dropped and the homography
re-locks on what is visible now. Markers of another mat never change the calibration; they are
reported by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.homography import TableCalibration, fit_points
from calibration.intrinsics import CameraIntrinsics
from calibration.markers import DetectedMarker
from calibration.mats import MatLayout, identify

LOCKED, KEPT, RELOCKED, SEARCHING, MOVING = "locked", "kept", "relocked", "searching", "moving"


@dataclass(frozen=True)
class TrackResult:
    status: str  # locked | kept (last good kept) | relocked (after a bump) | moving | searching
    calibration: TableCalibration | None
    markers_seen: tuple[int, ...]
    message: str = ""


@dataclass
class MatTracker:
    layout: MatLayout
    image_size: tuple[int, int]
    intrinsics: CameraIntrinsics | None = None
    moved_px: float = 2.0  # a marker further than this from where it was has moved
    relock_frames: int = 2  # frames in a row of moved markers that mean the camera moved
    calibration: TableCalibration | None = None
    _seen: dict[int, np.ndarray] = field(default_factory=dict)  # marker id -> last corners (px)
    _moved_streak: int = 0

    def update(self, detections: list[DetectedMarker]) -> TrackResult:
        ours = {m.id: m.corners_px for m in detections if any(p.id == m.id for p in self.layout.markers)}
        strangers = sorted({identify(m.id) for m in detections if m.id not in ours} - {None})
        note = ""
        if strangers:
            names = ", ".join(f"the {g} mat ({p})" for g, p in strangers)
            note = f"markers of {names} are in view, but this game uses the {self.layout.title}"
        if not ours:
            self._moved_streak = 0
            if self.calibration is None:
                message = note or f"no marker of the {self.layout.title} is visible: show the mat to the camera"
                return TrackResult(SEARCHING, None, (), message)
            return TrackResult(KEPT, self.calibration, (), note or "markers covered: keeping the last calibration")

        moved = [i for i, c in ours.items() if i in self._seen and _shift(c, self._seen[i]) > self.moved_px]
        still = [i for i in ours if i in self._seen and i not in moved]
        if moved and not still:
            self._moved_streak += 1
            if self._moved_streak < self.relock_frames:
                return TrackResult(MOVING, self.calibration, tuple(sorted(ours)),
                                   note or "the markers moved: waiting to see whether the camera moved")
            self._seen = dict(ours)  # the camera moved: forget the old view
            self._moved_streak = 0
            self.calibration = self._fit()
            return TrackResult(RELOCKED, self.calibration, tuple(sorted(ours)), note or "camera moved: re-locked")
        self._moved_streak = 0
        for i in moved:  # a minority that jumped (a hand's shadow, a misread): ignore them this frame
            ours.pop(i)
        self._seen.update(ours)
        self.calibration = self._fit()
        return TrackResult(LOCKED, self.calibration, tuple(sorted(ours)), note)

    def _fit(self) -> TableCalibration:
        ids = sorted(self._seen)
        table = np.concatenate([self.layout.marker(i).corners_mm() for i in ids])
        image = np.concatenate([self._seen[i] for i in ids])
        return fit_points(table, image, self.image_size, self.intrinsics, (self.layout.game, self.layout.paper))


def _shift(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.linalg.norm(a - b, axis=1)))
