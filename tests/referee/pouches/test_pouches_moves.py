"""MOVE, PICK and the pouch limit: each rule id with a legal and an illegal case, in both editions."""

import pytest

from referee.games.pouches.actions import Done, Move, Pick, Stay
from referee.games.pouches.heap import UNKNOWN

# A small heap:      col 0   col 1   col 2
#           row 0     5H      JS      2C
#           row 1     4D      9C      8S
HEAP = {"0,0": "? 5H", "1,0": "? ? JS", "2,0": "2C", "0,1": "4D", "1,1": "? 9C", "2,1": "8S"}


@pytest.fixture
def at(build):
    """ann to act at ``cell`` on HEAP (bob far away at 3,3)."""
    def make(rule, cell, pouch="", heap=None, **kw):
        return build(rule, heap=heap or HEAP, at={"ann": cell, "bob": "3,3"}, pouches={"ann": pouch}, **kw)
    return make


@pytest.mark.parametrize("rule", ["pouches-1.9/move/uphill", "pouches-1.3/move/uphill"])
def test_uphill_step_of_at_most_4_or_5_with_a_diamond(rule, at):
    state = at(rule, "0,0")  # on a 5H
    assert state.check(Move("ann", "1,0")).rules == (rule,)  # 5 -> J is 6
    verdict = state.check(Move("ann", "1,0"))
    assert not verdict and verdict.reasons[0].text == "uphill step of 6 is more than 4 (5 with a Diamond)"
    four = at(rule, "0,0", heap=HEAP | {"1,0": "? ? 9S"})  # 5 -> 9 is 4
    assert four.check(Move("ann", "1,0")).legal and rule in four.check(Move("ann", "1,0")).rules
    near = at(rule, "0,1", pouch="")  # 4D -> 9C is 5
    assert not near.check(Move("ann", "1,1")) and rule in near.check(Move("ann", "1,1")).rules
    with_diamond = at(rule, "0,1", pouch="TD")
    assert with_diamond.check(Move("ann", "1,1")) and rule in with_diamond.check(Move("ann", "1,1")).rules


def test_uphill_from_bedrock(at):
    assert at("1.9", "-1,1").check(Move("ann", "0,1")).legal  # bedrock -> 4D
    assert not at("1.9", "-1,0").check(Move("ann", "0,0")).legal  # bedrock -> 5H is 5
    assert not at("1.9", "1,-1").check(Move("ann", "1,0")).legal  # 0 -> J is 11


@pytest.mark.parametrize("rule", ["pouches-1.9/move/step", "pouches-1.3/move/step"])
def test_one_step_nesw_to_a_neighbour(rule, at):
    state = at(rule, "2,0", heap=HEAP | {"3,0": "2H"})
    assert state.check(Move("ann", "3,0")).legal and rule in state.check(Move("ann", "3,0")).rules  # level
    verdict = state.check(Move("ann", "2,2"))
    assert not verdict and verdict.rules == (rule,) and "not a neighbouring spot" in str(verdict)
    assert state.check(Move("ann", "1-2")).rules == (rule,)  # not a cell


@pytest.mark.parametrize("rule", ["pouches-1.9/move/beside", "pouches-1.3/move/beside"])
def test_marsupials_stay_on_or_beside_the_heap(rule, at):
    state = at(rule, "-1,1")
    assert state.check(Move("ann", "-1,2")).legal  # touches 0,1 at a corner
    verdict = at(rule, "-1,2").check(Move("ann", "-2,2"))
    assert not verdict and verdict.rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/move/diagonal", "pouches-1.3/move/diagonal"])
def test_diagonal_steps_round_a_corner_on_bedrock(rule, at):
    state = at(rule, "-1,0")
    assert state.check(Move("ann", "0,-1")).legal and rule in state.check(Move("ann", "0,-1")).rules
    assert state.check(Move("ann", "-1,1")).legal  # an ordinary step for comparison
    # onto the heap diagonally
    assert state.check(Move("ann", "0,1")).rules == (rule,)
    # from a pile diagonally
    assert at(rule, "0,0").check(Move("ann", "-1,1")).rules == (rule,)
    # diagonal that cuts no heap corner: -1,2 to -2,3 passes -1,3 and -2,2, both bedrock
    assert at(rule, "-1,2").check(Move("ann", "-2,3")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/move/swoosh", "pouches-1.3/move/swoosh"])
def test_swoosh_along_ever_lower_cards(rule, at):
    state = at(rule, "1,0")  # J: J -> 9 -> 8 -> bedrock 2,2 is ever lower
    for path in ("1,1", "1,1>2,1", "1,1>2,1>2,2", "1,1>0,1", "1,1>0,1>-1,1", "0,0>0,1>0,2"):
        verdict = state.check(Move("ann", path))
        assert verdict.legal and rule in verdict.rules, path
    verdict = state.check(Move("ann", "2,0>2,1"))  # J -> 2 -> 8 goes up
    assert not verdict and verdict.rules == (rule,) and "not lower" in str(verdict)
    assert state.check(Move("ann", "1,1>1,1")).rules == (rule,)
    assert state.check(Move("ann", "1,1>2,2")).rules == (rule,)  # not NESW
    assert set(a.path for a in state.legal_actions() if isinstance(a, Move)) >= {"1,1>2,1>2,2", "0,0>0,1>0,2"}


@pytest.mark.parametrize("rule", ["pouches-1.9/move/stay", "pouches-1.3/move/stay"])
def test_staying_is_always_allowed_but_only_on_your_turn(rule, at):
    state = at(rule, "1,1")
    assert rule in state.check(Stay("ann")).rules
    turn = rule.replace("move/stay", "turn/order")
    assert state.check(Stay("bob")).rules[0] == turn


@pytest.mark.parametrize("rule", ["pouches-1.9/turn/order", "pouches-1.3/turn/order"])
def test_only_the_player_to_move_acts(rule, at):
    state = at(rule, "1,1")
    assert state.to_move == "ann" and state.check(Move("ann", "1,0")).legal
    verdict = state.check(Move("bob", "3,2"))
    assert not verdict and verdict.rules[0] == rule and "ann's" in str(verdict)
    assert state.check(Move("nobody", "1,0")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/turn/actions", "pouches-1.3/turn/actions"])
def test_unknown_things_are_not_actions(rule, at):
    state = at(rule, "1,1")
    assert state.check(object()).rules == (rule,)
    assert all(state.check(a).legal for a in state.legal_actions())


@pytest.mark.parametrize("rule", ["pouches-1.9/pick/own", "pouches-1.3/pick/own"])
def test_pick_your_own_top_card_and_the_table_reveals_the_next(rule, at):
    state = at(rule, "1,1")
    verdict = state.check(Pick("ann", "1,1"))
    assert verdict.legal and rule in verdict.rules
    after = state.apply(Pick("ann", "1,1"))
    assert after.pouches["ann"] == ("9C",) and after.heap[(1, 1)] == (UNKNOWN,)
    assert after.to_move == "*table*" and after.pending == ("heap/1,1",)
    assert not at(rule, "-1,0").check(Pick("ann", "-1,0")).legal
    assert at(rule, "-1,0").check(Pick("ann", "-1,0")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/pick/dig", "pouches-1.3/pick/dig"])
def test_dig_beneath_a_higher_neighbour(rule, at):
    state = at(rule, "1,1")  # 9C; J at 1,0 is higher, 8S at 2,1 is lower
    verdict = state.check(Pick("ann", "1,0"))
    assert verdict.legal and rule in verdict.rules
    after = state.apply(Pick("ann", "1,0"))
    assert after.heap[(1, 0)] == (UNKNOWN, "JS") and after.pending == ("pouch/ann",)
    shown = after.apply(after.legal_actions()[0])
    assert len(shown.pouches["ann"]) == 1 and UNKNOWN not in shown.pouches["ann"]
    assert state.check(Pick("ann", "2,1")).rules == (rule,)  # lower
    assert state.check(Pick("ann", "0,0")).rules == (rule,)  # not a NESW neighbour


@pytest.mark.parametrize("rule", ["pouches-1.9/pick/dig-depth", "pouches-1.3/pick/dig-depth"])
def test_a_single_card_pile_cannot_be_dug(rule, at):
    state = at(rule, "2,1", heap=HEAP | {"2,0": "QD"})  # 8S beneath a lone QD
    verdict = state.check(Pick("ann", "2,0"))
    assert not verdict and verdict.rules == (rule,) and "house ruling" in str(verdict)
    assert at(rule, "2,1").check(Pick("ann", "1,1")).legal  # 9C over a hidden card


@pytest.mark.parametrize("rule", ["pouches-1.9/pick/spade", "pouches-1.3/pick/spade"])
def test_a_spade_held_before_the_action_gives_a_second_pick(rule, at):
    state = at(rule, "1,1", pouch="3S")
    after = state.apply(Pick("ann", "1,1"))
    after = after.apply(after.legal_actions()[0])  # the table shows the next card
    assert after.phase == "pick2" and after.to_move == "ann"
    assert after.check(Pick("ann", "1,1")).legal and after.check(Done("ann")).legal
    assert rule in after.check(Pick("ann", "1,1")).rules
    verdict = after.check(Stay("ann"))
    assert not verdict and verdict.rules == (rule,)
    twice = after.apply(Pick("ann", "1,1"))
    assert len(twice.pouches["ann"]) == 3 and twice.phase != "pick2"
    # the spade picked by the first pick does not count
    spade_top = at(rule, "2,1")  # 8S
    once = spade_top.apply(Pick("ann", "2,1"))
    assert once.phase == "act" and once.to_move == "bob"
    verdict = once.check(Pick("ann", "1,1"))
    assert not verdict and verdict.rules == (rule,) and "held before the action" in str(verdict)


@pytest.mark.parametrize("rule", ["pouches-1.9/pouch/limit", "pouches-1.3/pouch/limit"])
def test_a_full_pouch_must_discard_at_once(rule, at):
    state = at(rule, "1,1", pouch="AH 2H 3H 4H 5H")
    after = state.apply(Pick("ann", "1,1"))
    after = after.apply(after.legal_actions()[0])
    assert after.phase == "overflow" and after.to_move == "ann" and len(after.pouches["ann"]) == 6
    verdict = after.check(Move("ann", "1,0"))
    assert not verdict and verdict.rules == (rule,)
    discards = after.legal_actions()
    assert discards and all(a.kind == "discard" for a in discards)
    done = after.apply(discards[0])
    assert len(done.pouches["ann"]) == 5 and done.phase != "overflow"
