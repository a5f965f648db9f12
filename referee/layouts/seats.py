"""Where the players sit around a grid in the middle of the table, and whose area a point is in.

The camera-side player sits where y is smallest (the table frame's y runs away from them). Seat 0,
the first of ``game.players``, sits there (bearing 270 degrees, measured from +x toward +y) and the
others follow clockwise as a top-down picture shows the table (x right, y down), at equal angles. A
game with a shared area beside the grid (Deck Town's deck and discard pile) puts it halfway between
the last seat and seat 0 (for two players: on the -x side, between them).

>>> [round(a) for a in bearings(3)], round(shared_bearing(2))
([270, 30, 150], 180)
>>> nearest(bearings(2), 265.0), nearest(bearings(2), 80.0)
(0, 1)
"""

from __future__ import annotations

import math

Point = tuple[float, float]


def bearings(seats: int) -> list[float]:
    """The direction of each seat from the middle of the table, degrees from +x toward +y."""
    return [(270.0 + i * 360.0 / seats) % 360.0 for i in range(seats)]


def shared_bearing(seats: int) -> float:
    """The direction of the shared area: halfway from the last seat round to seat 0."""
    return (270.0 - 180.0 / seats) % 360.0


def bearing(centre: Point, point: Point) -> float:
    return math.degrees(math.atan2(point[1] - centre[1], point[0] - centre[0])) % 360.0


def nearest(directions: list[float], angle: float) -> int:
    """The index of the direction closest to ``angle`` (degrees)."""
    return min(range(len(directions)), key=lambda i: abs((angle - directions[i] + 180.0) % 360.0 - 180.0))
