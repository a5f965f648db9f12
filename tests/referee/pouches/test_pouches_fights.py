"""FIGHTS: when they may start, who is asked and in what order, weapons, scores, discards, spoils."""

import pytest

from referee import CHANCE
from referee.games.pouches.actions import Decline, Discard, Fight, Move, Stay, Take, Weapons
from referee.games.pouches.fight import decide

# col:      0    1    2
# row 0:   5H   JS   2C
# row 1:   4D   9C   8S
HEAP = {"0,0": "? 5H", "1,0": "? ? JS", "2,0": "2C", "0,1": "4D", "1,1": "? 9C", "2,1": "8S"}
THREE = ("ann", "bob", "cat")


@pytest.fixture
def meet(build):
    """ann (to act, on the 8S) next to bob on the 9C; cat elsewhere unless placed."""
    def make(rule, ann="KH 3C", bob="7D 4S", cat="6C", cat_at="3,3", players=THREE, **kw):
        at = {"ann": "2,1", "bob": "1,1", "cat": cat_at}
        return build(rule, heap=HEAP, at={p: at[p] for p in players},
                     pouches={"ann": ann, "bob": bob, "cat": cat}, players=players, **kw)
    return make


def fight_won_by_ann(state):
    state = state.apply(Move("ann", "1,1")).apply(Fight("ann", "bob"))
    return state.apply(Weapons(("ann:KH", "bob:7D")))


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/when", "pouches-1.3/fight/when"])
def test_a_fight_may_start_where_marsupials_meet(rule, meet):
    state = meet(rule).apply(Move("ann", "1,1"))
    assert state.phase == "consult" and state.to_move == "ann"
    assert rule in state.check(Fight("ann", "bob")).rules and state.check(Fight("ann", "bob")).legal
    verdict = state.check(Fight("ann", "cat"))
    assert not verdict and verdict.rules == (rule,)
    apart = meet(rule).apply(Stay("ann"))  # nobody shares a spot: no one is asked
    assert apart.phase == "act" and apart.to_move != "ann"


def test_swooshing_past_starts_no_fight_in_19_but_does_in_13(meet):
    # ann on the J swooshes 1,0 -> 1,1 (bob) -> 2,1 -> 2,2
    for edition, asked in (("1.9", False), ("1.3", True)):
        state = meet(edition)
        state.spots["ann"] = (1, 0)
        after = state.apply(Move("ann", "1,1>2,1>2,2"))
        assert (after.phase == "consult") is asked, edition
        if asked:
            assert after.to_move == "ann" and after.check(Fight("ann", "bob")).legal
            assert "pouches-1.3/fight/when" in after.check(Fight("ann", "bob")).rules


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/order", "pouches-1.3/fight/order"])
def test_the_arriving_marsupial_is_asked_first_then_turn_wise(rule, meet):
    state = meet(rule, cat_at="1,1").apply(Move("ann", "1,1"))
    assert state.to_move == "ann"
    verdict = state.check(Fight("bob", "ann"))
    assert not verdict and verdict.rules == (rule,)
    state = state.apply(Decline("ann"))
    assert state.to_move == "bob" and state.check(Fight("bob", "cat")).legal
    state = state.apply(Decline("bob"))
    assert state.to_move == "cat"
    state = state.apply(Decline("cat"))
    assert state.phase == "act" and state.to_move == "bob"


def test_19_asks_from_the_player_to_act_but_13_in_the_rounds_order(meet):
    # round order ann, bob, cat; it is bob's turn (turn 1); ann and cat share a spot with bob arriving
    for edition, expected in (("1.9", ["bob", "cat", "ann"]), ("1.3", ["ann", "bob", "cat"])):
        state = meet(edition, cat_at="1,0", turn=1)
        state.spots["ann"] = (1, 0)
        state.spots["bob"] = (1, 1)
        state = state.apply(Move("bob", "1,0"))
        asked = []
        while state.phase == "consult":
            asked.append(state.to_move)
            state = state.apply(Decline(state.to_move))
        assert asked == expected, edition


def test_each_marsupial_has_one_chance_per_turn_in_19(meet):
    rule = "pouches-1.9/fight/once"
    state = meet("1.9", cat_at="1,1", ann="KH 3C 2C").apply(Move("ann", "1,1")).apply(Fight("ann", "bob"))
    state = state.apply(Weapons(("ann:2C", "bob:7D")))  # bob wins
    state = state.apply(Discard("ann", "2C", "throw", "1,0")).apply(Discard("bob", "7D", "drop"))
    state = state.apply(Take("bob", "KH"))
    assert state.phase == "consult" and state.to_move == "bob"
    assert state.check(Fight("bob", "ann")).legal  # fighting back is allowed
    verdict = state.check(Fight("ann", "bob"))
    assert not verdict and verdict.rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/needs-cards", "pouches-1.3/fight/needs-cards"])
def test_a_fight_needs_cards_on_both_sides(rule, meet):
    state = meet(rule, bob="", cat_at="1,1").apply(Move("ann", "1,1"))
    assert state.to_move == "ann" and state.check(Fight("ann", "cat")).legal
    verdict = state.check(Fight("ann", "bob"))
    assert not verdict and verdict.rules == (rule,) and "house ruling" in str(verdict)
    assert Fight("ann", "bob") not in state.legal_actions()


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/weapons", "pouches-1.3/fight/weapons"])
def test_weapons_are_chosen_in_secret_and_revealed_together(rule, meet):
    state = meet(rule).apply(Move("ann", "1,1")).apply(Fight("ann", "bob"))
    assert state.phase == "weapons" and state.to_move == "ann"
    assert len(state.legal_actions()) == 4  # every pair of choices is one joint action
    assert rule in state.check(Weapons(("ann:KH", "bob:4S"))).rules
    for bad in (("ann:7D", "bob:4S"), ("ann:KH",), ("ann:KH", "cat:6C"), ("annKH", "bob:4S")):
        verdict = state.check(Weapons(bad))
        assert not verdict and verdict.rules == (rule,), bad
    assert state.check(Stay("ann")).rules == (rule,)


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/score", "pouches-1.3/fight/score"])
def test_scores_clubs_add_one_hearts_break_ties(rule, meet):
    state = meet(rule, ann="8S AC", bob="9D 9H").apply(Move("ann", "1,1")).apply(Fight("ann", "bob"))
    verdict = state.check(Weapons(("ann:8S", "bob:9D")))
    assert rule in verdict.rules and "a draw, ann 9 (with a Club) and bob 9" in str(verdict)
    hearts = state.check(Weapons(("ann:8S", "bob:9H")))
    assert "bob 9 beats ann 9: the Heart breaks the tie" in str(hearts)
    after = state.apply(Weapons(("ann:8S", "bob:9H")))
    after = after.apply(Discard("ann", "8S", "drop")).apply(Discard("bob", "9H", "drop"))
    assert after.to_move == "bob"  # the winner takes, the loser may not
    assert after.check(Take("ann", "9D")).rules == (rule.replace("score", "spoils"),)
    assert decide("a", "9H", ("9H",), "b", "TH", ("TH",))[0] == "b"  # the higher Heart
    assert decide("a", "KS", ("KS",), "b", "2C", ("2C",))[0] == "a"


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/discard-order", "pouches-1.3/fight/discard-order"])
def test_weapons_are_discarded_loser_first_or_defender_first_on_a_draw(rule, meet):
    won = fight_won_by_ann(meet(rule))
    assert won.to_move == "bob" and won.view()["weapon/bob"] == ("7D",)
    verdict = won.check(Discard("ann", "KH", "drop"))
    assert not verdict and verdict.rules == (rule,)
    assert won.check(Discard("bob", "4S", "drop")).rules == (rule,)  # only the weapon
    assert won.check(Discard("bob", "7D", "throw", "1,0")).legal  # under the DISCARD rules
    draw = meet(rule, ann="7S", bob="7D").apply(Move("ann", "1,1")).apply(Fight("ann", "bob"))
    draw = draw.apply(Weapons(("ann:7S", "bob:7D")))
    assert draw.to_move == "bob"  # the defender first
    draw = draw.apply(Discard("bob", "7D", "drop"))
    assert draw.to_move == "ann" and draw.check(Discard("ann", "7S", "drop")).legal


@pytest.mark.parametrize("rule", ["pouches-1.9/fight/spoils", "pouches-1.3/fight/spoils"])
def test_the_winner_takes_a_card_of_their_choice(rule, meet):
    won = fight_won_by_ann(meet(rule))
    won = won.apply(Discard("bob", "7D", "drop")).apply(Discard("ann", "KH", "throw", "1,0"))
    assert won.phase == "take" and won.to_move == "ann"
    assert rule in won.check(Take("ann", "4S")).rules
    assert won.check(Take("ann", "6C")).rules == (rule,)
    after = won.apply(Take("ann", "4S"))
    assert after.pouches["ann"] == ("3C", "4S") and after.pouches["bob"] == ()


def test_a_full_winner_still_fits_the_spoils(meet):
    won = fight_won_by_ann(meet("1.9", ann="KH 2S 3S 4S 5S"))
    won = won.apply(Discard("bob", "7D", "drop")).apply(Discard("ann", "KH", "throw", "1,0"))
    after = won.apply(Take("ann", "4S"))  # the weapon went, so the spoils fit: never over 5
    assert len(after.pouches["ann"]) == 5 and after.phase != "overflow"


def test_private_pouches_take_at_random_reported_by_the_table(meet):
    rule = "pouches-1.9/advanced/private-pouches"
    won = fight_won_by_ann(meet("1.9", options={"private-pouches": True}))
    won = won.apply(Discard("bob", "7D", "drop")).apply(Discard("ann", "KH", "throw", "1,0"))
    assert won.to_move == CHANCE and won.view()["pouch/bob"] == ("back",)
    assert rule in won.check(Take("ann", "4S")).rules
    assert won.check(Take("ann", "QS")).rules == ("pouches-1.9/fight/spoils", rule)
    assert won.check(Take("bob", "4S")).rules == ("pouches-1.9/fight/spoils",)
