"""Staging tables: the TableSnapshot a camera would give of a state, laid by a careful or a sloppy player.

Each ``stage_<game>`` places every visible thing of a state's view where the layout's documented
geometry says it goes, with seeded jitter: a sloppy player's cards sit up to a sixth of a card off
their spot either way (so neighbours may be a third of a card out of line), turned up to 13 degrees,
with uneven gaps, and the whole grid turned a few degrees on the table. ``walk`` plays random legal
actions and yields consecutive states.
"""

from __future__ import annotations

import itertools
import math
import random

from referee.layouts import seats, tabletop
from referee.pyramids import Pyramid
from referee.snapshot import Alternative, CardSighting, DieSighting, PyramidSighting, TableSnapshot, TokenSighting

W, H = 63.0, 88.0
NUDGE = 1 / 6  # a sloppy card lies up to this many card sizes off its spot each way: neighbours a third out of line
TURN = 6.0  # a sloppy grid is turned up to this many degrees on the table


def card(label, centre, angle=0.0, confidence=0.98, alternatives=()):
    """A card sighting; ``label`` 'back' is a face-down card."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    corners = tuple((centre[0] + dx * c - dy * s, centre[1] + dx * s + dy * c)
                    for dx, dy in ((-W / 2, -H / 2), (W / 2, -H / 2), (W / 2, H / 2), (-W / 2, H / 2)))
    return CardSighting(label, label != "back", tuple(centre), corners, angle, confidence,
                        tuple(Alternative(l, p) for l, p in alternatives))


def pyramids(stack_text, centre, confidence=0.97):
    return PyramidSighting(tuple(Pyramid.parse(p) for p in stack_text.split("+")), tuple(centre), confidence)


def walk(state, rng, steps):
    """Consecutive states of a random play from ``state``: [(before, after), ...]. Where a game lists
    its actions lazily (Deck Town's joint reveal of five players has millions), the choice is made
    among the first thousand."""
    pairs = []
    for _ in range(steps):
        legal = list(itertools.islice(state.legal_actions(), 1000))
        if not legal:
            break
        after = state.apply(rng.choice(legal))
        pairs.append((state, after))
        state = after
    return pairs


class Hand:
    """How carefully a player lays things down."""

    def __init__(self, rng: random.Random, sloppy: bool):
        self.rng, self.sloppy = rng, sloppy

    def nudge(self, point, dx, dy):
        if not self.sloppy:
            return point
        return (point[0] + self.rng.uniform(-dx, dx), point[1] + self.rng.uniform(-dy, dy))

    def turn(self, degrees=13.0):
        return self.rng.uniform(-degrees, degrees) if self.sloppy else 0.0


class GridTable:
    """A grid laid on the table: cell -> table point, with uneven gaps between columns and rows."""

    def __init__(self, hand: Hand, cells, centre=tabletop.DEFAULT_MIDDLE):
        rng = hand.rng
        self.hand = hand
        self.angle = math.radians(rng.uniform(-TURN, TURN)) if hand.sloppy else 0.0
        cols = sorted({c for c, _ in cells}) or [0]
        rows = sorted({r for _, r in cells}) or [0]
        gap = (lambda: rng.uniform(3, 16)) if hand.sloppy else (lambda: 8.0)
        self.xs, self.ys = {}, {}
        x = 0.0
        for col in range(cols[0] - 10, cols[-1] + 11):
            self.xs[col] = x
            x += W + gap()
        y = 0.0
        for row in range(rows[0] - 10, rows[-1] + 11):
            self.ys[row] = y
            y += H + gap()
        mid = ((self.xs[cols[0]] + self.xs[cols[-1]]) / 2, (self.ys[rows[0]] + self.ys[rows[-1]]) / 2)
        self.centre, self.mid = centre, mid
        self.box = (cols[0], rows[0], cols[-1], rows[-1])
        self.pitch = (W + 8.0, H + 8.0)

    def at(self, cell):
        """The table point of a cell (fractional cells interpolate)."""
        u = self._axis(self.xs, cell[0]) - self.mid[0]
        v = self._axis(self.ys, cell[1]) - self.mid[1]
        c, s = math.cos(self.angle), math.sin(self.angle)
        return (self.centre[0] + u * c - v * s, self.centre[1] + u * s + v * c)

    @staticmethod
    def _axis(table, value):
        low = math.floor(value)
        return table[low] + (table[low + 1] - table[low]) * (value - low)

    def card(self, label, cell, **kw):
        point = self.hand.nudge(self.at(cell), W * NUDGE, H * NUDGE)
        return card(label, point, math.degrees(self.angle) + self.hand.turn(), **kw)

    def out(self, seat_bearing, distance):
        """The point ``distance`` cells out from the grid's box, on a seat's bearing from its middle."""
        c0, r0, c1, r1 = self.box
        middle = self.at(((c0 + c1) / 2, (r0 + r1) / 2))
        b = math.radians(seat_bearing)
        # in cell units the box is axis-aligned once the grid's turn is undone
        du, dv = math.cos(b - self.angle) / self.pitch[0], math.sin(b - self.angle) / self.pitch[1]
        half_u, half_v = (c1 - c0) / 2, (r1 - r0) / 2
        t = min((half_u + distance) / abs(du) if du else math.inf, (half_v + distance) / abs(dv) if dv else math.inf)
        return (middle[0] + t * math.cos(b), middle[1] + t * math.sin(b))

    def fan(self, labels, seat_bearing, distance, **kw):
        """Cards fanned across a seat's bearing, ``distance`` cells out from the grid."""
        centre = self.out(seat_bearing, distance)
        b = math.radians(seat_bearing)
        across = (-math.sin(b), math.cos(b))
        sightings = []
        for i, label in enumerate(labels):
            offset = (i - (len(labels) - 1) / 2) * 18.0
            point = (centre[0] + across[0] * offset, centre[1] + across[1] * offset)
            sightings.append(card(label, self.hand.nudge(point, 5, 5), self.hand.turn(8), **kw))
        return sightings


# ---------------------------------------------------------------- Pouches

def stage_pouches(state, rng, sloppy=True, frame=()):
    """The table of a Pouches state; ``frame`` adds cells (the previous state's) to the heap's box,
    since the layout measures the players' bands from the heap the referee knew."""
    hand = Hand(rng, sloppy)
    view = state.view()
    players = list(state.game.players)
    cells = set(state.heap) | set(frame)
    table = GridTable(hand, cells)
    cards, tokens = [], []
    bearings = seats.bearings(len(players))
    for cell, pile in state.heap.items():
        cards.append(table.card("back" if pile[-1] == "?" else pile[-1], cell))
    for seat, player in enumerate(players):
        cards += table.fan(view.get(f"pouch/{player}"), bearings[seat], 4.0)
        for weapon in view.get(f"weapon/{player}"):
            cards.append(card(weapon, hand.nudge(table.out(bearings[seat], 2.15), 8, 8), hand.turn()))
        spot = state.spots.get(player)
        if spot is None:
            point = table.out(bearings[seat], 5.5)
        else:
            # on a pile the card shows where; on bedrock the player judges a cell out by eye
            point = hand.nudge(table.at(spot), *((15, 15) if spot in state.heap else (8, 8)))
        tokens.append(TokenSighting(player, point, 0.95))
    rng.shuffle(cards)
    return TableSnapshot(1.0, tuple(cards), tokens=tuple(tokens)), table


# ---------------------------------------------------------------- Deck Town

def stage_deck_town(state, rng, sloppy=True, frame=()):
    """The table of a Deck Town state (``frame``: the previous state's cells, as for Pouches)."""
    hand = Hand(rng, sloppy)
    view = state.view()
    players = list(state.game.players)
    n = len(players)
    table = GridTable(hand, set(state.board) | set(frame))
    bearings = seats.bearings(n)
    shared = seats.shared_bearing(n)
    cards, standing = [], []
    for cell, card_id in state.board.items():
        cards.append(table.card(card_id, cell))
        centre = table.at(cell)
        for group in view[f"board/{cell[0]},{cell[1]}"][1:]:
            for name in group.split("+"):
                spot = (centre[0] + rng.uniform(-18, 18), centre[1] + rng.uniform(-26, 26))
                standing.append(pyramids(name, spot))
    for seat, player in enumerate(players):
        cards += table.fan(view.get(f"hand/{player}"), bearings[seat], 6.0)
        for shown in view.get(f"reveal/{player}"):
            cards.append(card(shown, hand.nudge(table.out(bearings[seat], 3.0), 8, 8), hand.turn()))
        supply = state.supply_of(player)
        row = table.out(bearings[seat], 3.0)
        b = math.radians(bearings[seat])
        for i, name in enumerate(supply):
            offset = (i - (len(supply) - 1) / 2) * 20.0
            standing.append(pyramids(name, hand.nudge((row[0] - math.sin(b) * offset, row[1] + math.cos(b) * offset),
                                                      3, 3)))
    if view.get("deck"):
        cards.append(card("back", hand.nudge(table.out(shared, 3.0), 8, 8), hand.turn()))
    pile = view.get("discard")
    start = table.out(shared, 6.5)
    for i, shown in enumerate(pile):
        point = (start[0] + (i - (len(pile) - 1) / 2) * 12.0, start[1])
        cards.append(card(shown, hand.nudge(point, 4, 4), hand.turn(6)))
    rng.shuffle(cards)
    rng.shuffle(standing)
    return TableSnapshot(1.0, tuple(cards), tuple(standing)), table


# ---------------------------------------------------------------- Mongoose

def inside(rng, rect, inset=12.0):
    x, y, w, h = rect
    return (rng.uniform(x + inset, x + w - inset), rng.uniform(y + inset, y + h - inset))


def stage_mongoose(state, rng, zones, sloppy=True):
    """The table of a Mongoose state on a mat with ``zones``: the pool's cards side by side, each on
    its own spot of a grid over the zone (5 by 3, one layer; a pool of more than 15 cards, which
    random play reaches and no A4 mat holds in one layer, on a 9 by 3 grid, its cards overlapping),
    a little off it, the collections' cards anywhere in their zones, plays to the right of the pool,
    discards to the left, the deck face down beside the discards."""
    hand = Hand(rng, sloppy)
    view = state.view()
    a, b = state.game.players
    pool = zones["pool"]
    px, py, pw, ph = pool
    columns = 5 if len(view.get("pool")) <= 15 else 9
    spots = [(px + 12 + (pw - 24) * i / (columns - 1), py + 12 + (ph - 24) * j / 2) for i in range(columns) for j in range(3)]
    cards = [card(c, hand.nudge(spot, 1.0, 1.0), hand.turn(20)) for c, spot in zip(view.get("pool"), rng.sample(spots, len(spots)))]
    cards += [card(c, inside(rng, zones["collection/top"]), hand.turn(20)) for c in view.get(f"collection/{a}")]
    cards += [card(c, inside(rng, zones["collection/bottom"]), hand.turn(20)) for c in view.get(f"collection/{b}")]
    for player, y in ((a, py + ph * 0.25), (b, py + ph * 0.75)):
        for c in view.get(f"play/{player}"):
            cards.append(card(c, hand.nudge((px + pw + 60, y), 15, 20), hand.turn()))
    for c in view.get("discards"):
        cards.append(card(c, hand.nudge((px - 70, py + ph * 0.6), 25, 50), hand.turn(30)))
    cards.append(card("back", hand.nudge((px - 70, py + 20), 10, 10), hand.turn()))  # the deck
    rng.shuffle(cards)
    return TableSnapshot(1.0, tuple(cards))


# ---------------------------------------------------------------- Pungo

def stage_pungo(state, rng, zones, sloppy=True):
    """The table of a Pungo state on a mat with ``zones``: each visible stack on its cell, the die
    on its square (or tossed beside the mat once thrown, in Chaos Pungo)."""
    from referee.games.pungo.rolling import faces

    hand = Hand(rng, sloppy)
    view = state.view()
    standing = []
    for place, stack in view.items():
        if place.startswith("arena/"):
            x, y, w, h = zones[place]
            point = hand.nudge((x + w / 2, y + h / 2), w * 0.25, h * 0.25)
            standing.append(pyramids("+".join(stack), point))
    dice = []
    order = faces(state.game.option("die"))
    for place, (face,) in ((p, v) for p, v in view.items() if p == "die" or p.startswith("roll/")):
        if place == "die":
            right = max(x + w for x, y, w, h in zones.values())
            point = hand.nudge((right + 60, 40), 20, 20)
        else:
            x, y, w, h = zones[place]
            point = hand.nudge((x + w / 2, y + h / 2), 4, 4)
        dice.append(DieSighting(order.index(face) + 1, point, 0.97))
    rng.shuffle(standing)
    return TableSnapshot(1.0, pyramids=tuple(standing), dice=tuple(dice))
