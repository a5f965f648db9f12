"""Recorded playthroughs, replayed end to end: every action legal, the recorded outcome reached, and every
turn readable from the camera's view alone.

Each file under ``playthroughs/`` is one action per line in Pungo's notation, ``#`` starting a comment;
the header comments ``# options: k=v ...`` and ``# outcome: <winner> <rule id>`` configure the game and
say how it ends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games.pungo.observe import explain

FOLDER = Path(__file__).parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def _read(path: Path):
    options, outcome, actions = {}, None, []
    for line in path.read_text().splitlines():
        code, _, comment = line.partition("#")
        comment = comment.strip()
        if not code.strip():
            if comment.startswith("options:"):
                words = comment[len("options:"):].split()
                options = dict(w.split("=", 1) for w in words if w != "-")
            elif comment.startswith("outcome:"):
                outcome = tuple(comment[len("outcome:"):].split())
            continue
        actions.append(code.strip())
    return options, outcome, actions


def test_there_are_playthroughs():
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_its_outcome(pg, path):
    options, outcome, actions = _read(path)
    game = pg.make(**options)
    state = game.new_state()
    for number, text in enumerate(actions, start=1):
        action = game.actions.parse(text)
        verdict = state.check(action)
        assert verdict.legal, f"{path.name} line {number}: {text}: {verdict}"
        state = state.apply(action)
    assert state.is_over() and (state.outcome().winners[0], state.outcome().rule) == outcome


@pytest.mark.parametrize("path", [p for p in FILES if p.stem in ("standard-symmetry", "decision", "chaos")],
                         ids=lambda p: p.stem)
def test_each_recorded_turn_is_read_back_from_the_camera(pg, path):
    """pungo/observe/turn: replaying turn by turn, the checker explains each from the view after it."""
    options, _, actions = _read(path)
    game = pg.make(**options)
    state, start = game.new_state(), None
    start = state
    for text in actions:
        state = state.apply(game.actions.parse(text))
        if pg.turn_start(state) or state.is_over():
            found = explain(start, state.view())
            assert found.explained, f"{text}: {found.reasons}"
            assert any(start.apply(t).board == state.board for t in found.turns)
            start = state
