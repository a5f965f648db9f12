import pytest
from hypothesis import given, strategies as st

from referee.cards import BACK, Card, JOKERS, UnknownCard, is_standard_id, standard_deck


def test_the_deck_has_52_distinct_cards_of_13_ranks_in_4_suits():
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    assert {Card.parse(c).suit for c in deck} == set("SHDC")
    assert len({Card.parse(c).rank for c in deck}) == 13
    assert standard_deck(jokers=True)[-2:] == JOKERS


@given(st.sampled_from(standard_deck()))
def test_ids_round_trip(card_id):
    assert Card.parse(card_id).id == card_id == str(Card.parse(card_id))


def test_card_facts():
    assert Card.parse("TD").rank_value == 10 and Card.parse("TD").colour == "red"
    assert Card.parse("AS").rank_value == 1 and Card.parse("KC").rank_value == 13
    assert Card.parse("QH").name == "queen of hearts"
    assert Card.parse("10d") == Card("T", "D")


@pytest.mark.parametrize("bad, fragment", [("1S", "unknown rank"), ("AX", "unknown suit"), ("ace", "not a standard card id"),
                                           ("", "not a standard card id")])
def test_bad_ids_say_what_is_wrong(bad, fragment):
    with pytest.raises(UnknownCard, match=fragment):
        Card.parse(bad)


def test_known_ids():
    assert is_standard_id(BACK) and is_standard_id("joker-red") and is_standard_id("9C")
    assert not is_standard_id("9c") and not is_standard_id("mountain")
