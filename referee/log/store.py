"""The playthrough log on disk: an append-only SQLite table in WAL mode, frames as JPEG files beside it.

    log = PlaythroughLog.create("game.sqlite")        # refuses to overwrite an existing file
    event = log.append("action", {...}, snapshot_t=12.4, frame=jpeg_bytes)
    log = PlaythroughLog.open("game.sqlite")          # an existing log, to resume or to read
    log.events()                                      # every event, in order

Each ``append`` is one committed transaction (``synchronous=FULL``), so a process killed at any
moment loses at most the event it was writing: SQLite's write-ahead log ignores a half-written
commit. Triggers refuse UPDATE and DELETE, so the log is append-only even to other tools. The
frames folder is named after the database (``game.sqlite`` -> ``game-frames/``); a frame is
written (to a temporary name, then renamed) before the event that names it.

A reader in another thread or process may open the same file with ``readonly=True`` while a
session writes (WAL lets readers and one writer work at once).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from referee.log.events import Event, KINDS, LogError, decode_payload, encode_payload

APPLICATION_ID = 0x54424C53  # "TBLS": marks the file as a Tableside log
FORMAT_VERSION = 1
JPEG_MAGIC = b"\xff\xd8\xff"

_SCHEMA = """
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY,
    wall_time  REAL NOT NULL,
    snapshot_t REAL,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    frame      TEXT
);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the playthrough log is append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the playthrough log is append-only'); END;
"""


def frames_folder(path: str | os.PathLike) -> Path:
    """Where the frames of the log (or JSON Lines export) at ``path`` live: ``<stem>-frames`` beside it."""
    path = Path(path)
    return path.with_name(path.stem + "-frames")


class PlaythroughLog:
    """One playthrough's events. Build it with :meth:`create` or :meth:`open`; safe to share between threads."""

    def __init__(self, path: Path, connection: sqlite3.Connection, readonly: bool):
        self.path = path
        self.readonly = readonly
        self._db = connection
        self._lock = threading.Lock()
        self._last = None  # the last seq written or read; None until known

    # -- opening --
    @classmethod
    def create(cls, path: str | os.PathLike) -> PlaythroughLog:
        path = Path(path)
        if path.exists():
            raise LogError(f"{path} already exists: open it to resume, or choose another file name")
        path.parent.mkdir(parents=True, exist_ok=True)
        db = _connect(path, readonly=False)
        with db:
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
        log = cls(path, db, readonly=False)
        log._last = 0
        return log

    @classmethod
    def open(cls, path: str | os.PathLike, readonly: bool = False) -> PlaythroughLog:
        """An existing log. A file that is not a Tableside log is refused with a message saying why."""
        path = Path(path)
        if not path.is_file():
            raise LogError(f"no playthrough log at {path}")
        try:
            db = _connect(path, readonly)
            app, version = db.execute("PRAGMA application_id").fetchone()[0], db.execute(
                "PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            kept = _salvage(path)
            if not kept:
                raise LogError(f"{path} is not a readable playthrough log: {exc}") from None
            raise LogError(f"{path} is damaged ({exc}): events 1 to {len(kept)} are good, event {len(kept) + 1} "
                           "onwards cannot be read; referee.log.recover keeps the good part", len(kept) + 1,
                           kept) from None
        if app != APPLICATION_ID:
            db.close()
            raise LogError(f"{path} is an SQLite file but not a Tableside playthrough log")
        if version != FORMAT_VERSION:
            db.close()
            raise LogError(f"{path} is a version {version} log; this Tableside reads version {FORMAT_VERSION}")
        return cls(path, db, readonly)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> PlaythroughLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing --
    def append(self, kind: str, payload: dict, snapshot_t: float | None = None,
               frame: bytes | str | None = None, wall_time: float | None = None) -> Event:
        """Write one event and commit it. ``frame`` is JPEG bytes (stored as a file) or the name of a
        frame already stored (several events from one snapshot share its frame)."""
        if self.readonly:
            raise LogError(f"{self.path} is open read-only")
        if kind not in KINDS:
            raise ValueError(f"event kind {kind!r} is not one of {', '.join(KINDS)}")
        text = encode_payload(payload)
        with self._lock:
            seq = self._next_seq()
            name = self._store_frame(seq, frame)
            event = Event(seq, time.time() if wall_time is None else wall_time, snapshot_t, kind, payload, name)
            with self._db:
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                 (seq, event.wall_time, snapshot_t, kind, text, name))
            self._last = seq
        return event

    def copy(self, event: Event) -> None:
        """Write an event read from another log as it is (its number must come next): used to
        import an export and to write the good part of a damaged log to a fresh file."""
        if self.readonly:
            raise LogError(f"{self.path} is open read-only")
        with self._lock:
            if event.seq != self._next_seq():
                raise LogError(f"cannot copy event {event.seq} into {self.path}: the next event is {self._next_seq()}")
            with self._db:
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                 (event.seq, event.wall_time, event.snapshot_t, event.kind,
                                  encode_payload(event.payload), event.frame))
            self._last = event.seq

    def _next_seq(self) -> int:
        if self._last is None:
            row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
            self._last = row[0] or 0
        return self._last + 1

    def _store_frame(self, seq: int, frame: bytes | str | None) -> str | None:
        if frame is None:
            return None
        if isinstance(frame, str):
            if not (frames_folder(self.path) / frame).is_file():
                raise LogError(f"no frame named {frame!r} in {frames_folder(self.path)}")
            return frame
        if not isinstance(frame, (bytes, bytearray)) or not bytes(frame[:3]) == JPEG_MAGIC:
            raise ValueError("a frame is JPEG bytes (starting FF D8 FF); encode the picture as JPEG first")
        folder = frames_folder(self.path)
        folder.mkdir(exist_ok=True)
        name = f"{seq:06d}.jpg"
        temporary = folder / (name + ".part")
        with open(temporary, "wb") as out:
            out.write(frame)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, folder / name)
        return name

    # -- reading --
    def events(self, since: int = 0) -> tuple[Event, ...]:
        """Every event after ``since``, in order. A damaged row or page raises :class:`LogError` naming
        the first event that cannot be read, with the good ones before it in ``kept``."""
        kept: list[Event] = []
        expected = since + 1
        with self._lock:
            try:
                cursor = self._db.execute("SELECT seq, wall_time, snapshot_t, kind, payload, frame FROM events "
                                          "WHERE seq > ? ORDER BY seq", (since,))
                for row in cursor:
                    where = f"event {row[0]}"
                    if row[0] != expected:
                        raise LogError(f"{self.path}: event {expected} is missing (the next is {row[0]})",
                                       expected, kept)
                    try:
                        kept.append(Event.from_json({"seq": row[0], "wall_time": row[1], "snapshot_t": row[2],
                                                     "kind": row[3], "payload": decode_payload(row[4], where),
                                                     "frame": row[5]}, where))
                    except ValueError as exc:
                        raise LogError(f"{self.path}: {exc}", row[0], kept) from None
                    expected += 1
            except sqlite3.DatabaseError as exc:
                raise LogError(f"{self.path} is damaged after event {expected - 1}: {exc}", expected, kept) from None
        return tuple(kept)

    def frame(self, event: Event) -> bytes | None:
        """The JPEG bytes of an event's frame; None when it has none or the file has gone."""
        if event.frame is None:
            return None
        try:
            return (frames_folder(self.path) / event.frame).read_bytes()
        except OSError:
            return None


def _salvage(path: Path) -> tuple[Event, ...]:
    """The events that can still be read from a damaged file.

    A file cut short (a lost tail, a copy that stopped early) makes SQLite refuse it whole, because
    its schema names pages past the end. A copy padded back to the size its header declares, with
    the missing pages zeroed, opens again: reading in order returns every event before the first
    lost page and then stops with an error.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return ()
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        return ()
    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    declared = int.from_bytes(data[28:32], "big") * page_size
    whole_pages = -(-len(data) // page_size) * page_size
    padded = data + bytes(max(declared, whole_pages) - len(data))
    with tempfile.TemporaryDirectory(prefix="tableside-salvage-") as folder:
        copy = Path(folder) / path.name
        copy.write_bytes(padded)
        wal = Path(str(path) + "-wal")
        if wal.is_file():
            shutil.copyfile(wal, str(copy) + "-wal")
        try:
            log = _open_copy(copy)
        except (LogError, sqlite3.DatabaseError):
            return ()
        try:
            return log.events()
        except LogError as exc:
            return exc.kept
        finally:
            log.close()


def _open_copy(copy: Path) -> PlaythroughLog:
    db = sqlite3.connect(copy, check_same_thread=False)
    if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        db.close()
        raise LogError(f"{copy} is not a Tableside playthrough log")
    return PlaythroughLog(copy, db, readonly=True)


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    if readonly:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    else:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level="DEFERRED")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")  # each event is on disk when append returns
    db.execute("PRAGMA busy_timeout = 5000")
    return db
