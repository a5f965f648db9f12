"""A capture thread: reads a source without pause, keeps only the newest frame, survives losing it.

The pipeline is slower than the camera some of the time (a busy CPU, a recognition pass). Queuing
frames would make the referee fall further and further behind the table, so the thread keeps one
slot: each new frame replaces the last, and a frame nobody took is counted as dropped. A consumer
asks for :meth:`CaptureThread.next_frame` newer than the one it has and gets the newest there is.

A camera that fails (unplugged, Wi-Fi gone, a phone app closed) puts the thread in ``retrying``:
it calls the source's ``reopen()`` after a delay that doubles each time up to a cap
(:class:`Backoff`), reports each attempt with its reason, and goes back to ``running`` with the
first good frame. Nothing the source does escapes the thread: an exception is a reason to retry.
Frames that are not images (None, an empty array, a strange shape or a sudden new size) are
rejected with a reason and counted; a run of them is treated as a lost source.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.capture.sources import BadFrame, EndOfStream, FrameSource, SourceLost

STARTING, RUNNING, RETRYING, STOPPED = "starting", "running", "retrying", "stopped"


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # uint8 HxWx3 BGR, read-only: it is shared between consumers
    t: float  # time.monotonic() when the frame was read
    number: int  # 1, 2, 3 ... in the order read; a gap between two a consumer got is frames it missed


@dataclass(frozen=True)
class Backoff:
    """Seconds to wait before retry ``attempt`` (1, 2, ...): ``first_s`` doubling (``factor``) up to ``max_s``."""

    first_s: float = 0.5
    factor: float = 2.0
    max_s: float = 10.0

    def __post_init__(self) -> None:
        if not (self.first_s > 0 and self.factor >= 1 and self.max_s >= self.first_s):
            raise ValueError(f"a backoff needs first_s > 0, factor >= 1 and max_s >= first_s, got {self}")

    def delay(self, attempt: int) -> float:
        return min(self.max_s, self.first_s * self.factor ** (max(1, attempt) - 1))


@dataclass(frozen=True)
class CaptureState:
    status: str  # starting | running | retrying | stopped
    source: str  # the source's description
    reason: str = ""  # why retrying or stopped; a note while running (say, a new frame size)
    since: float = 0.0  # time.monotonic() when this status began
    attempt: int = 0  # while retrying: the attempt under way (1, 2, ...)
    retry_in_s: float | None = None  # while retrying: the wait before this attempt
    frames_read: int = 0
    frames_dropped: int = 0  # replaced by a newer frame before any consumer took them
    frames_rejected: int = 0  # not images, or the wrong size
    last_rejected: str = ""  # why the last rejected frame was rejected


class CaptureThread:
    """Reads ``source`` on a daemon thread; ``with CaptureThread(src) as capture: capture.next_frame(...)``.

    ``on_change`` (optional) is called on the capture thread with each new :class:`CaptureState`
    whose status or reason changed; it must be quick, and what it raises is ignored.
    ``lost_after`` rejected frames in a row count as a lost source; ``resize_after`` frames in a
    row of one new size are accepted as the camera's new resolution.
    """

    def __init__(self, source: FrameSource, backoff: Backoff = Backoff(), *, lost_after: int = 30,
                 resize_after: int = 30, on_change: Callable[[CaptureState], None] | None = None,
                 history: int = 100) -> None:
        self.source, self.backoff = source, backoff
        self.lost_after, self.resize_after, self.on_change = lost_after, resize_after, on_change
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._state = CaptureState(STARTING, source.description, since=time.monotonic())
        self._history: deque[CaptureState] = deque([self._state], maxlen=history)
        self._slot: Frame | None = None
        self._slot_taken = True
        self._size: tuple[int, int] | None = None  # (width, height) of the stream
        self._odd_size: tuple[tuple[int, int], int] | None = None  # a new size and how many frames in a row had it
        self._rejected_in_row = 0
        self._thread = threading.Thread(target=self._run, name=f"capture {source.description}", daemon=True)

    # -- the consumer's side --

    def start(self) -> CaptureThread:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading and close the source; waits up to ``timeout`` s for a blocked read to return."""
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def __enter__(self) -> CaptureThread:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def state(self) -> CaptureState:
        return self._state

    def history(self) -> list[CaptureState]:
        """The recent changes of status or reason, oldest first (for the dashboard, and for tests)."""
        with self._lock:
            return list(self._history)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def latest(self) -> Frame | None:
        """The newest frame, without waiting (None before the first)."""
        with self._lock:
            self._slot_taken = True
            return self._slot

    def next_frame(self, after: int = 0, timeout: float | None = None) -> Frame | None:
        """The newest frame numbered above ``after``, waiting up to ``timeout`` s for one (None: none came,
        or the thread stopped)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._slot is None or self._slot.number <= after:
                if self._state.status == STOPPED:
                    return None
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._lock.wait(remaining)
            self._slot_taken = True
            return self._slot

    # -- the capture thread --

    def _run(self) -> None:
        try:
            self._read_until_stopped()
        except BaseException as exc:  # noqa: BLE001 - the last guard: report, never a traceback on stderr
            self._set(STOPPED, f"capture failed unexpectedly: {type(exc).__name__}: {exc}")
        finally:
            try:
                self.source.close()
            except Exception:  # noqa: BLE001 - closing a broken device may fail too; nothing to do about it
                pass
            if self._state.status != STOPPED:
                self._set(STOPPED, "stopped")

    def _read_until_stopped(self) -> None:
        attempt, due = 0, None
        while not self._stop.is_set():
            try:
                image = self.source.read()
            except EndOfStream as exc:
                self._set(STOPPED, str(exc))
                return
            except BadFrame as exc:
                lost = self._reject(str(exc))
                if not lost:
                    continue
                reason = f"{self.source.description}: {self.lost_after} unreadable frames in a row ({exc})"
            except Exception as exc:  # noqa: BLE001 - whatever the device does, it is a lost source
                reason = str(exc) if isinstance(exc, SourceLost) else \
                    f"{self.source.description} failed: {type(exc).__name__}: {exc}"
            else:
                t = time.monotonic()
                frame, problem = self._normalise(image)
                if frame is not None:
                    attempt = 0
                    self._publish(frame, t)
                    due = self._pace(due, t)
                    continue
                if not self._reject(problem):
                    continue
                reason = f"{self.source.description}: {self.lost_after} bad frames in a row ({problem})"
            attempt = self._recover(reason, attempt)
            due = None

    def _recover(self, reason: str, attempt: int) -> int:
        """Wait and reopen until the source opens again or we are stopped; returns the attempts made so far."""
        self._rejected_in_row = 0
        while not self._stop.is_set():
            attempt += 1
            delay = self.backoff.delay(attempt)
            self._set(RETRYING, reason, attempt=attempt, retry_in_s=delay)
            if self._stop.wait(delay):
                return attempt
            try:
                self.source.reopen()
                return attempt  # back to reading; status is running again with the first good frame
            except Exception as exc:  # noqa: BLE001
                reason = str(exc) if isinstance(exc, SourceLost) else \
                    f"{self.source.description} could not reopen: {type(exc).__name__}: {exc}"
        return attempt

    def _pace(self, due: float | None, t: float) -> float | None:
        """Recorded sources play at their own rate: wait until the next frame is due."""
        interval = self.source.frame_interval
        if interval is None:
            return None
        due = t + interval if due is None or t - due > interval else due + interval  # late: do not rush to catch up
        self._stop.wait(max(0.0, due - time.monotonic()))
        return due

    def _publish(self, image: np.ndarray, t: float) -> None:
        with self._lock:
            dropped = 0 if self._slot_taken else 1
            number = self._state.frames_read + 1
            self._slot, self._slot_taken = Frame(image, t, number), False
            self._rejected_in_row = 0
            state = replace(self._state, frames_read=number, frames_dropped=self._state.frames_dropped + dropped)
            if state.status != RUNNING:
                state = replace(state, status=RUNNING, reason="", since=t, attempt=0, retry_in_s=None)
            self._commit(state)
            self._lock.notify_all()

    def _reject(self, problem: str) -> bool:
        """Count a rejected frame; True when so many came in a row that the source counts as lost."""
        self._rejected_in_row += 1
        with self._lock:
            self._commit(replace(self._state, frames_rejected=self._state.frames_rejected + 1, last_rejected=problem))
        return self._rejected_in_row >= self.lost_after

    def _normalise(self, image: object) -> tuple[np.ndarray | None, str]:
        """The frame as read-only uint8 BGR, or None and why it is not one."""
        if image is None:
            return None, "the source gave no image (None)"
        if not isinstance(image, np.ndarray):
            return None, f"the source gave a {type(image).__name__}, not an image"
        if image.size == 0:
            return None, f"the source gave an empty image (shape {image.shape})"
        if image.dtype != np.uint8:
            return None, f"the source gave {image.dtype} pixels; frames are 8-bit"
        if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.ndim == 3 and image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        elif not (image.ndim == 3 and image.shape[2] == 3):
            return None, f"the source gave an array of shape {image.shape}, not an image"
        size = (image.shape[1], image.shape[0])
        if self._size is None:
            self._size = size
        elif size != self._size:
            count = self._odd_size[1] + 1 if self._odd_size and self._odd_size[0] == size else 1
            self._odd_size = (size, count)
            if count < self.resize_after:
                return None, f"a {size[0]}x{size[1]} frame in a {self._size[0]}x{self._size[1]} stream"
            self._note(f"the frame size changed from {self._size[0]}x{self._size[1]} to {size[0]}x{size[1]}")
            self._size = size
        self._odd_size = None
        frozen = image.view()  # consumers share the frame: a read-only view, without freezing the source's buffer
        frozen.setflags(write=False)
        return frozen, ""

    # -- state --

    def _set(self, status: str, reason: str, **fields) -> None:
        with self._lock:
            self._commit(replace(self._state, status=status, reason=reason, since=time.monotonic(),
                                 attempt=fields.get("attempt", 0), retry_in_s=fields.get("retry_in_s")))
            self._lock.notify_all()

    def _note(self, reason: str) -> None:
        with self._lock:
            self._commit(replace(self._state, reason=reason))

    def _commit(self, state: CaptureState) -> None:
        """Make ``state`` current; record it and tell ``on_change`` when its status or reason changed.
        Called with the lock held."""
        previous, self._state = self._state, state
        if (state.status, state.reason, state.attempt) != (previous.status, previous.reason, previous.attempt):
            self._history.append(state)
            if self.on_change is not None:
                try:
                    self.on_change(state)
                except Exception:  # noqa: BLE001 - a listener's bug must not stop the camera
                    pass
