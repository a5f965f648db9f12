"""Recorded playthroughs (referee/playthrough.py format), replayed end to end: every action legal, the
recorded outcome reached, and every turn readable from the camera's view alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import playthrough
from referee.games.pungo.observe import explain

FOLDER = Path(__file__).parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def test_there_are_playthroughs():
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_its_outcome(path):
    recorded = playthrough.load(path)
    assert recorded.expected is not None
    assert playthrough.replay(recorded).state.is_over()


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
