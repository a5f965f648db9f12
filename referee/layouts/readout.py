"""Collecting sightings into places, with their doubts: the common half of every layout.

A layout decides *where* each sighting belongs; a :class:`Readout` gathers what each place holds
and builds the :class:`~referee.layouts.SeenView`. Each thing put in a place is an :class:`Item`
(its kind, its most likely label, the other labels it might be, and a sort key such as its
position in a fanned pile); the game's ``arrange`` turns a place's items into the view's contents
in the game's notation. An item below the confidence threshold, one vision could not identify, or
one the game cannot hold (a card this game's deck lacks) makes its place uncertain: the other
contents the place would have with each of the item's alternatives in turn, most likely first.
An item that may be no thing at all (a mark on another card read as a card of its own) has
:data:`NOTHING` among its alternatives: the place without it.

>>> out = Readout(0.6)
>>> out.add("pool", "4H", 0.9)
>>> out.add("pool", "9S", 0.4, ("9C", "6S"))
>>> seen = out.seen(lambda place, items: tuple(sorted(i.label for i in items)))
>>> seen.view["pool"], seen.uncertain["pool"]
(('4H', '9S'), (('4H', '9C'), ('4H', '6S')))
>>> out.add("pool", "KD", 0.92, ("QD",), maybe_nothing=True)
>>> out.seen(lambda place, items: tuple(sorted(i.label for i in items))).uncertain["pool"][:2]
(('4H', '9C', 'KD'), ('4H', '6S', 'KD'))
>>> out.seen(lambda place, items: tuple(sorted(i.label for i in items))).uncertain["pool"][2:]
(('4H', '9S'), ('4H', '9S', 'QD'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from referee.cards import BACK
from referee.layouts import SeenView
from referee.pyramids import Pyramid
from referee.snapshot import Alternative, CardSighting, is_card_id
from referee.view import View

DEFAULT_THRESHOLD = 0.6
UNKNOWN = "?"  # the reading of a sighting vision could not identify and offered nothing for
NOTHING = ""  # the alternative of an item that may be no thing at all: its place without it


@dataclass(frozen=True)
class Item:
    kind: str  # what sort of thing: card, pyramid, token, die
    label: str  # the most likely reading, in the game's notation
    others: tuple[str, ...] = ()  # other readings, most likely first
    doubtful: bool = False
    key: tuple = ()  # where it lies, for places whose order follows position


def labels(best: str | None, alternatives: Sequence[Alternative], convert: Callable[[str], str | None] = str
           ) -> tuple[str, tuple[str, ...]]:
    """(label, others) of a sighting: an unidentified one reads as its best alternative (or ``?``).
    ``convert`` turns vision's labels into the game's, None where one makes no sense here."""
    ranked = [convert(a.label) for a in sorted(alternatives, key=lambda a: -a.probability)]
    ranked = [r for r in ranked if r is not None]
    if best is None:
        best, ranked = (ranked[0], ranked[1:]) if ranked else (UNKNOWN, [])
    others = tuple(dict.fromkeys(r for r in ranked if r != best))
    return best, others


class Readout:
    def __init__(self, threshold: float = DEFAULT_THRESHOLD, impossible: Iterable[str] = ()):
        """``impossible``: labels this game cannot show (the cards taken out of its deck). Read
        however surely, such a reading is the camera's mistake, so its alternatives are weighed."""
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"a confidence threshold lies in [0, 1], got {threshold!r}")
        self.threshold = threshold
        self.impossible = frozenset(impossible)
        self.items: dict[str, list[Item]] = {}
        self.extra: dict[str, list[tuple[str, ...]]] = {}
        self.lost: list[str] = []

    def add(self, place: str, label: str, confidence: float = 1.0, others: Iterable[str] = (), *,
            kind: str = "card", key: tuple = (), unidentified: bool = False, maybe_nothing: bool = False,
            doubtful: bool = False) -> None:
        """Put one thing in ``place``; it is doubtful below the threshold, when vision could not tell,
        when the game cannot hold it, when it ``maybe_nothing`` (its first alternative then), or when the
        layout says so (``doubtful``). A thing the game cannot hold is another thing or nothing at all (a
        mark read as a card): its last alternative."""
        impossible = label in self.impossible
        doubtful = doubtful or unidentified or maybe_nothing or confidence < self.threshold or impossible
        others = tuple(o for o in others if o not in self.impossible)
        if maybe_nothing:
            others = (NOTHING, *others)
        elif impossible:
            others = (*others, NOTHING)
        self.items.setdefault(place, []).append(Item(kind, label, others, doubtful, key))

    def add_sighting(self, place: str, label: str | None, confidence: float, alternatives: Sequence[Alternative],
                     *, kind: str = "card", key: tuple = (), convert: Callable[[str], str | None] = str,
                     maybe_nothing: bool = False, doubtful: bool = False) -> None:
        """Put a sighting in ``place``: ``label`` is its reading in the game's notation (None: vision
        could not tell), ``convert`` turns its alternatives' labels into the game's notation."""
        best, others = labels(label, alternatives, convert)
        self.add(place, best, confidence, others, kind=kind, key=key, unidentified=label is None,
                 maybe_nothing=maybe_nothing, doubtful=doubtful)

    def doubt(self, place: str, contents: tuple[str, ...]) -> None:
        """Another reading of ``place`` the layout itself is unsure about (two cards on one cell, say)."""
        self.extra.setdefault(place, []).append(contents)

    def unplaced(self, words: str) -> None:
        self.lost.append(words)

    def seen(self, arrange: Callable[[str, list[Item]], tuple[str, ...]]) -> SeenView:
        places = {place: arrange(place, items) for place, items in self.items.items()}
        uncertain: dict[str, tuple[tuple[str, ...], ...]] = {}
        for place, items in self.items.items():
            options: list[tuple[str, ...]] = []
            for i, item in enumerate(items):
                if not item.doubtful:
                    continue
                for other in item.others:
                    changed = list(items)
                    if other == NOTHING:
                        del changed[i]
                    else:
                        changed[i] = replace(item, label=other)
                    options.append(arrange(place, changed))
            options += self.extra.get(place, [])
            if options or any(item.doubtful for item in items):
                main = places[place]
                uncertain[place] = tuple(o for o in dict.fromkeys(options) if o != main)
        for place, options in self.extra.items():
            if place not in self.items:
                uncertain[place] = tuple(dict.fromkeys(options))
        return SeenView(View(places), uncertain, tuple(self.lost))


def describe(kind: str, label: str | None, where: tuple[float, float]) -> str:
    """A sighting in words, for the players: ``card 7H at (412, 96) mm``."""
    return f"{kind} {label if label is not None else '(unidentified)'} at ({where[0]:.0f}, {where[1]:.0f}) mm"


def card_label(card: CardSighting) -> str | None:
    """A card's reading: its id, ``back`` face down, None when vision could not tell."""
    return BACK if not card.face_up else card.card


def known_card(label: str) -> str | None:
    """An alternative's label as a card id, None when it names no card."""
    return label if is_card_id(label) else None


def stack_label(label: str) -> str | None:
    """A pyramid stack's label as views write it (``red3+blue1``), None when it is not one."""
    try:
        return "+".join(str(Pyramid.parse(p)) for p in label.split("+"))
    except ValueError:
        return None


def add_cards(out: Readout, place: str, cards: list[CardSighting], one: bool) -> None:
    """Put ``cards`` in ``place``; where the place shows ``one`` card (a pile's top, a cell's card)
    and several lie there, the most confident reads as it and each other one becomes another
    reading of the place."""
    if one and len(cards) > 1:
        cards = sorted(cards, key=lambda c: -c.confidence)
        for other in cards[1:]:
            out.doubt(place, (card_label(other) or UNKNOWN,))
        cards = cards[:1]
    for card in cards:
        out.add_sighting(place, card_label(card), card.confidence, card.alternatives, key=card.center_mm,
                         convert=known_card)
