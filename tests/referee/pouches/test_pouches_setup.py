"""Setup and turn order: the deck per edition and player count, the deal observed from the table,
starting spots, who goes first and the declared orders."""

import pytest

from referee import CHANCE, GameConfigError
from referee.games.pouches.actions import Declare, Enter, Move, Reveal, Stay
from referee.games.pouches.edition import greedy_devils_order
from referee.games.pouches.heap import UNKNOWN


def dealt(state, cards=None):
    """Let the table show tops in order (the given cards first, then any unseen ones)."""
    cards = list(cards or [])
    while state.to_move == CHANCE:
        card = cards.pop(0) if cards else state.legal_actions()[0].card
        state = state.apply(Reveal(state.pending[0], card))
    return state


@pytest.mark.parametrize("players, size", [(2, 43), (3, 46), (4, 48), (5, 49)])
def test_19_removes_kings_and_low_cards_by_player_count(new_game, players, size):
    rule = "pouches-1.9/setup/deck"
    state = new_game("1.9", players).new_state()
    assert len(state.deck) == size and len(state.unseen) == size, rule
    assert sum(len(p) for p in state.heap.values()) == size
    assert [c for c in state.deck if c[0] == "K"] == ["KS"]


def test_bad_removals_are_refused_with_the_rule(new_game):
    rule = "pouches-1.9/setup/deck"
    game = new_game(rule, 4)
    assert game.new_state({"removed": ["KH", "KD", "KC", "AS"]}).deck.isdisjoint({"AS"})
    with pytest.raises(GameConfigError, match="with 4 players removes 3 x K, 1 x A"):
        game.new_state({"removed": ["KH", "KD", "KC"]})
    with pytest.raises(GameConfigError, match="not standard card ids"):
        game.new_state({"removed": ["KH", "KD", "KX", "AS"]})


def test_greedy_devils_uses_all_52_cards(new_game):
    rule = "pouches-1.3/setup/deck"
    state = new_game(rule, 3).new_state()
    assert len(state.deck) == 52 and sum(len(p) for p in state.heap.values()) == 52
    with pytest.raises(GameConfigError, match="removes nothing"):
        new_game(rule, 3).new_state({"removed": ["KH"]})


@pytest.mark.parametrize("rule, side", [("pouches-1.9/setup/heap", 3), ("pouches-1.3/setup/heap", 5)])
def test_the_heap_is_a_grid_of_face_down_piles(new_game, rule, side, build):
    state = new_game(rule, 2).new_state()
    assert sorted(state.heap) == [(c, r) for c in range(side) for r in range(side)]
    assert all(set(p) == {UNKNOWN} for p in state.heap.values())
    assert state.to_move == CHANCE and len(state.pending) == side * side
    sizes = {f"{c},{r}": 1 for c in range(side) for r in range(side)}
    sizes["0,0"] += len(state.deck) - side * side
    assert len(new_game(rule, 2).new_state({"sizes": sizes}).heap[(0, 0)]) == sizes["0,0"]
    with pytest.raises(GameConfigError, match="every cell"):
        new_game(rule, 2).new_state({"sizes": {"0,0": 52}})
    with pytest.raises(GameConfigError, match="not a cell"):
        new_game(rule, 2).new_state({"tops": {"zz": "AS"}})
    with pytest.raises(GameConfigError, match="unknown setup keys"):
        new_game(rule, 2).new_state({"colour": "red"})
    assert build(rule, heap={"0,0": "? 7H"}, at={"ann": "1,0", "bob": "1,0"}).height_at((0, 0)) == 7


@pytest.mark.parametrize("rule", ["pouches-1.9/setup/reveal", "pouches-1.3/setup/reveal"])
def test_the_table_reports_every_card_turned_up(new_game, rule):
    state = new_game(rule, 2).new_state()
    offered = state.legal_actions()
    assert {a.card for a in offered} == set(state.deck) and all(a.place == "heap/0,0" for a in offered)
    assert state.check(Reveal("heap/1,1", "7H")).legal  # any pile waiting, in any order
    seen = state.apply(Reveal("heap/0,0", "7H"))
    assert seen.heap[(0, 0)][-1] == "7H" and "7H" not in seen.unseen
    for bad in (Reveal("heap/0,1", "7H"), Reveal("heap/0,0", "QH"), Reveal("heap/0,1", "ZZ"),
                Reveal("heap/9,9", "2H")):
        verdict = seen.check(bad)
        assert not verdict and verdict.rules == (rule,), bad
    if rule.startswith("pouches-1.9"):
        assert "removed from the deck" in str(seen.check(Reveal("heap/0,1", "KH")))
    assert seen.check(Stay("p1")).rules == (rule,)
    ready = dealt(seen)
    assert ready.check(Reveal("heap/0,0", "2H")).rules == (rule,)  # nothing waits now


@pytest.mark.parametrize("rule", ["pouches-1.9/setup/start", "pouches-1.3/setup/start"])
def test_everyone_starts_beside_the_heap_on_bedrock(new_game, rule):
    state = dealt(new_game(rule, ("ann", "bob")).new_state())
    assert state.phase == "enter" and state.to_move == "ann"
    assert rule in state.check(Move("ann", "0,0")).rules
    for bad in ("1,1", "-2,0", "nowhere"):
        verdict = state.check(Enter("ann", bad))
        assert not verdict and verdict.rules == (rule,), bad
    state = state.apply(Enter("ann", "-1,-1"))
    assert state.to_move == "bob" and state.check(Enter("bob", "-1,-1")).legal  # sharing is fine
    state = state.apply(Enter("bob", "0,-1"))
    assert state.phase == "act" and state.to_move == "ann"
    with pytest.raises(GameConfigError, match="must start on bedrock beside the heap"):
        new_game(rule, ("ann", "bob")).new_state({"spots": {"ann": "1,1"}})


def play_round(state):
    """Everyone stays; returns the order they were asked in."""
    order = []
    start = state.round
    while state.round == start:
        order.append(state.to_move)
        state = state.apply(Stay(state.to_move))
    return state, order


@pytest.mark.parametrize("rule", ["pouches-1.9/turn/two-players", "pouches-1.3/turn/two-players"])
def test_two_players_alternate_who_goes_first(new_game, rule):
    state = dealt(new_game(rule, ("ann", "bob")).new_state({"spots": {"ann": "-1,0", "bob": "-1,2"}}))
    firsts = []
    for _ in range(4):
        firsts.append(state.to_move)
        state, _ = play_round(state)
    assert firsts == ["ann", "bob", "ann", "bob"]
    late = state.check(Stay("bob"))  # round 5 begins with ann
    assert not late and rule in late.rules
    verdict = state.check(Declare("bob", "clockwise"))
    assert not verdict and verdict.rules[0] in (rule, rule.replace("two-players", "rotation"))


def test_19_keeps_the_chosen_start_and_direction(new_game):
    rule = "pouches-1.9/turn/rotation"
    game = new_game(rule, ("ann", "bob", "cat", "dan"))
    state = dealt(game.new_state({"first": "cat", "spots": {"ann": "-1,0", "bob": "3,0", "cat": "-1,2",
                                                              "dan": "3,2"}}))
    for _ in range(3):
        state, order = play_round(state)
        assert order == ["cat", "dan", "ann", "bob"]
    verdict = state.check(Stay("dan"))  # the start does not move on by itself in 1.9
    assert not verdict and rule in verdict.rules and "round 4 begins with cat" in str(verdict)


def test_13_rotates_the_start_and_reverses_after_a_cycle(new_game):
    rule = "pouches-1.3/turn/rotation"
    game = new_game(rule, ("ann", "bob", "cat"))
    state = dealt(game.new_state({"spots": {"ann": "-1,0", "bob": "5,0", "cat": "-1,4"}}))
    orders = []
    for _ in range(6):
        state, order = play_round(state)
        orders.append(order)
    assert orders == [["ann", "bob", "cat"], ["bob", "cat", "ann"], ["cat", "ann", "bob"],
                      ["ann", "cat", "bob"], ["bob", "ann", "cat"], ["cat", "bob", "ann"]]
    assert orders[3] == list(greedy_devils_order(("ann", "bob", "cat"), "ann", 4))
    assert state.check(Stay("cat")).rules == ("pouches-1.3/turn/order", rule)  # round 7 begins with ann
    verdict = state.check(Declare("bob", "clockwise"))
    assert not verdict and verdict.rules == (rule,)


def test_19_lets_the_table_declare_a_new_start_and_direction(new_game):
    rule = "pouches-1.9/turn/declare"
    game = new_game(rule, ("ann", "bob", "cat"))
    state = dealt(game.new_state({"spots": {"ann": "-1,0", "bob": "3,0", "cat": "-1,2"}}))
    verdict = state.check(Declare("cat", "anticlockwise"))
    assert verdict.legal and rule in verdict.rules and Declare("cat", "anticlockwise") in state.legal_actions()
    declared = state.apply(Declare("cat", "anticlockwise"))
    assert declared.to_move == "cat" and declared.check(Declare("bob", "clockwise")).rules == (rule,)
    after, order = play_round(declared)
    assert order == ["cat", "bob", "ann"]
    assert after.check(Declare("zed", "clockwise")).rules == (rule,)
    moved = after.apply(Stay(after.to_move))
    assert moved.check(Declare("ann", "clockwise")).rules == (rule,)  # not after the round began
