"""DISCARD: thrown and sliding, dropped, buried, landing on an occupied spot, onto bedrock."""

import pytest

from referee.games.pouches.actions import Discard
from referee.games.pouches.heap import UNKNOWN, is_beside

# col:      0    1    2
# row 0:   5H   JS   2C
# row 1:   4D   9C   8S
HEAP = {"0,0": "? 5H", "1,0": "? ? JS", "2,0": "2C", "0,1": "4D", "1,1": "? 9C", "2,1": "8S"}


@pytest.fixture
def at(build):
    def make(rule, cell, pouch="KH 3C", bob="3,3", heap=None):
        return build(rule, heap=heap or HEAP, at={"ann": cell, "bob": bob}, pouches={"ann": pouch, "bob": "7D"})
    return make


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/card", "pouches-1.3/discard/card"])
def test_discard_a_card_from_your_own_pouch(rule, at):
    state = at(rule, "1,1")
    assert state.check(Discard("ann", "3C", "drop")).legal
    assert state.check(Discard("ann", "7D", "drop")).rules == (rule,)
    assert state.check(Discard("ann", "ZZ", "drop")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/throw", "pouches-1.3/discard/throw"])
def test_thrown_to_a_neighbour_of_any_height(rule, at):
    state = at(rule, "0,1")  # on 4D
    up = Discard("ann", "3C", "throw", "1,1")  # onto the 9C, higher: allowed (house ruling)
    assert state.check(up).legal and rule in state.check(up).rules
    after = state.apply(up)
    assert after.heap[(1, 1)] == (UNKNOWN, "9C", "3C") and after.pouches["ann"] == ("KH",)
    assert state.check(Discard("ann", "3C", "throw", "1,0")).rules == (rule,)  # diagonal
    far = at(rule, "-1,2")
    assert far.check(Discard("ann", "3C", "throw", "-2,2")).rules == (rule,)  # neither on nor beside
    assert state.check(Discard("ann", "3C", "throw", "x")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/slide", "pouches-1.3/discard/slide"])
def test_a_thrown_card_slides_on_along_lower_cells(rule, at):
    state = at(rule, "0,0")  # 5H; throw east onto the J, slide 9 -> 8 -> bedrock
    slide = Discard("ann", "3C", "throw", "1,0>1,1>2,1>2,2")
    assert state.check(slide).legal
    assert state.apply(slide).heap[(2, 2)] == ("3C",)
    verdict = state.check(Discard("ann", "3C", "throw", "1,0>2,0>2,1"))  # 2 -> 8 is up
    assert not verdict and verdict.rules == (rule,)
    offered = {a.to for a in state.legal_actions() if isinstance(a, Discard) and a.card == "3C" and a.how == "throw"}
    assert {"1,0", "1,0>1,1", "1,0>1,1>2,1>2,2", "0,1>-1,1"} <= offered


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/drop", "pouches-1.3/discard/drop"])
def test_drop_on_your_own_spot_raises_you_by_at_most_4(rule, at):
    state = at(rule, "0,1", pouch="8H KH")  # on 4D
    ok = Discard("ann", "8H", "drop")
    assert state.check(ok).legal and rule in state.check(ok).rules
    assert state.apply(ok).heap[(0, 1)] == ("4D", "8H")
    verdict = state.check(Discard("ann", "KH", "drop"))
    assert not verdict and verdict.rules == (rule,) and "raise you by 9" in str(verdict)
    lower = at(rule, "1,1", pouch="2S")  # dropping lower is fine
    assert lower.check(Discard("ann", "2S", "drop")).legal


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/bedrock", "pouches-1.3/discard/bedrock"])
def test_discarding_onto_bedrock_grows_the_heap(rule, at):
    state = at(rule, "-1,1", pouch="3C KH")
    drop = Discard("ann", "3C", "drop")
    assert rule in state.check(drop).rules
    after = state.apply(drop)
    assert after.heap[(-1, 1)] == ("3C",) and after.height_at((-1, 1)) == 3
    assert is_beside(after.heap, (-2, 1)) and not is_beside(state.heap, (-2, 1))  # the heap spread
    assert after.spots["ann"] == (-1, 1)  # now standing on the new pile
    throw = Discard("ann", "3C", "throw", "-1,0")
    assert rule in state.check(throw).rules
    assert not state.check(Discard("ann", "KH", "drop")).legal  # 0 -> 13 raises by more than 4


def test_burying_beneath_a_higher_neighbour_in_19(at):
    rule = "pouches-1.9/discard/bury"
    state = at("1.9", "1,1")  # 9C; J at 1,0 higher, 8S at 2,1 lower
    bury = Discard("ann", "3C", "bury", "1,0")
    assert state.check(bury).legal and rule in state.check(bury).rules
    assert state.apply(bury).heap[(1, 0)] == (UNKNOWN, UNKNOWN, "3C", "JS")
    verdict = state.check(Discard("ann", "3C", "bury", "2,1"))
    assert not verdict and verdict.rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/discard/ways", "pouches-1.3/discard/ways"])
def test_the_ways_to_discard(rule, at):
    state = at(rule, "1,1")
    assert state.check(Discard("ann", "3C", "fling", "1,0")).rules == (rule,)
    bury = state.check(Discard("ann", "3C", "bury", "1,0"))
    if rule.startswith("pouches-1.3"):
        assert not bury and bury.rules == (rule,) and "no burying" in str(bury)
        assert state.check(Discard("ann", "3C", "throw", "1,0", "1,0")).rules == (rule,)
    else:
        assert bury.legal


def test_a_card_landing_on_an_occupied_spot_too_high_is_buried_in_19(at):
    rule = "pouches-1.9/discard/occupied"
    state = at("1.9", "0,1", bob="2,1")  # bob on the 8S
    throw = Discard("ann", "KH", "throw", "1,1>2,1")  # K on bob's 8: raises by 5
    assert state.check(throw).legal and rule in state.check(throw).rules
    after = state.apply(throw)
    assert after.heap[(2, 1)] == ("KH", "8S") and after.height_at((2, 1)) == 8
    assert state.apply(Discard("ann", "3C", "throw", "1,1>2,1")).heap[(2, 1)] == ("8S", "3C")
    assert state.check(Discard("ann", "KH", "throw", "1,1>2,1", "1,1")).rules == (rule,)
    # on bedrock: buried beneath a neighbouring pile of the thrower's choosing
    bedrock = at("1.9", "2,1", bob="3,1")
    verdict = bedrock.check(Discard("ann", "KH", "throw", "3,1"))
    assert not verdict and verdict.rules == (rule,) and "house ruling" in str(verdict)
    under = Discard("ann", "KH", "throw", "3,1", "2,1")
    assert bedrock.check(under).legal
    assert bedrock.apply(under).heap[(2, 1)] == ("KH", "8S")
    assert bedrock.check(Discard("ann", "3C", "throw", "3,1", "2,1")).rules == (rule,)  # 3 is no burial


def test_greedy_devils_never_buries_a_landing_card(at):
    state = at("1.3", "0,1", bob="2,1")
    after = state.apply(Discard("ann", "KH", "throw", "1,1>2,1"))
    assert after.heap[(2, 1)] == ("8S", "KH")
    assert not any(a.how == "bury" for a in state.legal_actions() if isinstance(a, Discard))
