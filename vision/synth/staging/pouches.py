"""Pouches of Destiny (and Greedy Devils) on the table: the heap, the pouches, the weapons, the tokens.

The inverse of :mod:`referee.layouts.pouches`, whose bands are counted in cells of the heap's
lattice out from the box round the heap's piles (Chebyshev):

* the heap: every pile on its cell, its top card face up (face down while the table has yet to
  show it), drawn as thick as the pile is tall; the heap's middle cell at the mat's middle;
* a weapon put forward in a fight: :data:`WEAPON_CELLS` out (the layout's 1.6 to 2.7 band),
  measured from the heap the referee knows, on the player's seat bearing;
* a pouch: a row of cards (:func:`~vision.synth.staging.table.row`), its nearest card
  :data:`POUCH_CELLS` out (2.7 to 12), measured from the largest heap of the game, so a pouch
  stays put while the heap shrinks; :data:`POUCH_SPACING_MM` apart, so every card's index shows;
* a token: on its cell (a pile or bedrock beside the heap), or, before it enters, waiting just
  beyond its player's pouch, where the layout leaves it out of the view.
"""

from __future__ import annotations

import math

from referee.games.pouches.heap import UNKNOWN
from referee.layouts import seats, tabletop
from vision.synth.scene import CardObject, TokenObject
from vision.synth.staging.table import H, CardGrid, box_of, home_cell, row

WEAPON_CELLS = 1.9  # nearer the heap than the middle of its band: clear of the pouch behind it
POUCH_CELLS = 3.1
TOKEN_RADIUS_MM = 8.0
POUCH_SPACING_MM = 32.0  # half of each pouch card shows beside the next: the corner index with room to spare
TOKEN_COLOURS = ((40, 40, 200), (200, 90, 30), (40, 170, 60), (30, 190, 230), (160, 50, 150))


class Placer:
    def __init__(self, game, states, hand, zones):
        self.players = tuple(game.players)
        self.hand = hand
        heap_cells, spots, first = set(), set(), None
        for state in states:
            heap_cells |= set(state.heap)
            spots |= {c for c in state.spots.values() if c is not None}
            if first is None and state.heap:
                first = next(iter(state.heap))
        self.heap_cells = heap_cells
        self.grid = CardGrid(hand, heap_cells | spots, home_cell(heap_cells, first), tabletop.table_middle(zones))
        self.bearings = seats.bearings(len(self.players))

    def place(self, state, known=None):
        from vision.synth.staging import Table

        hand, grid, table = self.hand, self.grid, Table()
        view = state.view()
        outer = box_of(self.heap_cells | set(state.heap)) or (0, 0, 0, 0)
        inner = box_of(set(state.heap) | set(known.heap if known is not None else ())) or outer
        for cell, pile in state.heap.items():
            top = pile[-1]
            x, y, a = hand.place(("heap", cell, len(pile)), grid.at(cell), grid.angle_deg)
            card_id, face_up = ("back", False) if top == UNKNOWN else (top, True)
            table.cards.append(CardObject(card_id, x, y, a, face_up=face_up, pile=len(pile)))
        for seat, player in enumerate(self.players):
            bearing = self.bearings[seat]
            facing = bearing - 270.0  # a player's cards face them
            pouch = view.get(f"pouch/{player}")
            anchor = grid.out(outer, bearing, POUCH_CELLS)
            spots, turn = row(anchor, bearing, len(pouch), POUCH_SPACING_MM)
            for i, (card, point) in enumerate(zip(pouch, spots)):
                x, y, a = hand.place(("pouch", player, card, i), point, turn, turn_deg=2.0)
                table.cards.append(CardObject(card, x, y, a, face_up=card != "back"))
            for card in view.get(f"weapon/{player}"):
                x, y, a = hand.place(("weapon", player, card), grid.out(inner, bearing, WEAPON_CELLS), facing)
                table.cards.append(CardObject(card, x, y, a))
            spot = state.spots.get(player)
            if spot is None:  # just beyond the pouch's first card, on the far side from the heap
                b = math.radians(bearing)
                beyond = H / 2 + 2 * TOKEN_RADIUS_MM
                if turn == 0.0:
                    waiting = (anchor[0], anchor[1] + math.copysign(beyond, math.sin(b)))
                else:
                    waiting = (anchor[0] + math.copysign(beyond, math.cos(b)), anchor[1])
                x, y, _ = hand.place(("waiting", player), waiting)
            else:  # tokens sharing a cell stand side by side
                sharing = [p for p in self.players if state.spots.get(p) == spot]
                shift = (sharing.index(player) - (len(sharing) - 1) / 2) * 2.8 * TOKEN_RADIUS_MM
                cx, cy = grid.at(spot)
                x, y, _ = hand.place(("token", player, spot), (cx + shift, cy), offset_mm=3.0)
            table.tokens.append(TokenObject(player, x, y, colour=TOKEN_COLOURS[seat % len(TOKEN_COLOURS)],
                                            shape="pawn", radius_mm=TOKEN_RADIUS_MM, height_mm=22.0))
        return table
