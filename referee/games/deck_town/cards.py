"""Which cards are in play, and what the referee knows about where they are.

The deck is a multiset of Decktet ids (a double deck holds most ids twice and a camera cannot tell
the copies apart), so every count here is by id. The referee sees the board, the discard pile
(spent and discarded cards go there face up) and the revealed opening cards; hands and the deck are
face down. A card a player plays must be one of the copies not yet seen: the composition minus
what is visible.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from referee.decktet import ACE, COURT, CROWN, PAWN, CATALOGUE, double_deck, extended_deck, myrmex_deck

PIPS = {CROWN: 3, COURT: 2, PAWN: 1}  # what an attack card is worth
HAND_LIMIT = 5
FIRST_DEAL = 3
DRAW = 3


@lru_cache(maxsize=None)
def composition(deck: str, extra_aces: bool) -> Counter:
    """The cards of the chosen deck; the fly-removal variant adds the Myrmex deck's second set of Aces."""
    if deck == "myrmex":
        cards = list(myrmex_deck())
        if extra_aces:
            cards += [c.id for c in CATALOGUE.values() if c.rank == ACE]
    elif deck == "single-extended":
        cards = list(extended_deck())
    elif deck == "double-extended":
        cards = list(double_deck())
    else:
        raise ValueError(f"unknown deck {deck!r}")
    return Counter(cards)


def attack_pips(card_id: str) -> int:
    """Crown 3, Court 2, Pawn 1; 0 for a card that cannot pay for an attack."""
    return PIPS.get(CATALOGUE[card_id].rank, 0)


def title(card_id: str) -> str:
    """How a verdict names a card: 'the Sea', 'the Ace of Moons'."""
    name = CATALOGUE[card_id].name
    return name[0].lower() + name[1:] if name.startswith("The ") else "the " + name
