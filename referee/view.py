"""What a camera can see of a game: places and their visible contents.

A place is a path-like string, ``heap/1,2``, ``pouch/ann``, ``pool``, ``arena/r2c3``; its contents
are short strings in the project's notations (card ids, stacks such as ``red3+blue1``, die faces).
Each game says what its state looks like (``State.view()``) and reads the change between two
views (``State.interpret``). Empty places are left out, so two views are equal exactly when a
camera could not tell them apart. Where order means nothing (a pool, a collection) games list
contents sorted; where it does (a stack, a pile) bottom first.

>>> before = View({"pool": ("4H", "9S"), "hand/ann": ("back",)})
>>> after = View({"pool": ("9S",), "collection/ann": ("4H",), "hand/ann": ("back",)})
>>> [(c.place, c.before, c.after) for c in before.diff(after)]
[('collection/ann', (), ('4H',)), ('pool', ('4H', '9S'), ('9S',))]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

PLACE = re.compile(r"[a-z][a-z0-9_-]*(/[A-Za-z0-9_,.-]+)*")


@dataclass(frozen=True)
class PlaceChange:
    place: str
    before: tuple[str, ...]
    after: tuple[str, ...]


class View(Mapping[str, tuple[str, ...]]):
    """An immutable mapping from place to visible contents (a tuple of strings)."""

    __slots__ = ("_places",)

    def __init__(self, places: Mapping[str, tuple[str, ...] | list[str]] | None = None):
        cleaned = {}
        for place, contents in (places or {}).items():
            if not isinstance(place, str) or not PLACE.fullmatch(place):
                raise ValueError(f"bad place name {place!r}: use lower-case words and '/', like 'heap/1,2'")
            if isinstance(contents, str) or not all(isinstance(c, str) for c in contents):
                raise ValueError(f"contents of {place!r} must be a list of strings, got {contents!r}")
            if contents:
                cleaned[place] = tuple(contents)
        self._places = dict(sorted(cleaned.items()))

    def __getitem__(self, place: str) -> tuple[str, ...]:
        return self._places[place]

    def get(self, place: str, default: Any = ()) -> Any:
        return self._places.get(place, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self._places == other._places

    def __hash__(self) -> int:
        return hash(tuple(self._places.items()))

    def __repr__(self) -> str:
        return f"View({self._places!r})"

    def diff(self, after: View) -> tuple[PlaceChange, ...]:
        """Every place whose contents differ, in place order."""
        places = sorted(set(self._places) | set(after._places))
        return tuple(PlaceChange(p, self.get(p), after.get(p)) for p in places if self.get(p) != after.get(p))

    def to_json(self) -> dict:
        return {place: list(contents) for place, contents in self._places.items()}

    @classmethod
    def from_json(cls, data: Any) -> View:
        if not isinstance(data, dict):
            raise ValueError(f"a view is a JSON object of place -> [contents], got {type(data).__name__}")
        return cls(data)
