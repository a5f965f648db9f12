"""A Mongoose game step by step: the observed deal, hidden hands, cleanup, refills, the endgame,
forfeits, the outcome, and bad input."""

import json

import pytest

from referee import CHANCE, ActionParseError, GameConfigError, IllegalAction, View, games
from referee.games.mongoose.actions import Capture, Discard, Forfeit, Play, Reveal
from referee.games.mongoose.deck import arranged

POOL = "2D 4D 5D 6D 5S 9S 4C KC 4H 5H TH KH".split()


# -- the deal --

def test_the_deal_is_observed_from_the_table(game):
    """'mongoose/setup/deal': hands are dealt face down, the 12 pool cards are chance actions."""
    state = game.new_state()
    assert state.to_move == CHANCE and state.hands == (5, 5) and state.due == 12
    offered = state.legal_actions()
    assert len(offered) == 52 and Reveal(("AS",)) in offered
    state = state.apply(Reveal(tuple(POOL[:5]))).apply(Reveal(("5H",)))  # all at once or one by one
    assert state.due == 6 and state.to_move == CHANCE
    state = state.apply(Reveal(("4H", "TH", "KH", "9S", "4C", "KC")))
    assert state.to_move == "ann" and state.phase == "play" and state.pool == frozenset(POOL)
    assert state.deck_count == 52 - 12 - 10


def test_the_deal_shows_no_card_twice_and_no_more_than_12(game):
    state = game.new_state().apply(Reveal(tuple(POOL[:11])))
    verdict = state.check(Reveal(("KH", "AS")))
    assert verdict.rules == ("mongoose/setup/deal",) and "puts 1 more card(s) into the pool, not 2" in str(verdict)
    verdict = state.check(Reveal(("2D",)))
    assert verdict.rules == ("mongoose/setup/deck",) and "2D is in the pool" in str(verdict)
    assert "'1X' is not a card" in str(state.check(Reveal(("1X",))))


def test_a_setup_may_give_the_pool(game):
    state = game.new_state({"pool": POOL})
    assert state.phase == "play" and state.view()["pool"][:2] == ("5S", "9S")


@pytest.mark.parametrize("setup, message", [
    ({"pool": POOL[:11]}, "starts with 12 cards, got 11"),
    ({"pool": POOL[:11] + ["2D"]}, "shows a card twice"),
    ({"pool": POOL[:11] + ["ZZ"]}, "'ZZ' is not a card of the standard deck"),
    ({"pool": "2D 4D"}, "a list of card ids"),
    ({"hands": 5}, "a Mongoose setup is"),
])
def test_a_bad_setup_says_what_is_wrong(game, setup, message):
    with pytest.raises(GameConfigError, match=message):
        game.new_state(setup)


# -- plays: hidden hands --

def test_a_play_is_any_card_the_table_has_not_shown(game, position):
    """'mongoose/play/from-hand': the referee cannot see hands, only what is not elsewhere."""
    state = position(POOL, ann="QS", bob="3C", discards="JH")
    plays = state.legal_actions()
    assert len(plays) == 37 * 36 and Play("AH", "AD") in plays
    for card, where in [("4H", "is in the pool"), ("QS", "is in ann's collection"), ("3C", "is in bob's collection"),
                        ("JH", "was discarded")]:
        verdict = state.check(Play(card, "AH"))
        assert verdict.rules == ("mongoose/play/from-hand",)
        assert verdict.reasons[0].text == f"{card} {where}, so it cannot be in ann's hand"


def test_both_players_play_at_once(game, position):
    """'mongoose/play/simultaneous': one joint action, and no card in both hands."""
    state = position(POOL)
    assert state.to_move == "ann" and game.players == ("ann", "bob")
    verdict = state.check(Play("AH", "AH"))
    assert verdict.rules == ("mongoose/play/simultaneous",) and "a card cannot be in both hands" in str(verdict)
    after = state.apply(Play("AH", "3C"))
    assert after.hands == (4, 4) and after.view()["play/ann"] == ("AH",) and after.view()["play/bob"] == ("3C",)


def test_the_turn_order_is_enforced(game, position):
    """'mongoose/turn/order'"""
    state = position(POOL)
    for action in (Capture(("AH",), ()), Discard(("4H",), ()), Reveal(("AS",))):
        verdict = state.check(action)
        assert verdict.rules == ("mongoose/turn/order",) and "both players revealing a play" in str(verdict)
    revealed = state.apply(Play("AH", "3C"))
    assert "the captures come next" in str(revealed.check(Play("2S", "3S")))
    assert "still revealing the deal: 12 more" in str(game.new_state().check(Play("2S", "3S")))
    with pytest.raises(IllegalAction, match="mongoose/turn/order"):
        state.apply(Discard(("4H",), ()))


# -- cleanup --

def over_the_limit(position):
    """Ann holds 7 and captures 3 (plays 2H: pulls 4H, Bob's AS pushes 4C); Bob holds 6 and captures 3."""
    state = position(POOL, ann="AC AD AH 7C 7D 7H 8S", bob="QC QD QH JC JD JH").apply(Play("2H", "AS"))
    return state.apply(state.legal_actions()[0])


def test_cleanup_brings_a_collection_back_to_7(game, position):
    """'mongoose/cleanup/limit': discard exactly the extra cards, old or new, in any order of players."""
    state = over_the_limit(position)
    assert state.phase == "cleanup" and state.excess(0) == 3 and state.excess(1) == 2
    assert state.to_move == "ann"
    offered = state.legal_actions()
    assert len(offered) == 120 + 36 and Discard((), ("JD", "JC")) in offered
    bob_first = state.apply(Discard((), ("2D", "5S")))
    assert bob_first.phase == "cleanup" and bob_first.to_move == "ann" and bob_first.excess(1) == 0
    done = bob_first.apply(Discard(("2H", "4C", "8S"), ()))
    assert done.collections[0] == frozenset("AC AD AH 7C 7D 7H 4H".split()) and len(done.collections[1]) == 7
    together = state.apply(Discard(("2H", "4C", "8S"), ("2D", "5S")))
    assert together == done


def test_cleanup_discards_neither_too_many_nor_too_few(position):
    state = over_the_limit(position)
    verdict = state.check(Discard(("2H", "4C"), ()))
    assert verdict.rules == ("mongoose/cleanup/limit",)
    assert "ann has 10 cards and must discard exactly 3, not 2 (house ruling: discard only down to 7)" in str(verdict)
    verdict = state.apply(Discard(("2H", "4C", "8S"), ())).check(Discard(("4H",), ()))
    assert "nothing to discard" in str(verdict)
    assert state.check(Discard((), ())).rules == ("mongoose/cleanup/limit",)


def test_only_your_own_collection_is_discarded(position):
    """'mongoose/cleanup/discard-pile': discards come from the collection and leave the game."""
    state = over_the_limit(position)
    verdict = state.check(Discard(("QC", "4C", "8S"), ()))
    assert verdict.rules == ("mongoose/cleanup/discard-pile",) and "QC is in bob's collection" in str(verdict)
    after = state.apply(Discard(("2H", "4C", "8S"), ("2D", "5S")))
    assert after.discards == frozenset("2H 4C 8S 2D 5S".split()) and after.view()["discards"] == ("5S", "8S", "2H",
                                                                                                   "2D", "4C")
    assert "2H was discarded" in str(after.apply(Reveal(("3C", "3D", "3H"))).check(Play("2H", "AS")))


# -- refills and the endgame --

def test_turns_1_to_6_end_with_a_refill(position):
    """'mongoose/refill/deal': one hidden card to each hand (counted), three pool cards revealed."""
    state = position(POOL, turn=6).apply(Play("2H", "QH"))
    state = state.apply(state.legal_actions()[0])
    assert state.phase == "reveal" and state.turn == 7 and state.due == 3 and state.hands == (5, 5)
    assert state.to_move == CHANCE and "still revealing the refill" in str(state.check(Play("AS", "AC")))
    verdict = state.check(Reveal(("AS", "AC", "AD", "AH")))
    assert verdict.rules == ("mongoose/refill/deal",)


def test_the_endgame_has_no_refills_and_ends_with_empty_hands(position):
    """'mongoose/end/endgame'"""
    state = position(POOL, turn=10, hands=(2, 2)).apply(Play("2H", "QH"))
    state = state.apply(state.legal_actions()[0])
    assert state.phase == "play" and state.turn == 11 and state.hands == (1, 1)
    state = state.apply(Play("AS", "AC"))
    state = state.apply(state.legal_actions()[0])
    assert state.phase == "over" and state.to_move is None and state.legal_actions() == []
    assert state.check(Play("3S", "3C")).rules == ("mongoose/end/endgame",)
    assert state.outcome() is not None


def test_forfeits_only_in_the_endgame(position):
    """'mongoose/end/forfeit'"""
    early = position(POOL, turn=6)
    verdict = early.check(Forfeit("bob"))
    assert verdict.rules == ("mongoose/end/forfeit",) and "only in the endgame (turns 7 to 11); this is turn 6" in str(
        verdict)
    late = position(POOL, turn=7)
    assert Forfeit("bob") in late.legal_actions() and late.check(Forfeit("zed")).rules == ("mongoose/end/forfeit",)
    over = late.apply(Forfeit("bob"))
    assert over.outcome().winners == ("ann",) and over.outcome().rule == "mongoose/end/forfeit"
    assert over.outcome().text == "bob forfeited in the endgame: ann wins"
    assert over.check(Forfeit("ann")).rules == ("mongoose/end/endgame",)
    revealed = late.apply(Play("AH", "3C"))
    assert revealed.check(Forfeit("ann"))  # at any point of the endgame, even mid-turn


# -- the outcome --

@pytest.mark.parametrize("ann, bob, winners, rule, text", [
    ("7C 7D 7H 7S 2C 2H TS", "QD QH QS 8C 8H 8S AD", ("ann",), "mongoose/rank/categories",
     "ann wins: four and a pair (7s) beats three and three (Qs and 8s)"),
    ("QC QD JC JD 3S", "KC KD 2C 2D 3C", ("bob",), "mongoose/rank/tiebreak",
     "bob wins: two pairs (Ks and 2s) beats two pairs (Qs and Js)"),
    ("7C 7S AS", "7D 7H KS", (), "mongoose/end/draw", "a draw: one pair (7s) ties one pair (7s)"),
    ("AC AD KC KD", "3C 3D 3H", ("bob",), "mongoose/rank/categories", "bob wins: three of a kind (3s) beats two "
     "pairs (As and Ks) (house ruling: a lone three ranks below three and a pair, above two pairs)"),
])
def test_the_outcome_names_the_rule_and_explains(position, ann, bob, winners, rule, text):
    state = position("", ann=ann, bob=bob, phase="over", turn=11, hands=(0, 0))
    outcome = state.outcome()
    assert (outcome.winners, outcome.rule, outcome.text) == (winners, rule, text)


# -- the camera's view and its reading --

def test_the_view_shows_pool_collections_plays_and_discards(position):
    state = position(POOL, ann="QS", bob="3C", discards="JH").apply(Play("AH", "4S"))
    assert state.view() == View({"pool": ("5S", "9S", "4H", "5H", "TH", "KH", "2D", "4D", "5D", "6D", "4C", "KC"),
                                 "collection/ann": ("QS",), "collection/bob": ("3C",), "discards": ("JH",),
                                 "play/ann": ("AH",), "play/bob": ("4S",)})


def _moved(view, **changes):
    places = {place: list(cards) for place, cards in view.items()}
    for place, (gone, new) in changes.items():
        place = place.replace("__", "/")
        places[place] = arranged([c for c in places.get(place, []) if c not in gone.split()] + new.split())
    return View(places)


def test_interpret_reads_each_step_of_a_turn(position):
    state = position(POOL)
    after = _moved(state.view(), play__ann=("", "2H"), play__bob=("", "AS"))
    (reading,) = state.interpret(after)
    assert reading.action == Play("2H", "AS") and reading.verdict.legal
    state = state.apply(reading.action)
    assert state.view() == after
    after = _moved(after, play__ann=("2H", ""), play__bob=("AS", ""), pool=("4H 4C 2D 5S", ""),
                   collection__ann=("", "2H 4H 4C"), collection__bob=("", "AS 2D 5S"))
    (reading,) = state.interpret(after)
    assert reading.action == Capture(("2H", "4H", "4C"), ("5S", "AS", "2D")) and reading.verdict.legal
    assert state.apply(reading.action).view() == after


def test_interpret_explains_an_illegal_change(position):
    """The 4 of hearts went to Ann though the votes cancelled: read, and refused with the reason."""
    state = position(POOL).apply(Play("2H", "QH"))
    after = _moved(state.view(), play__ann=("2H", ""), play__bob=("QH", ""), pool=("4H", ""),
                   collection__ann=("", "2H 4H"), collection__bob=("", "QH"))
    (reading,) = state.interpret(after)
    assert reading.action == Capture(("2H", "4H"), ("QH",)) and not reading.verdict
    assert reading.verdict.rules == ("mongoose/capture/cancel",)
    assert reading.verdict.reasons[0].text.startswith("4H went to ann, but ann's 2H pulled the lowest heart to ann")


def test_interpret_reads_plays_from_the_pool_and_discards(position):
    state = position(POOL)
    (reading,) = state.interpret(_moved(state.view(), pool=("KH", ""), play__ann=("", "KH"), play__bob=("", "3C")))
    assert reading.action == Play("KH", "3C") and reading.verdict.rules == ("mongoose/play/from-hand",)
    assert state.interpret(_moved(state.view(), play__ann=("", "2H"))) == ()  # only one play turned over yet
    assert state.interpret(state.view()) == ()
    cleanup = over_the_limit(position)
    after = _moved(cleanup.view(), collection__ann=("8S 2H 4C", ""), discards=("", "8S 2H 4C"))
    (reading,) = cleanup.interpret(after)
    assert reading.action == Discard(("8S", "2H", "4C"), ()) and reading.verdict.legal
    refill = cleanup.apply(reading.action).apply(Discard((), ("JC", "JD")))
    (reading,) = refill.interpret(_moved(refill.view(), pool=("", "3S 3D 3H")))
    assert reading.action == Reveal(("3S", "3H", "3D")) and reading.verdict.legal


# -- notation, JSON and bad input --

def test_actions_read_and_write_notation(game):
    codec = game.actions
    for text in ("reveal 2D,4D,5D", "play 2H AS", "capture 2H,4H,4C AS,2D,5S", "discard 4C -", "forfeit bob"):
        assert str(codec.parse(text)) == text
        action = codec.parse(text)
        assert codec.from_json(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(ActionParseError, match="'play' takes 2 argument"):
        codec.parse("play 2H")
    with pytest.raises(ActionParseError, match="discard.first must be a list"):
        codec.from_json({"kind": "discard", "first": "4C", "second": []})


def test_unknown_cards_are_named(position):
    """'mongoose/setup/deck'"""
    verdict = position(POOL).check(Play("10H", "AS"))
    assert verdict.rules == ("mongoose/setup/deck",) and "'10H' is not a card of the standard deck" in str(verdict)


def test_states_round_trip_and_malformed_json_is_refused(game, position):
    state = over_the_limit(position)
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    good = state.to_json()
    for change, message in [({"phase": "dance"}, "phase is one of"), ({"turn": 12}, "turn is a whole number"),
                            ({"pool": ["2D", "2D"]}, "2D is both in the pool and the pool"),
                            ({"discards": ["XX"]}, "the discards: 'XX' is not a card"),
                            ({"hands": {"ann": 5}}, "hands maps each player"),
                            ({"hands": {"ann": 9, "bob": 5}}, "hand sizes are whole numbers from 0 to 5"),
                            ({"forfeit": "zed"}, "forfeit names a player"),
                            ({"due": 3}, "exactly in the reveal phase"), ({"turn": 0}, "turn is a whole number from 1"),
                            ({"plays": {"ann": "2S", "bob": "3S"}}, "plays are shown only between")]:
        with pytest.raises(ValueError, match=message):
            game.state_from_json(good | change)
    with pytest.raises(ValueError, match="expected an object"):
        game.state_from_json([])


def test_the_registry_referees_mongoose():
    game = games.get("mongoose", players=["ann", "bob"])
    assert game.rules["mongoose/capture/cancel"].ruling.startswith("Every pull and push is a vote")
    assert game.new_state().to_move == CHANCE
