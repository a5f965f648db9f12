"""Pungo's actions and their notation.

A turn is played as small actions, each of which the referee checks: a ``roll`` (the controlled
roll: the direction the die tumbles and the face it then shows), a ``show`` (Chaos Pungo: the face
a real roll shows, a chance event), ``step`` (one unit one square) and ``pass`` (no points can be
spent). The camera, though, sees the table only when hands leave it: ``turn`` bundles a whole
turn's roll and steps into one action, and ``part`` the part of a turn seen so far, when the
players pause before the points are spent; ``reread`` reads such a turn again from its start once it
is over. These are what the camera-level reader proposes.

>>> str(Step("ann", "r2c1", 1, "N")), str(Roll("bob", "E", "3"))
('step ann r2c1 1 N', 'roll bob E 3')
>>> str(Turn("ann", "N:4", ("r2c3:1:N", "r1c3:1:E")))
'turn ann N:4 r2c3:1:N,r1c3:1:E'
>>> str(Part("bob", "W:3", ()))
'part bob W:3 -'
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.action import Action, ActionParseError


@dataclass(frozen=True)
class Roll(Action):
    """The controlled roll: tumble the die one square towards ``direction``; the table shows ``face``."""

    kind = "roll"
    player: str
    direction: str
    face: str


@dataclass(frozen=True)
class Show(Action):
    """Chaos Pungo: the face a random roll shows (the table decides)."""

    kind = "show"
    face: str


@dataclass(frozen=True)
class Step(Action):
    """Move the top ``count`` pyramids of ``cell`` one square towards ``direction``, as one unit."""

    kind = "step"
    player: str
    cell: str
    count: int
    direction: str


@dataclass(frozen=True)
class Pass(Action):
    """End a turn without moving: allowed only when no points can be spent (or under the pass ruling)."""

    kind = "pass"
    player: str


@dataclass(frozen=True)
class Turn(Action):
    """A whole turn as the camera sees it: the roll (``N:4``; Chaos: the face, ``4``; ``-`` for none)
    and the steps in order, each ``cell:count:direction``."""

    kind = "turn"
    player: str
    roll: str | None
    steps: tuple[str, ...]

    def step_actions(self) -> tuple[Step, ...]:
        out = []
        for text in self.steps:
            parts = text.split(":")
            if len(parts) != 3 or not parts[1].isdigit():
                raise ActionParseError(f"a step in a turn is cell:count:direction, like r2c1:1:N; got {text!r}")
            out.append(Step(self.player, parts[0], int(parts[1]), parts[2]))
        return tuple(out)


@dataclass(frozen=True)
class Part(Turn):
    """The part of a turn seen so far: the roll (when it comes first) and the steps taken, with points
    still to spend (Decision Pungo: or the roll still to make). The turn goes on afterwards."""

    kind = "part"


@dataclass(frozen=True)
class Reread(Action):
    """A turn read as under way (a :class:`Part`) and now over, read again from its start: the whole
    turn's steps, where the steps the part guessed cannot lead on to what the table shows."""

    kind = "reread"
    player: str
    steps: tuple[str, ...]


ACTIONS = (Roll, Show, Step, Pass, Turn, Part, Reread)


def step_text(step: Step) -> str:
    return f"{step.cell}:{step.count}:{step.direction}"
