"""A recorded playthrough turned into the commands a camera and the players would send to the API.

``commands(path, stop_line)`` walks a recorded game (tests/referee/*/playthroughs) up to the line
numbered ``stop_line`` and returns, for each step, either a snapshot the real layouts will read as
that step (staged by tests/referee/live/staged_table.py: a sloppy player's table) or, for a step the
camera cannot see, the notation the players enter by hand. Nothing is faked: the server's session
reads every snapshot with the game's real layout.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "referee" / "live"))

from staged_table import stage, steps  # noqa: E402

from referee import playthrough  # noqa: E402


@dataclass(frozen=True)
class Command:
    kind: str  # "snapshot" or "enter"
    body: dict  # the JSON body for POST /api/games/<id>/<kind>
    line: int  # the playthrough line it stands for
    notation: str


@dataclass(frozen=True)
class Recorded:
    game: object
    setup: object
    commands: list[Command]
    stop: object  # the Step at stop_line (before: the state the game is in when it is reached)


def frame_jpeg(text: str) -> bytes:
    """A small camera-like picture with a caption, so each moment's frame can be told apart."""
    picture = np.full((120, 200, 3), (40, 90, 40), np.uint8)
    cv2.putText(picture, text, (8, 66), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2)
    ok, data = cv2.imencode(".jpg", picture)
    assert ok
    return data.tobytes()


def snapshot_json(game, state, known, rng, t: float) -> dict:
    snapshot = stage(game, state, known, rng).to_json()
    snapshot["t"] = t
    return snapshot


def commands(path: Path, stop_line: int, seed: int = 7) -> Recorded:
    recorded = playthrough.load(path)
    game = recorded.game
    _, lines = steps(recorded)
    rng = random.Random(seed)
    out: list[Command] = []
    for step in lines:
        if step.line.number == stop_line:
            return Recorded(game, recorded.setup, out, step)
        if step.after is None:
            continue  # an @illegal line before the stop: not staged
        notation = step.line.action
        if step.before.view() == step.after.view():  # a declaration: nothing to see, the players enter it
            out.append(Command("enter", {"action": notation}, step.line.number, notation))
            continue
        body = {"snapshot": snapshot_json(game, step.after, step.before, rng, float(len(out) + 1))}
        out.append(Command("snapshot", body, step.line.number, notation))
    raise AssertionError(f"{path.name} has no line {stop_line}")
