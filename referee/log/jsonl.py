"""A playthrough log as JSON Lines: one JSON object a line, for sharing, archiving and other tools.

The first line is a header, ``{"format": "tableside-playthrough", "version": 1}``; every other line
is one event, ``{"seq", "wall_time", "snapshot_t", "kind", "payload", "frame"}`` (the schema is in
``docs/live.md``). Frames travel in a folder beside the file, named like the log's
(``game.jsonl`` -> ``game-frames/``).

    export_jsonl(log, "game.jsonl")
    events = read_jsonl("game.jsonl")                 # LogError names the first bad line
    log, _ = import_jsonl("game.jsonl", "copy.sqlite")   # checked by replaying it first
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from referee.log.events import Event, LogError
from referee.log.replay import replay
from referee.log.store import PlaythroughLog, frames_folder

FORMAT = "tableside-playthrough"
VERSION = 1


def export_jsonl(log: PlaythroughLog, path: str | os.PathLike) -> int:
    """Write every event of ``log`` to ``path`` (and its frames beside it); returns the number of events."""
    path = Path(path)
    events = log.events()
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(json.dumps({"format": FORMAT, "version": VERSION}) + "\n")
        for event in events:
            out.write(json.dumps(event.to_json(), separators=(",", ":"), sort_keys=True, allow_nan=False) + "\n")
    os.replace(temporary, path)
    _copy_frames(events, frames_folder(log.path), frames_folder(path))
    return len(events)


def read_jsonl(path: str | os.PathLike) -> tuple[Event, ...]:
    """The events of a JSON Lines file. A bad line raises :class:`LogError` naming the line and the
    event, with the good events before it in ``kept``."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"cannot read {path}: {exc}") from None
    if not lines:
        raise LogError(f"{path} is empty: a playthrough export starts with its header line")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError(f"{path}: line 1 is not a Tableside playthrough header ({{\"format\": \"{FORMAT}\", ...}})")
    if header.get("version") != VERSION:
        raise LogError(f"{path} is a version {header.get('version')!r} export; this Tableside reads version {VERSION}")
    events: list[Event] = []
    for number, line in enumerate(lines[1:], start=2):
        expected = len(events) + 1
        where = f"{path}: line {number} (event {expected})"
        if not line.strip():
            continue
        try:
            event = Event.from_json(json.loads(line), where)
        except json.JSONDecodeError as exc:
            raise LogError(f"{where} is not valid JSON: {exc.msg} at character {exc.pos}", expected, events) from None
        except ValueError as exc:
            raise LogError(str(exc), expected, events) from None
        if event.seq != expected:
            raise LogError(f"{where}: expected event {expected}, found event {event.seq}", expected, events)
        events.append(event)
    return tuple(events)


def import_jsonl(source: str | os.PathLike, target: str | os.PathLike,
                 keep_good: bool = False) -> tuple[PlaythroughLog, LogError | None]:
    """A new SQLite log at ``target`` holding the events of ``source``, replayed first to prove them;
    returns the log and the problem that cut the import short (None when every event came in).

    A bad line or an event the game refuses raises :class:`LogError`; with ``keep_good`` the good
    events before it are imported instead, and the error is returned beside the log.
    """
    problem = None
    try:
        events = read_jsonl(source)
    except LogError as exc:
        if not keep_good or not exc.kept:
            raise
        events, problem = exc.kept, exc
    replayed = replay(events, partial=keep_good)
    problem = problem or replayed.problem
    return write_events(replayed.events, target, frames_folder(source)), problem


def write_events(events, target: str | os.PathLike, frames_from: Path | None = None) -> PlaythroughLog:
    """A new log at ``target`` with exactly these events (numbers, times and frame names kept),
    copying their frames from the folder ``frames_from`` when given."""
    log = PlaythroughLog.create(target)
    if frames_from is not None:
        _copy_frames(events, frames_from, frames_folder(target))
    for event in events:
        log.copy(event)
    return log


def _copy_frames(events, source: Path, target: Path) -> None:
    names = [e.frame for e in events if e.frame]
    if not names or source.resolve() == target.resolve():
        return
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        if (source / name).is_file():
            shutil.copyfile(source / name, target / name)
