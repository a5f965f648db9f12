"""Terms and the game end: occupy, control, blocks, suit matches, straight flushes, three of a kind."""

from __future__ import annotations

from referee.decktet import card
from referee.games.deck_town.actions import Move, Spawn
from referee.games.deck_town.blocks import straight_flushes, threes_of_a_kind, winning_blocks
from referee.games.deck_town.board import parse_cell


def cards_of(layout: dict[str, str]) -> dict:
    return {parse_cell(k): v for k, v in layout.items()}


def kinds(layout: dict[str, str], controlled=None) -> list[tuple[str, set[str]]]:
    board = cards_of(layout)
    cells = set(board) if controlled is None else {parse_cell(c) for c in controlled}
    return sorted((kind, {board[c] for c in block}) for kind, block in winning_blocks(board, cells))


def test_occupy_and_control(two, position, covers):
    covers("deck-town-1.1/terms/occupy", "deck-town-1.1/terms/control")
    state = position(two, {"0,0": "mountain red1", "1,0": "sailor red2 yellow1", "2,0": "battle"})
    # deck-town-1.1/terms/occupy and deck-town-1.1/terms/control
    assert state.occupies(0, (1, 0)) and state.occupies(1, (1, 0)) and not state.occupies(1, (0, 0))
    assert state.controls(0, (0, 0)) and not state.controls(0, (1, 0)) and not state.controls(0, (2, 0))
    assert state.controlled(0) == {(0, 0)} and state.controlled(1) == set()


def test_adjacent_is_orthogonal(two, position, covers):
    covers("deck-town-1.1/terms/adjacent")
    state = position(two, {"0,0": "mountain red1", "1,1": "sailor"})  # deck-town-1.1/terms/adjacent
    assert not state.check(Move("ann", "0,0", 1, "1,1")).legal


def test_suit_match(covers):
    covers("deck-town-1.1/terms/suit-match")
    assert card("sailor").shares_suit(card("sea"))  # deck-town-1.1/terms/suit-match: Waves
    assert not card("sailor").shares_suit(card("bard"))


def test_straight_flush_laid_out_of_order(covers):
    covers("deck-town-1.1/terms/straight-flush")
    # deck-town-1.1/terms/straight-flush: Moons 6, 3, 5, 4 in a row
    row = {"0,0": "lunatic", "1,0": "journey", "2,0": "forest", "3,0": "mountain"}
    assert kinds(row) == [("straight flush", {"lunatic", "journey", "forest", "mountain"})]
    assert kinds({k: v for k, v in row.items() if v != "journey"}) == []  # three cards are not enough
    # 2 (Moons Knots), 3 (Moons Waves), 4 (Moons Suns) and 6: a gap, no run
    assert kinds({"0,0": "author", "1,0": "journey", "2,0": "mountain", "3,0": "lunatic"}) == []


def test_a_run_must_be_a_block_of_its_own(covers):
    covers("deck-town-1.1/terms/block")
    # deck-town-1.1/terms/block: the Battle (Wyrms Knots) links the Moons cards but carries no Moons
    row = {"0,0": "journey", "1,0": "mountain", "2,0": "battle", "3,0": "forest", "4,0": "lunatic"}
    assert kinds(row) == []
    bent = dict(row, **{"2,1": "diplomat"})  # still no Moons link, and 8 breaks the run anyway
    assert kinds(bent) == []


def test_a_long_run_whose_every_four_card_part_is_disconnected():
    # path 4 - 3 - 5 - 7 - 6 (all Moons): 3..7 is a run; dropping the 3 or the 7 cuts the path
    path = {"0,0": "mountain", "1,0": "journey", "2,0": "forest", "3,0": "chance-meeting", "4,0": "lunatic"}
    found = list(straight_flushes(cards_of(path), set(cards_of(path))))
    assert [len(b) for b in found] == [5]


def test_three_of_a_kind_needs_three_different_suit_pairs(covers):
    covers("deck-town-1.1/terms/three-of-a-kind")
    # deck-town-1.1/terms/three-of-a-kind: the three 4s (Moons Suns, Waves Leaves, Wyrms Knots) in an L
    board = {"0,0": "mountain", "1,0": "sailor", "1,1": "battle"}
    assert kinds(board) == [("three of a kind", {"mountain", "sailor", "battle"})]
    # double deck: two Mountains share their suits, so Mountain + Mountain + Sailor is no three of a kind
    assert kinds({"0,0": "mountain", "1,0": "sailor", "2,0": "mountain"}) == []
    assert kinds({"0,0": "mountain", "1,0": "battle", "2,0": "sailor"}) != []
    apart = {"0,0": "mountain", "1,0": "forest", "2,0": "sailor", "3,0": "battle"}  # the Forest splits them
    assert kinds(apart) == []


def test_double_deck_copies_never_fill_a_run():
    # Moons 3, 4, 4 (two Mountains), 5: four cards but only three ranks
    board = {"0,0": "journey", "1,0": "mountain", "2,0": "mountain", "3,0": "forest"}
    assert kinds(board) == []
    # add the Lunatic (6) touching the second Mountain: 3-4-4-5 with 6 below: 3,4,5,6 are not all linked
    assert kinds(dict(board, **{"2,1": "lunatic"})) == []
    # ... but next to the Forest it makes Journey-Mountain-(Mountain)-Forest-Lunatic: 4 linked only via a copy
    assert kinds(dict(board, **{"3,1": "lunatic"})) == []
    # two Mountains above and below the Journey: 3-4-5-6 is found once through each copy
    cross = {"0,0": "mountain", "0,2": "mountain", "0,1": "journey", "1,1": "forest", "2,1": "lunatic"}
    found = list(straight_flushes(cards_of(cross), set(cards_of(cross))))
    assert sorted(sorted(b) for b in found) == [[(0, 0), (0, 1), (1, 1), (2, 1)], [(0, 1), (0, 2), (1, 1), (2, 1)]]


def test_several_candidate_blocks_and_mixed_control():
    board = {"0,0": "mountain", "1,0": "sailor", "2,0": "battle",          # three 4s
             "0,1": "forest", "1,1": "discovery", "2,1": "soldier",        # three 5s
             "3,0": "painter", "3,1": "market", "3,2": "castle"}           # Knots 3, 6, 7 with battle 4, soldier 5
    everything = kinds(board)
    assert ("three of a kind", {"mountain", "sailor", "battle"}) in everything
    assert ("three of a kind", {"forest", "discovery", "soldier"}) in everything
    assert ("straight flush", {"painter", "battle", "soldier", "market", "castle"}) in everything
    assert ("straight flush", {"battle", "soldier", "market", "castle"}) in everything
    # the player controls only part: the top row and the Knots column without the Soldier
    some = kinds(board, controlled={"0,0", "1,0", "2,0", "3,0", "3,1", "3,2"})
    assert some == [("three of a kind", {"mountain", "sailor", "battle"})]
    assert kinds(board, controlled={"0,0", "1,0", "1,1", "2,1", "3,1"}) == []


def test_the_game_ends_when_a_player_controls_a_poker_block(two, position):
    state = position(two, {"0,0": "mountain red1", "1,0": "sailor red1", "1,1": "battle red1 yellow1",
                           "2,1": "lunatic yellow2"}, turn=1)
    assert state.outcome() is None
    after = state.apply(Move("bob", "1,1", 1, "2,1"))  # bob leaves the Battle: ann controls 4, 4, 4
    outcome = after.outcome()
    assert outcome.winners == ("ann",) and outcome.rule == "deck-town-1.1/end/poker-block"
    assert "ann controls a three of a kind" in outcome.text
    assert after.to_move is None and after.legal_actions() == []
    verdict = after.check(Spawn("ann", "0,0"))
    assert verdict.rules == ("deck-town-1.1/end/over",)


def test_ties_go_to_the_highest_card_then_share(two, position):
    # ann: 5s on the top row, shared with bob's yellow1 on the Soldier; bob: 4s on the second row but the Mountain
    board = {"0,0": "forest red1", "1,0": "discovery red1", "2,0": "soldier red1 yellow1",
             "2,1": "mountain", "3,1": "sailor yellow1", "4,1": "battle yellow1"}
    after = position(two, board, turn=1).apply(Move("bob", "2,0", 1, "2,1"))
    assert after.outcome().winners == ("ann",) and after.outcome().rule == "deck-town-1.1/end/tie"
    assert "highest-ranked card" in after.outcome().text
    # both blocks top out with a Pact (the Myrmex deck has two): a shared result
    board = {"0,0": "lunatic red1", "1,0": "chance-meeting red2", "2,0": "diplomat red3", "3,0": "pact red1 yellow1",
             "3,1": "pact", "4,1": "darkness yellow1", "5,1": "merchant yellow1"}
    after = position(two, board, turn=1).apply(Move("bob", "3,0", 1, "3,1"))
    assert after.outcome().winners == ("ann", "bob") and "tie" in after.outcome().text


def test_three_of_a_kind_search_on_its_own():
    board = cards_of({"0,0": "forest", "1,0": "discovery", "1,1": "soldier", "2,1": "soldier"})
    assert {frozenset(board[c] for c in b) for b in threes_of_a_kind(board, set(board))} == {
        frozenset({"forest", "discovery", "soldier"})}
