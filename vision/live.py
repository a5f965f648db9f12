"""The live pipeline: frames in; snapshots of a settled table out to the referee.

``LivePipeline.step(frame, t)`` reads the frame (:class:`~vision.table_reader.TableReader`:
only the mat's markers when the picture is moving, since the stabiliser would throw away what
recognition read on it; and on a table still for ``quiet_s`` whose reading was given and still
holds, only every ``recheck_s``: most of a game is a still table the referee has already judged,
and a frame of it recognised again tells nothing new; read now and then, a face only then read
right still corrects the settled reading), feeds the stabiliser, and when the table has settled hands the smoothed snapshot and the frame
(as JPEG, to keep beside the log) to ``observe`` (a :class:`referee.session.Session`'s
``observe``, or the dashboard's live game). Each settled reading is handed over twice: first as a
*glance* (``snapshot.glance``: a legal move is played from it, a violation is not flagged on it), then,
when ``settle_s`` more of still frames agree, as a second look (:meth:`Stabiliser.look_again`), on
which a violation is flagged: one look can miss a piece just put down or read a card into a court
card's pip, and the next rarely does it again. :meth:`run` drives it from a capture source, reading
only the newest frame so a slow machine drops frames instead of queueing them.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.snapshot import TableSnapshot
from vision.capture.sources import BadFrame, EndOfStream
from vision.stabilise import Stabiliser
from vision.table_reader import FrameReading, TableReader

Observe = Callable[[TableSnapshot, bytes], list]


@dataclass
class PipelineStats:
    frames: int = 0
    moving: int = 0  # frames not recognised because the picture moved (their reading would be thrown away)
    settled_skips: int = 0  # frames not recognised because the table had settled and was read just before
    read_s: float = 0.0  # total time spent reading frames
    settled: int = 0  # stable moments handed to the referee
    last: FrameReading | None = None


@dataclass
class LivePipeline:
    reader: TableReader
    observe: Observe
    stabiliser: Stabiliser = field(default_factory=Stabiliser)
    stats: PipelineStats = field(default_factory=PipelineStats)
    quiet_s: float = 2.0  # a table still this long, its reading given and holding, is only rechecked ...
    recheck_s: float = 0.5  # ... this often (a short hold between moves is read on every frame)
    _recognised_t: float | None = field(default=None, init=False, repr=False)  # when a frame was last recognised

    def step(self, frame: np.ndarray, t: float) -> list:
        """One frame at time ``t`` (seconds): the referee's events, when the table just settled."""
        started = time.perf_counter()
        moving = self.stabiliser.moving(frame)
        judged = not moving and self._judged_lately(t)
        recognise = not moving and not judged
        reading = self.reader.read(frame, t, recognise=recognise)
        if recognise:
            self._recognised_t = t
        self.stats.read_s += time.perf_counter() - started
        self.stats.frames += 1
        self.stats.moving += moving
        self.stats.settled_skips += judged
        if not recognise and self.stats.last is not None:  # the overlay keeps the cards last recognised
            reading = dataclasses.replace(reading, cards_px=self.stats.last.cards_px)
        self.stats.last = reading
        calibration = reading.track.calibration if reading.track else None  # a truth reader has no track
        moment = self.stabiliser.push(t, frame, reading.snapshot, calibration.to_image if calibration else None)
        if moment is None or moment.snapshot is None:
            return []
        self.stats.settled += 1
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
        snapshot = moment.snapshot if moment.again else dataclasses.replace(moment.snapshot, glance=True)
        events = list(self.observe(snapshot, jpeg.tobytes() if ok else b""))
        if not moment.again:
            self.stabiliser.look_again()
        return events

    def _judged_lately(self, t: float) -> bool:
        """Whether the table at ``t`` has been still for :attr:`quiet_s`, its reading given and holding
        (:attr:`Stabiliser.settled`), and was recognised less than :attr:`recheck_s` ago."""
        return (self.stabiliser.settled and t - self.stabiliser.status.since >= self.quiet_s
                and self._recognised_t is not None and 0 <= t - self._recognised_t < self.recheck_s)

    def run(self, source, until: Callable[[], bool] = lambda: False, clock=time.monotonic) -> None:
        """Read ``source`` until it ends or ``until()`` says stop. A recorded source
        (``frame_interval`` set) is timed by its own frame count, a live one by the clock."""
        n = 0
        while not until():
            try:
                frame = source.read()
            except EndOfStream:
                return
            except BadFrame:  # one undecodable picture: skip it, as a camera glitch
                n += 1
                continue
            t = n * source.frame_interval if source.frame_interval else clock()
            n += 1
            self.step(frame, t)
