"""The pieces every game's staging shares: a player's steady-but-sloppy hand, a card grid laid on the
table, and a camera that frames the whole play area.

:class:`Hand` gives every thing on the table its own small error (a few millimetres off its spot,
a few degrees turned), drawn from the seed *and the thing's key*, so a card that stays where it is
keeps exactly the same pose from one game state to the next (a video of the game shows only what
moved), while a card put down again somewhere lands with a fresh error.

:class:`CardGrid` is the lattice of a game played on a grid of cards (the Pouches heap, the Deck
Town town): uneven gaps between columns and rows, the whole grid turned a little, one cell (the
``home`` cell) at the table's middle. It is the inverse of :mod:`referee.layouts.tabletop`: its
:meth:`~CardGrid.out` finds the point a given number of cells out from a box of cells on a seat's
bearing, measured as that module measures (Chebyshev distance in cells from the box).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable

import numpy as np

from vision.synth.camera import PinholeCamera
from vision.synth.scene import CARD_MM

Point = tuple[float, float]
Cell = tuple[int, int]
W, H = CARD_MM
GAP_MM = 9.0  # the mean gap players leave between neighbouring cards of a grid
SIDE_COS = 0.9  # a seat within 25 degrees of the table's x axis sits at its left or right side


class Hand:
    """How a player puts things down: each thing (named by a key) lies a little off its spot."""

    def __init__(self, seed: int, sloppy: bool = True, offset_mm: float = 4.0, turn_deg: float = 4.0):
        self.seed, self.sloppy = seed, sloppy
        self.offset_mm, self.turn_deg = offset_mm, turn_deg

    def rng(self, key: object) -> np.random.Generator:
        """A generator for one thing: the same key and seed always give the same numbers."""
        return np.random.default_rng([self.seed, zlib.crc32(repr(key).encode())])

    def place(self, key: object, point: Point, angle: float = 0.0, offset_mm: float | None = None,
              turn_deg: float | None = None) -> tuple[float, float, float]:
        """(x, y, angle) of the thing ``key`` put at ``point`` turned ``angle``, with its own error."""
        if not self.sloppy:
            return round(float(point[0]), 2), round(float(point[1]), 2), round(float(angle), 2)
        r = self.rng(key)
        d = self.offset_mm if offset_mm is None else offset_mm
        t = self.turn_deg if turn_deg is None else turn_deg
        dx, dy, da = (float(v) for v in r.uniform([-d, -d, -t], [d, d, t]))
        return round(float(point[0]) + dx, 2), round(float(point[1]) + dy, 2), round(float(angle) + da, 2)


class CardGrid:
    """Cells of a card grid as table points: ``home`` lies at ``middle``, gaps vary a little."""

    def __init__(self, hand: Hand, cells: Iterable[Cell], home: Cell, middle: Point):
        cells = set(cells) | {home}
        r = hand.rng("grid")
        self.angle = math.radians(float(r.uniform(-3.0, 3.0))) if hand.sloppy else 0.0
        c0, c1 = min(c for c, _ in cells) - 14, max(c for c, _ in cells) + 14
        r0, r1 = min(r_ for _, r_ in cells) - 14, max(r_ for _, r_ in cells) + 14
        gaps = (lambda: float(r.uniform(GAP_MM - 3, GAP_MM + 3))) if hand.sloppy else (lambda: GAP_MM)
        self.xs, self.ys = {}, {}
        x = 0.0
        for col in range(c0, c1 + 1):
            self.xs[col] = x
            x += W + gaps()
        y = 0.0
        for row in range(r0, r1 + 1):
            self.ys[row] = y
            y += H + gaps()
        self.home, self.middle = home, middle
        self.pitch = (W + GAP_MM, H + GAP_MM)

    def at(self, cell: tuple[float, float]) -> Point:
        """The table point of a cell's centre (fractional cells interpolate)."""
        u = _along(self.xs, cell[0]) - self.xs[self.home[0]]
        v = _along(self.ys, cell[1]) - self.ys[self.home[1]]
        c, s = math.cos(self.angle), math.sin(self.angle)
        return self.middle[0] + u * c - v * s, self.middle[1] + u * s + v * c

    @property
    def angle_deg(self) -> float:
        return math.degrees(self.angle)

    def out(self, box: tuple[int, int, int, int], bearing_deg: float, cells: float) -> Point:
        """The point ``cells`` cells out from ``box`` (min column, min row, max column, max row),
        on the bearing ``bearing_deg`` (table degrees from +x towards +y) from the box's middle."""
        c0, r0, c1, r1 = box
        middle = self.at(((c0 + c1) / 2, (r0 + r1) / 2))
        b = math.radians(bearing_deg)
        # in cell units the box is axis-aligned once the grid's turn is undone
        du, dv = math.cos(b - self.angle) / self.pitch[0], math.sin(b - self.angle) / self.pitch[1]
        half_u, half_v = (c1 - c0) / 2, (r1 - r0) / 2
        t = min((half_u + cells) / abs(du) if abs(du) > 1e-9 else math.inf,
                (half_v + cells) / abs(dv) if abs(dv) > 1e-9 else math.inf)
        return middle[0] + t * math.cos(b), middle[1] + t * math.sin(b)


def box_of(cells: Iterable[Cell]) -> tuple[int, int, int, int] | None:
    cells = list(cells)
    if not cells:
        return None
    return (min(c for c, _ in cells), min(r for _, r in cells), max(c for c, _ in cells), max(r for _, r in cells))


def home_cell(cells: Iterable[Cell], first: Cell | None) -> Cell:
    """The cell to lay at the table's middle: the middle of all the cells a game uses, kept within
    one cell of the ``first`` card laid (a layout looks for the grid's first card near the middle)."""
    box = box_of(cells)
    if box is None:
        return first or (0, 0)
    c, r = round((box[0] + box[2]) / 2), round((box[1] + box[3]) / 2)
    if first is not None:
        c = min(max(c, first[0] - 1), first[0] + 1)
        r = min(max(r, first[1] - 1), first[1] + 1)
    return c, r


def fan(centre: Point, across_deg: float, count: int, spacing_mm: float) -> list[Point]:
    """``count`` points in a row through ``centre`` along the direction ``across_deg``."""
    a = math.radians(across_deg)
    d = np.array([math.cos(a), math.sin(a)])
    return [tuple(np.asarray(centre) + d * (i - (count - 1) / 2) * spacing_mm) for i in range(count)]


def row(anchor: Point, bearing_deg: float, count: int, spacing_mm: float) -> tuple[list[Point], float]:
    """``count`` card spots in a row in front of a seat on the bearing ``bearing_deg``, in the order
    the cards are laid (each on the one before), and the turn (degrees) of the cards there: a row
    as a careful player lays out the cards they keep, along the table's x axis (its y axis for a
    seat at the left or right side), each card ``spacing_mm`` right of (below) the one it lies on,
    so that the top-left index of every card shows.

    A seat straight across the grid gets a row centred on ``anchor``; a seat off to one side gets a
    row from ``anchor`` away from the grid, so no card comes nearer the grid than ``anchor``
    (counted as the layouts count: Chebyshev, in cells). The cards lie upright on the picture of a
    camera at the table's long side (turn 0; 90 in a row along y), as the recognisers read best."""
    b = math.radians(bearing_deg)
    if abs(math.cos(b)) < SIDE_COS:  # a seat at the top or bottom, or at a corner: the row runs along x
        axis, turn, side = np.array([1.0, 0.0]), 0.0, math.cos(b)
    else:
        axis, turn, side = np.array([0.0, 1.0]), 90.0, math.sin(b)
    if abs(side) < 0.2:  # straight across: centred on the anchor
        offsets = [i - (count - 1) / 2 for i in range(count)]
    elif side > 0:
        offsets = list(range(count))
    else:  # still laid from left to right, the last at the anchor: the top-left index of each card shows
        offsets = list(range(1 - count, 1))
    return [tuple(np.asarray(anchor) + axis * k * spacing_mm) for k in offsets], turn


def frame_camera(points_mm: np.ndarray, size: tuple[int, int], tilt_deg: float, hfov_deg: float,
                 yaw_deg: float = 0.0, margin: float = 0.04, heights_mm: float = 45.0
                 ) -> tuple[tuple[float, float], float]:
    """(target, distance) of the nearest camera at ``tilt_deg`` and ``yaw_deg`` that sees every
    table point (and a piece ``heights_mm`` tall standing on it) inside the picture, ``margin``
    from its edges."""
    pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    target = (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2)
    solid = np.vstack([np.column_stack([pts, np.zeros(len(pts))]), np.column_stack([pts, -np.full(len(pts), heights_mm)])])
    w, h = size

    def fits(distance: float, tgt: tuple[float, float]) -> bool:
        cam = PinholeCamera.looking_at(tgt, distance, tilt_deg, yaw_deg, size=size, hfov_deg=hfov_deg)
        c = solid @ cam.R.T + cam.t
        if (c[:, 2] <= 1).any():
            return False
        px = c[:, :2] / c[:, 2:3] * [cam.K[0, 0], cam.K[1, 1]] + cam.K[:2, 2]
        return bool((px[:, 0] >= margin * w).all() and (px[:, 0] <= (1 - margin) * w).all()
                    and (px[:, 1] >= margin * h).all() and (px[:, 1] <= (1 - margin) * h).all())

    lo_d, hi_d = 100.0, 10000.0
    # a tilted camera sees more of the far side: slide the target towards it as it backs off
    for _ in range(40):
        mid = (lo_d + hi_d) / 2
        if fits(mid, target) or fits(mid, _recentred(target, pts, mid, tilt_deg, yaw_deg, size, hfov_deg)):
            hi_d = mid
        else:
            lo_d = mid
    best = _recentred(target, pts, hi_d, tilt_deg, yaw_deg, size, hfov_deg)
    return (best if fits(hi_d, best) else target), round(hi_d, 1)


def _recentred(target, pts, distance, tilt_deg, yaw_deg, size, hfov_deg) -> tuple[float, float]:
    """The target moved so the points' picture is centred (a tilted view is not symmetric)."""
    cam = PinholeCamera.looking_at(target, distance, tilt_deg, yaw_deg, size=size, hfov_deg=hfov_deg)
    px = cam.project(pts)
    mid_px = (px.min(axis=0) + px.max(axis=0)) / 2
    seen = cam.table_points_of_pixels(np.array([mid_px, [(size[0] - 1) / 2, (size[1] - 1) / 2]]))
    shift = seen[0] - seen[1]
    return float(target[0] + shift[0]), float(target[1] + shift[1])


def _along(table: dict[int, float], value: float) -> float:
    low = math.floor(value)
    return table[low] + (table[low + 1] - table[low]) * (value - low)
