"""Mongoose: the pool on the mat, each player's collection in front of them, plays and discards beside.

Places (see ``MongooseState.view``): ``pool``, ``collection/<player>``, ``play/<player>`` (a play
turned face up) and ``discards``; contents in pool order. Hands and the deck are face down and
out of the view, so face-down cards are left out (they are not unplaced: they are where they
belong).

The mat's zones (``calibration.mats``, names ``pool``, ``collection/top``,
``collection/bottom``) say where the pool and the collections are; without zones, those of the A4
Mongoose mat (:data:`A4_ZONES`). Seat 0, the first of ``game.players``, is the camera-side player
(smallest y): ``collection/top`` is theirs and ``collection/bottom`` the other player's. Beside
the mat:

* to the right of the pool (+x), up to :data:`REACH_MM` out: the plays, each on its player's half
  (the half of the pool's height nearer them);
* to the left of the pool (-x), up to :data:`REACH_MM` out: the discard pile;
* anything else (further out, or beyond the collections) is unplaced.

A card within :data:`~referee.layouts.zones.MARGIN_MM` of a zone's printed line counts as in it.

The pool is laid out as one layer of cards, side by side: of two pool cards lying over most of
each other (middles closer than :data:`ONE_LAYER_MM`), the less sure may be no card at all (a
mark on the other read as one: a JD's bottom corner read KD, 0.92), so the pool is also read
without it.
"""

from __future__ import annotations

import math

from referee.games.mongoose.deck import arranged
from referee.layouts import SeenView, zones as mat
from referee.layouts.readout import DEFAULT_THRESHOLD, Item, Readout, describe, known_card
from referee.snapshot import TableSnapshot

# calibration.mats.mat_layout("mongoose", "A4") zones, copied so the referee needs no calibration
A4_ZONES = {"pool": (36.0, 0.0, 201.0, 178.0), "collection/top": (36.0, -104.0, 201.0, 98.0),
            "collection/bottom": (36.0, 198.0, 201.0, 98.0)}
REACH_MM = 250.0  # how far beside the pool plays and discards may lie
# Two pool cards' middles closer than this lie over most of each other (side by side, even overlapping
# a little, they lie a card's width, 63 mm, apart). A trial's phantom KD lay 15 mm from the JD it was read
# on; at 36 mm, phantoms explained away let other misreads through (Mongoose trials 3 and 15, session 15)
ONE_LAYER_MM = 25.0


class MongooseLayout:
    def __init__(self, game, zones=None, threshold: float = DEFAULT_THRESHOLD):
        self.zones = dict(zones) if zones else dict(A4_ZONES)
        mat.check(self.zones, A4_ZONES, "Mongoose")
        self.players = tuple(game.players)
        self.threshold = threshold
        self.owner = {"collection/top": f"collection/{self.players[0]}",
                      "collection/bottom": f"collection/{self.players[1]}"}

    def place(self, point) -> str | None:
        zone = mat.nearest_zone(self.zones, point, ("pool", "collection/top", "collection/bottom"))
        if zone is not None:
            return self.owner.get(zone, zone)
        x, y, w, h = self.zones["pool"]
        top, bottom = self.zones["collection/top"], self.zones["collection/bottom"]
        if not top[1] <= point[1] <= bottom[1] + bottom[3]:
            return None
        if x + w < point[0] <= x + w + REACH_MM:
            return f"play/{self.players[0 if point[1] < y + h / 2 else 1]}"
        if x - REACH_MM <= point[0] < x:
            return "discards"
        return None

    def read(self, snapshot: TableSnapshot, state) -> SeenView:
        out = Readout(self.threshold)
        face_up = [card for card in snapshot.cards if card.face_up]  # (a hand, the deck, a play not yet turned: out of the view)
        places = [self.place(card.center_mm) for card in face_up]
        doubted = _over_surer_cards([k for k, place in enumerate(places) if place == "pool"], face_up)
        for k, (card, place) in enumerate(zip(face_up, places)):
            if place is None:
                out.unplaced(describe("card", card.card, card.center_mm) + ": off the play area")
            else:
                out.add_sighting(place, card.card, card.confidence, card.alternatives, convert=known_card,
                                 maybe_nothing=k in doubted)
        return out.seen(arrange)


def _over_surer_cards(pool: list[int], cards: list) -> set[int]:
    """Of ``cards``, those of the ``pool`` (their numbers) lying over most of another pool card named
    more surely (of two named alike, the later)."""
    return {k for k in pool if any(
        j != k and math.dist(cards[k].center_mm, cards[j].center_mm) < ONE_LAYER_MM and
        (cards[j].confidence, -j) > (cards[k].confidence, -k) for j in pool)}


def arrange(place: str, items: list[Item]) -> tuple[str, ...]:
    labels = [item.label for item in items]
    try:
        return arranged(labels)
    except KeyError:  # a reading outside the Mongoose deck (a joker, an unknown card): keep it, sorted
        return tuple(sorted(labels))


def layout(game, zones, threshold: float = DEFAULT_THRESHOLD) -> MongooseLayout:
    return MongooseLayout(game, zones, threshold)
