"""The card facts Mongoose needs: aces high, suit colours and partners, and the order a pool is laid out in.

Cards are the project's standard ids (``QH``, ``TD``, ``AS``). Aces are high, so an ace is worth 14
and is the last card of its suit to be pulled or pushed.

>>> value("AS"), value("2S"), partner("H"), partner("C")
(14, 2, 'D', 'S')
>>> sorted(["KH", "2D", "AH", "5S"], key=layout_key)
['5S', 'KH', 'AH', '2D']
>>> plural("T"), plural("Q")
('10s', 'Qs')
"""

from __future__ import annotations

from referee.cards import SUIT_NAMES, SUITS, standard_deck

DECK = frozenset(standard_deck())
ORDER = "23456789TJQKA"  # aces high
SUIT_SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_PARTNER = {"H": "D", "D": "H", "S": "C", "C": "S"}  # the other suit of the same colour
_VALUE = {rank: index + 2 for index, rank in enumerate(ORDER)}
_LAYOUT = {card: (SUITS.index(card[1]), _VALUE[card[0]]) for card in DECK}  # hot in views and JSON: a lookup


def value(card: str) -> int:
    """Two 2 ... ten 10, jack 11, queen 12, king 13, ace 14 (a card id or a rank letter)."""
    return _VALUE[card[0]]


def suit(card: str) -> str:
    return card[1]


def partner(suit_letter: str) -> str:
    """The other suit of the same colour: hearts and diamonds, spades and clubs."""
    return _PARTNER[suit_letter]


def layout_key(card: str) -> tuple[int, int]:
    """Pool order: by suit (spades, hearts, diamonds, clubs), then rank, aces last."""
    return _LAYOUT[card]


def arranged(cards) -> tuple[str, ...]:
    """Cards in pool order (views and canonical actions list cards this way)."""
    return tuple(sorted(cards, key=_LAYOUT.__getitem__))


def plural(rank: str) -> str:
    """How a rank is named in a ranking's explanation: ``7s``, ``10s``, ``Qs``, ``As``."""
    return ("10" if rank == "T" else rank) + "s"


def suit_name(suit_letter: str) -> str:
    return SUIT_NAMES[suit_letter]


def bad_card_text(card: object) -> str | None:
    """Why ``card`` is no card of the deck, or None for a good id."""
    if isinstance(card, str) and card in DECK:
        return None
    return f"{card!r} is not a card of the standard deck (rank then suit, like 'QH', 'TD', 'AS')"
