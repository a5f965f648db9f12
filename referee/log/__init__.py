"""The playthrough log: every decision of a refereed game, append-only, enough to rebuild it.

Modules, one idea each: ``events`` (the Event value and LogError), ``store`` (SQLite in WAL mode,
frames as JPEG files beside it), ``replay`` (event sourcing: the state rebuilt from the events),
``jsonl`` (export and import as JSON Lines), ``repair`` (keeping the good part of a damaged log),
``words`` (events told in words). The payload of every kind is documented in ``docs/live.md``.

    log = PlaythroughLog.create("game.sqlite")
    log.append("action", {...}, snapshot_t=12.4, frame=jpeg_bytes)
    replayed = replay(PlaythroughLog.open("game.sqlite").events())   # .game, .state, .history
"""

from referee.log.events import KINDS, STATE_CHANGES, Event, LogError
from referee.log.jsonl import export_jsonl, import_jsonl, read_jsonl
from referee.log.repair import recover
from referee.log.replay import Replayed, force, replay
from referee.log.store import PlaythroughLog, frames_folder
from referee.log.words import describe

__all__ = ["KINDS", "STATE_CHANGES", "Event", "LogError", "PlaythroughLog", "Replayed", "describe",
           "export_jsonl", "force", "frames_folder", "import_jsonl", "read_jsonl", "recover", "replay"]
