"""What vision hands the referee: a :class:`TableSnapshot` of one stable moment at the table.

Everything is in the *table frame*: millimetres on the table plane, origin at the play mat's
top-left marker, x to the right, y away from the camera-side player. Pixels never get here.

Each sighting carries a confidence in [0, 1] and ``alternatives``: the runner-up readings with
their probabilities, best first, so the referee can prefer a legal reading of an ambiguous
sighting. Vision never guesses: a card it cannot identify is ``card=None``, with whatever
alternatives it has.

Every type round-trips through JSON: ``TableSnapshot.from_json(s.to_json()) == s``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from referee.cards import BACK, is_standard_id
from referee.decktet import CATALOGUE
from referee.pyramids import Pyramid, Size

Point = tuple[float, float]


class SnapshotError(ValueError):
    """A snapshot or sighting that cannot be what it claims: says which field and why."""


def is_card_id(card_id: str) -> bool:
    """True for any card id the project knows: standard, joker, Decktet, or ``back``."""
    return card_id == BACK or is_standard_id(card_id) or card_id in CATALOGUE


@dataclass(frozen=True)
class Alternative:
    """A runner-up reading (a card id, a stack like ``red3+blue1``, a die face, a token label)."""

    label: str
    probability: float

    def __post_init__(self) -> None:
        _check_probability("alternative probability", self.probability)

    def to_json(self) -> list:
        return [self.label, self.probability]

    @classmethod
    def from_json(cls, data: Any) -> Alternative:
        if not (isinstance(data, (list, tuple)) and len(data) == 2 and isinstance(data[0], str)):
            raise SnapshotError(f"an alternative is [label, probability], got {data!r}")
        return cls(data[0], _number("alternative probability", data[1]))


@dataclass(frozen=True)
class CardSighting:
    card: str | None  # None: seen but not identified
    face_up: bool
    center_mm: Point
    corners_mm: tuple[Point, Point, Point, Point]
    angle_deg: float
    confidence: float
    alternatives: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        if self.card is not None and not is_card_id(self.card):
            raise SnapshotError(f"unknown card id {self.card!r} in a card sighting")
        if not self.face_up and self.card not in (None, BACK):
            raise SnapshotError(f"a face-down card shows its back, not {self.card!r}")
        _check_point("card center_mm", self.center_mm)
        if len(self.corners_mm) != 4:
            raise SnapshotError(f"a card has 4 corners, got {len(self.corners_mm)}")
        for corner in self.corners_mm:
            _check_point("card corner", corner)
        _check_probability("card confidence", self.confidence)

    def to_json(self) -> dict:
        return {"card": self.card, "face_up": self.face_up, "center_mm": list(self.center_mm),
                "corners_mm": [list(c) for c in self.corners_mm], "angle_deg": self.angle_deg,
                "confidence": self.confidence, "alternatives": [a.to_json() for a in self.alternatives]}

    @classmethod
    def from_json(cls, data: Any) -> CardSighting:
        d = _object("card sighting", data, {"card", "face_up", "center_mm", "corners_mm", "angle_deg", "confidence"})
        if d["card"] is not None and not isinstance(d["card"], str):
            raise SnapshotError(f"card must be a card id or null, got {d['card']!r}")
        corners = d["corners_mm"]
        if not isinstance(corners, list):
            raise SnapshotError("corners_mm must be a list of 4 [x, y] points")
        return cls(d["card"], _bool("face_up", d["face_up"]), _point("center_mm", d["center_mm"]),
                   tuple(_point("corners_mm", c) for c in corners), _number("angle_deg", d["angle_deg"]),
                   _number("confidence", d["confidence"]), _alternatives(d))


@dataclass(frozen=True)
class PyramidSighting:
    """A standing stack of pyramids seen at one spot, as the camera sees it.

    ``stack`` lists the *visible* pyramids bottom to top (a lone pyramid is a stack of one). A
    nest looks like its outer pyramid, so it appears as that pyramid, and :attr:`may_hide` says
    whether a smaller one could be inside; the referee knows what is. ``pointing_deg`` is set for
    a pyramid lying on its side: the direction its tip points, in degrees from the table frame's
    +x axis toward +y.
    """

    stack: tuple[Pyramid, ...]
    center_mm: Point
    confidence: float
    pointing_deg: float | None = None
    alternatives: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        if not self.stack:
            raise SnapshotError("a pyramid sighting needs at least one pyramid")
        _check_point("pyramid center_mm", self.center_mm)
        _check_probability("pyramid confidence", self.confidence)

    @property
    def colour(self) -> str:
        return self.stack[0].colour

    @property
    def size(self) -> Size:
        return self.stack[0].size

    @property
    def may_hide(self) -> bool:
        """Whether something may be nested inside: the bottom pyramid is a medium or a large.

        The camera sees a nest as its outer shell alone (plastic walls hide what is inside), so
        this is all a sighting can say; what is inside is the referee's to remember.
        """
        return self.stack[0].size != Size.SMALL

    def to_json(self) -> dict:
        # may_hide is written for readers of the log and derived again when read back
        return {"stack": [str(p) for p in self.stack], "center_mm": list(self.center_mm),
                "confidence": self.confidence, "may_hide": self.may_hide, "pointing_deg": self.pointing_deg,
                "alternatives": [a.to_json() for a in self.alternatives]}

    @classmethod
    def from_json(cls, data: Any) -> PyramidSighting:
        d = _object("pyramid sighting", data, {"stack", "center_mm", "confidence"})
        if not isinstance(d["stack"], list) or not all(isinstance(p, str) for p in d["stack"]):
            raise SnapshotError("stack must be a list of pyramids like ['red3', 'blue1']")
        try:
            stack = tuple(Pyramid.parse(p) for p in d["stack"])
        except ValueError as exc:
            raise SnapshotError(str(exc)) from None
        pointing = d.get("pointing_deg")
        sighting = cls(stack, _point("center_mm", d["center_mm"]), _number("confidence", d["confidence"]),
                       None if pointing is None else _number("pointing_deg", pointing), _alternatives(d))
        if "may_hide" in d and d["may_hide"] is not sighting.may_hide:
            raise SnapshotError(f"may_hide must be {str(sighting.may_hide).lower()} for a stack on a "
                                f"{sighting.stack[0]}: only a medium or large can hold a nest")
        return sighting


@dataclass(frozen=True)
class DieSighting:
    face: int
    center_mm: Point
    confidence: float
    alternatives: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        if self.face not in range(1, 7) or isinstance(self.face, bool):
            raise SnapshotError(f"a d6 shows a face from 1 to 6, got {self.face!r}")
        _check_point("die center_mm", self.center_mm)
        _check_probability("die confidence", self.confidence)

    def to_json(self) -> dict:
        return {"face": self.face, "center_mm": list(self.center_mm), "confidence": self.confidence,
                "alternatives": [a.to_json() for a in self.alternatives]}

    @classmethod
    def from_json(cls, data: Any) -> DieSighting:
        d = _object("die sighting", data, {"face", "center_mm", "confidence"})
        if not isinstance(d["face"], int):
            raise SnapshotError(f"a die face is an integer, got {d['face']!r}")
        return cls(d["face"], _point("center_mm", d["center_mm"]), _number("confidence", d["confidence"]),
                   _alternatives(d))


@dataclass(frozen=True)
class TokenSighting:
    label: str  # a registered token, e.g. "ann"
    center_mm: Point
    confidence: float
    alternatives: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise SnapshotError(f"a token sighting needs a label, got {self.label!r}")
        _check_point("token center_mm", self.center_mm)
        _check_probability("token confidence", self.confidence)

    def to_json(self) -> dict:
        return {"label": self.label, "center_mm": list(self.center_mm), "confidence": self.confidence,
                "alternatives": [a.to_json() for a in self.alternatives]}

    @classmethod
    def from_json(cls, data: Any) -> TokenSighting:
        d = _object("token sighting", data, {"label", "center_mm", "confidence"})
        return cls(d["label"], _point("center_mm", d["center_mm"]), _number("confidence", d["confidence"]),
                   _alternatives(d))


@dataclass(frozen=True)
class TableSnapshot:
    t: float  # seconds, monotonic clock of the capture
    cards: tuple[CardSighting, ...] = ()
    pyramids: tuple[PyramidSighting, ...] = ()
    dice: tuple[DieSighting, ...] = ()
    tokens: tuple[TokenSighting, ...] = ()
    occluded: bool = False  # a hand or arm over the play area
    # The first look at a table just settled (the live pipeline looks again a moment later): enough
    # to play a legal move from, not to flag a violation on (see referee.session.Session.observe)
    glance: bool = False

    def to_json(self) -> dict:
        return {"t": self.t, "cards": [c.to_json() for c in self.cards],
                "pyramids": [p.to_json() for p in self.pyramids], "dice": [d.to_json() for d in self.dice],
                "tokens": [k.to_json() for k in self.tokens], "occluded": self.occluded, "glance": self.glance}

    @classmethod
    def from_json(cls, data: Any) -> TableSnapshot:
        d = _object("table snapshot", data, {"t"})
        return cls(_number("t", d["t"]),
                   _list(d, "cards", CardSighting.from_json), _list(d, "pyramids", PyramidSighting.from_json),
                   _list(d, "dice", DieSighting.from_json), _list(d, "tokens", TokenSighting.from_json),
                   _bool("occluded", d.get("occluded", False)), _bool("glance", d.get("glance", False)))


# -- validation helpers: every message names the field and what was wrong --

def _object(what: str, data: Any, required: set[str]) -> dict:
    if not isinstance(data, dict):
        raise SnapshotError(f"a {what} must be a JSON object, got {type(data).__name__}")
    missing = sorted(required - data.keys())
    if missing:
        raise SnapshotError(f"a {what} is missing {', '.join(missing)}")
    return data


def _list(d: dict, key: str, parse) -> tuple:
    items = d.get(key, [])
    if not isinstance(items, list):
        raise SnapshotError(f"{key} must be a list, got {type(items).__name__}")
    return tuple(parse(item) for item in items)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SnapshotError(f"{name} must be a finite number, got {value!r}")
    return value


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise SnapshotError(f"{name} must be true or false, got {value!r}")
    return value


def _point(name: str, value: Any) -> Point:
    if not (isinstance(value, (list, tuple)) and len(value) == 2):
        raise SnapshotError(f"{name} must be an [x, y] point in millimetres, got {value!r}")
    return (_number(name, value[0]), _number(name, value[1]))


def _check_point(name: str, value: Any) -> None:
    _point(name, value)


def _check_probability(name: str, value: Any) -> None:
    if not 0.0 <= _number(name, value) <= 1.0:
        raise SnapshotError(f"{name} must lie in [0, 1], got {value!r}")


def _alternatives(d: dict) -> tuple[Alternative, ...]:
    return _list(d, "alternatives", Alternative.from_json)
