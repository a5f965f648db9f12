"""Pungo's recorded playthroughs, read turn by turn from the camera's view alone (the replay every game gets is
in tests/referee/test_playthrough.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import playthrough
from referee.games.pungo.observe import explain

FOLDER = Path(__file__).parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


@pytest.mark.parametrize("path", [p for p in FILES if p.stem in ("standard-symmetry", "decision", "chaos")],
                         ids=lambda p: p.stem)
def test_each_recorded_turn_is_read_back_from_the_camera(pg, path):
    """pungo/observe/turn: replaying turn by turn, the checker explains each from the view after it."""
    states = playthrough.replay(playthrough.load(path)).states
    start = states[0]
    for state in states[1:]:
        if pg.turn_start(state) or state.is_over():
            found = explain(start, state.view())
            assert found.explained, f"{found.reasons}"
            assert any(start.apply(t).board == state.board for t in found.turns)
            start = state
