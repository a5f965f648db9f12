"""Capture resolution: the four worked examples of the rules, and the vote ruling around them.

Ann sits where the examples say "you" (the bottom of each drawing), Bob is the opponent.
"""

import pytest

from referee.games.mongoose.actions import Capture, Play
from referee.games.mongoose.capture import resolve

POOL = "2D 4D 5D 6D 5S 9S 4C KC 4H 5H TH KH"  # the pool of the setup drawing and three examples


def captured(position, pool, ann_plays, bob_plays):
    """Play a turn from an empty-handed start and return (pool, ann's, bob's collection) as sets."""
    state = position(pool).apply(Play(ann_plays, bob_plays))
    (capture,) = state.legal_actions()
    after = state.apply(capture)
    return after.pool, after.collections[0], after.collections[1]


def cards(text):
    return frozenset(text.split())


# -- the four worked examples of section 4.1.1, exactly --

def test_example_both_play_hearts_captures_nothing_from_the_pool(position):
    """'mongoose/capture/cancel': both hearts pull hearts both ways and push diamonds both ways."""
    pool, ann, bob = captured(position, POOL, "2H", "QH")
    assert pool == cards(POOL)
    assert ann == cards("2H") and bob == cards("QH")


def test_example_hearts_against_spades(position):
    """'mongoose/capture/pull' and 'mongoose/capture/push': four different suits, four cards move."""
    pool, ann, bob = captured(position, POOL, "2H", "AS")
    assert ann == cards("2H 4H 4C") and bob == cards("2D 5S AS")
    assert pool == cards("4D 5D 6D 9S KC 5H TH KH")


def test_example_hearts_against_spades_without_red_cards_in_the_pool(position):
    pool, ann, bob = captured(position, "2S 5S 9S JS 2C 4C JC KC", "2H", "AS")
    assert ann == cards("2H 2C") and bob == cards("2S AS")
    assert pool == cards("5S 9S JS 4C JC KC")


def test_example_hearts_against_diamonds(position):
    """Votes that agree move a card once: both plays send the lowest heart to Ann."""
    pool, ann, bob = captured(position, POOL, "2H", "3D")
    assert ann == cards("2H 4H") and bob == cards("2D 3D")
    assert pool == cards("4D 5D 6D 5S 9S 4C KC 5H TH KH")


# -- the votes --

@pytest.mark.parametrize("ann, bob, moves", [
    ("2H", "AS", {"4H": 0, "4C": 0, "5S": 1, "2D": 1}),
    ("3S", "3C", {"5S": 0, "4C": 1}),   # one colour: each pull agrees with the other's push
    ("3S", "9S", {}),                   # one suit: spades and clubs each voted both ways
    ("3C", "3D", {"4C": 0, "5S": 1, "2D": 1, "4H": 0}),
    ("3D", "3H", {"2D": 0, "4H": 1}),   # agreeing votes
    ("QD", "QS", {"2D": 0, "4H": 1, "5S": 1, "4C": 0}),
])
def test_each_play_votes_a_pull_and_a_push(ann, bob, moves):
    """'mongoose/capture/pull' 'mongoose/capture/push' 'mongoose/capture/cancel'"""
    assert resolve(POOL.split(), (ann, bob)).moves == moves


def test_only_the_lowest_card_of_a_suit_moves_and_aces_are_high():
    """'mongoose/capture/lowest' and 'mongoose/setup/aces-high': AH is the highest heart, not the lowest."""
    assert resolve(["AH", "3H", "7H"], ("2H", "2S")).moves == {"3H": 0}
    assert resolve(["AD", "KD", "AS"], ("5D", "5C")).moves == {"KD": 0, "AS": 0}


def test_the_played_cards_are_always_captured(position):
    """'mongoose/capture/played': even when the pool has nothing to give."""
    pool, ann, bob = captured(position, "2D 4D 5D 6D", "5C", "9S")
    assert pool == cards("2D 4D 5D 6D") and ann == cards("5C") and bob == cards("9S")


# -- the referee checks what the players moved --

def turn(position, ann, bob, pool=POOL):
    return position(pool).apply(Play(ann, bob))


def test_a_card_moved_though_the_votes_cancelled_is_explained(position):
    verdict = turn(position, "2H", "QH").check(Capture(("2H", "4H"), ("QH",)))
    assert not verdict and verdict.rules == ("mongoose/capture/cancel",)
    text = verdict.reasons[0].text
    assert text.startswith("4H went to ann, but ann's 2H pulled the lowest heart to ann and bob's QH pulled "
                           "the lowest heart to bob: votes in two directions cancel, so it stays in the pool")
    assert "house ruling" in text


def test_a_card_that_is_not_the_lowest_is_refused(position):
    verdict = turn(position, "2H", "AS").check(Capture(("2H", "5H", "4C"), ("AS", "5S", "2D")))
    assert not verdict
    assert "5H went to ann, but only the lowest heart in the pool (4H) can move" in str(verdict)
    assert "4H should have gone to ann: ann's 2H pulled the lowest heart to ann" in str(verdict)
    assert set(verdict.rules) == {"mongoose/capture/lowest", "mongoose/capture/pull"}


def test_a_card_sent_the_wrong_way_is_refused(position):
    verdict = turn(position, "2H", "AS").check(Capture(("2H", "4H"), ("AS", "5S", "2D", "4C")))
    assert not verdict and verdict.rules == ("mongoose/capture/push",)
    assert str(verdict.reasons[0].text) == "4C went to bob, but it goes to ann: bob's AS pushed the lowest club to ann"


def test_a_suit_nobody_played_stays(position):
    verdict = turn(position, "2H", "QH").check(Capture(("2H", "4C"), ("QH",)))
    assert verdict.rules == ("mongoose/capture/pull",)
    assert "no one played a club or a spade" in verdict.reasons[0].text


def test_a_play_must_reach_its_own_collection(position):
    state = turn(position, "2H", "AS")
    verdict = state.check(Capture(("4H", "4C"), ("AS", "5S", "2D")))
    assert verdict.rules == ("mongoose/capture/played",)
    verdict = state.check(Capture(("AS", "2H", "4H", "4C"), ("5S", "2D")))
    assert "AS is bob's play: it goes to bob's collection, not ann's" in str(verdict)


def test_only_pool_cards_and_plays_are_captured(position):
    verdict = turn(position, "2H", "AS").check(Capture(("2H", "4H", "4C", "7C"), ("AS", "5S", "2D")))
    assert verdict.rules == ("mongoose/capture/lowest",) and "only pool cards and the plays" in str(verdict)


def test_the_captures_offered_are_exactly_the_rule(position):
    state = turn(position, "2H", "AS")
    assert state.legal_actions() == [Capture(("2H", "4H", "4C"), ("5S", "AS", "2D"))]  # pool order
    assert state.check(Capture(("4C", "2H", "4H"), ("2D", "AS", "5S")))  # any order of the same cards
