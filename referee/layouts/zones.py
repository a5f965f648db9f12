"""Mat zones: the printed places of a play mat as plain rectangles (x, y, w, h in table mm).

Calibration knows the mats; the referee never imports it, so a layout takes the zones it is given
(``calibration.mats.MatLayout.zones`` by name) and keeps a copy of its mat's default geometry for
when it is given none. A point belongs to the zone it lies in, or to the nearest zone within a
small margin (a card hanging over a printed line still counts as inside).

>>> zones = {"pool": (0, 0, 100, 100), "collection/top": (0, -60, 100, 50)}
>>> nearest_zone(zones, (50, -8)), nearest_zone(zones, (50, 120)), nearest_zone(zones, (50, 200))
('collection/top', 'pool', None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Rect = tuple[float, float, float, float]
Point = tuple[float, float]

MARGIN_MM = 25.0  # how far outside its printed line a thing still counts as in a zone


def distance(rect: Rect, point: Point) -> float:
    """How far ``point`` lies outside ``rect`` (0 inside)."""
    x, y, w, h = rect
    dx = max(x - point[0], 0.0, point[0] - (x + w))
    dy = max(y - point[1], 0.0, point[1] - (y + h))
    return (dx * dx + dy * dy) ** 0.5


def nearest_zone(zones: Mapping[str, Rect], point: Point, names: Iterable[str] | None = None,
                 margin: float = MARGIN_MM) -> str | None:
    """The zone ``point`` lies in, else the nearest within ``margin``; None when none is that near.
    ``names`` limits the search (default: every zone)."""
    best, best_d = None, float("inf")
    for name in names if names is not None else zones:
        d = distance(zones[name], point)
        if d < best_d:  # strict: where zones overlap, the first listed wins
            best, best_d = name, d
    return best if best_d <= margin else None


def check(zones: Mapping[str, Rect], needed: Iterable[str], game: str) -> None:
    """Refuse zones that lack a place the game needs, naming what is missing."""
    missing = sorted(set(needed) - set(zones))
    if missing:
        raise ValueError(f"the {game} layout needs the mat zones {', '.join(missing)}; "
                         f"got {', '.join(sorted(zones)) or 'none'}")
    for name in needed:
        rect = zones[name]
        if len(rect) != 4 or rect[2] <= 0 or rect[3] <= 0:
            raise ValueError(f"zone {name!r} must be (x, y, width, height) with a positive size, got {rect!r}")
