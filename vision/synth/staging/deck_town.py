"""Deck Town on the table: the town, the pyramids on its cards, the players' areas, deck and discards.

The inverse of :mod:`referee.layouts.deck_town` (bands in cells of the town's lattice out from the
box round its cards, bearings from its middle, :mod:`referee.layouts.seats`):

* the town: each card on its cell (the town's middle cell at the mat's middle), the pyramids on
  it standing apart on fixed spots of the card (a nest would hide what is inside);
* each player's area on their seat's bearing, measured from the largest town of the game (so it
  stays put): the supply's pyramids in rows :data:`SUPPLY_CELLS` out, one per size, each pyramid keeping its
  slot while the others are taken (:func:`supply_rows`), a revealed card
  :data:`REVEAL_CELLS` out, the hand face down from :data:`HAND_CELLS` out (:meth:`Placer.hand_spots`);
* the shared area (halfway from the last seat round to seat 0): the deck, a face-down pile, and
  the discard pile spread along the bearing outwards, the bottom card furthest out so that x
  grows from bottom to top as the layout reads it, in a zigzag so that a quarter of every card
  shows. Its bottom card has a fixed spot for the game (the longest pile of the game fits).
"""

from __future__ import annotations

import math

import numpy as np

from referee.layouts import seats, tabletop
from referee.pyramids import Pyramid, Size
from vision.synth.scene import CardObject, PyramidObject
from vision.synth.staging.table import H, W, CardGrid, box_of, fan, home_cell

SUPPLY_CELLS = 2.2
REVEAL_CELLS = 3.3
HAND_CELLS = 4.3  # a gap beyond the revealed card, and the camera as near as when hands were fanned
DECK_CELLS = 2.4
DISCARD_CELLS = 3.7
HAND_ROW = 4  # cards side by side in a row of the hand; more cards start a row further out
HAND_GAP_MM = 15.0  # between neighbouring cards of a hand, so that the camera sees each card's outline
SUPPLY_PITCH_MM = 30.0  # a large pyramid's base is 25.4 mm
SUPPLY_ROW = 3  # slots in a row of the supply (one row per size; a player has three of each)
DISCARD_STEP_MM = 9.0  # along x, per card
DISCARD_ZIGZAG_MM = (0.0, 30.0, 60.0, 90.0, 120.0)  # each card a step further along y, then back up
# where pyramids stand on a card, in the card's frame (mm from its centre), first used first
ON_CARD = ((-16, -28), (16, 28), (16, -28), (-16, 28), (-16, 0), (16, 0))


def supply_rows(supply: tuple[str, ...]) -> list[list[str]]:
    """A supply's pyramids (names such as ``yellow2``) in rows as players keep them: one row per size, smalls
    first, each row filled from its first slot. A pyramid taken leaves its slot at the row's end empty and the
    rest stay where they were (laying the whole supply out again after each move, as the demo did before
    2026-11-23, moved every piece behind the one taken and put mediums against larges)."""
    rows: list[list[str]] = [[] for _ in Size]
    for name in supply:
        rows[int(Pyramid.parse(name).size) - 1].append(name)
    return rows


class Placer:
    def __init__(self, game, states, hand, zones):
        self.players = tuple(game.players)
        self.hand = hand
        cells, first, longest = set(), None, 1
        for state in states:
            cells |= set(state.board)
            if first is None and state.board:
                first = next(iter(state.board))
            longest = max(longest, len(state.discard))
        self.cells, self.longest = cells, longest
        self.grid = CardGrid(hand, cells, home_cell(cells, first), tabletop.table_middle(zones))
        n = len(self.players)
        self.bearings, self.shared = seats.bearings(n), seats.shared_bearing(n)

    def place(self, state, known=None):
        from vision.synth.staging import Table

        hand, grid, table = self.hand, self.grid, Table()
        view = state.view()
        outer = box_of(self.cells | set(state.board)) or (0, 0, 0, 0)
        for cell, card in state.board.items():
            x, y, a = hand.place(("board", cell, card), grid.at(cell), grid.angle_deg)
            table.cards.append(CardObject(card, x, y, a))
            standing = [p for group in view[f"board/{cell[0]},{cell[1]}"][1:] for p in group.split("+")]
            if len(standing) > len(ON_CARD):
                raise ValueError(f"{len(standing)} pyramids on the card at {cell}: staging has room for "
                                 f"{len(ON_CARD)}")
            turn = math.radians(a)
            for i, (name, (u, v)) in enumerate(zip(standing, ON_CARD)):
                spot = (x + u * math.cos(turn) - v * math.sin(turn), y + u * math.sin(turn) + v * math.cos(turn))
                px, py, pa = hand.place(("on", cell, i, name), spot, a, offset_mm=1.5, turn_deg=10.0)
                table.pyramids.append(PyramidObject(name, px, py, pa))
        for seat, player in enumerate(self.players):
            bearing = self.bearings[seat]
            facing = bearing - 270.0
            across = bearing + 90.0
            rows = supply_rows(state.supply_of(player))
            for r, row in enumerate(rows):
                centre = grid.out(outer, bearing, SUPPLY_CELLS)
                b = math.radians(bearing)
                centre = (centre[0] + math.cos(b) * (r - 1) * SUPPLY_PITCH_MM,
                          centre[1] + math.sin(b) * (r - 1) * SUPPLY_PITCH_MM)
                slots = fan(centre, across, max(len(row), SUPPLY_ROW), SUPPLY_PITCH_MM)
                for i, (name, point) in enumerate(zip(row, slots)):
                    px, py, pa = hand.place(("supply", player, r, i, name), point, facing, offset_mm=1.5,
                                            turn_deg=15.0)
                    table.pyramids.append(PyramidObject(name, px, py, pa))
            for card in view.get(f"reveal/{player}"):
                x, y, a = hand.place(("reveal", player, card), grid.out(outer, bearing, REVEAL_CELLS), facing)
                table.cards.append(CardObject(card, x, y, a))
            for i, point in enumerate(self.hand_spots(outer, bearing, len(view.get(f"hand/{player}")))):
                # laid with care (2 mm, 2 degrees off at most): neighbours stay clear of each other
                x, y, a = hand.place(("hand", player, i), point, facing, offset_mm=2.0, turn_deg=2.0)
                table.cards.append(CardObject("back", x, y, a, face_up=False))
        if view.get("deck"):
            x, y, a = hand.place(("deck",), grid.out(outer, self.shared, DECK_CELLS), self.shared - 270.0)
            table.cards.append(CardObject("back", x, y, a, face_up=False, pile=max(1, min(int(state.deck), 60))))
        table.cards += self._discards(view.get("discard"), outer)
        return table

    def hand_spots(self, outer, bearing: float, count: int) -> list[tuple[float, float]]:
        """Where the ``count`` cards of the hand of the seat on ``bearing`` lie: face down side by
        side, not overlapping (backs that overlap read as one card), :data:`HAND_ROW` to a row across
        the seat's bearing, the first row :data:`HAND_CELLS` out from the town (``outer``), each
        further row a card's length further out. Card ``i`` always has the same spot, so a hand
        that grows or shrinks changes only at its end (what stays put is not seen to move)."""
        b = math.radians(bearing)
        outwards = np.array([math.cos(b), math.sin(b)])
        first = np.array(fan(self.grid.out(outer, bearing, HAND_CELLS), bearing + 90.0, HAND_ROW, W + HAND_GAP_MM))
        return [tuple(first[i % HAND_ROW] + outwards * (i // HAND_ROW) * (H + HAND_GAP_MM)) for i in range(count)]

    def _discards(self, pile: tuple[str, ...], outer) -> list[CardObject]:
        """The discard pile, bottom first: card i of the longest pile lies i steps in from the bottom."""
        b = math.radians(self.shared)
        out = np.array([math.cos(b), math.sin(b)])
        step = DISCARD_STEP_MM / max(abs(out[0]), 0.3)  # x changes by DISCARD_STEP_MM a card
        start = np.asarray(self.grid.out(outer, self.shared, DISCARD_CELLS))
        bottom = start + out * step * (self.longest - 1)
        middle_zig = (DISCARD_ZIGZAG_MM[0] + DISCARD_ZIGZAG_MM[-1]) / 2
        cards = []
        for i, card in enumerate(pile):
            point = bottom - out * step * i + np.array([0.0, DISCARD_ZIGZAG_MM[i % len(DISCARD_ZIGZAG_MM)] - middle_zig])
            x, y, a = self.hand.place(("discard", i, card), tuple(point), self.grid.angle_deg, offset_mm=1.0,
                                      turn_deg=2.0)
            cards.append(CardObject(card, x, y, a))
        return cards
