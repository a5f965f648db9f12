"""The heap's geometry: cells, heights, neighbours, and the ever-lower paths of a swoosh.

A cell is ``(column, row)`` with rows growing southwards, written ``"c,r"`` (``"1,2"``, ``"-1,0"``).
The heap maps cells to piles, each a tuple of card ids bottom to top; ``"?"`` is a face-down card
nobody has seen yet. A cell with no pile is bedrock, height 0; a pile's height is its top card's
rank (Ace 1 ... King 13). A spot *beside* the heap is a bedrock cell touching a pile, corners
included; marsupials (and thrown cards) stay on or beside the heap.

>>> heap = {(0, 0): ("?", "7H"), (1, 0): ("KS",)}
>>> height(heap, (1, 0)), height(heap, (5, 5)), is_beside(heap, (2, 1)), is_beside(heap, (3, 0))
(13, 0, True, False)
>>> [cell_text(c) for c in descents(heap, (1, 0))]
['1,-1', '2,0', '1,1', '0,0']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from referee.cards import RANKS, SUITS

Cell = tuple[int, int]
Heap = Mapping[Cell, tuple[str, ...]]

UNKNOWN = "?"  # a face-down card not yet seen by anyone
NESW = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONALS = ((1, -1), (1, 1), (-1, 1), (-1, -1))
AROUND = NESW + DIAGONALS

HEIGHT = {rank + suit: value for value, rank in enumerate(RANKS, start=1) for suit in SUITS}
FOODS = frozenset(range(1, 6))  # Ace to 5: the food values


class BadCell(ValueError):
    """Text that names no cell."""


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """``"1,2"`` -> ``(1, 2)``; anything else raises :class:`BadCell` with a readable message."""
    parts = text.split(",") if isinstance(text, str) else ()
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise BadCell(f"{text!r} is not a cell: write column,row such as 1,2") from None


def parse_path(text: str) -> tuple[Cell, ...]:
    """``"1,2>1,3"`` -> ``((1, 2), (1, 3))``."""
    if not text:
        raise BadCell("an empty path: name the cells, such as 1,2>1,3")
    return tuple(parse_cell(part) for part in text.split(">"))


def path_text(path: tuple[Cell, ...]) -> str:
    return ">".join(cell_text(c) for c in path)


def add(cell: Cell, delta: tuple[int, int]) -> Cell:
    return cell[0] + delta[0], cell[1] + delta[1]


def is_nesw(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def is_diagonal(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def height(heap: Heap, cell: Cell) -> int:
    pile = heap.get(cell)
    if not pile or pile[-1] == UNKNOWN:
        return 0
    return HEIGHT[pile[-1]]


def is_beside(heap: Heap, cell: Cell) -> bool:
    return cell not in heap and any(add(cell, d) in heap for d in AROUND)


def on_or_beside(heap: Heap, cell: Cell) -> bool:
    return cell in heap or is_beside(heap, cell)


def corner_cut(heap: Heap, a: Cell, b: Cell) -> bool:
    """A diagonal step from ``a`` to ``b`` cuts across the corner of a heap card."""
    return (b[0], a[1]) in heap or (a[0], b[1]) in heap


def descents(heap: Heap, cell: Cell) -> Iterator[Cell]:
    """NESW neighbours strictly lower than ``cell`` (bedrock included), in N, E, S, W order."""
    here = height(heap, cell)
    for d in NESW:
        nxt = add(cell, d)
        if height(heap, nxt) < here:
            yield nxt


def lower_paths(heap: Heap, start: Cell) -> Iterator[tuple[Cell, ...]]:
    """Every non-empty path of NESW steps from ``start`` along strictly lower cells, each prefix once."""
    stack = [(start, ())]
    while stack:
        cell, path = stack.pop()
        for nxt in descents(heap, cell):
            longer = path + (nxt,)
            yield longer
            stack.append((nxt, longer))


def bounds(cells) -> tuple[int, int, int, int]:
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    return min(cols), min(rows), max(cols), max(rows)
