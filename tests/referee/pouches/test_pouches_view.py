"""The camera's view of a position, and reading a change of view as candidate actions."""

import pytest

from referee import View
from referee.games.pouches.actions import Discard, Move, Pick, Reveal

# col:      0    1    2
# row 0:   5H   JS   2C
# row 1:   4D   9C   8S
HEAP = {"0,0": "? 5H", "1,0": "? ? JS", "2,0": "2C", "0,1": "4D", "1,1": "? 9C", "2,1": "8S"}


@pytest.fixture
def state(build):
    return build("1.9", heap=HEAP, at={"ann": "0,0", "bob": "0,0"}, pouches={"ann": "7C 3H", "bob": ""})


def test_the_view_shows_tops_tokens_and_pouches(state):
    view = state.view()
    assert view["heap/1,0"] == ("JS",) and view["tokens/0,0"] == ("ann", "bob")
    assert view["pouch/ann"] == ("3H", "7C") and "pouch/bob" not in view
    picked = state.apply(Pick("ann", "0,0"))
    assert picked.view()["heap/0,0"] == ("back",)  # waiting for the table to show it
    assert picked.view()["pouch/ann"] == ("3H", "5H", "7C")


def test_a_token_from_a_5_to_a_jack_reads_as_an_illegal_move(state):
    after = dict(state.view())
    after["tokens/0,0"] = ("bob",)
    after["tokens/1,0"] = ("ann",)
    readings = state.interpret(View(after))
    assert [r.action for r in readings] == [Move("ann", "1,0")]
    verdict = readings[0].verdict
    assert not verdict and verdict.reasons[0].rule == "pouches-1.9/move/uphill"
    assert verdict.reasons[0].text == "uphill step of 6 is more than 4 (5 with a Diamond)"


def test_a_swoosh_is_read_along_every_path_that_could_carry_the_token(state):
    after = dict(state.view())
    after["tokens/0,0"] = ("bob",)
    after["tokens/0,2"] = ("ann",)  # 5 -> 4 -> bedrock
    readings = state.interpret(View(after))
    assert [str(r.action) for r in readings] == ["move ann 0,1>0,2"] and readings[0].verdict.legal
    jump = dict(state.view())
    jump["tokens/0,0"] = ("bob",)
    jump["tokens/2,1"] = ("ann",)  # 5 to 8 across the board: no swoosh can do it
    readings = state.interpret(View(jump))
    assert len(readings) == 1 and not readings[0].verdict
    assert readings[0].verdict.rules[0] in ("pouches-1.9/move/swoosh", "pouches-1.9/move/uphill")


def test_other_changes_are_matched_against_the_legal_actions(state):
    dropped = state.apply(Discard("ann", "3H", "drop"))
    readings = state.interpret(dropped.view())
    assert Discard("ann", "3H", "drop") in [r.action for r in readings] and all(r.verdict for r in readings)
    assert state.interpret(state.view()) == ()
    nonsense = dict(state.view())
    nonsense["heap/2,0"] = ("QH",)
    assert state.interpret(View(nonsense)) == ()


def test_the_table_reveal_is_read_from_the_new_top(state):
    picked = state.apply(Pick("ann", "0,0"))
    seen = dict(picked.view())
    seen["heap/0,0"] = ("TD",)
    readings = picked.interpret(View(seen))
    assert [r.action for r in readings] == [Reveal("heap/0,0", "TD")]


def test_an_illegal_pick_or_discard_is_read_with_its_reason(build):
    state = build("1.9", heap=HEAP, at={"ann": "1,1", "bob": "3,3"}, pouches={"ann": "KC", "bob": ""})
    dug = dict(state.view())  # ann takes the 8S on 2,1, a lower neighbour's top: no action allows that
    dug["pouch/ann"] = ("8S", "KC")
    del dug["heap/2,1"]
    readings = state.interpret(View(dug))
    assert [r.action for r in readings] == [Pick("ann", "2,1")]
    assert readings[0].verdict.rules == ("pouches-1.9/pick/dig",)
    dropped = dict(state.view())  # ann puts the KC on her own 9: raises her by 4 -- legal, for contrast
    dropped["pouch/ann"] = ()
    dropped["heap/1,1"] = ("KC",)
    readings = state.interpret(View(dropped))  # a drop, or a throw onto the J sliding back: both legal
    assert Discard("ann", "KC", "drop") in [r.action for r in readings] and all(r.verdict for r in readings)
    low = build("1.9", heap=HEAP, at={"ann": "0,1", "bob": "3,3"}, pouches={"ann": "KC", "bob": ""})
    too_high = dict(low.view())  # the KC on her own 4D raises her by 9
    too_high["pouch/ann"] = ()
    too_high["heap/0,1"] = ("KC",)
    readings = low.interpret(View(too_high))
    assert [r.action for r in readings] == [Discard("ann", "KC", "drop")]
    assert readings[0].verdict.rules == ("pouches-1.9/discard/drop",)
