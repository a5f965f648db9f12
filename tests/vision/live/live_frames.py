"""Helpers for the live tests: a drawn table, a hand to move over it, cameras that misbehave on cue,
an MJPEG server, and snapshot builders. Everything is generated: no data files."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np

from referee.pyramids import Pyramid
from referee.snapshot import Alternative, CardSighting, DieSighting, PyramidSighting, TableSnapshot
from vision.capture import SourceLost


def table(size=(1280, 720), seed=0, number=None) -> np.ndarray:
    """A green mat with three cards, sensor noise (one of eight patterns, by ``seed``), and optionally a
    frame ``number`` written on it."""
    image = _clean_table(size, number).astype(np.int16) + _noise(size, seed % 8)
    return np.clip(image, 0, 255).astype(np.uint8)


_CACHE: dict = {}


def _noise(size, seed) -> np.ndarray:
    """Webcam-like sensor noise (a standard deviation of 2.5 grey levels); eight patterns, made once."""
    key = ("noise", size, seed)
    if key not in _CACHE:
        _CACHE[key] = np.round(np.random.default_rng(seed).normal(0, 2.5, (size[1], size[0], 3))).astype(np.int16)
    return _CACHE[key]


def _clean_table(size, number) -> np.ndarray:
    key = ("table", size, number)
    if key in _CACHE:
        return _CACHE[key]
    w, h = size
    image = np.empty((h, w, 3), np.uint8)
    image[:] = (40, 110, 50)
    for i, (x, y) in enumerate([(0.2, 0.3), (0.45, 0.35), (0.7, 0.6)]):
        cx, cy = int(x * w), int(y * h)
        cv2.rectangle(image, (cx - w // 20, cy - h // 10), (cx + w // 20, cy + h // 10), (235, 235, 235), -1)
        cv2.putText(image, "QH7"[i], (cx - 10, cy + 10), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 200), 2)
    if number is not None:
        cv2.putText(image, str(number), (20, h - 20), cv2.FONT_HERSHEY_SIMPLEX, h / 200, (255, 255, 255), 3)
    if number is None:
        _CACHE[key] = image
    return image


def with_hand(image: np.ndarray, x: float, y: float) -> np.ndarray:
    """``image`` with a skin-coloured hand and arm whose palm is at (x, y), in fractions of the frame."""
    h, w = image.shape[:2]
    out = image.copy()
    palm = (int(x * w), int(y * h))
    cv2.line(out, palm, (palm[0] + w // 10, h + 10), (120, 150, 200), w // 25)  # the arm, from the near edge
    cv2.ellipse(out, palm, (w // 28, h // 12), 20, 0, 360, (120, 150, 200), -1)
    return out


def read_number(image: np.ndarray) -> int:
    """The frame number a FakeCamera stamped into the first pixel row (exact, unlike text)."""
    return int(image[0, 0, 0]) * 256 + int(image[0, 1, 0])


class FakeCamera:
    """A live source that plays a script, one step per read: an image, ``"lost"`` (the read raises
    SourceLost, and reopen fails while ``unplugged`` is set), ``RuntimeError`` instances (raised as is), or
    any other object (returned as the frame, garbage included). After the script it keeps giving frames."""

    frame_interval = None

    def __init__(self, script=(), size=(320, 240), period_s=0.005) -> None:
        self.description = "fake camera"
        self.script, self.size, self.period_s = list(script), size, period_s
        self.unplugged = threading.Event()
        self.reads = self.reopens = 0
        self.closed = False
        self.lock = threading.Lock()

    def frame(self, n: int) -> np.ndarray:
        image = np.full((self.size[1], self.size[0], 3), 90, np.uint8)
        image[0, 0], image[0, 1] = n // 256, n % 256
        return image

    def read(self):
        time.sleep(self.period_s)
        with self.lock:
            self.reads += 1
            if self.unplugged.is_set():
                raise SourceLost("fake camera unplugged")
            step = self.script.pop(0) if self.script else "frame"
        if isinstance(step, str) and step == "lost":
            self.unplugged.set()
            raise SourceLost("fake camera unplugged")
        if isinstance(step, Exception):
            raise step
        if isinstance(step, str) and step == "frame":
            return self.frame(self.reads)
        return step

    def reopen(self) -> None:
        self.reopens += 1
        if self.unplugged.is_set():
            raise SourceLost("fake camera still unplugged")

    def close(self) -> None:
        self.closed = True


def wait_until(predicate, timeout=5.0, step=0.005):
    """Poll ``predicate`` until it is truthy (returning its value) or ``timeout`` s pass (returning None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return None


class MjpegServer:
    """A phone-camera-like HTTP MJPEG stream on localhost; ``unplug()`` cuts it, ``plug()`` brings it back."""

    def __init__(self, size=(160, 120), period_s=0.02) -> None:
        server = self
        self.serving = threading.Event()
        self.serving.set()
        self.size, self.period_s = size, period_s

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if not server.serving.is_set():
                    self.send_error(503, "camera off")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                n = 0
                try:
                    while server.serving.is_set():
                        n += 1
                        image = np.full((server.size[1], server.size[0], 3), 128, np.uint8)
                        cv2.circle(image, (n * 7 % server.size[0], server.size[1] // 2), 10, (0, 0, 255), -1)
                        data = cv2.imencode(".jpg", image)[1].tobytes()
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                                         % len(data) + data + b"\r\n")
                        time.sleep(server.period_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/video"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def unplug(self):
        self.serving.clear()

    def plug(self):
        self.serving.set()

    def close(self):
        self.serving.clear()
        self.http.shutdown()
        self.http.server_close()


def card(card_id, x, y, confidence=0.9, alternatives=()):
    corners = ((x - 31.5, y - 44), (x + 31.5, y - 44), (x + 31.5, y + 44), (x - 31.5, y + 44))
    return CardSighting(card_id, card_id != "back", (x, y), corners, 0.0, confidence,
                        tuple(Alternative(label, p) for label, p in alternatives))


def pyramid(stack, x, y, confidence=0.9):
    return PyramidSighting(tuple(Pyramid.parse(p) for p in stack.split("+")), (x, y), confidence)


def die(face, x, y, confidence=0.9):
    return DieSighting(face, (x, y), confidence)


def snapshot(t, cards=(), pyramids=(), dice=(), occluded=False):
    return TableSnapshot(t, tuple(cards), tuple(pyramids), tuple(dice), (), occluded)
