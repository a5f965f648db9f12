"""Looney pyramids: colours, the three sizes with their real dimensions, and stacks.

A pyramid is written colour then pips: ``red3`` is a large red, ``clear1`` a small clear one.
A :class:`Stack` lists pyramids bottom to top and is written with ``+``: ``green1+green2+green3``
is a nest (each pyramid placed over the smaller one below it), ``red3+blue1`` a small blue perched
on a large red's tip. A pyramid placed over one of its own size or smaller covers it, so the
camera sees only the outermost pyramid of a nest; a smaller one on top leaves both visible.

>>> Stack.parse("green1+green2+green3").visible()
(Pyramid(colour='green', size=<Size.LARGE: 3>),)
>>> str(Stack.parse("red3+blue1").top)
'blue1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum


class Size(IntEnum):
    """Pyramid sizes by pip count; the value is also the pip count."""

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def base_mm(self) -> float:
        """Edge of the square base, in millimetres."""
        return _DIMENSIONS_MM[self][0]

    @property
    def height_mm(self) -> float:
        """Height from base to tip, standing upright, in millimetres."""
        return _DIMENSIONS_MM[self][1]


_DIMENSIONS_MM = {Size.SMALL: (14.3, 25.4), Size.MEDIUM: (19.8, 34.9), Size.LARGE: (25.4, 44.5)}

# Colours of the Rainbow and Xeno sets plus pink; True where the plastic is translucent.
# Players may register other colours: any lower-case word is a valid colour name.
STANDARD_COLOURS: dict[str, bool] = {
    "red": True, "yellow": True, "green": True, "blue": True, "black": False,
    "cyan": True, "orange": True, "purple": True, "clear": True, "white": False,
    "pink": False,
}
_COLOUR = re.compile(r"[a-z][a-z-]*[a-z]|[a-z]")
_PYRAMID = re.compile(r"([a-z][a-z-]*?)([123])")


@dataclass(frozen=True, order=True)
class Pyramid:
    colour: str
    size: Size

    def __post_init__(self) -> None:
        if not isinstance(self.colour, str) or not _COLOUR.fullmatch(self.colour):
            raise ValueError(f"bad pyramid colour {self.colour!r}: use a lower-case word such as 'red'")
        object.__setattr__(self, "size", Size(self.size))

    @classmethod
    def parse(cls, text: str) -> Pyramid:
        match = _PYRAMID.fullmatch(text.strip())
        if not match:
            raise ValueError(f"{text!r} is not a pyramid: write colour then pips, like 'red3' or 'clear1'")
        return cls(match.group(1), Size(int(match.group(2))))

    @property
    def pips(self) -> int:
        return int(self.size)

    def covers(self, below: Pyramid) -> bool:
        """True when this pyramid, placed on ``below``, hides it (same size or larger slides over it)."""
        return self.size >= below.size

    def __str__(self) -> str:
        return f"{self.colour}{int(self.size)}"


@dataclass(frozen=True)
class Stack:
    """Pyramids standing on one spot, bottom to top. The empty stack is an empty spot."""

    pyramids: tuple[Pyramid, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pyramids", tuple(self.pyramids))

    @classmethod
    def parse(cls, text: str) -> Stack:
        text = text.strip()
        return cls(tuple(Pyramid.parse(part) for part in text.split("+"))) if text else cls()

    @property
    def top(self) -> Pyramid | None:
        return self.pyramids[-1] if self.pyramids else None

    @property
    def pips(self) -> int:
        return sum(p.pips for p in self.pyramids)

    def visible(self) -> tuple[Pyramid, ...]:
        """What a camera sees, bottom to top: every pyramid not covered by one placed above it."""
        shown = self._visible_indexes()
        return tuple(p for i, p in enumerate(self.pyramids) if i in shown)

    def hidden(self) -> tuple[Pyramid, ...]:
        """The pyramids inside nests, which only the referee's memory knows about."""
        shown = self._visible_indexes()
        return tuple(p for i, p in enumerate(self.pyramids) if i not in shown)

    def _visible_indexes(self) -> set[int]:
        shown, biggest_above = set(), 0
        for index in reversed(range(len(self.pyramids))):
            size = self.pyramids[index].size
            if size > biggest_above:
                shown.add(index)
            biggest_above = max(biggest_above, size)
        return shown

    def split(self, index: int) -> tuple[Stack, Stack]:
        """The stack below ``index`` and the unit from ``index`` up (which moves as one)."""
        return Stack(self.pyramids[:index]), Stack(self.pyramids[index:])

    def __add__(self, other: Stack) -> Stack:
        return Stack(self.pyramids + other.pyramids)

    def __len__(self) -> int:
        return len(self.pyramids)

    def __bool__(self) -> bool:
        return bool(self.pyramids)

    def __str__(self) -> str:
        return "+".join(str(p) for p in self.pyramids)


def colours_in(view) -> frozenset[str]:
    """Every pyramid colour a view (place -> contents) shows: the colours of its stacks, such as
    ``red3+blue1``; contents that are no stack, a card's id, are passed over."""
    colours = set()
    for item in (item for contents in view.values() for item in contents):
        try:
            colours.update(p.colour for p in Stack.parse(item).pyramids)
        except ValueError:
            continue
    return frozenset(colours)
