"""The players' own pieces, shown to the camera at the start: "this is Ann's token", "this is olive".

A game refereed from its camera reads the players' tokens (Pouches of Destiny's pawns) only once
each token has been *shown*: put down alone in view, and registered from that picture (its shape,
size and colour; :meth:`vision.pieces.PieceReader.register_token`). Likewise a pyramid colour
outside the standard palette is learnt from a picture of one pyramid of it alone
(:meth:`~vision.pieces.PieceReader.register_colour`).

:func:`show_token` and :func:`show_colour` check a showing by actually registering it with a
pieces reader built for the table's current calibration, and refuse it with a message that says
what to do (:class:`ShowingRefused`). A showing that passes is kept by :class:`RegisteredPieces`
beside the game's log, in ``<games>/<id>-pieces/``: the picture as JPEG, and ``pieces.json``
listing each showing with its picture's name; a resumed game (a restarted server) registers them
again from there. :meth:`RegisteredPieces.game_pieces` is the pieces step of the game's camera
runner (a :class:`~vision.table_reader.GamePieces` with the tokens and colours shown).
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration import store
from calibration.homography import CalibrationError, TableCalibration, fit_markers
from calibration.markers import detect_markers
from calibration.mats import MatLayout, identify, mat_of
from vision.pieces import PieceReader, TokenError
from vision.pieces.solids import cylinder_points
from vision.table_reader import GAME_PIECES, GamePieces

INDEX = "pieces.json"
SHAPES = ("pawn", "disc")
RADIUS_MM = (2.0, 40.0)  # a token's radius and height must lie in these ranges: more is no token
HEIGHT_MM = (1.0, 80.0)
# Around a registered token, its shadow (as long as the token is tall under a lamp 45 degrees or
# more above the table) and this margin for the picture's blur are erased to look for a second one.
ERASE_MARGIN_MM = 4.0
# A token read back from its own picture must be named this surely: below, another player's token
# is about as near in colour and shape (vision.pieces.tokens: the margin over the next is under half).
SURE = 0.75
PICTURE_NAME = re.compile(r"(token|colour)-\d{3}\.jpg")


class ShowingRefused(ValueError):
    """A showing that cannot be registered; ``status`` is 409 (not now: no picture, no calibration,
    a game without such pieces) or 422 (the picture does not show what it must), and the message
    says what to do."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Showing:
    """One piece the players showed: a token (``label`` the player's name, with its shape and
    size) or a colour (``label`` the colour's name), and its picture's file name."""

    kind: str  # token | colour
    label: str
    picture: str
    shape: str | None = None
    radius_mm: float | None = None
    height_mm: float | None = None

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class RegisteredPieces:
    """The showings of one game, kept in ``folder`` (``<games>/<id>-pieces``). Thread-safe."""

    folder: Path
    showings: list[Showing] = field(default_factory=list)
    problem: str | None = None  # why the saved showings could not be read, if they could not
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def load(cls, folder: Path) -> RegisteredPieces:
        """The showings saved in ``folder``; none when it holds none. An unreadable index or a lost
        picture loses that showing only, and says so in ``problem``."""
        pieces = cls(Path(folder))
        path = pieces.folder / INDEX
        if not path.is_file():
            return pieces
        try:
            items = json.loads(path.read_text(encoding="utf-8"))["showings"]
            showings = [Showing(**item) for item in items]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            pieces.problem = f"{path} cannot be read ({exc}): show the tokens and colours again"
            return pieces
        kept = [s for s in showings if PICTURE_NAME.fullmatch(s.picture) and (pieces.folder / s.picture).is_file()]
        if len(kept) < len(showings):
            lost = ", ".join(s.label for s in showings if s not in kept)
            pieces.problem = f"the pictures of {lost} are missing from {pieces.folder}: show them again"
        pieces.showings = kept
        return pieces

    def tokens(self) -> list[Showing]:
        with self._lock:
            return [s for s in self.showings if s.kind == "token"]

    def colours(self) -> list[Showing]:
        with self._lock:
            return [s for s in self.showings if s.kind == "colour"]

    def add(self, kind: str, label: str, jpeg: bytes, **size) -> Showing:
        """Keep a showing that passed (picture first, then the index); it replaces an earlier
        showing of the same token or colour."""
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            taken = {s.picture for s in self.showings}
            number = next(n for n in range(1, 1000) if f"{kind}-{n:03d}.jpg" not in taken)
            showing = Showing(kind, label, f"{kind}-{number:03d}.jpg", **size)
            (self.folder / showing.picture).write_bytes(jpeg)
            replaced = [s for s in self.showings if s.kind == kind and s.label == label]
            self.showings = [s for s in self.showings if s not in replaced] + [showing]
            self._write_index()
            for old in replaced:  # after the index: a crash between the two leaves a spare file, not a lost one
                (self.folder / old.picture).unlink(missing_ok=True)
            return showing

    def picture(self, name: str) -> bytes:
        """A showing's JPEG (OSError when there is none of that name)."""
        if not PICTURE_NAME.fullmatch(name):
            raise FileNotFoundError(name)
        return (self.folder / name).read_bytes()

    def game_pieces(self, game: str, layout: MatLayout) -> GamePieces:
        """The pieces step for the camera runner: ``game``'s pieces on the mat ``layout``, with every
        token and colour shown so far."""
        tokens, colours = [], []
        for showing in self.tokens() + self.colours():
            image = _decoded(self.folder / showing.picture)
            if image is None:
                continue
            if showing.kind == "token":
                tokens.append((image, showing.label, showing.shape, showing.radius_mm, showing.height_mm))
            else:
                colours.append((image, showing.label))
        return GamePieces(game, layout, tokens, colours=colours)

    def to_json(self) -> dict:
        with self._lock:
            showings = list(self.showings)
        return {"tokens": [s.to_json() for s in showings if s.kind == "token"],
                "colours": [s.to_json() for s in showings if s.kind == "colour"]}

    def _write_index(self) -> None:
        path = self.folder / INDEX
        spare = path.with_suffix(".tmp")
        spare.write_text(json.dumps({"showings": [s.to_json() for s in self.showings]}, indent=1), encoding="utf-8")
        os.replace(spare, path)  # whole or not at all: a crash mid-write keeps the old index


# -- checking a showing --
def show_token(live, runner, instance: Path, label: str, shape: str, radius_mm: float, height_mm: float) -> Showing:
    """Register ``label``'s token from the camera's latest picture in ``live`` (a
    :class:`~webui.live_games.LiveGame`; ``runner`` its camera runner or None), where it must stand
    alone in view, and keep the showing; :class:`ShowingRefused` says why not."""
    game = live.game.type.name
    if game not in GAME_PIECES:
        raise ShowingRefused(409, f"{live.game.type.title} is played with cards only: the camera reads no tokens in it")
    jpeg = live.latest_frame()
    image = _picture(jpeg)
    calibration, layout = table_calibration(live.game, image, runner, instance)
    try:
        reader = _reader(game, layout, calibration)
        reader.register_token(image, label, shape, radius_mm, height_mm)
        at = _check_alone(game, layout, calibration, image, reader, label, shape, radius_mm, height_mm)
        _check_distinct(_reader(game, layout, calibration), live.pieces, image, at, label, shape, radius_mm, height_mm)
    except TokenError as exc:
        raise ShowingRefused(422, str(exc)) from None
    return live.pieces.add("token", label, jpeg, shape=shape, radius_mm=radius_mm, height_mm=height_mm)


def show_colour(live, runner, instance: Path, name: str) -> Showing:
    """Learn the pyramid colour ``name`` from the camera's latest picture in ``live``, where one
    pyramid of it must stand alone in view, and keep the showing; :class:`ShowingRefused` says why not."""
    game = live.game.type.name
    if not GAME_PIECES.get(game, (0, False))[1]:
        raise ShowingRefused(409, f"{live.game.type.title} is played without pyramids: there is no pyramid "
                                  "colour to learn")
    jpeg = live.latest_frame()
    image = _picture(jpeg)
    calibration, layout = table_calibration(live.game, image, runner, instance)
    try:
        _reader(game, layout, calibration).register_colour(image, name)
    except ValueError as exc:  # a name that is no colour word, or not exactly one pyramid in view
        raise ShowingRefused(422, f"{exc}; then press again") from None
    return live.pieces.add("colour", name, jpeg)


def _check_alone(game: str, layout: MatLayout, calibration: TableCalibration, image: np.ndarray,
                 reader: PieceReader, label: str, shape: str, radius_mm: float, height_mm: float,
                 ) -> tuple[float, float]:
    """Where the token just registered in ``reader`` stands. Refuses a showing where it is not read
    back, or where another piece of its shape stands in view (the reader registers the best fitting
    one, which may be another player's): the token read back is erased from the picture with its
    shadow, and there registering again must find nothing that a reader knowing it reads on the mat."""
    seen = [t for t in reader.read(image).tokens if t.label == label]
    if not seen:
        raise TokenError(f"token {label!r}: it was seen but cannot be read back from the same picture; "
                         "put it down nearer the middle of the mat, away from cards and markers, and press again")
    x, y = seen[0].center_mm
    hull = reader.camera.project(cylinder_points(x, y, radius_mm + height_mm + ERASE_MARGIN_MM,
                                                 height_mm + ERASE_MARGIN_MM))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(hull).astype(np.int32)), 255)
    without = cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)
    second = _reader(game, layout, calibration)
    try:
        second.register_token(without, label, shape, radius_mm, height_mm)
    except TokenError:
        return x, y  # nothing else of its shape: it stood alone
    ox, oy = layout.origin_on_paper
    pw, ph = layout.paper_mm
    if not any(-ox <= t.center_mm[0] <= pw - ox and -oy <= t.center_mm[1] <= ph - oy for t in second.read(without).tokens):
        return x, y  # something of about its outline, but not on the mat where the game is played (the wood beyond)
    raise TokenError(f"token {label!r}: more than one {shape} stands in view; leave only {label}'s token "
                     "on the table and press again")


def _check_distinct(reader: PieceReader, pieces: RegisteredPieces, image: np.ndarray, at: tuple[float, float],
                    label: str, shape: str, radius_mm: float, height_mm: float) -> None:
    """Refuse a token the camera could not tell from another player's already shown (the same colour
    and shape): with every token registered, the one at ``at`` must be named ``label``, surely."""
    _register_others(reader, pieces, label)
    if not reader.tokens.signatures:
        return  # the first token shown: nothing to tell it from
    reader.register_token(image, label, shape, radius_mm, height_mm)
    seen = [t for t in reader.read(image).tokens if math.dist(t.center_mm, at) < radius_mm]
    if len(seen) == 1 and seen[0].label == label and seen[0].confidence >= SURE:
        return
    other = next((t.label for t in seen if t.label != label), None) or \
        next((a.label for t in seen for a in t.alternatives), "another player")
    raise TokenError(f"token {label!r}: it looks too much like {other}'s token for the camera to tell them "
                     "apart; use a token of another colour or shape")


def _register_others(reader: PieceReader, pieces: RegisteredPieces, label: str) -> None:
    """The other players' tokens shown so far, registered in ``reader`` (one that no longer registers
    is left out: the camera runner reports it)."""
    for showing in pieces.tokens():
        image = _decoded(pieces.folder / showing.picture) if showing.label != label else None
        if image is not None:
            try:
                reader.register_token(image, showing.label, showing.shape, showing.radius_mm, showing.height_mm)
            except TokenError:
                pass


def _reader(game: str, layout: MatLayout, calibration: TableCalibration) -> PieceReader:
    """A pieces reader for ``game`` as its camera runner builds one, before anything is registered."""
    return GamePieces(game, layout).bare_reader(calibration)


def _picture(jpeg: bytes | None) -> np.ndarray:
    """The camera's latest picture, decoded."""
    if jpeg is None:
        raise ShowingRefused(409, "no camera picture yet: start the camera (or send a snapshot with a frame), "
                                  "put the piece down alone in view, then press again")
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ShowingRefused(409, "the camera's latest picture cannot be decoded: wait for the next one "
                                  "and press again")
    return image


def _decoded(path: Path) -> np.ndarray | None:
    try:
        return cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    except OSError:
        return None


# -- where the table is, for a showing --
def table_calibration(game, image: np.ndarray, runner, instance: Path) -> tuple[TableCalibration, MatLayout]:
    """The table's calibration for the camera's latest picture ``image``, and the game's mat as
    printed: the camera runner's, when it has one; else from the mat's markers in the picture; else
    the instance's saved calibration. :class:`ShowingRefused` (409) when none is to be had."""
    size = (image.shape[1], image.shape[0])
    pipeline = runner.pipeline if runner is not None else None
    reading = pipeline.stats.last if pipeline is not None else None
    if reading is not None and reading.track is not None and reading.track.calibration is not None:
        if tuple(reading.track.calibration.image_size) == size:
            return reading.track.calibration, pipeline.reader.layout
    intrinsics = _intrinsics(instance)
    markers = detect_markers(image)
    papers = [paper for g, paper in filter(None, (identify(m.id) for m in markers)) if g == game.type.name]
    if papers:
        layout = mat_of(game, max(set(papers), key=papers.count))
        try:
            return fit_markers(markers, layout, size, intrinsics), layout
        except CalibrationError:
            pass  # too few of its corners to fit: the saved calibration may do
    try:
        return store.load(instance, size), mat_of(game)
    except store.CalibrationMissing:
        problem = "the table is not calibrated"
    except store.CalibrationFileError as exc:
        problem = str(exc)
    raise ShowingRefused(409, f"{problem}: show the {game.type.name} mat's markers to the camera, "
                              "or click the four corners on the calibration page")


def _intrinsics(instance: Path):
    try:
        return store.load_intrinsics(instance)
    except store.CalibrationFileError:
        return None
