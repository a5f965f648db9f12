"""Card grids laid by hand: find the lattice the cards lie on, and name its cells as the state does.

Players lay a heap or a town by eye: cards sit a third of a card off their spot, turned 10-15
degrees, with uneven gaps, and the whole grid may be turned on the table. :func:`fit` finds the
lattice anyway: a first turn from the cards' angles (folded to a quarter turn, so portrait and
landscape cards agree), each card's cell counted a step at a time from its nearest counted
neighbour (so a wrong first guess of the pitch never adds up across the grid), then the turn,
pitch and origin by least squares over those cells. :meth:`Lattice.anchor`
then shifts the lattice's indices so that the cells it sees line up with the cells the state
already knows (and, among equally good shifts, with the cards the state knows lie there), so a
card joining the grid lands in the right new cell.

Columns run along the table's +x axis and rows along +y (away from the camera-side player), each
turned by the grid's angle.

>>> cards = [((100 + 75 * c, 200 + 100 * r), 0.0) for c in range(3) for r in range(2)]
>>> lattice = fit(cards, (63, 88))
>>> lattice = lattice.anchor({(c, r) for c in range(3) for r in range(2)}, cells=[lattice.cell(p) for p, _ in cards])
>>> lattice.cell((252, 305)), lattice.cell((330, 200))
((2, 1), (3, 0))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

Point = tuple[float, float]
Cell = tuple[int, int]

GAP_MM = 8.0  # the gap assumed between cards when no two cards show the real one
SQUEEZE = 0.97  # cells are at least this many card sizes apart: laid cards barely overlap


@dataclass(frozen=True)
class Lattice:
    """A grid of cells on the table: ``origin`` is the centre of cell (0, 0), ``column`` and ``row``
    the table vectors from a cell to the next column and to the next row (an affine grid, so a
    heap laid slightly skewed or with wider gaps one way still fits)."""

    origin: Point
    column: Point
    row: Point

    @property
    def pitch(self) -> tuple[float, float]:
        return math.hypot(*self.column), math.hypot(*self.row)

    def coords(self, point: Point) -> tuple[float, float]:
        """Where a table point lies in cell units (column, row), not rounded."""
        dx, dy = point[0] - self.origin[0], point[1] - self.origin[1]
        (a, c), (b, d) = self.column, self.row
        det = a * d - b * c
        return (dx * d - dy * b) / det, (a * dy - c * dx) / det

    def cell(self, point: Point) -> Cell:
        u, v = self.coords(point)
        return round(u), round(v)

    def centre(self, cell: tuple[float, float]) -> Point:
        """The table point at the centre of a cell (fractional cells allowed)."""
        return (self.origin[0] + cell[0] * self.column[0] + cell[1] * self.row[0],
                self.origin[1] + cell[0] * self.column[1] + cell[1] * self.row[1])

    def shifted(self, dc: int, dr: int) -> Lattice:
        """The same lattice with every cell index increased by (dc, dr)."""
        return replace(self, origin=self.centre((-dc, -dr)))

    def anchor(self, known: Iterable[Cell], seen: dict[Cell, str] | None = None,
               expected: dict[Cell, str] | None = None, cells: Iterable[Cell] | None = None,
               home: Cell | None = None) -> Lattice:
        """Shift indices so the cells seen (``cells``, default: those of ``seen``) best cover the
        ``known`` cells of the state. A shift scores a point per seen cell on a known cell, another
        where the card seen there is the card ``expected`` there, and loses one per seen cell that
        is neither known nor next to a known cell (a grid only grows at its edge). Ties go to the
        smallest shift. Without known cells, the seen cell nearest ``home`` (default: the middle of
        the cells seen) becomes (0, 0).
        """
        known = set(known)
        seen = dict(seen or {})
        cells = sorted(set(cells) if cells is not None else set(seen))
        expected = expected or {}
        if not cells:
            return self
        if not known:
            mid = home or (sum(c for c, _ in cells) / len(cells), sum(r for _, r in cells) / len(cells))
            c0, r0 = min(cells, key=lambda cell: ((cell[0] - mid[0]) ** 2 + (cell[1] - mid[1]) ** 2, cell))
            return self.shifted(-c0, -r0)
        near = {(c + dc, r + dr) for c, r in known for dc in (-1, 0, 1) for dr in (-1, 0, 1)}

        def score(shift: Cell) -> tuple:
            total = 0.0
            for c, r in cells:
                moved = (c + shift[0], r + shift[1])
                if moved in known:
                    total += 1 + (seen.get((c, r)) is not None and seen.get((c, r)) == expected.get(moved))
                elif moved not in near:
                    total -= 1
            return (total, -abs(shift[0]) - abs(shift[1]))

        shifts = {(k[0] - c[0], k[1] - c[1]) for k in known for c in cells}
        best = max(sorted(shifts), key=score)
        return self.shifted(*best)


def fit(cards: Sequence[tuple[Point, float]], card_mm: tuple[float, float]) -> Lattice:
    """The lattice that ``cards`` (centre, angle in degrees) lie on; ``card_mm`` is a card's
    (width, height), the default pitch where no neighbours show the real one.

    Each card's cell is counted from a neighbour's (a step of one pitch, rounded), growing out from
    the card nearest the middle, so errors in the first guess of the pitch never add up across the
    grid; the lattice is then the least-squares fit of a turned rectangular grid to those cells."""
    least = (card_mm[0] * SQUEEZE, card_mm[1] * SQUEEZE)
    if not cards:
        return Lattice((0.0, 0.0), (card_mm[0] + GAP_MM, 0.0), (0.0, card_mm[1] + GAP_MM))
    angle = grid_angle([a for _, a in cards])
    points = [p for p, _ in cards]
    cells = _count_cells(points, angle, card_mm)
    for _ in range(3):  # the cards' positions, not their angles, settle the grid's turn and pitch
        lattice = _rectangular(points, cells, angle, card_mm, least)
        angle = math.atan2(lattice.column[1], lattice.column[0])
    return lattice


def _count_cells(points: list[Point], angle: float, card_mm: tuple[float, float]) -> list[Cell]:
    c, s = math.cos(angle), math.sin(angle)
    uv = [(x * c + y * s, -x * s + y * c) for x, y in points]
    pitch = (max(_pitch([u for u, _ in uv], [v for _, v in uv], card_mm[0], card_mm[1]), card_mm[0] * SQUEEZE),
             max(_pitch([v for _, v in uv], [u for u, _ in uv], card_mm[1], card_mm[0]), card_mm[1] * SQUEEZE))
    mu, mv = sum(u for u, _ in uv) / len(uv), sum(v for _, v in uv) / len(uv)
    start = min(range(len(uv)), key=lambda i: (uv[i][0] - mu) ** 2 + (uv[i][1] - mv) ** 2)
    cells: dict[int, Cell] = {start: (0, 0)}
    while len(cells) < len(uv):  # Prim's tree: always the card nearest (in cells) to one counted
        best = None
        for i in range(len(uv)):
            if i in cells:
                continue
            for j, (cj, rj) in cells.items():
                du, dv = (uv[i][0] - uv[j][0]) / pitch[0], (uv[i][1] - uv[j][1]) / pitch[1]
                d = max(abs(du), abs(dv))
                if best is None or d < best[0]:
                    best = (d, i, (cj + round(du), rj + round(dv)))
        cells[best[1]] = best[2]
    return [cells[i] for i in range(len(uv))]


def _rectangular(points: list[Point], cells: list[Cell], angle: float, card_mm: tuple[float, float],
                 least: tuple[float, float]) -> Lattice:
    """A grid turned by ``angle`` (refined from the cells' own lines) fitted to ``cells`` by least
    squares along each axis; an axis with a single line of cards keeps the card size plus a gap."""
    better = _affine(points, cells)
    if better is not None:  # the turn: the mean of the fitted column and row directions
        a1 = math.atan2(better.column[1], better.column[0])
        a2 = math.atan2(better.row[1], better.row[0]) - math.pi / 2
        if abs(math.remainder(a1 - angle, math.tau)) < 0.5 and abs(math.remainder(a2 - angle, math.tau)) < 0.5:
            angle = math.atan2(math.sin(a1) + math.sin(a2), math.cos(a1) + math.cos(a2))
    c, s = math.cos(angle), math.sin(angle)
    us = [x * c + y * s for x, y in points]
    vs = [-x * s + y * c for x, y in points]
    pu, ou = _line([u for u in us], [i for i, _ in cells], card_mm[0] + GAP_MM, least[0])
    pv, ov = _line([v for v in vs], [j for _, j in cells], card_mm[1] + GAP_MM, least[1])
    return Lattice((ou * c - ov * s, ou * s + ov * c), (pu * c, pu * s), (-pv * s, pv * c))


def _line(values: list[float], index: list[int], default: float, least: float) -> tuple[float, float]:
    """(pitch, offset) with ``values ~ offset + index * pitch``, least squares."""
    n = len(values)
    mi, mv = sum(index) / n, sum(values) / n
    var = sum((i - mi) ** 2 for i in index)
    pitch = default
    if var > 0:
        slope = sum((i - mi) * (v - mv) for i, v in zip(index, values)) / var
        if least <= slope <= 3 * least:
            pitch = slope
    return pitch, mv - pitch * mi


def _affine(points: list[Point], cells: list[Cell]) -> Lattice | None:
    """Least squares ``point ~ origin + column * c + row * r``; None when the cells span no area
    (a single line of cards cannot tell the other axis)."""
    n = len(points)
    if n < 3:
        return None
    mc, mr = sum(c for c, _ in cells) / n, sum(r for _, r in cells) / n
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    scc = sum((c - mc) ** 2 for c, _ in cells)
    srr = sum((r - mr) ** 2 for _, r in cells)
    scr = sum((c - mc) * (r - mr) for c, r in cells)
    det = scc * srr - scr * scr
    if scc == 0 or srr == 0 or det < 1e-6 * scc * srr:
        return None
    axes = []
    for coord, mean in ((0, mx), (1, my)):
        sxc = sum((p[coord] - mean) * (c - mc) for p, (c, _) in zip(points, cells))
        sxr = sum((p[coord] - mean) * (r - mr) for p, (_, r) in zip(points, cells))
        axes.append(((sxc * srr - sxr * scr) / det, (sxr * scc - sxc * scr) / det))
    column, row = (axes[0][0], axes[1][0]), (axes[0][1], axes[1][1])
    origin = (mx - column[0] * mc - row[0] * mr, my - column[1] * mc - row[1] * mr)
    return Lattice(origin, column, row)


def grid_angle(angles: Sequence[float]) -> float:
    """The grid's angle: the mean of the cards' angles folded to a quarter turn (four-fold symmetric
    mean, so 89 and -1 degrees agree), in radians within +-45 degrees."""
    x = sum(math.cos(math.radians(a) * 4) for a in angles)
    y = sum(math.sin(math.radians(a) * 4) for a in angles)
    return math.atan2(y, x) / 4 if (x or y) else 0.0


def _pitch(along: list[float], across: list[float], size: float, other: float) -> float:
    """The median distance from each card to its nearest neighbour on the same line of the grid."""
    gaps = []
    for i, (a, b) in enumerate(zip(along, across)):
        best = None
        for j, (a2, b2) in enumerate(zip(along, across)):
            d = a2 - a
            if j != i and abs(b2 - b) < other * 0.5 and size * 0.6 < d < size * 1.7:
                best = d if best is None else min(best, d)
        if best is not None:
            gaps.append(best)
    if not gaps:
        return size + GAP_MM
    gaps.sort()
    return gaps[len(gaps) // 2]


