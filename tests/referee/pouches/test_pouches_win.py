"""Winning (at once in 1.9, at the end of the round in 1.3) and the Advanced Rules options."""

import pytest

from referee import CHANCE

from referee.games.pouches.actions import Discard, Move, Show, Stay

# col:      0    1    2
# row 0:   5H   JS   2C
# row 1:   4D   9C   8S
HEAP = {"0,0": "? 5H", "1,0": "? ? JS", "2,0": "2C", "0,1": "4D", "1,1": "? 9C", "2,1": "8S"}
FOODS = "AS 2H 3D 4C 5S"


@pytest.fixture
def at(build):
    def make(rule, ann_at="1,1", ann=FOODS, bob_at="-1,0", bob="", heap=None, **kw):
        return build(rule, heap=heap or HEAP, at={"ann": ann_at, "bob": bob_at}, pouches={"ann": ann, "bob": bob},
                     **kw)
    return make


def test_19_win_at_once_on_the_highest_spot_with_five_foods(at):
    rule = "pouches-1.9/win/at-once"
    won = at(rule).apply(Move("ann", "1,0"))  # 9 -> J, the highest visible spot
    outcome = won.outcome()
    assert outcome.winners == ("ann",) and outcome.rule == rule and "all five foods" in outcome.text
    assert won.to_move is None and won.legal_actions() == []
    verdict = won.check(Stay("bob"))
    assert not verdict and verdict.rules == (rule,)
    assert not at(rule).apply(Move("ann", "2,1")).is_over()  # onto the 8: not the highest


@pytest.mark.parametrize("rule", ["pouches-1.9/win/foods", "pouches-1.3/win/foods"])
def test_five_different_food_values_are_needed(at, rule):
    state = at(rule, ann_at="1,0", ann="AS AH 2H 3D 4C")
    assert not state.qualifies("ann")
    assert at(rule, ann_at="1,0").qualifies("ann")
    assert not at(rule, ann_at="1,0", ann="2S 3H 4D 5C 6S").qualifies("ann")


@pytest.mark.parametrize("rule", ["pouches-1.9/win/highest", "pouches-1.3/win/highest"])
def test_the_winner_stands_on_the_highest_or_equal_highest_spot(at, rule):
    assert not at(rule, ann_at="1,1").qualifies("ann")
    assert at(rule, ann_at="1,0").qualifies("ann")
    assert at(rule, ann_at="2,0", heap=HEAP | {"2,0": "JD"}).qualifies("ann")  # equal highest
    assert not at(rule, ann_at="-1,1").qualifies("ann")  # bedrock


def test_13_checks_the_win_only_when_the_round_has_finished(at):
    rule = "pouches-1.3/win/end-of-round"
    state = at(rule).apply(Move("ann", "1,0"))
    assert not state.is_over() and state.to_move == "bob"
    done = state.apply(Stay("bob"))
    assert done.outcome().winners == ("ann",) and done.outcome().rule == rule
    # ann leaves the top before the round ends: no win
    lost = at(rule, ann_at="1,0", turn=0).apply(Move("ann", "1,1"))
    assert not lost.apply(Stay("bob")).is_over()


@pytest.mark.parametrize("option, winners", [("share", ("ann", "bob")), ("first", ("ann",))])
def test_13_simultaneous_qualifiers_share_or_the_first_wins(at, option, winners):
    rule = "pouches-1.3/win/simultaneous"
    state = at(rule, ann_at="1,1", bob_at="2,0", bob=FOODS.replace("AS", "AD").replace("2H", "2D")
               .replace("3D", "3H").replace("4C", "4S").replace("5S", "5H"), heap=HEAP | {"2,0": "JD"},
               options={"simultaneous-win": option})
    state = state.apply(Move("ann", "1,0")).apply(Stay("bob"))
    assert state.outcome().winners == winners and state.outcome().rule == rule
    lone = at(rule, options={"simultaneous-win": option}).apply(Move("ann", "1,0")).apply(Stay("bob"))
    assert lone.outcome().rule != rule  # a single winner is decided by the end-of-round rule


def test_steeper_hills_limit_the_uphill_step(at):
    rule = "pouches-1.9/advanced/steeper-hills"
    state = at(rule, ann_at="0,1", ann="", options={"steeper-hills": "3/4"})  # on the 4D
    verdict = state.check(Move("ann", "1,1"))  # 4 -> 9 is 5
    assert not verdict and rule in verdict.rules and "pouches-1.9/move/uphill" in verdict.rules
    assert "uphill step of 5 is more than 3 (4 with a Diamond) (Steeper Hills)" in str(verdict)
    assert state.check(Move("ann", "0,0")).legal  # 4 -> 5
    steep = dict(ann_at="2,1", heap=HEAP | {"2,0": "? JD"}, options={"steeper-hills": "2/3"})  # on the 8S
    steepest = at(rule, ann="", **steep)
    assert steepest.check(Move("ann", "1,1")).legal  # 8 -> 9
    assert rule in steepest.check(Move("ann", "2,0")).rules  # 8 -> J is 3
    assert at(rule, ann="TD", **steep).check(Move("ann", "2,0")).legal


def test_relaxation_eases_the_win_after_ten_rounds(at):
    rule = "pouches-1.9/advanced/relaxation"
    on_nine = dict(ann_at="2,1", heap=HEAP | {"1,0": "? ? 9S", "1,1": "? 8C"}, options={"relaxation": True})
    assert not at(rule, round=10, **on_nine).qualifies("ann")  # 8 is one below the 9
    assert at(rule, round=11, **on_nine).qualifies("ann")
    four_foods = dict(on_nine, ann="AS 2H 3D 4C")
    assert not at(rule, round=13, **four_foods).qualifies("ann")
    assert at(rule, round=14, **four_foods).qualifies("ann")
    assert not at(rule, round=14, ann_at="2,1", ann="AS 2H 3D 4C", heap=HEAP | {"1,0": "? ? 9S", "1,1": "? 8C"}
                  ).qualifies("ann")  # no relaxation without the option
    # the easing applies as a round starts: bob's stay ends round 10 and ann wins at round 11
    state = at(rule, round=10, turn=1, **on_nine).apply(Stay("bob"))
    assert state.outcome().winners == ("ann",) and "relaxation" in state.outcome().text
    assert state.outcome().rule == rule


def test_private_pouches_hide_pouches_from_the_camera(at):
    rule = "pouches-1.9/advanced/private-pouches"
    state = at(rule, options={"private-pouches": True})
    assert state.view()["pouch/ann"] == ("back",) * 5
    qualified = state.apply(Move("ann", "1,0"))
    # the win waits for the table to show the pouch, and stands only on the pouch the referee followed
    assert qualified.outcome() is None and qualified.to_move == CHANCE
    pouch = ("2H", "3D", "4C", "5S", "AS")
    assert list(qualified.legal_actions()) == [Show("ann", pouch)]
    wrong = qualified.check(Show("ann", ("2H", "3D", "4C", "5S", "KS")))
    assert not wrong and wrong.rules == (rule,) and "not the one the referee followed" in str(wrong)
    assert qualified.check(Show("bob", ())).rules == (rule,)
    assert qualified.check(Discard("ann", "AS", "drop")).rules == (rule,)
    won = qualified.apply(Show("ann", pouch))
    assert won.outcome().winners == ("ann",) and "pouch was shown" in won.outcome().text
    assert won.view()["pouch/ann"] == pouch and at("1.9").view()["pouch/ann"] == pouch
    assert won.check(Discard("ann", "AS", "drop")).rules == ("pouches-1.9/win/at-once",)
