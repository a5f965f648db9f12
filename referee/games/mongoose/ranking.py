"""Ranking collections: which of two collections of up to 7 cards is better, and why in words.

A collection is judged by its matches (cards of one rank). The categories, best first, are the
nine of the rule text plus one it leaves out, a lone three of a kind, which the house ruling places
where the list's own pattern puts it (biggest match first, then the next): below three and a pair,
above two pairs. Three pairs count as two pairs (the best two).

Ties within a category go to the higher rank of the largest match; when the category has two
matches of that size (three and three, two pairs) the higher ones are compared first and the lower
ones only if still tied. Anything else (the smaller match, unmatched cards) never counts; still
equal is a draw.

>>> str(rank(["7C", "7D", "7H", "7S", "2C", "2H", "TS"]))
'four and a pair (7s)'
>>> str(rank(["QD", "QH", "QS", "8C", "8H", "8S", "AD"]))
'three and three (Qs and 8s)'
>>> rank(["KD", "KS", "2C", "2D"]) > rank(["QD", "QS", "JC", "JD", "AS"])
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from referee.games.mongoose.deck import ORDER, plural, value

# (name, the match sizes that make it), best first; the index is the category's strength
CATEGORIES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("four and three", (4, 3)),
    ("four and a pair", (4, 2)),
    ("four of a kind", (4,)),
    ("three and three", (3, 3)),
    ("three and two pairs", (3, 2, 2)),
    ("three and a pair", (3, 2)),
    ("three of a kind", (3,)),  # not in the rule text's list: house ruling mongoose/rank/categories
    ("two pairs", (2, 2)),
    ("one pair", (2,)),
    ("no matches", ()),
)
LONE_THREE = "three of a kind"  # the category the house ruling adds
_BY_SHAPE = {shape: index for index, (_, shape) in enumerate(CATEGORIES)}


@dataclass(frozen=True, order=False)
class Ranking:
    """A collection's category and the ranks (aces high) that break ties, most important first."""

    category: int  # index into CATEGORIES: 0 is the best
    ranks: tuple[str, ...]  # rank letters of the matches that count in a tie

    @property
    def name(self) -> str:
        return CATEGORIES[self.category][0]

    def key(self) -> tuple:
        """Bigger is better."""
        return (-self.category, tuple(value(r) for r in self.ranks))

    def __lt__(self, other: Ranking) -> bool:
        return self.key() < other.key()

    def __gt__(self, other: Ranking) -> bool:
        return self.key() > other.key()

    def ties(self, other: Ranking) -> bool:
        return self.key() == other.key()

    def __str__(self) -> str:
        if not self.ranks:
            return self.name
        return f"{self.name} ({' and '.join(plural(r) for r in self.ranks)})"


def rank(cards: Iterable[str]) -> Ranking:
    """The category of a collection and its tie-break ranks."""
    counts = Counter(card[0] for card in cards)
    matches = sorted(((n, ORDER.index(r), r) for r, n in counts.items() if n >= 2), reverse=True)
    sizes = tuple(n for n, _, _ in matches)
    if sizes == (2, 2, 2):  # three pairs: the best two count, as two pairs
        matches, sizes = matches[:2], (2, 2)
    if sizes not in _BY_SHAPE:
        raise ValueError(f"a collection of at most 7 cards cannot have matches of sizes {sizes}")
    largest = sizes[0] if sizes else 0
    ranks = tuple(r for n, _, r in matches if n == largest)
    return Ranking(_BY_SHAPE[sizes], ranks)


def compare(first: Iterable[str], second: Iterable[str]) -> tuple[int, Ranking, Ranking]:
    """1 if the first collection is better, -1 if the second, 0 for a draw; with both rankings."""
    a, b = rank(first), rank(second)
    return (1 if a > b else -1 if b > a else 0), a, b
