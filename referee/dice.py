"""A six-sided die and its full orientation on the table.

An orientation is fixed by three faces: the one on top, the one facing north (away from the
camera-side player, up the table frame) and the one facing east. Opposite faces sum to 7, and the
die is a standard Western one: looking at the corner where 1, 2 and 3 meet, they run
counter-clockwise. That leaves 24 orientations.

Tumbling the die over one bottom edge (a *controlled roll*) moves it one square in that direction:
the face that looked that way goes underneath and the face on the opposite side comes up, so the
new top is always one of the four side faces, never the old top or bottom.

>>> die = Die(top=1, north=3, east=2)
>>> die.tumble("N").top, die.tumble("E").top
(4, 5)
>>> sorted({d.top for d in Die.orientations() if d.north == 3})
[1, 2, 5, 6]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

DIRECTIONS = ("N", "E", "S", "W")
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}  # (dx, dy) in the table frame


@dataclass(frozen=True, order=True)
class Die:
    top: int
    north: int
    east: int

    def __post_init__(self) -> None:
        if (self.top, self.north, self.east) not in _valid_triples():
            raise ValueError(
                f"no die has top {self.top}, north {self.north}, east {self.east}: faces are 1-6, "
                "opposite faces sum to 7, and 1-2-3 run counter-clockwise"
            )

    @property
    def bottom(self) -> int:
        return 7 - self.top

    @property
    def south(self) -> int:
        return 7 - self.north

    @property
    def west(self) -> int:
        return 7 - self.east

    def face(self, side: str) -> int:
        """The face looking towards ``side``: one of N, E, S, W, 'top' or 'bottom'."""
        return {"top": self.top, "bottom": self.bottom, "N": self.north, "E": self.east,
                "S": self.south, "W": self.west}[side]

    def tumble(self, direction: str) -> Die:
        """The die after rolling over its bottom edge on the ``direction`` side (N, E, S or W)."""
        if direction == "N":
            return Die(top=self.south, north=self.top, east=self.east)
        if direction == "S":
            return Die(top=self.north, north=self.bottom, east=self.east)
        if direction == "E":
            return Die(top=self.west, north=self.north, east=self.top)
        if direction == "W":
            return Die(top=self.east, north=self.north, east=self.bottom)
        raise ValueError(f"unknown direction {direction!r}: use one of {', '.join(DIRECTIONS)}")

    @staticmethod
    def orientations(top: int | None = None) -> tuple[Die, ...]:
        """All 24 orientations, or the 4 with the given face on top."""
        return tuple(Die(*t) for t in sorted(_valid_triples()) if top is None or t[0] == top)

    @classmethod
    def parse(cls, text: str) -> Die:
        """Parse the notation of :meth:`__str__`: top, north and east digits, like ``132``."""
        if len(text) != 3 or not text.isdigit():
            raise ValueError(f"{text!r} is not a die orientation: write top, north, east faces, like '132'")
        return cls(int(text[0]), int(text[1]), int(text[2]))

    def __str__(self) -> str:
        return f"{self.top}{self.north}{self.east}"


@cache
def _valid_triples() -> frozenset[tuple[int, int, int]]:
    # Axis vectors: east = +x, north = +y, top = +z. The reference die 132 (1 up, 3 north, 2 east)
    # is the Western one: with 1 up and 2 facing the player (south), 3 is on the player's right.
    faces = {1: (0, 0, 1), 2: (1, 0, 0), 3: (0, 1, 0)}
    rotations = _rotations()
    triples = set()
    for rot in rotations:
        placed = {face: _apply(rot, vec) for face, vec in faces.items()}
        placed.update({7 - f: tuple(-c for c in v) for f, v in list(placed.items())})
        by_axis = {v: f for f, v in placed.items()}
        triples.add((by_axis[(0, 0, 1)], by_axis[(0, 1, 0)], by_axis[(1, 0, 0)]))
    return frozenset(triples)


def _rotations() -> list[tuple[tuple[int, ...], ...]]:
    """The 24 proper rotations of the cube as 3x3 integer matrices."""
    from itertools import permutations, product

    mats = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = tuple(tuple(signs[r] if c == perm[r] else 0 for c in range(3)) for r in range(3))
            if _det(m) == 1:
                mats.append(m)
    return mats


def _det(m) -> int:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _apply(m, v) -> tuple[int, int, int]:
    return tuple(sum(m[r][c] * v[c] for c in range(3)) for r in range(3))
