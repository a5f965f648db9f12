"""Keeping the good part of a damaged log.

``recover(path)`` reads a log up to its first bad event (a damaged page, a payload that does not
parse, an action the game refuses on replay), moves the damaged file aside untouched
(``game.sqlite`` -> ``game.damaged-1.sqlite``, never deleted) and writes the good events to a
fresh log at the original path, so the game resumes from the last good state.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.log.events import LogError
from referee.log.jsonl import write_events
from referee.log.replay import replay
from referee.log.store import PlaythroughLog


def recover(path: str | os.PathLike) -> tuple[Path, LogError | None]:
    """Rewrite the log at ``path`` with its good events; returns where the damaged file went and the
    problem found (None, and nothing moved, when the log was whole)."""
    path = Path(path)
    problem = None
    try:
        log = PlaythroughLog.open(path, readonly=True)
    except LogError as exc:
        if not exc.kept:
            raise LogError(f"{exc}; nothing can be recovered from it") from None
        events, problem = exc.kept, exc  # a damaged file: what could be read of it
    else:
        try:
            events = log.events()
        except LogError as exc:
            events, problem = exc.kept, exc
        finally:
            log.close()
    if not events:
        raise LogError(f"{problem or path}; not even the game event can be read, so nothing can be recovered")
    replayed = replay(events, partial=True)
    problem = problem or replayed.problem
    if problem is None:
        return path, None
    aside = _aside(path)
    for suffix in ("", "-wal", "-shm"):
        if Path(str(path) + suffix).exists():
            os.replace(str(path) + suffix, str(aside) + suffix)
    write_events(replayed.events, path, None).close()  # the frames folder stays: the good events name its files
    return aside, problem


def _aside(path: Path) -> Path:
    number = 1
    while True:
        candidate = path.with_name(f"{path.stem}.damaged-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
        number += 1
