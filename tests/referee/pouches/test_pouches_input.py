"""Bad input gets a specific message: action notation and JSON, state JSON, cards and cells."""

import json

import pytest

from referee import ActionParseError
from referee.games.pouches.actions import Discard, Move, Weapons


@pytest.mark.parametrize("text, message", [
    ("discard ann 7C", "needs a player, a card and a way"),
    ("discard ann 7C throw", "cannot read discard"),
    ("discard ann 7C throw 1,2 over 2,2", "cannot read discard"),
    ("move ann", r"'move' takes 2 argument\(s\)"),
    ("jump ann 1,2", "unknown action 'jump'"),
])
def test_unreadable_notation(new_game, text, message):
    with pytest.raises(ActionParseError, match=message):
        new_game("1.9").actions.parse(text)


def test_actions_round_trip_through_notation_and_json(new_game):
    codec = new_game("1.9").actions
    for action in (Discard("ann", "7C", "throw", "3,3", "2,3"), Discard("ann", "7C", "bury", "1,2"),
                   Move("ann", "1,0>1,1>-1,1"), Weapons(("ann:KS", "bob:7H"))):
        assert codec.parse(str(action)) == action
        assert codec.from_json(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(ActionParseError, match="missing \\['path'\\]"):
        codec.from_json({"kind": "move", "player": "ann"})


def test_malformed_state_json_is_refused(new_game):
    game = new_game("1.9")
    data = game.new_state().to_json()
    with pytest.raises(ValueError, match="not a Pouches of Destiny state"):
        game.state_from_json({k: v for k, v in data.items() if k != "heap"})
    with pytest.raises(ValueError, match="unknown phase"):
        game.state_from_json(data | {"phase": "dancing"})
    with pytest.raises(ValueError, match="players differ"):
        game.state_from_json(data | {"pouches": {"zed": []}})


def test_bad_cells_and_cards_in_actions_are_explained(build):
    state = build("1.9", heap={"0,0": "5H"}, at={"ann": "-1,0", "bob": "-1,0"}, pouches={"ann": "7C"})
    assert "not a cell" in str(state.check(Move("ann", "north")))
    assert "not a cell" in str(state.check(Discard("ann", "7C", "throw", "0,0>up")))
    assert "not in ann's pouch" in str(state.check(Discard("ann", "XX", "drop")))
    assert state.check(Weapons(("annKS",))).rules == ("pouches-1.9/turn/order",)  # no fight is on
