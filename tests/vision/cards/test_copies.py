"""A deck holds each card a known number of times (:mod:`vision.cards.copies`)."""

import pytest

from vision.cards.copies import named_at_most
from vision.cards.recognise import CardSeen

SQUARE = [[0, 0], [63, 0], [63, 88], [0, 88]]


def _cards(*named):
    return [CardSeen(card_id, confidence, SQUARE, [("9D", 0.01)]) for card_id, confidence in named]


def test_a_double_deck_keeps_two_of_a_name_and_backs_and_unknown_cards_are_never_counted():
    cards = _cards(("painter", 0.7), ("painter", 0.99), ("painter", 0.8), ("back", 0.9), ("back", 0.95),
                   (None, 0.3), (None, 0.4))
    kept = named_at_most(cards, copies=2)
    assert [c.id for c in kept] == [None, "painter", "painter", "back", "back", None, None]
    assert kept[0].alternatives == [("painter", 0.7), ("9D", 0.01)] and kept[0].confidence == 0.7
    assert kept[1:] == cards[1:]  # the others untouched, in their order
    assert [c.id for c in named_at_most(cards, copies=1)] == [None, "painter", None, "back", "back", None, None]


def test_no_limit_keeps_every_name_and_a_negative_count_is_refused():
    cards = _cards(("KC", 0.94), ("KC", 0.92))
    assert named_at_most(cards, copies=0) == cards and named_at_most(cards, copies=None) == cards
    with pytest.raises(ValueError, match="copies"):
        named_at_most(cards, copies=-1)
