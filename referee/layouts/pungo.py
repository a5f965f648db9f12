"""Pungo: pyramids on the arena's cells and the die on the roll grid, both printed on the mat.

Places (see ``PungoState.view``): ``arena/r<row>c<column>`` the visible stack on a cell, bottom to
top (a nest shows as its outer pyramid: the state knows what is inside, the camera does not);
``roll/r<row>c<column>`` the die's square and the face on top; ``die`` the die off the grid
(thrown, in Chaos Pungo).

The mat's zones (``calibration.mats``: ``arena/r1c1``..., ``roll/r1c1``...) say where the cells
are; without zones, those the A4 Pungo mat would have for the game's ``arena`` and ``roll-grid``
options (:func:`a4_zones`, the same arithmetic as ``calibration.mats``). A pyramid or die within
:data:`~referee.layouts.zones.MARGIN_MM` of a cell's printed line counts as on it, the nearest
cell winning. A die elsewhere within :data:`REACH_MM` of the mat's cells is ``die``; anything
further, and a pyramid off the arena, is unplaced.

The die's face comes from vision as a number 1-6; the pyramid die (``die=pyramid``) reports its
faces in the order of ``rolling.PYRAMID_FACES`` (1 small, 2 medium, 3 large, 4 small-or-medium,
5 small-or-large, 6 medium-or-large).
"""

from __future__ import annotations

from referee.games.pungo.layout import Arena, roll_grid
from referee.games.pungo.rolling import faces
from referee.layouts import SeenView, zones as mat
from referee.layouts.readout import DEFAULT_THRESHOLD, Item, Readout, describe, stack_label
from referee.snapshot import TableSnapshot

REACH_MM = 300.0
A4_PLAY_AREA = (36.0, 0.0, 201.0, 178.0)  # calibration.mats: the A4 mat's play area


def a4_zones(arena: str, grid: str, inner=A4_PLAY_AREA) -> dict[str, tuple[float, float, float, float]]:
    """The zones of the A4 Pungo mat for an arena like ``3x4`` and a roll grid like ``3x3``."""
    rows, cols = (int(v) for v in arena.lower().split("x"))
    roll_rows, roll_cols = (int(v) for v in grid.lower().split("x"))
    x, y, w, h = inner
    roll_cell, gap = 22.0, 8.0
    cell = min(45.0, (w - gap - roll_cols * roll_cell) / cols, (h - 8.0) / rows)
    x0 = x + (w - (cols * cell + gap + roll_cols * roll_cell)) / 2
    y0 = y + 6.0 + (h - 6.0 - rows * cell) / 2
    zones = {f"arena/r{r + 1}c{c + 1}": (x0 + c * cell, y0 + r * cell, cell, cell)
             for r in range(rows) for c in range(cols)}
    rx, ry = x0 + cols * cell + gap, y0 + (rows * cell - roll_rows * roll_cell) / 2
    zones.update({f"roll/r{r + 1}c{c + 1}": (rx + c * roll_cell, ry + r * roll_cell, roll_cell, roll_cell)
                  for r in range(roll_rows) for c in range(roll_cols)})
    return zones


class PungoLayout:
    def __init__(self, game, zones=None, threshold: float = DEFAULT_THRESHOLD):
        arena, grid = game.option("arena"), game.option("roll-grid")
        self.zones = dict(zones) if zones else a4_zones(arena, grid)
        self.cells = [f"arena/{name}" for name in Arena.of(arena).names]
        self.squares = [f"roll/{name}" for name in roll_grid(grid)[0].names]
        mat.check(self.zones, self.cells + self.squares, "Pungo")
        self.faces = faces(game.option("die"))
        self.threshold = threshold

    def face(self, label: str) -> str | None:
        """Vision's die label (``1``..``6``) as the game's face."""
        return self.faces[int(label) - 1] if label in ("1", "2", "3", "4", "5", "6") else None

    def read(self, snapshot: TableSnapshot, state=None) -> SeenView:
        out = Readout(self.threshold)
        stacks: dict[str, list] = {}
        for sighting in snapshot.pyramids:
            cell = mat.nearest_zone(self.zones, sighting.center_mm, self.cells)
            if cell is None:
                label = "+".join(str(p) for p in sighting.stack)
                out.unplaced(describe("pyramids", label, sighting.center_mm) + ": off the arena")
            else:
                stacks.setdefault(cell, []).append(sighting)
        for cell, sightings in stacks.items():
            for sighting in sightings:
                out.add_sighting(cell, "+".join(str(p) for p in sighting.stack), sighting.confidence,
                                 sighting.alternatives, kind="pyramid", convert=stack_label)
            if len(sightings) > 1:  # two stacks seen on one cell: which is on top, the camera cannot say
                out.doubt(cell, tuple(p for s in reversed(sightings) for p in map(str, s.stack)))
        for die in snapshot.dice:
            square = mat.nearest_zone(self.zones, die.center_mm, self.squares)
            if square is None:
                near = min(mat.distance(self.zones[z], die.center_mm) for z in self.cells + self.squares)
                if near > REACH_MM:
                    out.unplaced(describe("die", str(die.face), die.center_mm) + ": off the play area")
                    continue
                square = "die"
            out.add_sighting(square, self.face(str(die.face)), die.confidence, die.alternatives, kind="die",
                             convert=self.face)
        return out.seen(arrange)


def arrange(place: str, items: list[Item]) -> tuple[str, ...]:
    return tuple(p for item in items for p in item.label.split("+"))


def layout(game, zones, threshold: float = DEFAULT_THRESHOLD) -> PungoLayout:
    return PungoLayout(game, zones, threshold)
