"""One picture from a camera, on request, without ever hanging the server.

The calibration page asks for the camera's current picture several times in a row (the status,
the marker view, the rectified table). :class:`CameraStills` opens the source
(:func:`vision.capture.open_source`: a webcam number, a video file, a folder, a camera URL,
``demo:<game>``), reads one frame and closes it again, in a worker thread: a request waits at most
``timeout_s`` and then gets a :class:`CameraUnavailable` (the worker still closes the camera when
the device finally answers). A picture stays fresh for ``fresh_s`` seconds, so the requests of one
page share one grab, and a camera is never opened twice at once.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from vision.capture import BadFrame, CaptureError, EndOfStream, SourceLost, open_source

MAX_REMEMBERED = 8  # cameras whose last picture is kept; older ones are forgotten


class CameraUnavailable(Exception):
    """The camera cannot give a picture now. ``status``: 400 for a source that cannot be opened as
    given, 503 when it opened but gave no picture (in time)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Still:
    camera: str
    frame: np.ndarray  # BGR
    taken: float  # time.monotonic() when read


class _Grab(threading.Thread):
    """Open, read one frame, close: in its own thread, so the caller can stop waiting."""

    def __init__(self, camera: str):
        super().__init__(name=f"still {camera[:40]}", daemon=True)
        self.camera = camera
        self.done = threading.Event()
        self.still: Still | None = None
        self.error: CameraUnavailable | None = None

    def run(self) -> None:
        try:
            source = open_source(self.camera)
        except CaptureError as exc:
            self.error = CameraUnavailable(400, f"camera {self.camera!r} cannot be opened: {exc}")
            self.done.set()
            return
        try:
            frame = source.read()
            self.still = Still(self.camera, np.ascontiguousarray(frame), time.monotonic())
        except EndOfStream:
            self.error = CameraUnavailable(503, f"{source.description} has no picture to show (it is empty)")
        except (SourceLost, BadFrame) as exc:
            self.error = CameraUnavailable(503, f"{source.description} gave no picture: {exc}")
        except Exception as exc:  # a driver's own failure: say it, do not take the server down
            self.error = CameraUnavailable(503, f"{source.description} failed: {type(exc).__name__}: {exc}")
        finally:
            source.close()  # released whether or not anyone still waits
            self.done.set()


class CameraStills:
    """The app's cameras, one fresh picture each. Thread-safe."""

    def __init__(self, timeout_s: float = 10.0, fresh_s: float = 3.0):
        self.timeout_s, self.fresh_s = timeout_s, fresh_s
        self._lock = threading.Lock()
        self._grabs: dict[str, _Grab] = {}

    def still(self, camera: str, fresh: bool = False) -> Still:
        """The camera's picture, at most ``fresh_s`` old (``fresh``: a new one unless one is being taken)."""
        with self._lock:
            grab = self._grabs.get(camera)
            if grab is None or (grab.done.is_set() and (fresh or self._stale(grab))):
                grab = self._grabs[camera] = _Grab(camera)
                grab.start()
                self._forget_old()
        if not grab.done.wait(self.timeout_s):
            raise CameraUnavailable(503, f"camera {camera!r} gave no picture within {self.timeout_s:g} s: is it "
                                         "connected, and not used by another program?")
        if grab.error is not None:
            raise grab.error
        return grab.still

    def _stale(self, grab: _Grab) -> bool:
        return grab.error is not None or time.monotonic() - grab.still.taken > self.fresh_s

    def _forget_old(self) -> None:
        finished = [c for c, g in self._grabs.items() if g.done.is_set()]
        for camera in finished[:max(0, len(self._grabs) - MAX_REMEMBERED)]:
            del self._grabs[camera]
