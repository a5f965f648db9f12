"""Where frames come from: a webcam, a video file, a folder of images, a network camera, the demo.

:func:`open_source` turns what a user types (``"0"``, ``"game.mp4"``, ``"shots/"``,
``"rtsp://phone.local:8554/live"``, ``"demo:pungo"``) into a :class:`FrameSource`, or raises a
:class:`CaptureError` that says exactly what is wrong with it. A source is a plain, synchronous
thing: ``read()`` returns the next BGR frame; the :class:`~vision.capture.thread.CaptureThread`
adds the newest-frame-only hand-off, pacing and the retries.

The contract of ``read()``:

- returns an image (normally ``uint8`` HxWx3 BGR; the thread checks and normalises it);
- raises :class:`EndOfStream` when a finite source (a file, a folder) has no more frames;
- raises :class:`SourceLost` when a live source stops giving frames (unplugged, network gone);
  ``reopen()`` may then bring it back, or raise :class:`SourceLost` again;
- raises :class:`BadFrame` for one frame it could not decode (a corrupt image in a folder):
  the stream goes on.

``frame_interval`` is ``None`` for live sources (the device sets the pace: ``read()`` blocks
until the next frame) and the seconds between frames for recorded ones, so the thread can play
them at their own speed while an offline reader takes every frame as fast as it can.
"""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

import cv2
import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
NETWORK_SCHEMES = ("rtsp", "rtsps", "http", "https")
NETWORK_TIMEOUT_MS = 5000  # an unreachable camera fails in seconds instead of FFmpeg's default of ~30 s


class CaptureError(ValueError):
    """A source that cannot be opened as given: the message says which and why."""


class SourceLost(RuntimeError):
    """A source that was working stopped giving frames; it may come back."""


class EndOfStream(Exception):
    """A finite source (a video file, a folder) has given all its frames."""


class BadFrame(Exception):
    """One frame could not be decoded; the next one may be fine."""


class FrameSource(Protocol):
    description: str  # for messages: "webcam 0", "video file game.mp4"
    frame_interval: float | None  # None: live, paced by the device

    def read(self) -> np.ndarray: ...

    def reopen(self) -> None: ...

    def close(self) -> None: ...


def open_source(spec: str, *, fps: float | None = None, loop: bool = False,
                size: tuple[int, int] | None = None) -> FrameSource:
    """Open what ``spec`` names; raise :class:`CaptureError` saying what is wrong when it cannot.

    ``fps`` sets the pace of a folder of images or of the demo (default 10) or overrides a video
    file's own; ``loop`` replays a file, folder or demo from the start when it ends; ``size`` asks a
    webcam for a resolution (width, height), which the camera may round to one it supports, and
    sets the demo's picture size (default 1280x720).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise CaptureError("no capture source given: use a webcam index (0), a video file, a folder of images, "
                           "a camera URL (rtsp://, http://) or demo:<game>")
    spec = spec.strip()
    if fps is not None and not fps > 0:
        raise CaptureError(f"a frame rate must be positive, got {fps!r}")
    if spec.startswith("demo:"):
        return open_demo(spec.removeprefix("demo:"), fps=fps, loop=loop, size=size)
    if spec.isdigit():
        return WebcamSource(int(spec), size)
    if re.fullmatch(r"-\d+", spec):
        raise CaptureError(f"no webcam has index {spec}: indexes count from 0 (the first camera)")
    scheme = _scheme(spec)
    if scheme is not None:
        return NetworkSource(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return FolderSource(path, fps or 10.0, loop)
    if path.is_file():
        return VideoFileSource(path, fps, loop)
    if not path.parent.exists():
        raise CaptureError(f"no such file or folder: {spec} (the folder {path.parent} does not exist either)")
    raise CaptureError(f"no such file or folder: {spec}")


def open_demo(game: str, *, fps: float | None = None, loop: bool = False,
              size: tuple[int, int] | None = None, seed: int = 0) -> FrameSource:
    """``demo:<game>``: the renderer playing the built-in scripted game of ``game``
    (:mod:`vision.synth.demo`), a recorded-style source with ``frame_interval = 1 / fps``
    (default 10 frames a second) whose ``truth`` tells, for the frame last read, the game state the
    table shows and the snapshot a perfect vision would report."""
    from referee.games import GameConfigError, registry
    from vision.synth.demo import DEMO_GAMES, DemoSource

    try:
        registry().game_type(game)
    except GameConfigError as exc:
        raise CaptureError(f"demo:{game}: {exc}") from None
    if game not in DEMO_GAMES:
        raise CaptureError(f"demo:{game}: the demo table plays {', '.join(DEMO_GAMES)}, not {game}")
    return DemoSource(game, seed=seed, size=size or (1280, 720), fps=fps or 10.0, loop=loop)


class _LiveCamera:
    """A camera read through OpenCV that may drop out and come back: ``reopen`` tries again."""

    frame_interval = None
    description: str
    lost = "gave no frame"  # how a failed read reads, after the description

    def _open(self) -> cv2.VideoCapture | None:
        raise NotImplementedError

    def _still_gone(self) -> str:
        return f"{self.description} does not answer"

    def read(self) -> np.ndarray:
        if self._capture is None:
            raise SourceLost(f"{self.description} is closed")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise SourceLost(f"{self.description} {self.lost}")
        return frame

    def reopen(self) -> None:
        self.close()
        self._capture = self._open()
        if self._capture is None:
            raise SourceLost(self._still_gone())

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class WebcamSource(_LiveCamera):
    """A camera attached to this machine, by its index (0 is the first)."""

    lost = "gave no frame (unplugged, or taken by another program?)"

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        self.index, self.size = index, size
        self.description = f"webcam {index}"
        self._capture = self._open()
        if self._capture is None:
            raise CaptureError(f"webcam {index} did not open: no camera has that index, or another program is "
                               f"using it ({_cameras_present()})")

    def _open(self) -> cv2.VideoCapture | None:
        capture = cv2.VideoCapture(self.index)
        if not capture.isOpened():
            capture.release()
            return None
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # we want the newest frame, not a backlog
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def _still_gone(self) -> str:
        return f"{self.description} is still not there ({_cameras_present()})"


class NetworkSource(_LiveCamera):
    """A network camera: RTSP, or HTTP(S) MJPEG such as a phone's camera app, read through FFmpeg."""

    lost = "stopped sending frames (network down, or the camera app closed?)"

    def __init__(self, url: str) -> None:
        self.url = url
        self.description = f"camera {_redacted(url)}"
        _check_url(url)
        self._capture = self._open()
        if self._capture is None:
            raise CaptureError(f"could not connect to {_redacted(url)}: nothing answered with video there within "
                               f"{NETWORK_TIMEOUT_MS / 1000:g} s (is the camera app running, and the address right?)")

    def _open(self) -> cv2.VideoCapture | None:
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, NETWORK_TIMEOUT_MS,
                  cv2.CAP_PROP_READ_TIMEOUT_MSEC, NETWORK_TIMEOUT_MS]
        capture = cv2.VideoCapture(self.url, cv2.CAP_FFMPEG, params)
        if not capture.isOpened():
            capture.release()
            return None
        return capture


class VideoFileSource:
    """A recorded video, frame by frame, at its own frame rate (or ``fps``)."""

    def __init__(self, path: Path, fps: float | None = None, loop: bool = False) -> None:
        self.path, self.loop = Path(path), loop
        self.description = f"video file {self.path}"
        if not os.access(self.path, os.R_OK):
            raise CaptureError(f"cannot read the video file {self.path}: permission denied")
        self._capture = self._open()
        if self._capture is None:
            raise CaptureError(f"{self.path} is not a video OpenCV can read (unknown format, or the file is damaged)")
        own_fps = self._capture.get(cv2.CAP_PROP_FPS)
        # Some containers report 0 or nonsense (1000) for the rate: fall back to a webcam's 30.
        self.frame_interval = 1.0 / (fps or (own_fps if 0 < own_fps <= 240 else 30.0))
        self.frames_read = 0

    def _open(self) -> cv2.VideoCapture | None:
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            return None
        return capture

    def read(self) -> np.ndarray:
        if self._capture is None:
            raise SourceLost(f"{self.description} is closed")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            if not self.loop:
                raise EndOfStream(f"{self.description} ended after {self.frames_read} frames")
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
            if not ok or frame is None:
                raise SourceLost(f"{self.description} could not be read from the start again")
        self.frames_read += 1
        return frame

    def seek(self, frame: int) -> None:
        """The next ``read()`` gives frame number ``frame`` (0 is the first)."""
        if self._capture is not None:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, frame)
        self.frames_read = frame

    def reopen(self) -> None:
        self.close()
        if not self.path.is_file():
            raise SourceLost(f"{self.description} is gone")
        self._capture = self._open()
        if self._capture is None:
            raise SourceLost(f"{self.description} can no longer be read")
        self._capture.set(cv2.CAP_PROP_POS_FRAMES, self.frames_read)  # carry on where it stopped

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource:
    """The images in a folder in natural order (``frame2`` before ``frame10``), at ``fps`` frames a second."""

    def __init__(self, path: Path, fps: float = 10.0, loop: bool = False) -> None:
        self.path, self.loop = Path(path), loop
        self.description = f"folder {self.path}"
        self.frame_interval = 1.0 / fps
        self.files = _images_in(self.path)
        self.position = 0

    def read(self) -> np.ndarray:
        if self.position >= len(self.files):
            if not self.loop:
                raise EndOfStream(f"{self.description} ended after {len(self.files)} images")
            self.position = 0
        file = self.files[self.position]
        self.position += 1
        frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is None:
            reason = "it is gone" if not file.exists() else "not a readable image"
            raise BadFrame(f"skipped {file.name} in {self.path}: {reason}")
        return frame

    def seek(self, frame: int) -> None:
        """The next ``read()`` gives image number ``frame`` (0 is the first)."""
        self.position = max(0, min(frame, len(self.files)))

    def reopen(self) -> None:
        files = _images_in(self.path, lost=True)
        self.position = min(self.position, len(files))
        self.files = files

    def close(self) -> None:
        pass


def _images_in(path: Path, lost: bool = False) -> list[Path]:
    problem = SourceLost if lost else CaptureError
    try:
        names = os.listdir(path)
    except PermissionError:
        raise problem(f"cannot read the folder {path}: permission denied") from None
    except OSError as exc:
        raise problem(f"cannot read the folder {path}: {exc.strerror or exc}") from None
    files = sorted((path / n for n in names if n.lower().endswith(IMAGE_SUFFIXES)), key=_natural_key)
    if not files:
        raise problem(f"the folder {path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
    return files


def _natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def _scheme(spec: str) -> str | None:
    """The URL scheme ``spec`` starts with, or None for a path (``C:\\x`` is a drive, not a scheme)."""
    match = re.match(r"([A-Za-z][A-Za-z0-9+.-]+):", spec)
    if match is None:
        return None
    scheme = match.group(1).lower()
    if scheme in NETWORK_SCHEMES or "://" in spec:
        return scheme
    return None


def _check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a port that is not a number in range
    except ValueError as exc:
        raise CaptureError(f"malformed camera URL {_redacted(url)}: {exc}") from None
    if parts.scheme.lower() not in NETWORK_SCHEMES:
        raise CaptureError(f"unsupported camera URL scheme {parts.scheme!r} in {_redacted(url)}: use rtsp://, "
                           "http:// or https:// (an MJPEG stream)")
    if not url[len(parts.scheme):].startswith("://"):
        raise CaptureError(f"malformed camera URL {_redacted(url)}: expected {parts.scheme}://host[:port]/path")
    if not parts.hostname:
        raise CaptureError(f"malformed camera URL {_redacted(url)}: it names no host (expected "
                           f"{parts.scheme}://host[:port]/path)")
    if any(c.isspace() for c in url):
        raise CaptureError(f"malformed camera URL {_redacted(url)}: it contains spaces")
    del port


def _redacted(url: str) -> str:
    """The URL with any password replaced by ``***``, fit for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)


def _cameras_present() -> str:
    devices = sorted(glob.glob("/dev/video*"))
    if devices:
        return "video devices present: " + ", ".join(devices)
    if os.path.isdir("/dev"):
        return "this machine shows no /dev/video* device at all"
    return "no camera list on this system"
