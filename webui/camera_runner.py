"""Refereeing a dashboard game from its camera: one runner thread per game that has one.

A game started with a camera (``POST /api/games`` with ``"camera": "0"``, a video file, a folder
of images, an ``rtsp://`` URL...) gets a :class:`CameraRunner`. It reads the camera through a
:class:`~vision.capture.CaptureThread` (newest frame only; a lost camera is retried with backoff),
puts each frame it takes through a :class:`~vision.live.LivePipeline` built for the game (the
game's mat, its deck, its pieces) into the game's :class:`~webui.live_games.LiveGame`, and shows
the frame on the dashboard. A slow machine drops frames instead of queueing them: the runner takes
the newest frame there is whenever it has finished the last. The players' tokens and pyramid
colours are read as they were shown to the camera (:mod:`webui.registered_pieces`); a piece shown
while the runner runs is read from the next frame on (:meth:`CameraRunner.pieces_changed`).

Where the table is (the calibration) comes from the game's printed mat when its markers are in
view, on whichever paper it was printed (the markers name the paper); until they have been seen,
from the instance's saved calibration (``calibration.json``: four corners clicked on the
calibration page, or ``tableside calibrate table``), and with the lens model ``camera.json`` when
there is one.

The runner stops when the game is over, when asked (``POST /api/games/<id>/camera/stop``), when a
recorded source (a file, a folder) ends, and when the server closes. A camera lost mid-game never
ends the game: the runner reports it and the capture thread keeps trying. What it is doing is
:meth:`CameraRunner.status` (``"camera"`` in ``GET /api/games/<id>``), and each change that
matters to the players (lost, back, calibrated, stopped) is announced as an event of kind
``camera`` on ``/events``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, deque
from pathlib import Path

import cv2
import numpy as np

from calibration import store
from calibration.homography import CalibrationError, TableCalibration, from_corners
from calibration.markers import detect_markers
from calibration.mats import identify, mat_of, zones_of
from calibration.tracker import KEPT, LOCKED, MOVING, RELOCKED
from referee import layouts
from vision.capture import RETRYING, RUNNING, STARTING, STOPPED, Backoff, CaptureError, CaptureThread, open_source
from vision.live import LivePipeline
from vision.table_reader import SAVED, GamePieces, TableReader, for_game
from webui.table_calibration import AREA_FILENAME


DEFAULT_PAPER = "A3"  # the mat assumed until markers show which paper it was printed on
FPS_WINDOW_S = 3.0  # the frame rate shown is over this many recent seconds
JPEG_QUALITY = 80
WAIT_S = 0.5  # how long the runner waits for a frame before it looks again at whether to stop

# The runner's own states, beside the capture thread's starting / running / retrying / stopped.
OPENING, ENDED = "opening", "ended"


class CameraRunner(threading.Thread):
    """Referees ``live`` (a :class:`~webui.live_games.LiveGame`) from ``camera``.

    ``source``: the camera already opened (``POST /api/games`` opens it to check it); None opens
    ``camera`` here, retrying with ``backoff`` while it cannot be opened (a game resumed after a
    restart whose webcam is not plugged in yet). ``instance``: the folder holding the saved
    calibration and lens model."""

    def __init__(self, live, camera: str, instance: Path, source=None, backoff: Backoff = Backoff()) -> None:
        super().__init__(name=f"camera {live.id}", daemon=True)
        self.live, self.camera, self.instance, self.backoff = live, camera, Path(instance), backoff
        self._source = source
        self._stop_asked = threading.Event()
        self._pieces_shown = threading.Event()  # a token or colour was shown: the pieces step is built again
        self._stop_reason = "stopped"
        self._lock = threading.Lock()
        self._state = {"status": OPENING, "message": f"opening {camera}", "calibrated": False,
                       "calibration": None, "calibration_message": "", "frames_read": 0, "frames_captured": 0,
                       "frames_dropped": 0, "snapshots": 0, "fps": 0.0, "error": None}
        self._announced: tuple | None = None
        self._times: deque[float] = deque()
        game = live.game
        self.mat_game = game.type.name
        self.pieces_game = game.type.name
        self.intrinsics, self.saved, self.saved_problem = None, None, None
        self._saved_stamp: tuple | None = None  # when the calibration files last changed, as loaded
        self.pipeline: LivePipeline | None = None
        self._paper: str | None = None
        # a recorded camera (a video file, a folder) goes on after the last frame the game's log was
        # read from: a resumed or restarted game must not be shown its table's past again
        self._resume_t = max((e.snapshot_t for e in live.session.log.events() if e.snapshot_t is not None),
                             default=None)
        self._first = 0  # the source's number of the first frame read

    # -- asked from outside --
    def stop(self, reason: str = "stopped", wait_s: float = 5.0) -> None:
        """Stop reading (the camera is closed); waits up to ``wait_s`` for the thread to finish."""
        self._stop_reason = reason
        self._stop_asked.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(wait_s)

    def pieces_changed(self) -> None:
        """A token or colour was shown to the camera: read the pieces with it from the next frame on."""
        self._pieces_shown.set()

    def pieces_problems(self) -> list[str]:
        """The shown tokens and colours the pieces reader could not register, and why."""
        pipeline = self.pipeline
        return list(getattr(pipeline.reader.pieces, "problems", [])) if pipeline is not None else []

    def status(self) -> dict:
        """What the runner is doing, for ``GET /api/games/<id>`` (documented in docs/api.md)."""
        with self._lock:
            state = dict(self._state)
        state = {"source": self.camera, "running": self.is_alive() and state["status"] not in (STOPPED, ENDED),
                 **state}
        return {**state, "text": describe(state)}

    # -- the thread --
    def run(self) -> None:
        try:
            source = self._open()
            if source is None:
                return
            self._first = self._go_on(source)
            with CaptureThread(source, self.backoff, on_change=self._capture_changed) as capture:
                self._read(capture, source.frame_interval)
        except Exception as exc:  # noqa: BLE001 - reported on the dashboard; the game itself goes on
            self._set(status=STOPPED, error=f"{type(exc).__name__}: {exc}",
                      message=f"the camera runner failed: {type(exc).__name__}: {exc}")
            raise
        finally:
            if self._status() not in (STOPPED, ENDED):
                self._set(status=STOPPED, message=self._stop_reason)

    def _open(self):
        """The source, opened here unless it was given; None when stopped before it opened."""
        attempt = 0
        while self._source is None:
            try:
                self._source = open_source(self.camera)
            except CaptureError as exc:
                attempt += 1
                delay = self.backoff.delay(attempt)
                self._set(status=RETRYING, message=f"{exc} (trying again in {delay:g} s)")
                if self._stop_asked.wait(delay):
                    return None
        return self._source

    def _go_on(self, source) -> int:
        """For a recorded source of a game already read from: seek past the frames its log was read
        from. The number of the first frame to read."""
        interval = source.frame_interval
        if self._resume_t is None or not interval or not hasattr(source, "seek"):
            return 0
        first = round(self._resume_t / interval) + 1
        source.seek(first)
        return first

    def _read(self, capture: CaptureThread, interval: float | None) -> None:
        number = 0
        while not self._stop_asked.is_set():
            frame = capture.next_frame(after=number, timeout=WAIT_S)
            if frame is None:
                if capture.state.status == STOPPED:  # a file or folder that ended, or a capture that gave up
                    self._set(status=ENDED, message=capture.state.reason or "the camera stopped")
                    return
                continue
            number = frame.number
            # a recorded source is timed by its frame count, as it was filmed; a live one by the clock
            t = (self._first + frame.number - 1) * interval if interval else frame.t
            self._step(frame.image, t)
            self._count(capture)
            if self.live.session.state.is_over():
                self._set(status=ENDED, message="the game is over")
                return

    def _step(self, image: np.ndarray, t: float) -> None:
        # a new reader (and stabiliser) for the first frame, for corners clicked or a lens model
        # saved since, and for a mat that turns out to be printed on another paper
        if self._calibration_saved() or self.pipeline is None or self._other_paper(image):
            self._pieces_shown.clear()  # before the reader is built: a piece shown meanwhile still counts
            self.pipeline = LivePipeline(self._reader(image), self.live.observe)
        elif self._pieces_shown.is_set():  # the stabiliser keeps what it saw; only the pieces step is new
            self._pieces_shown.clear()
            self.pipeline.reader.pieces = self._pieces(self.pipeline.reader.layout)
        try:
            self.pipeline.step(image, t)
            error = None
        except Exception as exc:  # noqa: BLE001 - one frame the pipeline could not read: say so, go on
            error = f"{type(exc).__name__}: {exc}"
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if ok:
            self.live.show_frame(jpeg.tobytes())
        reading = self.pipeline.stats.last
        track = reading.track if reading is not None else None
        calibrated = track is not None and track.calibration is not None
        self._set(error=error, calibrated=calibrated, calibration=_how_calibrated(track, self._paper),
                  calibration_message=self._calibration_message(track), snapshots=self.pipeline.stats.settled)

    # -- the table reader for this game and this table --
    def _reader(self, image: np.ndarray) -> TableReader:
        """A table reader for the game's mat on the paper whose markers are in view (the default
        paper when none is), falling back on the saved calibration while no marker has been seen."""
        self._paper = self._paper_in_view(image) or self._paper or DEFAULT_PAPER
        mat = mat_of(self.live.game, self._paper)
        # the referee reads the places where this mat prints them
        self.live.session.use_layout(layouts.for_game(self.live.game, zones_of(mat)))
        size = (image.shape[1], image.shape[0])
        fallback = self._fallback(size)
        return for_game(self.pieces_game, mat, pieces=self._pieces(mat), intrinsics=self.intrinsics,
                        fallback=fallback)

    def _pieces(self, mat) -> GamePieces:
        """The game's pieces step on ``mat``, knowing every token and colour shown so far, and the
        colours the game's pyramids come in (those the table shows now: a game's pieces stay on it)."""
        pieces = GamePieces(self.pieces_game, mat) if self.live.pieces is None else \
            self.live.pieces.game_pieces(self.pieces_game, mat)
        pieces.pyramid_colours = self.live.session.state.pyramid_colours() or None
        return pieces

    def _paper_in_view(self, image: np.ndarray) -> str | None:
        """The paper most of the game's mat's markers in view were printed for (None: none in view)."""
        found = filter(None, (identify(m.id) for m in detect_markers(image)))
        papers = Counter(paper for game, paper in found if game == self.mat_game)
        return papers.most_common(1)[0][0] if papers else None

    def _other_paper(self, image: np.ndarray) -> bool:
        """Whether, while the mat is not locked, markers of this game's mat on another paper show."""
        last = self.pipeline.stats.last
        if last is not None and last.track.status in (LOCKED, KEPT, RELOCKED, MOVING):
            return False
        paper = self._paper_in_view(image)
        return paper is not None and paper != self._paper

    def _calibration_saved(self) -> bool:
        """Whether the instance's calibration files changed since they were loaded (or were never
        loaded); if so they are loaded again."""
        stamp = tuple(_modified(self.instance / name) for name in (store.FILENAME, store.CAMERA_FILENAME))
        if stamp == self._saved_stamp:
            return False
        self._saved_stamp = stamp
        self._load_calibration()
        return True

    def _load_calibration(self) -> None:
        """The lens model and the saved calibration of the instance, each optional."""
        self.intrinsics, self.saved, self.saved_problem = None, None, None
        try:
            self.intrinsics = store.load_intrinsics(self.instance)
        except store.CalibrationFileError as exc:
            self.saved_problem = str(exc)
        try:
            self.saved = store.load(self.instance)
        except store.CalibrationMissing:
            pass
        except store.CalibrationFileError as exc:
            self.saved_problem = str(exc)

    def _fallback(self, size: tuple[int, int]) -> TableCalibration | None:
        """The saved calibration if it suits this camera and game, with the lens model applied to
        clicked corners that were saved without it."""
        saved = self.saved
        if saved is None:
            return None
        if tuple(saved.image_size) != size:
            self.saved_problem = (f"the saved calibration was made at {saved.image_size[0]}x{saved.image_size[1]}, "
                                  f"the camera delivers {size[0]}x{size[1]}: click the corners again")
            return None
        if saved.mat is not None and saved.mat[0] != self.mat_game:
            self.saved_problem = f"the saved calibration is of the {saved.mat[0]} mat, not the {self.mat_game} mat"
            return None
        if saved.intrinsics is None and self.intrinsics is not None and saved.mat is None:
            corners = _clicked_corners(self.instance)
            if corners is not None:
                points, (width, height) = corners
                try:
                    return from_corners(points, width, height, size, self.intrinsics)
                except CalibrationError:
                    pass  # the corners as saved still give the homography below
        return saved

    def _calibration_message(self, track) -> str:
        if track is None:
            return ""
        message = track.message
        if track.calibration is None and self.saved_problem:
            message = f"{message}; {self.saved_problem}" if message else self.saved_problem
        return message

    # -- status --
    def _capture_changed(self, state) -> None:
        """The capture thread's news: lost (retrying) and back (running); the reading loop sees a
        source that ended."""
        if state.status == RETRYING:
            self._set(status=RETRYING, message=f"{state.reason} (retry {state.attempt} in {state.retry_in_s:g} s)")
        elif state.status == RUNNING:
            self._set(status=RUNNING, message=state.reason or f"reading {state.source}")
        elif state.status == STARTING:
            self._set(status=STARTING, message=f"starting {state.source}")

    def _count(self, capture: CaptureThread) -> None:
        now = time.monotonic()
        self._times.append(now)
        while self._times and now - self._times[0] > FPS_WINDOW_S:
            self._times.popleft()
        span = self._times[-1] - self._times[0] if len(self._times) > 1 else 0.0
        state = capture.state
        with self._lock:
            self._state.update(frames_read=self._state["frames_read"] + 1, frames_captured=state.frames_read,
                               frames_dropped=state.frames_dropped,
                               fps=round((len(self._times) - 1) / span, 2) if span > 0 else 0.0)

    def _status(self) -> str:
        with self._lock:
            return self._state["status"]

    def _set(self, **fields) -> None:
        """Update the status; announce it on /events when what players care about changed."""
        with self._lock:
            self._state.update(fields)
            key = (self._state["status"], self._state["calibration"], self._state["message"])
            changed = key != self._announced
            self._announced = key
        if changed:
            self.live.hub.announce(self.live.id, camera_event(self.live.id, self.status()))


def camera_event(game_id: str, status: dict) -> dict:
    """The ``camera`` event of /events: the runner's status, and a line in words."""
    return {"game": game_id, "kind": "camera", "camera": status, "text": status["text"]}


def describe(status: dict) -> str:
    """The camera's status in one line, as the live page shows it."""
    words = {OPENING: "opening the camera", STARTING: "starting the camera", RUNNING: "camera running",
             RETRYING: "camera lost, retrying", STOPPED: "camera stopped", ENDED: "camera ended"}
    text = words.get(status["status"], status["status"])
    if status["status"] in (RUNNING, STARTING):
        text += f", {_calibration_words(status)}"
        if status["frames_read"]:
            text += f"; {status['frames_read']} frames read, {status['fps']:g} a second"
    if status.get("message") and status["status"] != RUNNING:
        text += f": {status['message']}"
    return text


def _calibration_words(status: dict) -> str:
    how = status.get("calibration")
    if how is None:
        return "searching for the mat" + (f" ({status['calibration_message']})"
                                          if status.get("calibration_message") else "")
    return f"calibrated by {how}"


def _how_calibrated(track, paper: str | None) -> str | None:
    """What the table's calibration comes from, in words (None: none yet)."""
    if track is None or track.calibration is None:
        return None
    if track.status == SAVED:
        return "the saved calibration"
    return f"the mat's markers ({paper})"


def _modified(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _clicked_corners(folder: Path) -> tuple[list, tuple[float, float]] | None:
    """The corners clicked on the calibration page and the area's size, when they were saved."""
    try:
        data = json.loads((folder / AREA_FILENAME).read_text(encoding="utf-8"))
        x, y, width, height = (float(v) for v in data["area_mm"])
        return [(float(px), float(py)) for px, py in data["corners_px"]], (width, height)
    except (OSError, ValueError, KeyError, TypeError):
        return None


class CameraRunners:
    """The app's camera runners, by game id. Thread-safe."""

    def __init__(self, instance: Path, backoff: Backoff = Backoff()) -> None:
        self.instance, self.backoff = Path(instance), backoff
        self._lock = threading.Lock()
        self._runners: dict[str, CameraRunner] = {}

    def start(self, live, source=None) -> CameraRunner:
        """Start refereeing ``live`` from its seating's camera (``source``: already opened);
        a runner already running for it is stopped first."""
        self.stop(live.id, "restarted")
        runner = CameraRunner(live, live.seating.camera, self.instance, source, self.backoff)
        with self._lock:
            self._runners[live.id] = runner
        runner.start()
        return runner

    def get(self, game_id: str) -> CameraRunner | None:
        with self._lock:
            return self._runners.get(game_id)

    def stop(self, game_id: str, reason: str = "stopped by the players") -> bool:
        """Stop the game's runner; False when none was running."""
        runner = self.get(game_id)
        if runner is None or not runner.is_alive():
            return False
        runner.stop(reason)
        return True

    def status(self, live) -> dict | None:
        """``"camera"`` of ``GET /api/games/<id>``: the status of the game's runner, running or
        not; None when no runner has read its camera since the server started (no camera, a camera
        only recorded, one the players stopped before a restart, the demo table's own player)."""
        runner = self.get(live.id)
        return None if runner is None else runner.status()

    def close(self) -> None:
        with self._lock:
            runners = list(self._runners.values())
        for runner in runners:
            runner.stop("the server is closing")
