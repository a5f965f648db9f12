"""A deck holds each card a known number of times: one card named more often than that is misread.

A standard deck holds each of its 52 cards once (Deck Town's double Decktet, each twice). Where the
recogniser names more cards alike than the deck holds, all but the surest are misreads (a court card's
picture, a pip beside an index, a covered corner boxed as an index: on the real webcam tables never
learned from, 8 of the 28 cards named wrongly were a name already on the table), so they are reported
as unknown, the name they were read as first among their candidates. Which of them is the real card
cannot be told from the name: the surest one stands.

>>> from vision.cards.recognise import CardSeen
>>> square = [[0, 0], [1, 0], [1, 1], [0, 1]]
>>> cards = [CardSeen("KC", 0.94, square), CardSeen("KC", 0.92, square, [("KD", 0.03)]), CardSeen("7H", 0.99, square)]
>>> [(c.id, c.alternatives) for c in named_at_most(cards, copies=1)]
[('KC', []), (None, [('KC', 0.92), ('KD', 0.03)]), ('7H', [])]
"""

from __future__ import annotations

from dataclasses import replace

from vision.cards.recognise import CardSeen

UNNAMED = (None, "back")  # no name to count: an unknown card, a face-down one (a deck shows many backs)


def named_at_most(cards: list[CardSeen], copies: int | None) -> list[CardSeen]:
    """``cards`` in their order, each name on at most ``copies`` of them (None or 0: no limit): of the cards
    named alike, the surest ``copies`` keep the name and the rest are unknown."""
    if not copies:
        return list(cards)
    if copies < 0:
        raise ValueError(f"copies is how many cards of one name the deck holds (1 or more, 0 for no limit), got {copies}")
    alike: dict[str, list[int]] = {}
    for k, card in enumerate(cards):
        if card.id not in UNNAMED:
            alike.setdefault(card.id, []).append(k)
    misread = {k for ks in alike.values() for k in sorted(ks, key=lambda k: -cards[k].confidence)[copies:]}
    return [replace(card, id=None, alternatives=[(card.id, card.confidence), *card.alternatives]) if k in misread
            else card for k, card in enumerate(cards)]
