"""The town's geometry: cards on integer grid cells, orthogonal adjacency and connectivity.

A cell is ``(x, y)``; in notation and in view places it is written ``x,y`` (``3,-1``). The first
card of the game lies on ``0,0``. *Adjacent* means sharing a side (four neighbours). The board must
stay *connected*, where a diagonal touch also counts: the rules allow diagonal links only as what a
fly leaves behind, and since every build and every landing is orthogonally adjacent to a card,
checking eight-neighbour connectivity of the whole board is exactly that rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Cell = tuple[int, int]

_CELL = re.compile(r"(-?\d+),(-?\d+)")
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
AROUND = ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))


class BadCell(ValueError):
    """A cell written in a way that is not ``x,y`` with whole numbers."""


def parse_cell(text: str) -> Cell:
    match = _CELL.fullmatch(text.strip()) if isinstance(text, str) else None
    if not match:
        raise BadCell(f"{text!r} is not a board cell: write x,y with whole numbers, like '3,-1'")
    return int(match.group(1)), int(match.group(2))


def cell_name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four orthogonally adjacent cells."""
    x, y = cell
    return tuple((x + dx, y + dy) for dx, dy in ORTHOGONAL)


def touches(cell: Cell, cards: Iterable[Cell]) -> bool:
    """True when ``cell`` is orthogonally adjacent to one of ``cards``."""
    occupied = cards if isinstance(cards, (set, frozenset, dict)) else set(cards)
    return any(n in occupied for n in neighbours(cell))


def is_connected(cells: Iterable[Cell]) -> bool:
    """Eight-neighbour connectivity (a diagonal touch counts); the empty board counts as connected."""
    remaining = set(cells)
    if not remaining:
        return True
    stack = [remaining.pop()]
    while stack:
        x, y = stack.pop()
        for dx, dy in AROUND:
            other = (x + dx, y + dy)
            if other in remaining:
                remaining.remove(other)
                stack.append(other)
    return not remaining


def frontier(cells: Iterable[Cell]) -> set[Cell]:
    """Empty cells orthogonally adjacent to the board: where a card may be built or land."""
    board = set(cells)
    return {n for c in board for n in neighbours(c) if n not in board}


def components(cells: Iterable[Cell]) -> list[set[Cell]]:
    """The orthogonally connected groups of ``cells`` (blocks are made of orthogonal links only)."""
    remaining, groups = set(cells), []
    while remaining:
        start = remaining.pop()
        group, stack = {start}, [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in remaining:
                    remaining.remove(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups
