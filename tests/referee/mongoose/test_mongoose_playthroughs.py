"""Recorded playthroughs, replayed end to end to the outcome they record.

A playthrough is action notation, one action a line, ``#`` starting a comment. ``#! winners:``,
``#! rule:`` and ``#! text:`` give the expected outcome. A line ``refused <rule id>: <action>`` is a
wrong move the table showed: the referee must refuse it citing that rule, and play goes on.
"""

import json
from pathlib import Path

import pytest

from referee import IllegalAction

FOLDER = Path(__file__).parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def replay(game, path):
    expected, state, refused = {}, game.new_state(), 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        if raw.startswith("#!"):
            key, _, value = raw[2:].partition(":")
            expected[key.strip()] = value.strip()
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("refused "):
            rule, _, text = line[len("refused "):].partition(":")
            action = game.actions.parse(text)
            with pytest.raises(IllegalAction) as raised:
                state.apply(action)
            assert rule.strip() in raised.value.verdict.rules, f"{path.name}:{number}: {raised.value}"
            refused += 1
            continue
        action = game.actions.parse(line)
        assert str(action) == line, f"{path.name}:{number}: notation does not round-trip"
        verdict = state.check(action)
        assert verdict.legal, f"{path.name}:{number}: {line}: {verdict}"
        state = state.apply(action)
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    return state, expected, refused


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_its_outcome(game, path):
    state, expected, refused = replay(game, path)
    outcome = state.outcome()
    assert outcome is not None, f"{path.name} ends before the game does"
    winners = tuple(expected["winners"].split()) if expected["winners"] != "-" else ()
    assert (outcome.winners, outcome.rule, outcome.text) == (winners, expected["rule"], expected["text"])
    revealed = [card for card in state.plays if card]  # a forfeit may come between a play and its capture
    assert len(state.discards) + sum(map(len, state.collections)) + len(state.pool) + len(state.unseen) + len(
        revealed) == 52


def test_there_are_full_games_and_a_forfeit():
    rules = {path.stem: next(l for l in path.read_text().splitlines() if l.startswith("#! rule:")) for path in FILES}
    assert len(FILES) >= 2
    assert any("mongoose/rank/" in r for r in rules.values()) and any("mongoose/end/forfeit" in r for r in rules.values())


def test_a_recorded_wrong_move_is_refused(game):
    state, _, refused = replay(game, FOLDER / "four-and-a-pair.txt")
    assert refused == 1 and state.outcome().winners == ("ann",)
