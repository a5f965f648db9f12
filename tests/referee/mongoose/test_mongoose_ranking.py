"""Collections ranked: every category in order, every tie-break, and the winner explained."""

from itertools import combinations

import pytest

from referee.games.mongoose.ranking import CATEGORIES, compare, rank

# the nine example collections of the rules' section 3, best first, with the lone three of the house ruling
EXAMPLES = [
    ("four and three", "5C 5D 5H 5S QC QD QH"),
    ("four and a pair", "7C 7D 7H 7S 2C 2H TS"),
    ("four of a kind", "QC QD QH QS KC TC 8D"),
    ("three and three", "QD QH QS 8C 8H 8S AD"),
    ("three and two pairs", "8D 8H 8S KD KS 6C 6D"),
    ("three and a pair", "8C 8D 8H 7D 7S KC JC"),
    ("three of a kind", "8C 8D 8H 7D 6S KC JC"),
    ("two pairs", "TD TH 6C 6H QC 3S 2C"),
    ("one pair", "7C 7S AS KH QS 9S 8D"),
    ("no matches", "AS KC QC JD 9D 8H 4S"),
]


@pytest.mark.parametrize("name, cards", EXAMPLES)
def test_the_rules_examples_fall_in_their_categories(name, cards):
    """'mongoose/rank/categories'"""
    assert rank(cards.split()).name == name


def test_every_category_beats_every_later_one():
    """'mongoose/rank/categories': all 45 pairs, each way round, whatever the ranks."""
    assert [name for name, _ in EXAMPLES] == [name for name, _ in CATEGORIES]
    for (better, a), (worse, b) in combinations(EXAMPLES, 2):
        assert compare(a.split(), b.split())[0] == 1, f"{better} should beat {worse}"
        assert compare(b.split(), a.split())[0] == -1


def test_a_low_category_never_wins_on_ranks():
    assert rank("2C 2D 2H 3S 3C".split()) > rank("AC AD KH KS QC QD".split())  # three and a pair > aces and kings
    assert rank("2C 2D".split()) > rank("AS KS QS JS 9H 8H 7H".split())


def test_the_lone_three_is_placed_by_the_house_ruling():
    """'mongoose/rank/categories': below three and a pair, above two pairs."""
    assert rank("3C 3D 3H 9S".split()) > rank("AC AD KC KD".split())
    assert rank("3C 3D 3H 9S".split()) < rank("2C 2D 2H 4S 4C".split())


def test_three_pairs_count_as_the_best_two():
    ranking = rank("KC KD 9C 9D 2C 2D 5S".split())
    assert ranking.name == "two pairs" and ranking.ranks == ("K", "9")
    assert compare("KC KD 9C 9D 2C 2D".split(), "KH KS 9H 9S 5C".split())[0] == 0


def test_only_the_largest_match_breaks_a_tie():
    """'mongoose/rank/tiebreak': three sevens and two twos beat three fives and two kings."""
    assert compare("7C 7D 7H 2C 2D".split(), "5C 5D 5H KC KD".split())[0] == 1
    assert compare("8C 8D 8H 2S 2C".split(), "7C 7D 7H AS AC".split())[0] == 1  # the pair never counts


def test_two_pairs_compare_high_then_low():
    """'mongoose/rank/tiebreak': kings and twos beat queens and jacks; equal kings, then the lower pair."""
    assert compare("KC KD 2C 2D".split(), "QC QD JC JD".split())[0] == 1
    assert compare("KC KD 2C 2D".split(), "KH KS 3H 3S".split())[0] == -1
    assert compare("KC KD 2C 2D AS".split(), "KH KS 2H 2S 3C".split())[0] == 0  # the odd card never counts


def test_three_and_three_compare_high_then_low():
    """'mongoose/rank/tiebreak': both threes count, the higher first."""
    assert rank("QD QH QS 8C 8H 8S".split()).ranks == ("Q", "8")
    assert rank("QD QH QS 8C 8H 8S".split()) > rank("JD JH JS TC TH TS".split())


def test_aces_are_high_in_a_tie():
    """'mongoose/setup/aces-high'"""
    assert compare("AC AD 3S".split(), "KC KD QS".split())[0] == 1


@pytest.mark.parametrize("a, b", [("7C 7S AS", "7D 7H KS"), ("AS KC QC JD", "AH KD QD JC"), ("", "")])
def test_still_equal_is_a_draw(a, b):
    """'mongoose/end/draw': equal pairs, or no matches on either side (no high card)."""
    assert compare(a.split(), b.split())[0] == 0


@pytest.mark.parametrize("cards, text", [
    ("7C 7D 7H 7S 2C 2H TS", "four and a pair (7s)"),
    ("QD QH QS 8C 8H 8S AD", "three and three (Qs and 8s)"),
    ("TD TH 6C 6H QC", "two pairs (10s and 6s)"),
    ("AS AC", "one pair (As)"),
    ("AS KC", "no matches"),
])
def test_rankings_are_named_with_the_ranks_that_count(cards, text):
    assert str(rank(cards.split())) == text
