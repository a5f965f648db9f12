"""Pungo: move pyramids with exactly the points a controlled die roll gives, to make a symmetric home row.

Modules: ``layout`` (arena, home rows, roll grid), ``setup`` (the setup stacks the table shows),
``rolling`` (the die: faces, points, orientation tracking), ``moves`` (steps, costs, freezing,
spending exactly), ``actions``, ``state`` (the rules) and ``observe`` (explaining a turn, or the part
of one, the camera saw).
"""

from referee.game import Dynamics, Edition, GameType, Information, Option

GAME_TYPE = GameType(
    name="pungo",
    title="Pungo",
    editions=(Edition("standard", "Pungo", "pungo.md"),),
    min_players=2,
    max_players=2,
    dynamics=Dynamics.SEQUENTIAL,
    information=Information.PERFECT,  # nests hide pyramids from the camera, not from the players' memory
    chance=True,  # the face a roll shows is observed from the table
    pieces="nine Looney pyramids (three of each size), one d6 (or a pyramid die)",
    options=(
        Option("arena", "game arena: 3 rows x 4 columns as the setup picture shows, or the text's 4x3",
               "3x4", choices=("3x4", "4x3")),
        Option("roll-grid", "controlled-roll surface: 3x3 as the text says, or 3x4 as its picture shows",
               "3x3", choices=("3x3", "3x4")),
        Option("points", "movement points: the die's face, or the Averaging table", "regular",
               choices=("regular", "averaging")),
        Option("order", "roll then move, or Decision Pungo: move then roll", "roll-move",
               choices=("roll-move", "decision")),
        Option("roll", "controlled roll, or Chaos Pungo: a real random roll", "controlled",
               choices=("controlled", "chaos")),
        Option("die", "a d6 for points, or a pyramid die that names which sizes may move (one step a turn)", "d6",
               choices=("d6", "pyramid")),
        Option("colours", "pyramids of one colour, or three colours (symmetry then counts colours)", 1,
               choices=(1, 3)),
        Option("unspendable", "when the points cannot all be spent: spend the most that can be, or pass",
               "largest", choices=("largest", "pass")),
    ),
)

from referee.games.pungo.state import PungoState  # noqa: E402  (the rules need GAME_TYPE's module loaded)

STATE = PungoState

__all__ = ["GAME_TYPE", "STATE", "PungoState"]
