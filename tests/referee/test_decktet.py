import csv
from collections import Counter

import pytest

from referee.decktet import (CATALOGUE, Suit, UnknownCard, basic_deck, card, double_deck, extended_deck,
                             myrmex_deck)


def test_catalogue_matches_the_published_card_list(shared):
    with open(shared / "data" / "decktet" / "cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(CATALOGUE) == 45
    for row in rows:
        entry = card(row["id"])
        assert (entry.name, entry.rank) == (row["name"], row["rank"])
        assert [s.title for s in entry.suits] == [s for s in row["suits"].split(";") if s]


def test_natural_suit_order():
    assert [s.title for s in sorted(Suit)] == ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"]
    for entry in CATALOGUE.values():
        assert list(entry.suits) == sorted(entry.suits)


@pytest.mark.parametrize("suit", list(Suit))
def test_every_suit_has_8_numbers_an_ace_a_crown_2_pawns_2_courts(suit):
    ranks = Counter(c.rank for c in CATALOGUE.values() if suit in c.suits)
    numbers = sum(n for rank, n in ranks.items() if rank.isdigit())
    assert (numbers, ranks["Ace"], ranks["Crown"], ranks["Pawn"], ranks["Court"]) == (8, 1, 1, 2, 2)


def test_suits_per_rank():
    for entry in CATALOGUE.values():
        expected = {"Ace": 1, "Crown": 1, "Pawn": 3, "Court": 3, "Excuse": 0}.get(entry.rank, 2)
        assert len(entry.suits) == expected, entry
    assert Counter(c.rank for c in CATALOGUE.values() if c.is_number) == {str(n): 3 for n in range(2, 10)}


def test_deck_sizes():
    assert len(basic_deck()) == 36 and not {"excuse", "harvest", "consul"} & set(basic_deck())
    assert len(extended_deck()) == len(set(extended_deck())) == 45
    assert Counter(double_deck()) == Counter({c: 2 for c in extended_deck()})
    assert len(double_deck(extended=False)) == 72


def test_myrmex_deck_has_72_cards_in_the_ruled_proportions():
    deck = myrmex_deck()
    ranks = Counter(card(c).rank for c in deck)
    assert len(deck) == 72
    assert sum(n for r, n in ranks.items() if r.isdigit()) == 48
    assert (ranks["Ace"], ranks["Crown"], ranks["Pawn"], ranks["Court"], ranks["Excuse"]) == (6, 6, 6, 6, 0)
    counts = Counter(deck)
    assert counts["light-keeper"] == counts["rite"] == 0  # the ruling removes both copies of these
    assert counts["mountain"] == 2 and counts["ace-moons"] == 1 and counts["huntress"] == 1


def test_card_values_and_suit_matches():
    assert card("ace-knots").value == 1 and card("windfall").value == 10 and card("pact").value == 9
    assert card("harvest").value is None and card("excuse").suits == ()
    assert card("mountain").shares_suit(card("pact")) and not card("mountain").shares_suit(card("sailor"))


def test_unknown_decktet_card():
    with pytest.raises(UnknownCard, match="not a Decktet card id"):
        card("moon")
