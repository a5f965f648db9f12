"""Printable play mats: ArUco markers at known positions and the game's places, in millimetres.

The *table frame* has its origin at the top-left corner of the mat's top-left marker, x to the
right, y down the sheet (away from the player the mat's text faces). Every mat has six markers,
three down each side, so the middle stays free for play; a marker's id says which game and paper
size it belongs to, so one visible marker is enough to know the mat and to reject the wrong one.

>>> layout = mat_layout("pungo", "A4")
>>> [m.id for m in layout.markers][:3], identify(layout.markers[0].id)
([72, 73, 74], ('pungo', 'A4'))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.drawing import Drawing

PAPERS = {"A4": (297.0, 210.0), "A3": (420.0, 297.0), "letter": (279.4, 215.9)}  # landscape, mm
# The order fixes marker ids: never reorder, only append.
MAT_GAMES = ("plain", "pouches", "mongoose", "deck-town", "pungo")
PAPER_ORDER = ("A4", "A3", "letter")
MARKERS_PER_MAT = 6
MARGIN_MM = 12.0  # printers cannot print to the edge
GAP_MM = 6.0
CARD_MM = (63.0, 88.0)  # poker-size cards


class MatError(ValueError):
    """An unknown game or paper size, or markers from a different mat."""


@dataclass(frozen=True)
class MarkerPlacement:
    id: int
    x_mm: float  # top-left corner of the marker's black square, table frame
    y_mm: float
    size_mm: float

    def corners_mm(self) -> np.ndarray:
        """Top-left, top-right, bottom-right, bottom-left: the order ArUco reports corners in."""
        x, y, s = self.x_mm, self.y_mm, self.size_mm
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


@dataclass(frozen=True)
class Zone:
    """A named place on (or just beside) the mat, as a rectangle in the table frame."""

    name: str
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    label: str = ""

    def contains(self, x: float, y: float) -> bool:
        return self.x_mm <= x <= self.x_mm + self.w_mm and self.y_mm <= y <= self.y_mm + self.h_mm

    def polygon_mm(self) -> np.ndarray:
        x, y, w, h = self.x_mm, self.y_mm, self.w_mm, self.h_mm
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


@dataclass(frozen=True)
class MatLayout:
    game: str
    paper: str
    paper_mm: tuple[float, float]
    origin_on_paper: tuple[float, float]  # where the table frame's origin lies on the sheet
    markers: tuple[MarkerPlacement, ...]
    zones: tuple[Zone, ...]
    options: tuple[tuple[str, str], ...] = ()

    @property
    def title(self) -> str:
        return f"{self.game} mat, {self.paper}"

    def marker(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise MatError(f"marker {marker_id} is not on the {self.title}")

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise MatError(f"the {self.title} has no place {name!r}")

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The place containing a table point, if any."""
        return next((z for z in self.zones if z.contains(x, y)), None)

    def drawing(self) -> Drawing:
        from calibration.markers import marker_bits

        ox, oy = self.origin_on_paper
        drawing = Drawing(*self.paper_mm)
        for m in self.markers:
            bits = marker_bits(m.id)
            cell = m.size_mm / bits.shape[0]
            for r, c in zip(*np.nonzero(bits == 0)):
                drawing.rect(ox + m.x_mm + c * cell, oy + m.y_mm + r * cell, cell, cell)
            drawing.text(ox + m.x_mm, oy + m.y_mm + m.size_mm + 3.5, 2.5, f"#{m.id}", grey=0.5)
        for z in self.zones:
            drawing.rect(ox + z.x_mm, oy + z.y_mm, z.w_mm, z.h_mm, fill=False, grey=0.55, stroke_mm=0.35)
            if z.label:
                drawing.text(ox + z.x_mm + 1.5, oy + z.y_mm + 4.0, 3.0, z.label, grey=0.45)
        self._draw_header(drawing)
        return drawing

    def _draw_header(self, drawing: Drawing) -> None:
        # A ruler the user can measure: if it is not exactly 50 mm, the mat was scaled when printed.
        w, h = self.paper_mm
        x, y = w / 2 - 25, h - MARGIN_MM + 2
        drawing.rect(x, y - 2.0, 50.0, 0.5)
        for tick in range(0, 51, 10):
            drawing.rect(x + tick - 0.15, y - 3.5, 0.3, 2.0)
        drawing.text(x - 2, y - 5.0, 3.0, f"Tableside - {self.game} - {self.paper}. Print at 100 % (actual size): "
                                           "this bar is 50 mm.", grey=0.3)


def mat_layout(game: str, paper: str = "A4", options: dict[str, str] | None = None) -> MatLayout:
    """The layout of ``game``'s mat on ``paper`` (A4, A3 or letter, landscape)."""
    if game not in MAT_GAMES:
        raise MatError(f"no mat for {game!r}; mats exist for {', '.join(MAT_GAMES)}")
    if paper not in PAPERS:
        raise MatError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS)}")
    options = dict(options or {})
    width, height = PAPERS[paper]
    size = 40.0 if paper == "A3" else 30.0
    origin = (MARGIN_MM, MARGIN_MM)
    usable_h = height - 2 * MARGIN_MM - 8.0  # the bottom strip holds the header and ruler
    first_id = (MAT_GAMES.index(game) * len(PAPER_ORDER) + PAPER_ORDER.index(paper)) * MARKERS_PER_MAT
    right = width - 2 * MARGIN_MM - size
    ys = (0.0, (usable_h - size) / 2, usable_h - size)
    positions = [(0.0, y) for y in ys] + [(right, y) for y in ys]
    markers = tuple(MarkerPlacement(first_id + i, x, y, size) for i, (x, y) in enumerate(positions))
    inner = Zone("play-area", size + GAP_MM, 0.0, right - size - 2 * GAP_MM, usable_h, "play area")
    zones = _ZONES[game](inner, options)
    return MatLayout(game, paper, (width, height), origin, markers, zones, tuple(sorted(options.items())))


def mat_options(game) -> dict[str, str]:
    """What a game's configuration (a :class:`referee.game.Game`) changes on its printed mat:
    Pungo's arena and roll grid."""
    return {k: str(game.option(k)) for k in ("arena", "roll-grid")} if game.type.name == "pungo" else {}


def mat_of(game, paper: str = "A3") -> MatLayout:
    """The printed mat a configured game (a :class:`referee.game.Game`) is played on: each game has
    its own mat, named as the game is."""
    return mat_layout(game.type.name, paper, mat_options(game))


def zones_of(layout: MatLayout) -> dict[str, tuple[float, float, float, float]]:
    """A mat's places as the referee's layouts take them: name -> (x, y, width, height) in mm."""
    return {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in layout.zones}


def identify(marker_id: int) -> tuple[str, str] | None:
    """The (game, paper) a marker id belongs to, or None for an id no mat uses."""
    mat, _ = divmod(marker_id, MARKERS_PER_MAT)
    game_index, paper_index = divmod(mat, len(PAPER_ORDER))
    if marker_id < 0 or game_index >= len(MAT_GAMES):
        return None
    return MAT_GAMES[game_index], PAPER_ORDER[paper_index]


def _plain(inner: Zone, options: dict) -> tuple[Zone, ...]:
    return (inner,)


def _mongoose(inner: Zone, options: dict) -> tuple[Zone, ...]:
    # The pool fills the mat; each collection lies just beyond the long edge in front of its player.
    band = CARD_MM[1] + 10
    return (Zone("pool", inner.x_mm, inner.y_mm, inner.w_mm, inner.h_mm, "pool"),
            Zone("collection/top", inner.x_mm, -band - GAP_MM, inner.w_mm, band),
            Zone("collection/bottom", inner.x_mm, inner.y_mm + inner.h_mm + 20.0, inner.w_mm, band))


def _pungo(inner: Zone, options: dict) -> tuple[Zone, ...]:
    rows, cols = _grid(options.get("arena", "3x4"), "arena")
    roll_rows, roll_cols = _grid(options.get("roll-grid", "3x3"), "roll-grid")
    roll_cell = 22.0  # a 16 mm die with room to tumble
    gap = 8.0
    cell = min(45.0, (inner.w_mm - gap - roll_cols * roll_cell) / cols, (inner.h_mm - 8.0) / rows)
    if cell < 26.0:
        raise MatError("this paper is too small for the Pungo arena; use A3")
    x0 = inner.x_mm + (inner.w_mm - (cols * cell + gap + roll_cols * roll_cell)) / 2
    y0 = inner.y_mm + 6.0 + (inner.h_mm - 6.0 - rows * cell) / 2
    zones = [Zone(f"arena/r{r + 1}c{c + 1}", x0 + c * cell, y0 + r * cell, cell, cell,
                  f"r{r + 1}c{c + 1}" + (" home" if r in (0, rows - 1) else ""))
             for r in range(rows) for c in range(cols)]
    rx = x0 + cols * cell + gap
    ry = y0 + (rows * cell - roll_rows * roll_cell) / 2
    # The die starts in the centre of a 3x3 grid, and in row 2, column 3 of a 3x4 one (RULINGS.md).
    start = (2, 3) if roll_cols == 4 else (roll_rows // 2 + 1, roll_cols // 2 + 1)
    zones += [Zone(f"roll/r{r + 1}c{c + 1}", rx + c * roll_cell, ry + r * roll_cell, roll_cell, roll_cell,
                   "die" if (r + 1, c + 1) == start else "")
              for r in range(roll_rows) for c in range(roll_cols)]
    return tuple(zones)


def _grid(text: str, name: str) -> tuple[int, int]:
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise MatError(f"{name} is rows x columns, like 3x4; got {text!r}") from None
    return rows, cols


_ZONES = {"plain": _plain, "pouches": _plain, "deck-town": _plain, "mongoose": _mongoose, "pungo": _pungo}
