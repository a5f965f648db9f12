"""The eight actions, legal and illegal, each test naming the rule it covers."""

from __future__ import annotations

import pytest

from referee import IllegalAction
from referee.log import force
from referee.games.deck_town.actions import (Attack, Build, Discard, Draw, Fly, Grow, Hatch, Move, Spawn)

# ann is red, bob is yellow.
#   0,0 Mountain (Moons Suns 4): red1            1,0 Sailor (Waves Leaves 4): yellow2   2,0 Battle: empty
#   0,1 Forest (Moons Leaves 5): red2 + yellow1
def rules_of(verdict) -> set[str]:
    return set(verdict.rules)


BOARD = {"0,0": "mountain red1", "1,0": "sailor yellow2", "0,1": "forest red2 yellow1", "2,0": "battle"}


@pytest.fixture
def state(two, position):
    return position(two, BOARD)


def test_turn_order_only_the_player_to_move_acts(state):
    verdict = state.check(Draw("bob"))
    assert rules_of(verdict) == {"deck-town-1.1/turn/order"} and "it is ann's turn, not bob's" in str(verdict)
    assert "not playing" in str(state.check(Draw("cat")))
    after = state.apply(Spawn("ann", "0,0"))
    assert after.to_move == "bob" and after.check(Draw("bob")).legal


def test_an_overruled_action_out_of_turn_is_the_players_who_made_it(state):
    """Players may accept bob's spawn on ann's turn (deck-town-1.1/turn/order refuses it): the small
    is bob's, from bob's supply, and it is then bob's turn as if ann had acted."""
    assert rules_of(state.check(Spawn("bob", "1,0"))) == {"deck-town-1.1/turn/order"}
    after = force(state, Spawn("bob", "1,0"))
    assert after.pieces[(1, 0)] == ((1, 1), (1, 2)) and after.supply_of("bob").count("yellow1") == 1
    assert after.supply == (state.supply[0], (state.supply[1][0] - 1, *state.supply[1][1:]))
    assert after.to_move == "bob"


def test_draw_takes_three_cards(state, covers):
    covers("deck-town-1.1/action/draw")
    assert state.check(Draw("ann")).legal  # deck-town-1.1/action/draw
    after = state.apply(Draw("ann"))
    assert after.deck == state.deck - 3 and after.hands == (7, 4)


def test_hand_limit_discard_one_card_at_a_time(state):
    after = state.apply(Draw("ann"))  # 7 cards: two to discard before bob's turn
    assert after.phase == "discard" and after.to_move == "ann"
    assert rules_of(after.check(Draw("bob"))) == {"deck-town-1.1/turn/order"}
    after = after.apply(Discard("ann", "sea"))
    assert after.to_move == "ann" and after.discard == ("sea",)
    after = after.apply(Discard("ann", "harvest"))
    assert after.to_move == "bob" and after.phase == "play" and after.hands == (5, 4)
    early = state.check(Discard("ann", "sea"))
    assert rules_of(early) == {"deck-town-1.1/turn/hand-limit"}


def test_reshuffle_when_the_deck_runs_out(two, position, covers):
    covers("deck-town-1.1/deck/reshuffle")
    state = position(two, BOARD, discard=("sea", "bard", "ace-moons", "end"), hands=(4, 4))
    rest = state.deck - 2  # leave two cards in the deck by giving bob the rest
    state = position(two, BOARD, discard=("sea", "bard", "ace-moons", "end"), hands=(4, 4 + rest))
    assert state.deck == 2
    after = state.apply(Draw("ann"))  # two from the deck, then the four discards become the deck
    assert after.hands[0] == 7 and after.discard == () and after.deck == 3  # deck-town-1.1/deck/reshuffle
    full = position(two, BOARD, hands=(4, 4))
    empty = position(two, BOARD, hands=(4, 4 + full.deck))
    assert empty.deck == 0 and empty.apply(Draw("ann")).hands[0] == 4  # nothing left anywhere: draws nothing


def test_grow(state, position):
    after = state.apply(Grow("ann", "0,0", 1))
    assert after.pieces[(0, 0)] == ((0, 2),) and after.supply[0] == (3, 1, 3)  # deck-town-1.1/action/grow
    for action, text in [(Grow("ann", "1,0", 1), "no one-pip pyramid on the Sailor"),
                         (Grow("ann", "5,5", 1), "no card on 5,5"),
                         (Grow("ann", "0,1", 3), "largest")]:
        verdict = state.check(action)
        assert rules_of(verdict) == {"deck-town-1.1/action/grow"} and text in str(verdict), verdict
    big = position(state.game, {"0,0": "mountain red1 red2 red2 red2", "1,0": "sailor"})
    assert "no two-pip pyramid left in supply" in str(big.check(Grow("ann", "0,0", 1)))


def test_spawn(state, position):
    after = state.apply(Spawn("ann", "0,1"))  # deck-town-1.1/action/spawn: occupying is enough
    assert after.pieces[(0, 1)] == ((0, 1), (0, 2), (1, 1)) and after.supply[0][0] == 1
    verdict = state.check(Spawn("ann", "1,0"))
    assert rules_of(verdict) == {"deck-town-1.1/action/spawn"} and "has no pyramid on the Sailor" in str(verdict)
    empty = position(state.game, {"0,0": "mountain red1 red1 red1", "1,0": "sailor red2"})
    assert "no one-pip pyramid left" in str(empty.check(Spawn("ann", "1,0")))


def test_build_next_to_a_controlled_card(state):
    after = state.apply(Build("ann", "lunatic", "-1,0"))  # deck-town-1.1/action/build
    assert after.board[(-1, 0)] == "lunatic" and after.hands[0] == 3
    verdict = state.check(Build("ann", "lunatic", "1,1"))  # touches only the shared Forest and bob's Sailor
    assert rules_of(verdict) == {"deck-town-1.1/action/build"}
    assert "a build must touch a card you control; 1,1 is not adjacent to any card ann controls" in str(verdict)
    assert "already there" in str(state.check(Build("ann", "lunatic", "1,0")))
    assert "only number cards" in str(state.check(Build("ann", "sea", "-1,0")))
    assert "not a board cell" in str(state.check(Build("ann", "lunatic", "north")))


def test_cards_played_must_be_possible_in_hand(two, position):
    state = position(two, dict(BOARD, **{"3,0": "lunatic", "4,0": "lunatic"}))
    verdict = state.check(Build("ann", "lunatic", "-1,0"))  # both copies already on the board
    assert rules_of(verdict) == {"deck-town-1.1/cards/in-hand"}
    assert "all 2 copies are already on the table" in str(verdict)
    assert "not a Decktet card id" in str(state.check(Build("ann", "joker", "-1,0")))
    assert "is not in this deck" in str(state.check(Build("ann", "excuse", "-1,0")))  # Myrmex has no Excuse
    broke = position(two, BOARD, hands=(0, 4))
    verdict = broke.check(Build("ann", "lunatic", "-1,0"))
    assert rules_of(verdict) == {"deck-town-1.1/cards/in-hand"} and "holds 0 cards" in str(verdict)


def test_move_one_card_orthogonally(state):
    after = state.apply(Move("ann", "0,0", 1, "1,0"))  # deck-town-1.1/action/move
    assert (0, 0) not in after.pieces and after.pieces[(1, 0)] == ((0, 1), (1, 2))
    assert "not next to 0,0" in str(state.check(Move("ann", "0,0", 1, "2,0")))
    assert "0,-1 is empty" in str(state.check(Move("ann", "0,0", 1, "0,-1")))
    verdict = state.check(Move("ann", "0,0", 2, "1,0"))
    assert rules_of(verdict) == {"deck-town-1.1/action/move"} and "no two-pip pyramid" in str(verdict)


def test_hatch_needs_no_pyramids_on_the_board(two, position):
    state = position(two, {"0,0": "mountain yellow1", "1,0": "sailor yellow1"})
    hatch = Hatch("ann", "lunatic", "-1,0")  # ann has no pyramids: she may build next to any card
    assert state.check(hatch).legal  # deck-town-1.1/action/hatch
    after = state.apply(hatch)
    assert after.pieces[(-1, 0)] == ((0, 1),) and after.supply[0] == (2, 3, 3) and after.hands[0] == 3
    placed = position(two, BOARD)
    verdict = placed.check(Hatch("ann", "lunatic", "-1,0"))
    assert rules_of(verdict) == {"deck-town-1.1/action/hatch"} and "has some" in str(verdict)
    far = state.check(Hatch("ann", "lunatic", "5,5"))
    assert "touches none" in str(far) and rules_of(far) == {"deck-town-1.1/action/hatch"}
    assert "builds a number card" in str(state.check(Hatch("ann", "sea", "-1,0")))


def test_fly_moves_a_card_with_its_pyramids(state):
    fly = Fly("ann", "ace-knots", "0,0", "3,0")  # deck-town-1.1/fly/ace, deck-town-1.1/fly/occupy
    assert state.check(fly).legal
    after = state.apply(fly)
    assert after.board[(3, 0)] == "mountain" and (0, 0) not in after.board
    assert after.pieces[(3, 0)] == ((0, 1),) and after.discard == ("ace-knots",) and after.hands[0] == 3
    verdict = state.check(Fly("ann", "sea", "0,0", "3,0"))
    assert rules_of(verdict) == {"deck-town-1.1/fly/ace"} and "costs an Ace" in str(verdict)
    verdict = state.check(Fly("ann", "ace-knots", "2,0", "1,1"))
    assert rules_of(verdict) == {"deck-town-1.1/fly/occupy"} and "no pyramid on the Battle" in str(verdict)


def test_fly_keeps_the_board_connected(two, position):
    # a line 0,0 - 1,0 - 2,0: flying the middle card away splits it
    state = position(two, {"0,0": "mountain", "1,0": "sailor red1", "2,0": "battle", "0,1": "forest"})
    verdict = state.check(Fly("ann", "ace-moons", "1,0", "3,0"))
    assert "deck-town-1.1/fly/connected" in rules_of(verdict)
    # with 1,1 present, the 0,0/0,1 pair and 2,0 still touch diagonally through 1,1: connected
    diagonal = position(two, {"0,0": "mountain", "1,0": "sailor red1", "2,0": "battle", "1,1": "forest"})
    assert diagonal.check(Fly("ann", "ace-moons", "1,0", "1,2")).legal
    after = diagonal.apply(Fly("ann", "ace-moons", "1,0", "1,2"))
    assert (1, 0) not in after.board and after.board[(1, 2)] == "sailor"


def test_fly_landing(state):
    for to, text in [("0,0", "another position"), ("1,0", "already there"), ("5,5", "touches none"),
                     ("-1,1", "touches none")]:
        # -1,1 touches only 0,1, which stays; so that one is fine: check it separately
        verdict = state.check(Fly("ann", "ace-moons", "0,0", to))
        if to == "-1,1":
            assert verdict.legal
            continue
        assert rules_of(verdict) == {"deck-town-1.1/fly/landing"} and text in str(verdict), (to, verdict)
    # a card cannot land touching only itself: 0,-1 is next to 0,0, which is the card in flight
    verdict = state.check(Fly("ann", "ace-moons", "0,0", "0,-1"))
    assert rules_of(verdict) == {"deck-town-1.1/fly/landing"}


def test_attack_reach_and_target(state, position, covers):
    covers("deck-town-1.1/attack/return")
    attack = Attack("ann", "1,0", "yellow2", ("consul",))  # ann's red1 on 0,0 is next to the Sailor
    assert state.check(attack).legal  # deck-town-1.1/attack/reach
    after = state.apply(attack)
    assert (1, 0) not in after.pieces and after.supply[1] == (2, 3, 3)  # deck-town-1.1/attack/return
    assert after.discard == ("consul",) and after.hands[0] == 3
    far = position(state.game, {"0,0": "mountain red1", "1,0": "sailor", "2,0": "battle yellow1"})
    verdict = far.check(Attack("ann", "2,0", "yellow1", ("harvest",)))
    assert rules_of(verdict) == {"deck-town-1.1/attack/reach"} and "no pyramid on or next to" in str(verdict)
    verdict = state.check(Attack("ann", "0,0", "red1", ("harvest",)))
    assert rules_of(verdict) == {"deck-town-1.1/attack/target"} and "not your own" in str(verdict)
    verdict = state.check(Attack("ann", "1,0", "yellow3", ("sea",)))
    assert rules_of(verdict) == {"deck-town-1.1/attack/target"} and "no yellow3 on the Sailor" in str(verdict)
    assert state.check(Attack("ann", "0,1", "yellow1", ("harvest",))).legal  # same card reaches too


def test_attack_pips(state):
    for spent in [("sea",), ("consul",), ("harvest", "watchman"), ("watchman", "harvest")]:
        assert state.check(Attack("ann", "1,0", "yellow2", spent)).legal, spent
    for spent, text in [(("harvest",), "1 pip spent, 2 needed"), (("ace-moons",), "pay nothing"),
                        (("consul", "harvest"), "every spent card must be needed"),
                        (("sea", "bard"), "every spent card must be needed"), ((), "at least one")]:
        verdict = state.check(Attack("ann", "1,0", "yellow2", spent))
        assert rules_of(verdict) == {"deck-town-1.1/attack/pips"} and text in str(verdict), (spent, verdict)
    spare = state.check(Attack("ann", "1,0", "yellow2", ("consul", "harvest")))
    assert spare.reasons[0].text.startswith("house ruling") and "met without the Harvest" in spare.reasons[0].text


def test_attack_replacement_needs_suit_matches(state, position):
    # the Sailor is Waves + Leaves; the Sea (Waves) and the Borderland (Waves Leaves Wyrms) match; the Bard does not
    after = state.apply(Attack("ann", "1,0", "yellow2", ("sea",), True, 1))  # deck-town-1.1/attack/replace
    assert after.pieces[(1, 0)] == ((0, 2),) and after.supply[0] == (2, 1, 3) and after.hands[0] == 4
    verdict = state.check(Attack("ann", "1,0", "yellow2", ("bard",), True))
    assert rules_of(verdict) == {"deck-town-1.1/attack/replace"} and "the Bard shares none" in str(verdict)
    assert state.check(Attack("ann", "1,0", "yellow2", ("borderland", "harvest"), True)).legal
    empty = position(state.game, {"0,0": "mountain red1 red2 red2 red2", "1,0": "sailor yellow2"})
    assert "no two-pip pyramid in supply" in str(empty.check(Attack("ann", "1,0", "yellow2", ("sea",), True)))


def test_attack_draws_for_unused_pips(state):
    assert state.check(Attack("ann", "1,0", "yellow2", ("sea",), False, 1)).legal  # deck-town-1.1/attack/draw
    verdict = state.check(Attack("ann", "1,0", "yellow2", ("sea",), False, 2))
    assert rules_of(verdict) == {"deck-town-1.1/attack/draw"} and "at most 1" in str(verdict)
    assert not state.check(Attack("ann", "1,0", "yellow2", ("consul",), False, 1)).legal


def test_illegal_actions_are_refused_by_apply(state):
    with pytest.raises(IllegalAction, match="deck-town-1.1/action/build"):
        state.apply(Build("ann", "lunatic", "1,1"))


def test_legal_actions_cover_every_kind(state):
    kinds = {a.kind for a in state.legal_actions()}
    assert kinds == {"draw", "grow", "spawn", "build", "move", "fly", "attack"}
    for action in state.legal_actions():
        assert state.check(action).legal


def test_actions_out_of_their_phase_are_refused(state):
    from referee.games.deck_town.actions import Deal, Reveal
    verdict = state.check(Deal((True, True)))
    assert verdict.rules == ("deck-town-1.1/setup/deal",) and "the opening deal is done" in str(verdict)
    verdict = state.check(Reveal(("mountain", "sailor")))
    assert verdict.rules == ("deck-town-1.1/setup/reveal",) and "no reveal is due" in str(verdict)
    verdict = state.check(Hatch("ann", "lunatic", "-1,0"))
    assert verdict.rules == ("deck-town-1.1/action/hatch",)
