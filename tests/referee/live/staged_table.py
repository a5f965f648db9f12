"""Recorded playthroughs staged as a camera would see them, for end-to-end session tests.

``stage(game, state, before, rng)`` is the TableSnapshot of ``state`` laid by a sloppy player with
the layouts tests' staging (tests/referee/layouts/layout_staging.py), on the default A4 mat where a
game has a mat. ``steps(recorded)`` walks a playthrough line by line with the states on either side.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from referee import playthrough
from referee.layouts.mongoose import A4_ZONES
from referee.layouts.pungo import a4_zones

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "referee" / "layouts"))

from layout_staging import stage_deck_town, stage_mongoose, stage_pouches, stage_pungo  # noqa: E402


def zones(game):
    """The mat zones the layout defaults to (None for the gridded games, which need no mat)."""
    if game.type.name == "mongoose":
        return dict(A4_ZONES)
    if game.type.name == "pungo":
        return a4_zones(game.option("arena"), game.option("roll-grid"))
    return None


def stage(game, state, before, rng):
    """The snapshot of ``state`` (``before``: the state the referee knew, whose grid frames the heap)."""
    name = game.type.name
    if name == "pouches":
        return stage_pouches(state, rng, sloppy=True, frame=before.heap)[0]
    if name == "deck-town":
        return stage_deck_town(state, rng, sloppy=True, frame=before.board)[0]
    if name == "mongoose":
        return stage_mongoose(state, rng, zones(game), sloppy=True)
    return stage_pungo(state, rng, zones(game), sloppy=True)


@dataclass(frozen=True)
class Step:
    line: playthrough.Line
    before: object  # the state the line is played from
    after: object | None  # the state after it (None for an @illegal line)


def steps(recorded):
    """(states, [Step, ...]) of a recorded game, in the file's order, @illegal lines included."""
    states = playthrough.replay(recorded).states
    out, index = [], 0
    for line in recorded.lines:
        if line.illegal_rule is not None:
            out.append(Step(line, states[index], None))
        else:
            out.append(Step(line, states[index], states[index + 1]))
            index += 1
    return states, out
