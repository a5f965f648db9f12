"""Mongoose on its mat: the pool, the collections, the plays and the discard pile.

The inverse of :mod:`referee.layouts.mongoose`, which reads places from the mat's zones (a card
counts where its centre lies) and keeps every face-up card of the view:

* the pool and each collection: cards on a lattice of spots inside their zone, as many spots as
  the place ever holds in the game, overlapping in rows where the zone is small;
* a play: face up to the right of the pool (+x), on its player's half of the pool's height;
* the discards: overlapping columns to the left of the pool (-x), every card's top showing;
* the deck: a face-down pile to the right, beyond the plays (the layout leaves face-down cards out).

A card keeps its spot while it stays in its place; a card arriving takes the first free spot
(the history of the game decides, so a video shows each card moving only when it is played).
Seat 0 (the first player) owns ``collection/top``.
"""

from __future__ import annotations

import math

from vision.synth.scene import CARD_MM, CardObject
from vision.synth.staging.table import Hand

W, H = CARD_MM
PLAY_OUT_MM = 60.0
DISCARD_BAND = (242.0, 32.0)  # the discard columns lie this far out (the layout reads 250) to the left of the pool (centres)
DECK_OUT_MM = 170.0


class Placer:
    def __init__(self, game, states, hand: Hand, zones):
        self.players = tuple(game.players)
        self.hand, self.zones = hand, zones
        self.regions = {"pool": zones["pool"], f"collection/{self.players[0]}": zones["collection/top"],
                        f"collection/{self.players[1]}": zones["collection/bottom"], "discards": self._discard_band()}
        self.history = list(states)
        capacity = {place: 1 for place in self.regions}
        self.assigned: list[dict[str, dict[str, int]]] = []
        current: dict[str, dict[str, int]] = {place: {} for place in self.regions}
        for state in self.history:  # a card keeps its spot while it stays; a new one takes the first free
            view = state.view()
            for place in self.regions:
                cards = view.get(place)
                spots = {c: s for c, s in current[place].items() if c in cards}
                for card in cards:
                    if card not in spots:
                        spots[card] = min(set(range(len(cards) + len(spots) + 1)) - set(spots.values()))
                current[place] = spots
                capacity[place] = max(capacity[place], max(spots.values(), default=0) + 1)
            self.assigned.append({p: dict(s) for p, s in current.items()})
        self.capacity = capacity

    def _discard_band(self) -> tuple[float, float, float, float]:
        x, y, w, h = self.zones["pool"]
        top, bottom = self.zones["collection/top"], self.zones["collection/bottom"]
        far, near = DISCARD_BAND
        return x - far, top[1] + H / 2, far - near, bottom[1] + bottom[3] - top[1] - H

    def place(self, state, known=None):
        from vision.synth.staging import Table

        view, table, hand = state.view(), Table(), self.hand
        spots = self._spots(state, view)
        for place, region in self.regions.items():
            cards = sorted(view.get(place), key=lambda c: spots[place][c])
            capacity = max(self.capacity[place], max(spots[place].values(), default=0) + 1)
            lattice = _lattice(region, capacity, inset=place != "discards")
            for card in cards:
                x, y, a = hand.place((place, card), lattice[spots[place][card]], 0.0, turn_deg=6.0)
                table.cards.append(CardObject(card, x, y, a))
        px, py, pw, ph = self.zones["pool"]
        for seat, player in enumerate(self.players):
            for card in view.get(f"play/{player}"):
                x, y, a = hand.place(("play", player, card), (px + pw + PLAY_OUT_MM, py + ph * (0.25 + 0.5 * seat)))
                table.cards.append(CardObject(card, x, y, a))
        x, y, a = hand.place(("deck",), (px + pw + DECK_OUT_MM, py + ph / 2), 90.0)
        table.cards.append(CardObject("back", x, y, a, face_up=False, pile=12))
        return table

    def _spots(self, state, view) -> dict[str, dict[str, int]]:
        """Each place's card -> spot: from the game's history when ``state`` is in it, else in order."""
        for i, seen in enumerate(self.history):
            if seen is state:
                return self.assigned[i]
        for i, seen in enumerate(self.history):
            if seen == state:
                return self.assigned[i]
        return {place: {card: i for i, card in enumerate(view.get(place))} for place in self.regions}


def _lattice(region, count: int, inset: bool = True) -> list[tuple[float, float]]:
    """``count`` card centres on a lattice filling ``region`` (x, y, w, h) row by row, with the
    rows and columns spread so the cards overlap as little as the region allows. ``inset``: whole
    cards inside the region; else the centres fill it."""
    x, y, w, h = region
    if inset:
        x, y, w, h = x + W / 2, y + H / 2, max(w - W, 0.0), max(h - H, 0.0)
    best = None
    for rows in range(1, count + 1):
        cols = math.ceil(count / rows)
        pitch_x = w / (cols - 1) if cols > 1 else math.inf
        pitch_y = h / (rows - 1) if rows > 1 else math.inf
        score = min(pitch_x / W, pitch_y / H, 1.15)  # how much of a card its neighbours leave showing
        if best is None or score > best[0] + 1e-9:
            best = (score, rows, cols, min(pitch_x, W * 1.15), min(pitch_y, H * 1.15))
    _, rows, cols, pitch_x, pitch_y = best
    x0 = x + (w - (cols - 1) * pitch_x) / 2
    y0 = y + (h - (rows - 1) * pitch_y) / 2
    return [(x0 + (i % cols) * pitch_x, y0 + (i // cols) * pitch_y) for i in range(count)]
