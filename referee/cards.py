"""Standard playing cards: ids, ranks, suits and the 52-card deck.

A card is named by its id, rank then suit: ``AS`` (ace of spades), ``TD`` (ten of diamonds),
``QH``. A face-down card is ``back``; the jokers are ``joker-black`` and ``joker-red``.
Ids are what crosses every layer (snapshots, views, logs); :class:`Card` is the parsed value
with the facts games need (rank number, suit, colour).

>>> Card.parse("TD").rank_value, Card.parse("TD").colour
(10, 'red')
>>> str(Card("Q", "H"))
'QH'
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
RED_SUITS = frozenset("HD")

BACK = "back"
JOKERS = ("joker-black", "joker-red")


class UnknownCard(ValueError):
    """Raised for a card id that names no card of the deck in question."""


@dataclass(frozen=True, order=True)
class Card:
    """One standard playing card (never a joker or a back: those are plain ids)."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or len(self.rank) != 1:
            raise UnknownCard(f"unknown rank {self.rank!r}: expected one of {' '.join(RANKS)}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise UnknownCard(f"unknown suit {self.suit!r}: expected one of {' '.join(SUITS)}")

    @classmethod
    def parse(cls, card_id: str) -> Card:
        """Parse an id such as ``AS`` or ``TD``; ``10D`` is accepted as a spelling of ``TD``."""
        text = card_id.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2:
            raise UnknownCard(f"{card_id!r} is not a standard card id (rank then suit, like 'AS', 'TD', 'QH')")
        return cls(text[0], text[1])

    @property
    def id(self) -> str:
        return self.rank + self.suit

    @property
    def rank_value(self) -> int:
        """Ace 1, two 2, ... ten 10, jack 11, queen 12, king 13 (games that rank aces high adjust)."""
        return RANKS.index(self.rank) + 1

    @property
    def colour(self) -> str:
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def name(self) -> str:
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.id


def standard_deck(jokers: bool = False) -> tuple[str, ...]:
    """The 52 card ids in suit-major order (spades, hearts, diamonds, clubs), jokers last if asked."""
    deck = tuple(rank + suit for suit in SUITS for rank in RANKS)
    return deck + JOKERS if jokers else deck


def is_standard_id(card_id: str) -> bool:
    """True for the 52 card ids, ``back`` and the two jokers, spelled exactly as the project spells them."""
    return card_id in _STANDARD_IDS


_STANDARD_IDS = frozenset(standard_deck(jokers=True)) | {BACK}
