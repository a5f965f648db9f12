"""The movement die: its faces, what a face is worth, and what the referee knows of its orientation.

The d6 is :class:`referee.dice.Die` (24 orientations, real tumbling geometry: rolling north, the face
that looked north goes underneath and the south face comes up). The camera sees only the top face,
so the referee keeps the *set* of orientations consistent with every face it has seen: at setup the
1 is up and any of the 4 turns about the vertical is possible; each observed roll keeps only the
orientations whose tumble shows the face the table shows.

The pyramid die (as in IceDice) has six faces naming sizes: ``1``, ``2``, ``3`` (one pyramid) and
``12``, ``13``, ``23`` (a choice of two). Its arrangement on the cube is not in any rule text, so
the referee assumes none: all 720 placements of the six faces are possible, the 120 with ``1`` up
at setup, and the set narrows with every roll seen, exactly as for the d6. A tumble never leaves
the same face on top, whatever the arrangement.

>>> [str(d) for d in sorted(start_orientations("d6"))]
['124', '132', '145', '153']
>>> sorted(rolled(start_orientations("d6"), "N"))
['2', '3', '4', '5']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations

from referee.dice import Die

D6_FACES = ("1", "2", "3", "4", "5", "6")
PYRAMID_FACES = ("1", "2", "3", "12", "13", "23")  # sizes shown: small, medium, large, or a choice of two
AVERAGING = {"1": 3, "2": 2, "3": 3, "4": 4, "5": 5, "6": 4}  # the Averaging Pungo table


def faces(die: str) -> tuple[str, ...]:
    return D6_FACES if die == "d6" else PYRAMID_FACES


def points(face: str, table: str) -> int:
    """Movement points of a d6 face: its value, or the Averaging table's."""
    return AVERAGING[face] if table == "averaging" else int(face)


def sizes(face: str) -> frozenset[int]:
    """Sizes a pyramid-die face lets move."""
    return frozenset(int(c) for c in face)


@dataclass(frozen=True, order=True)
class Cube:
    """A die of six distinct faces in a given placement: the faces on top, north, east, bottom, south, west.

    Tumbles follow the same geometry as :class:`referee.dice.Die`. Written with dots: ``1.12.2.23.13.3``.
    """

    places: tuple[str, str, str, str, str, str]

    @property
    def top(self) -> int | str:
        return self.places[0]

    def tumble(self, direction: str) -> Cube:
        t, n, e, b, s, w = self.places
        if direction == "N":
            return Cube((s, t, e, n, b, w))
        if direction == "S":
            return Cube((n, b, e, s, t, w))
        if direction == "E":
            return Cube((w, n, t, e, s, b))
        if direction == "W":
            return Cube((e, n, b, w, s, t))
        raise ValueError(f"unknown direction {direction!r}: use N, E, S or W")

    @classmethod
    def parse(cls, text: str) -> Cube:
        places = tuple(text.split("."))
        if len(places) != 6 or sorted(places) != sorted(PYRAMID_FACES):
            raise ValueError(f"{text!r} is not a pyramid-die placement: six faces {', '.join(PYRAMID_FACES)} "
                             "joined by dots, top north east bottom south west")
        return cls(places)

    def __str__(self) -> str:
        return ".".join(self.places)


def top(orientation) -> str:
    return str(orientation.top)


@cache
def start_orientations(die: str) -> frozenset:
    """Orientations consistent with the setup: the d6 shows 1; the pyramid die shows its single small."""
    if die == "d6":
        return frozenset(Die.orientations(1))
    return frozenset(Cube(("1",) + rest[:2] + rest[2:]) for rest in permutations(PYRAMID_FACES[1:]))


@cache
def showing(die: str, face: str) -> frozenset:
    """Every orientation with ``face`` on top (after a chaos roll, nothing else is known)."""
    if die == "d6":
        return frozenset(Die.orientations(int(face)))
    return frozenset(Cube((face,) + rest) for rest in permutations([f for f in PYRAMID_FACES if f != face]))


def rolled(orientations: frozenset, direction: str) -> dict[str, frozenset]:
    """The faces a tumble towards ``direction`` may show, each with the orientations it leaves."""
    out: dict[str, set] = {}
    for o in orientations:
        after = o.tumble(direction)
        out.setdefault(top(after), set()).add(after)
    return {face: frozenset(s) for face, s in out.items()}


def orientation_to_json(o) -> str:
    return str(o)


def orientation_from_json(die: str, text: str):
    if not isinstance(text, str):
        raise ValueError(f"a die orientation is a string, got {text!r}")
    return Die.parse(text) if die == "d6" else Cube.parse(text)
