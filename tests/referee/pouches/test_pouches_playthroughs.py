"""Hand-written playthroughs, replayed action by action to the expected winner.

A playthrough is a text file: ``#`` starts a comment; ``@game`` names the edition, players and
options; ``@setup`` gives the table's setup as JSON; every other line is one action in notation; a
line ``@illegal <action> | <rule id>`` is an attempt the referee must refuse, citing that rule;
``@expect winners=<a,b> rule=<rule id>`` ends the file.
"""

import json
from pathlib import Path

import pytest

from referee import games

FOLDER = Path(__file__).parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def replay(path: Path):
    game = state = None
    expected = None
    played = 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path.name}:{number}: {line}"
        if line.startswith("@game"):
            fields = dict(word.split("=", 1) for word in line.split()[1:])
            options = dict(o.split(":", 1) for o in fields.get("options", "").split(",") if o)
            game = games.get("pouches", edition=fields["edition"], players=fields["players"].split(","),
                             options=options)
        elif line.startswith("@setup"):
            state = game.new_state(json.loads(line[len("@setup"):]))
        elif line.startswith("@illegal"):
            text, rule = (part.strip() for part in line[len("@illegal"):].split("|"))
            verdict = state.check(game.actions.parse(text))
            assert not verdict and rule in verdict.rules, f"{where}: {verdict}"
        elif line.startswith("@expect"):
            fields = dict(word.split("=", 1) for word in line.split()[1:])
            expected = (tuple(fields["winners"].split(",")), fields["rule"])
        else:
            action = game.actions.parse(line)
            assert str(action) == line, where
            verdict = state.check(action)
            assert verdict, f"{where}: {verdict}"
            assert not state.is_over(), f"{where}: the game is already over"
            state = state.apply(action)
            played += 1
    return state, expected, played


def test_there_are_at_least_three_playthroughs():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_the_expected_winner(path):
    state, expected, played = replay(path)
    assert expected is not None and played > 10
    outcome = state.outcome()
    assert outcome is not None, f"{path.name} ended without a winner; to move: {state.to_move}"
    assert (outcome.winners, outcome.rule) == expected
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.outcome() == outcome
