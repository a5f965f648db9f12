"""The games being played: each a referee :class:`~referee.session.Session` with its latest camera frame.

:class:`LiveGame` is the one entry point for everything that drives a game, whether the vision
pipeline (a Python call), the JSON API or a test: ``observe(snapshot, frame_jpeg)`` and the
players' corrections. Each call publishes the events it caused to the app's :class:`EventHub`.

:class:`LiveGames` keeps them by id. A game's log is ``<instance>/games/<id>.sqlite``; what the
log has no place for (seat colours, the camera) goes beside it in ``<id>.json``, and the tokens and
colours the players showed to the camera in ``<id>-pieces/`` (:mod:`webui.registered_pieces`). A
game that is asked for but not in memory (after a restart) is resumed from its log.
"""

from __future__ import annotations

import datetime
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from referee import layouts
from referee.action import Action
from referee.game import Game
from referee.log import Event, PlaythroughLog
from referee.session import Session
from referee.snapshot import TableSnapshot
from webui.event_stream import EventHub
from webui.registered_pieces import RegisteredPieces

GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class UnknownGame(LookupError):
    """No live or logged game has this id."""


@dataclass(frozen=True)
class Seating:
    """What the players said at the start that the log does not hold: colours and the camera, and
    whether the game is refereed from that camera (``run_camera``: a camera runner reads it, and
    reads it again when the game is resumed)."""

    colours: dict[str, str] = field(default_factory=dict)
    camera: str | None = None
    run_camera: bool = False

    def to_json(self) -> dict:
        return {"colours": self.colours, "camera": self.camera, "run_camera": self.run_camera}

    @classmethod
    def load(cls, path: Path) -> Seating:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(dict(data.get("colours") or {}), data.get("camera"), data.get("run_camera") is True)
        except (OSError, ValueError, AttributeError, TypeError):
            return cls()  # a missing or unreadable sidecar loses only the colours


class LiveGame:
    """One game at the table. Thread-safe: the session serialises every call."""

    def __init__(self, game_id: str, session: Session, hub: EventHub, seating: Seating,
                 pieces: RegisteredPieces | None = None):
        self.id, self.session, self.hub, self.seating = game_id, session, hub, seating
        self.pieces = pieces  # the tokens and colours shown to the camera (None: kept nowhere)
        self._frame_lock = threading.Condition()
        self._frame: bytes | None = None
        self._frame_number = 0  # counts frames, so a video stream knows when a new one came

    @property
    def game(self) -> Game:
        return self.session.game

    def still(self):
        """A context in which the session changes nothing, to read its state, problem and log together."""
        return self.session.held()

    # -- the camera --
    def observe(self, snapshot: TableSnapshot, frame_jpeg: bytes | None = None) -> list[Event]:
        """Referee one stable snapshot; ``frame_jpeg`` becomes the latest picture and is kept with
        the events it causes."""
        if frame_jpeg is not None:
            self.show_frame(frame_jpeg)
        return self._run(self.session.observe, snapshot, frame_jpeg)

    def show_frame(self, frame_jpeg: bytes) -> None:
        """Make a JPEG the latest picture without refereeing anything (a video feed between snapshots)."""
        with self._frame_lock:
            self._frame = bytes(frame_jpeg)
            self._frame_number += 1
            self._frame_lock.notify_all()

    def latest_frame(self) -> bytes | None:
        with self._frame_lock:
            return self._frame

    def next_frame(self, after: int, timeout: float) -> tuple[int, bytes | None]:
        """Wait up to ``timeout`` s for a frame newer than number ``after``; (number, JPEG or None)."""
        with self._frame_lock:
            self._frame_lock.wait_for(lambda: self._frame_number > after, timeout)
            return self._frame_number, self._frame

    def last_snapshot(self) -> TableSnapshot | None:
        """The snapshot the referee read last, with the players' relabels: the sightings that
        ``relabel("cards/3", ...)`` names."""
        with self.still():
            return self.session.last_snapshot

    def frame_number(self) -> int:
        """How many pictures came so far: a new number means a new picture."""
        with self._frame_lock:
            return self._frame_number

    # -- the players --
    def relabel(self, sighting: str, label: str) -> list[Event]:
        return self._run(self.session.relabel, sighting, label)

    def choose(self, index: int) -> list[Event]:
        return self._run(self.session.choose, index)

    def enter(self, action: Action, overrule: bool = False, wait: bool = False) -> list[Event]:
        return self._run(self.session.enter, action, overrule, wait)

    def unsay(self, seq: int) -> list[Event]:
        return self._run(self.session.unsay, seq)

    def overrule(self, index: int = 0) -> list[Event]:
        return self._run(self.session.overrule, index)

    def undo(self) -> list[Event]:
        return self._run(self.session.undo)

    def _run(self, call, *args) -> list[Event]:
        """Call the session and publish what it logged, both under its lock, so that listeners get
        the events of the pipeline's and the players' calls in the order they were logged."""
        with self.still():
            events = call(*args)
            self.hub.publish(self.id, events)
        return events


class LiveGames:
    """The app's live games, by id, with their logs under ``<instance>/games``."""

    def __init__(self, folder: Path, hub: EventHub):
        self.folder, self.hub = Path(folder), hub
        self._lock = threading.Lock()
        self._games: dict[str, LiveGame] = {}
        self.cameras = None  # the app's webui.camera_runner.CameraRunners: a resumed game's camera restarts

    def log_path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.sqlite"

    def seating_path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.json"

    def pieces_path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}-pieces"

    def start(self, game: Game, setup=None, seating: Seating | None = None, layout=None) -> LiveGame:
        """A new game with a fresh id; ``game.new_state(setup)`` errors (a bad setup) propagate.
        ``layout`` is how the table's places are read (default: the game's, with no mat zones)."""
        seating = seating or Seating()
        with self._lock:
            game_id = self._new_id(game)
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.log_path(game_id)
            state = game.new_state(setup)  # before any file exists: a bad setup leaves nothing behind
            session = Session(game, state, layout or layouts.for_game(game), PlaythroughLog.create(path), setup)
            self.seating_path(game_id).write_text(json.dumps(seating.to_json()), encoding="utf-8")
            live = self._games[game_id] = LiveGame(game_id, session, self.hub, seating,
                                                   RegisteredPieces(self.pieces_path(game_id)))
        self.hub.publish(game_id, list(session.log.events()))
        return live

    def get(self, game_id: str) -> LiveGame:
        """The game with this id, resumed from its log if it is not in memory."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise UnknownGame(f"no game {game_id!r}: game ids are lower-case letters, digits and dashes")
        with self._lock:
            if game_id in self._games:
                return self._games[game_id]
            path = self.log_path(game_id)
            if not path.is_file():
                raise UnknownGame(f"no game {game_id!r}")
            session = Session.resume(path, layouts.for_game)  # LogError when damaged: the caller says so
            live = self._games[game_id] = LiveGame(game_id, session, self.hub,
                                                   Seating.load(self.seating_path(game_id)),
                                                   RegisteredPieces.load(self.pieces_path(game_id)))
        if self.cameras is not None and live.seating.run_camera and live.seating.camera \
                and not session.state.is_over():
            self.cameras.start(live)  # opens the camera in its own thread: a missing one is retried there
        return live

    def set_seating(self, live: LiveGame, seating: Seating) -> None:
        """Change what is kept beside the log (say, that the camera was stopped), file first."""
        self.seating_path(live.id).write_text(json.dumps(seating.to_json()), encoding="utf-8")
        live.seating = seating

    def live_ids(self) -> list[str]:
        with self._lock:
            return list(self._games)

    def close(self) -> None:
        if self.cameras is not None:  # before the logs close: a runner may be refereeing
            self.cameras.close()
        with self._lock:
            for live in self._games.values():
                live.session.log.close()
            self._games.clear()

    def _new_id(self, game: Game) -> str:
        day = datetime.datetime.now().strftime("%Y%m%d-%H%M")
        while True:
            game_id = f"{day}-{game.type.name}-{secrets.token_hex(2)}"
            if game_id not in self._games and not self.log_path(game_id).exists():
                return game_id
