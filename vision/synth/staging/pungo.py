"""Pungo on its mat: the pyramids on the arena's cells, the die on the roll grid.

The inverse of :mod:`referee.layouts.pungo`, which reads cells and squares from the mat's zones:

* each stack stands on its cell as the state holds it, bottom to top (nests included: the
  renderer hides what a nest covers, as the camera would);
* the die sits on its square of the roll grid in the orientation the state knows (a d6's
  tumbles show their real faces); thrown off the grid (Chaos Pungo) it lies to the right of the
  mat. The pyramid die is drawn as a d6 whose pips count its face's place in
  :data:`referee.games.pungo.rolling.PYRAMID_FACES` (vision reports it so).
"""

from __future__ import annotations

from referee.dice import Die
from referee.games.pungo import rolling
from vision.synth.scene import DieObject, PyramidObject

THROWN_OUT_MM = 70.0


class Placer:
    def __init__(self, game, states, hand, zones):
        self.game, self.hand, self.zones = game, hand, zones
        self.faces = rolling.faces(game.option("die"))

    def place(self, state, known=None):
        from vision.synth.staging import Table

        hand, table, cfg = self.hand, Table(), state.config
        for i, stack in enumerate(state.board):
            if not stack:
                continue
            cell = f"arena/{cfg.arena.name(i)}"
            x, y, w, h = self.zones[cell]
            text = "+".join(stack)
            px, py, pa = hand.place(("stack", cell, text), (x + w / 2, y + h / 2), 0.0, offset_mm=3.0, turn_deg=8.0)
            table.pyramids.append(PyramidObject(text, px, py, pa))
        orientation = self._orientation(state)
        if state.square is None:
            right = max(x + w for x, _, w, _ in self.zones.values())
            top = min(y for _, y, _, _ in self.zones.values())
            point = (right + THROWN_OUT_MM, top + 40.0)
            spread = 12.0
        else:
            x, y, w, h = self.zones[f"roll/{cfg.grid.name(state.square)}"]
            point, spread = (x + w / 2, y + h / 2), 1.5
        dx, dy, da = hand.place(("die", str(orientation), state.square), point, 0.0, offset_mm=spread, turn_deg=6.0)
        table.dice.append(DieObject(str(orientation), dx, dy, da))
        return table

    def _orientation(self, state) -> Die:
        """The die as it lies: the first orientation the state still allows (a d6), or a d6 showing
        the pyramid die's face by its number."""
        if self.game.option("die") == "d6":
            return min(state.orientations, key=str)
        return Die.orientations(self.faces.index(state.face) + 1)[0]
