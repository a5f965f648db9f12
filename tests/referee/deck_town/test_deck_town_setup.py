"""Setup: pyramids and colours, the deck, the opening deal, the joint reveal, first player, hatching."""

from __future__ import annotations

from collections import Counter

import pytest

from referee import CHANCE, GameConfigError
from referee.games.deck_town.actions import Deal, Draw, Hatch, Reveal
from referee.games.deck_town.cards import composition
from referee.games.deck_town.ending import first_player


def test_pyramids_and_colours(make_game, covers):
    covers("deck-town-1.1/setup/pyramids")
    game = make_game(("ann", "bob", "cat"))
    state = game.new_state()  # deck-town-1.1/setup/pyramids
    assert state.supply == ((3, 3, 3),) * 3 and state.colours == ("red", "yellow", "green")
    assert state.supply_of("cat") == ("green1",) * 3 + ("green2",) * 3 + ("green3",) * 3
    custom = game.new_state({"colours": {"ann": "black", "bob": "white", "cat": "pink"}})
    assert custom.colours == ("black", "white", "pink")
    # the camera looks for the players' colours from the start, though no pyramid is on the town yet
    assert custom.pyramid_colours() == {"black", "white", "pink"}
    assert game.new_state({"colours": ["cyan", "orange", "clear"]}).colours == ("cyan", "orange", "clear")


@pytest.mark.parametrize("setup, message", [
    ({"colours": ["red", "red", "blue"]}, "needs a colour of their own"),
    ({"colours": {"ann": "red", "bob": "blue"}}, "must name every player"),
    ({"colours": ["red", "Blue!", "green"]}, "bad setup: bad pyramid colour"),
    ({"seats": 3}, "setup is"),
    ("red", "setup is"),
])
def test_bad_setup_is_refused_with_a_message(make_game, setup, message):
    with pytest.raises(GameConfigError, match=message):
        make_game(("ann", "bob", "cat")).new_state(setup)


def test_decks(covers):
    covers("deck-town-1.1/setup/deck")
    myrmex = composition("myrmex", False)  # deck-town-1.1/setup/deck
    assert sum(myrmex.values()) == 72 and "excuse" not in myrmex and myrmex["light-keeper"] == 0
    assert myrmex["ace-moons"] == 1 and myrmex["huntress"] == 1 and myrmex["mountain"] == 2 and myrmex["consul"] == 2
    assert sum(composition("myrmex", True).values()) == 78 and composition("myrmex", True)["ace-moons"] == 2
    assert sum(composition("single-extended", False).values()) == 45
    assert sum(composition("double-extended", False).values()) == 90


def test_the_opening_deal_until_everyone_holds_a_number_card(make_game):
    game = make_game(("ann", "bob", "cat"))
    state = game.new_state()
    assert state.to_move == CHANCE and len(state.legal_actions()) == 8
    state = state.apply(Deal((True, False, True)))  # deck-town-1.1/setup/deal: three each
    assert state.hands == (3, 3, 3) and state.deck == 72 - 9 and state.phase == "deal"
    assert state.legal_actions() == [Deal((True, False, True)), Deal((True, True, True))]
    verdict = state.check(Deal((False, True, True)))
    assert verdict.rules == ("deck-town-1.1/setup/deal",) and "ann already held a number card" in str(verdict)
    assert "one yes/no per player" in str(state.check(Deal((True, True))))
    state = state.apply(Deal((True, True, True)))  # one more each
    assert state.hands == (4, 4, 4) and state.deck == 72 - 12 and state.phase == "reveal"
    assert "the opening deal is done" in str(state.check(Deal((True, True, True))))


def test_a_deal_that_cannot_go_round_again_starts_afresh(make_game):
    game = make_game(("a", "b", "c", "d", "e"), deck="single-extended")
    state = game.new_state().apply(Deal((False,) * 5))
    for _ in range(5):
        state = state.apply(Deal((False,) * 5))
    assert state.deck == 45 - 15 - 25 and state.phase == "deal"
    state = state.apply(Deal((False,) * 5))  # the deck cannot go round: redeal (house ruling)
    assert state.redeals == 1 and state.hands == (0,) * 5 and state.deck == 45


def test_first_player_by_rank_then_suit_order_then_left_then_redeal(covers):
    covers("deck-town-1.1/setup/first-player")
    # deck-town-1.1/setup/first-player
    assert first_player(("mountain", "pact")) == 1  # 9 beats 4
    assert first_player(("sailor", "mountain")) == 1  # both 4: Moons (Mountain) beats Waves (Sailor)
    assert first_player(("battle", "sailor", "battle")) == 1  # Waves beats Wyrms
    assert first_player(("mountain", "mountain", "pact")) == 2  # a higher rank settles it before any tie
    # two identical Pacts (double deck): the player whose left neighbour revealed more goes first
    assert first_player(("pact", "pact", "mountain", "diplomat")) == 0  # ann's left (bob) shows a Pact; bob's, a 4
    assert first_player(("pact", "author", "pact", "author")) is None  # both lefts show the Author: redeal
    assert first_player(("pact", "pact")) is None


def test_the_reveal_is_one_joint_action(make_game):
    game = make_game(("ann", "bob"))
    state = game.new_state().apply(Deal((True, True)))
    assert state.phase == "reveal" and state.to_move == "ann"
    reveals = list(state.legal_actions())
    assert len(reveals) == 24 * 24 and Reveal(("mountain", "mountain")) in reveals  # deck-town-1.1/setup/reveal
    verdict = state.check(Reveal(("mountain", "sea")))
    assert verdict.rules == ("deck-town-1.1/setup/reveal",) and "bob must reveal a number card" in str(verdict)
    assert "2 cards, got 1" in str(state.check(Reveal(("mountain",))))
    three = make_game(("a", "b", "c")).new_state().apply(Deal((True,) * 3))
    verdict = three.check(Reveal(("mountain",) * 3))
    assert verdict.rules == ("deck-town-1.1/cards/in-hand",) and "holds 2 of the Mountain" in str(verdict)
    verdict = state.check(Reveal(("sailor", "mountain")))
    assert verdict.legal and verdict.rules == ("deck-town-1.1/setup/first-player",)
    assert "bob goes first with the Mountain" in str(verdict)
    assert "redeal" in str(state.check(Reveal(("mountain", "mountain"))))
    after = state.apply(Reveal(("sailor", "mountain")))
    assert after.phase == "hatch" and after.to_move == "bob" and after.hands == (2, 2)
    assert after.view()["reveal/ann"] == ("sailor",)
    tied = state.apply(Reveal(("mountain", "mountain")))
    assert tied.phase == "deal" and tied.redeals == 1 and tied.hands == (0, 0)


def test_hatching_in_clockwise_order_from_the_first_player(make_game):
    game = make_game(("ann", "bob", "cat"))
    state = game.new_state().apply(Deal((True,) * 3)).apply(Reveal(("sailor", "pact", "mountain")))
    assert state.to_move == "bob"  # deck-town-1.1/setup/hatch-order
    assert state.legal_actions() == [Hatch("bob", "pact", "0,0")]
    verdict = state.check(Hatch("bob", "diplomat", "0,0"))
    assert verdict.rules == ("deck-town-1.1/setup/hatch-order",) and "revealed the Pact" in str(verdict)
    assert "hatched on 0,0" in str(state.check(Hatch("bob", "pact", "1,0")))
    assert state.check(Hatch("cat", "mountain", "0,0")).rules == ("deck-town-1.1/turn/order",)
    assert state.check(Draw("bob")).rules == ("deck-town-1.1/turn/order",)
    state = state.apply(Hatch("bob", "pact", "0,0"))
    assert state.to_move == "cat" and state.phase == "hatch"
    state = state.apply(Hatch("cat", "mountain", "0,-1"))
    state = state.apply(Hatch("ann", "sailor", "1,-1"))  # next to any card, even one ann does not control
    assert state.phase == "play" and state.to_move == "bob" and state.hands == (2, 2, 2)
    assert Counter(state.board.values()) == Counter({"pact": 1, "mountain": 1, "sailor": 1})
    assert state.supply == ((2, 3, 3),) * 3


def test_an_opening_hand_above_five_is_cut_down_after_hatching(make_game):
    state = make_game().new_state().apply(Deal((False, True))).apply(Deal((False, True)))
    state = state.apply(Deal((False, True))).apply(Deal((True, True)))  # 6 cards each
    state = state.apply(Reveal(("pact", "mountain"))).apply(Hatch("ann", "pact", "0,0"))
    assert state.hands == (5, 5) and state.to_move == "bob"
    seven = make_game().new_state()
    for _ in range(4):
        seven = seven.apply(Deal((False, True)))
    seven = seven.apply(Deal((True, True))).apply(Reveal(("pact", "mountain"))).apply(Hatch("ann", "pact", "0,0"))
    assert seven.phase == "discard" and seven.hands == (6, 6)  # deck-town-1.1/turn/hand-limit
