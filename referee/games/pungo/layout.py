"""Where things stand: the arena's cells, the home rows, the setup and the controlled-roll grid.

Cells are named ``r<row>c<column>``, both counted from 1, row 1 being the first player's home row
(the setup picture labels the top row "Player 1's home row"). A board is a tuple of cells in
row-major order, each cell a tuple of pyramid names (``red3``) bottom to top.

>>> arena = Arena.of("3x4")
>>> arena.name(arena.index("r2c3")), arena.neighbour(arena.index("r1c1"), "N")
('r2c3', None)
>>> [arena.name(i) for i in arena.home_row(1)]
['r3c1', 'r3c2', 'r3c3', 'r3c4']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from referee.pyramids import Stack

DIRECTIONS = ("N", "E", "S", "W")
DELTA = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}  # (rows, columns); north is row 1's side
_CELL = re.compile(r"r([1-9])c([1-9])")

Board = tuple[tuple[str, ...], ...]

# The setup picture, middle row, columns 1..4 (bottom to top): a nest large over medium over small,
# large over medium, a small perched on a large, medium over small. Sizes only; colours vary.
SETUP_SIZES = ((1, 2, 3), (2, 3), (3, 1), (1, 2))
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}
ONE_COLOUR = ("red",)
THREE_COLOURS = ("red", "green", "blue")
# The default three-colour setup: each colour has one small, one medium and one large.
DEFAULT_THREE = ("red1+red2+red3", "green2+green3", "blue3+green1", "blue1+blue2")


def size(pyramid: str) -> int:
    """Pips of a pyramid name such as ``red3`` (fast path: the last character)."""
    return ord(pyramid[-1]) - 48


@dataclass(frozen=True)
class Grid:
    """A rectangle of named cells with orthogonal neighbours."""

    rows: int
    columns: int

    def index(self, name: str) -> int:
        match = _CELL.fullmatch(name)
        if not match or not (1 <= int(match.group(1)) <= self.rows and 1 <= int(match.group(2)) <= self.columns):
            raise ValueError(f"{name!r} is not a cell of a {self.rows}x{self.columns} grid: "
                             f"write r<row>c<column>, rows 1-{self.rows}, columns 1-{self.columns}")
        return (int(match.group(1)) - 1) * self.columns + int(match.group(2)) - 1

    def name(self, index: int) -> str:
        return _names(self.rows, self.columns)[index]

    @property
    def names(self) -> tuple[str, ...]:
        return _names(self.rows, self.columns)

    @property
    def size(self) -> int:
        return self.rows * self.columns

    def neighbour(self, index: int, direction: str) -> int | None:
        """The cell one square towards ``direction``, or None off the edge."""
        return _neighbours(self.rows, self.columns)[index][DIRECTIONS.index(direction)]

    def direction(self, start: int, end: int) -> str | None:
        """The direction of one orthogonal step from ``start`` to ``end``, or None if there is none."""
        for d in DIRECTIONS:
            if self.neighbour(start, d) == end:
                return d
        return None


@cache
def _names(rows: int, columns: int) -> tuple[str, ...]:
    return tuple(f"r{i // columns + 1}c{i % columns + 1}" for i in range(rows * columns))


@cache
def _neighbours(rows: int, columns: int) -> tuple[tuple[int | None, ...], ...]:
    table = []
    for index in range(rows * columns):
        r, c = divmod(index, columns)
        row = []
        for d in DIRECTIONS:
            dr, dc = DELTA[d]
            rr, cc = r + dr, c + dc
            row.append(rr * columns + cc if 0 <= rr < rows and 0 <= cc < columns else None)
        table.append(tuple(row))
    return tuple(table)


@dataclass(frozen=True)
class Arena(Grid):
    """The game arena. ``3x4`` (3 rows of 4, the picture) or ``4x3`` (4 rows of 3, the text's board)."""

    @classmethod
    def of(cls, option: str) -> Arena:
        rows, columns = (int(x) for x in option.split("x"))
        return cls(rows, columns)

    def home_row(self, seat: int) -> tuple[int, ...]:
        """Cells of the home row of seat 0 (row 1) or seat 1 (the last row), column order."""
        row = 0 if seat == 0 else self.rows - 1
        return tuple(row * self.columns + c for c in range(self.columns))

    def setup_cells(self) -> tuple[int, ...]:
        """Where the four setup stacks go, in the order the rules list them.

        3x4: the middle row, columns 1..4. 4x3: the middle column, rows 1..4 (the only line of four
        cells between the two home rows of three), the first stack in the first player's row.
        """
        if self.rows == 3:
            return tuple(self.columns + c for c in range(4))
        return tuple(r * self.columns + 1 for r in range(4))

    def mirror_pairs(self) -> tuple[tuple[int, int], ...]:
        """Column pairs a symmetric home row must match: (1, 4) and (2, 3), or (1, 3) on a 3-wide row."""
        n = self.columns
        return tuple((c, n - 1 - c) for c in range(n // 2))


def roll_grid(option: str) -> tuple[Grid, int]:
    """The controlled-roll surface and the die's starting cell: 3x3 centre, or 3x4 row 2 column 3."""
    if option == "3x3":
        grid = Grid(3, 3)
        return grid, grid.index("r2c2")
    grid = Grid(3, 4)
    return grid, grid.index("r2c3")


def setup_board(arena: Arena, stacks: tuple[str, ...]) -> Board:
    cells: list[tuple[str, ...]] = [()] * arena.size
    for cell, text in zip(arena.setup_cells(), stacks):
        cells[cell] = tuple(str(p) for p in Stack.parse(text).pyramids)
    return tuple(cells)


def visible(stack: tuple[str, ...]) -> tuple[str, ...]:
    """What a camera sees of a stack, bottom to top: each pyramid not covered by an equal or larger one above."""
    shown, biggest = [], 0
    for pyramid in reversed(stack):
        s = size(pyramid)
        if s > biggest:
            shown.append(pyramid)
            biggest = s
    return tuple(reversed(shown))
