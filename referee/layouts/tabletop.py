"""A table with a grid of cards in the middle and the players' areas around it (Pouches, Deck Town).

:func:`survey` finds the grid among the cards (the cluster of cards lying a card apart that holds
the card nearest the table's middle), fits its lattice (:mod:`.grid`) and anchors it to the
state's known cells. :meth:`Survey.where` then says where any point lies, by its distance from
the grid's bounding box (the cells the state knows and the cells the cluster covers), in cells
(Chebyshev, so the bands are square rings):

* ``grid``: within :data:`GRID_REACH` cells of the box: a cell of it (a pile joining the
  heap, a card built at the town's edge, a token standing on bedrock beside the heap);
* ``near``: the band out to :data:`NEAR_REACH` cells, in front of a seat (where a player puts a
  card forward: a Pouches weapon);
* ``far``: out to :data:`TABLE_REACH` cells, a seat's own area (a pouch, a hand, a supply);
* ``off``: beyond, or nowhere near the grid: off the play area.

:meth:`Survey.places` places a table's cards so: where two fall in one cell and the state has one of
them on the free cell beside it, within :data:`SLOPPY` cells, that one is the free cell's card (a card
seen from afar is laid out up to half a card off its place).

The seat is the one whose bearing from the grid's middle is nearest (:mod:`.seats`). The table's
middle is the centre of the mat's ``play-area`` zone when the layout has zones, else the centre of
an A4 mat's play area, :data:`DEFAULT_MIDDLE`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.layouts import grid, seats
from referee.snapshot import CardSighting

Point = tuple[float, float]
Cell = tuple[int, int]

GRID_REACH = 1.6  # a card within 1.6 cells of the grid's box joins it (new piles are 1 cell out)
NEAR_REACH = 2.7
TABLE_REACH = 12.0
CARD_MM = (63.0, 88.0)
DEFAULT_MIDDLE = (136.5, 89.0)  # the middle of the play area of an A4 mat (calibration.mats)
SLOPPY = 0.8  # a card this far from a cell (in cells) may still be that cell's card, when another claims its own
LINK = 1.7  # cards closer than 1.7 card sizes along both grid axes belong to one cluster


@dataclass(frozen=True)
class Place:
    kind: str  # grid, near, far, off
    cell: Cell | None = None
    seat: int | None = None


@dataclass(frozen=True)
class Survey:
    lattice: grid.Lattice
    box: tuple[int, int, int, int]  # min column, min row, max column, max row
    directions: tuple[float, ...]  # one bearing per seat (and the shared area, where there is one)
    landmarks: tuple[tuple[float, float], ...] = ()  # the grid's cards, in cell units

    def where(self, point: Point, reach: float = GRID_REACH) -> Place:
        """Where ``point`` lies; ``reach`` is how far out the grid's cells count (further for a
        token, which may stand on bedrock a cell beyond a pile that has since gone)."""
        u, v = self.lattice.coords(point)
        c0, r0, c1, r1 = self.box
        distance = max(c0 - u, u - c1, r0 - v, v - r1, 0.0)
        if distance <= reach:
            return Place("grid", self._cell(u, v))
        if distance > TABLE_REACH or not self.directions:
            return Place("off")
        middle = self.lattice.centre(((c0 + c1) / 2, (r0 + r1) / 2))
        seat = seats.nearest(list(self.directions), seats.bearing(middle, point))
        return Place("near" if distance <= NEAR_REACH else "far", seat=seat)

    def places(self, cards: Sequence[CardSighting], expected: dict[Cell, str]) -> list[Place]:
        """Where each of ``cards`` lies (:meth:`where`), one card to a cell where the cards allow it:
        of two cards that fall in one cell, one that the state expects on a neighbouring cell no card
        falls in, and that lies within :data:`SLOPPY` cells of it, is that cell's card (a card seen
        from afar is laid out up to half a card off; ``expected`` maps cells to the card on them)."""
        found = [self.where(card.center_mm) for card in cards]
        taken = [p.cell for p in found if p.kind == "grid"]
        for i, (card, place) in enumerate(zip(cards, found)):
            if place.kind != "grid" or taken.count(place.cell) < 2:
                continue
            u, v = self.lattice.coords(card.center_mm)
            for cell in _neighbours(place.cell):
                if expected.get(cell) == card.card and cell not in taken and \
                        max(abs(u - cell[0]), abs(v - cell[1])) <= SLOPPY:
                    found[i] = Place("grid", cell)
                    taken[taken.index(place.cell)] = cell
                    break
        return found

    def other_cell(self, point: Point) -> Cell | None:
        """The cell ``point`` lies on counted from the lattice alone, where that is not the cell
        :meth:`where` counts from the nearest card: the grid's cards disagree about it (the nearest
        laid out half a cell off its place, its turn misread from afar), so the point is between
        the two. None where they agree, or where the grid has no cards."""
        u, v = self.lattice.coords(point)
        counted = round(u), round(v)
        return counted if self.landmarks and counted != self._cell(u, v) else None

    def _cell(self, u: float, v: float) -> Cell:
        """The cell at (u, v), counted from the nearest card of the grid: a player puts a thing
        beside the grid by eye from the card next to it, so small errors in the fitted pitch do not
        add up across the grid."""
        if not self.landmarks:
            return round(u), round(v)
        lu, lv = min(self.landmarks, key=lambda m: (m[0] - u) ** 2 + (m[1] - v) ** 2)
        return round(lu) + round(u - lu), round(lv) + round(v - lv)


def _neighbours(cell: Cell) -> list[Cell]:
    c, r = cell
    return [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]


def table_middle(zones: dict | None) -> Point:
    """The middle of the play area: the mat's ``play-area`` zone, else :data:`DEFAULT_MIDDLE`."""
    if zones and "play-area" in zones:
        x, y, w, h = zones["play-area"]
        return x + w / 2, y + h / 2
    return DEFAULT_MIDDLE


def card_size(cards: Sequence[CardSighting]) -> tuple[float, float]:
    """(short, long) side of the cards seen, the median over cards; poker size when none show it."""
    shorts, longs = [], []
    for card in cards:
        (x0, y0), (x1, y1), (x2, y2) = card.corners_mm[:3]
        a, b = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        if min(a, b) > 10:
            shorts.append(min(a, b))
            longs.append(max(a, b))
    if not shorts:
        return CARD_MM
    shorts.sort()
    longs.sort()
    return shorts[len(shorts) // 2], longs[len(longs) // 2]


def survey(cards: Sequence[CardSighting], known: Iterable[Cell], expected: dict[Cell, str],
           directions: Sequence[float], middle: Point = DEFAULT_MIDDLE) -> Survey:
    """Find the grid among ``cards``, anchored to the ``known`` cells (where ``expected`` says which
    card should lie on each), with seats at ``directions`` round the table's ``middle``.

    The grid is the cluster holding the card nearest the middle (players build it there), found
    within :data:`GRID_REACH` cells of the middle when the state knows no cells yet; with no such
    card, an empty grid waits at the middle, its cell (0, 0) there."""
    known = set(known)
    size = card_size(cards)
    cluster = _grid_cluster(cards, size, middle, bool(known))
    if not cluster:
        empty = grid.fit([], size)
        lattice = grid.Lattice(middle, empty.column, empty.row)
        return Survey(lattice, _box(known) or (0, 0, 0, 0), tuple(directions))
    lattice = grid.fit([(c.center_mm, c.angle_deg) for c in cluster], size)
    seen = {}
    for card in cluster:
        seen.setdefault(lattice.cell(card.center_mm), card.card)
    lattice = lattice.anchor(known, seen, expected, home=lattice.cell(middle))
    cells = {lattice.cell(c.center_mm) for c in cluster}
    landmarks = tuple(lattice.coords(c.center_mm) for c in cluster)
    return Survey(lattice, _box(known | cells), tuple(directions), landmarks)


def _box(cells: set[Cell]) -> tuple[int, int, int, int] | None:
    if not cells:
        return None
    return (min(c for c, _ in cells), min(r for _, r in cells), max(c for c, _ in cells), max(r for _, r in cells))


def _grid_cluster(cards: Sequence[CardSighting], size: tuple[float, float], middle: Point,
                  built: bool) -> list[CardSighting]:
    """The cluster of cards that is the grid: the one holding the card nearest the middle (which,
    before anything is ``built``, must lie within reach of it), or none."""
    if not cards:
        return []
    angle = grid.grid_angle([c.angle_deg for c in cards])
    cos, sin = math.cos(angle), math.sin(angle)
    rotated = [(x * cos + y * sin, -x * sin + y * cos) for x, y in (c.center_mm for c in cards)]
    mu, mv = middle[0] * cos + middle[1] * sin, -middle[0] * sin + middle[1] * cos
    pitch = (size[0] + grid.GAP_MM, size[1] + grid.GAP_MM)
    offsets = [max(abs(u - mu) / pitch[0], abs(v - mv) / pitch[1]) for u, v in rotated]
    nearest = min(range(len(cards)), key=offsets.__getitem__)
    if not built and offsets[nearest] > GRID_REACH:
        return []
    parent = list(range(len(cards)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    reach_u, reach_v = LINK * size[0], LINK * size[1]
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if abs(rotated[i][0] - rotated[j][0]) < reach_u and abs(rotated[i][1] - rotated[j][1]) < reach_v:
                parent[root(i)] = root(j)
    return [card for i, card in enumerate(cards) if root(i) == root(nearest)]
