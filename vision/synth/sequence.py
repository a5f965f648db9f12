"""A scripted playthrough as video frames: game positions with a hand reaching in between them.

A :class:`Sequence` lists scenes (the table after each move). Each is held still for ``hold_s``
seconds (or its own time in ``holds``: a table after an illegal move stays until the referee has spoken; its
extra frames repeat its last still frame's sensor noise, so every frame after it is as it would be without it);
then a hand comes in from the camera-side player's edge to where the table changes, the change happens while
the hand is there (hidden under it, as in life), and the hand leaves.
:func:`frames` yields the scene of every frame; :func:`render_sequence` renders them.

>>> from vision.synth.scene import CardObject, Scene
>>> seq = Sequence([Scene(), Scene(cards=[CardObject("QH", 100, 80)])], fps=10, hold_s=0.5, reach_s=1.0)
>>> [len(s.hands) for _, s in frames(seq)]
[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from vision.synth.render import Rendering, render
from vision.synth.scene import HandObject, Scene, SceneError, _build
from vision.synth.surfaces import VARIANTS


@dataclass
class Sequence:
    states: list[Scene] = field(default_factory=list)
    fps: float = 10.0
    hold_s: float = 1.0  # how long each position stays untouched
    reach_s: float = 1.5  # how long a hand takes to come in, make the move and leave
    skin: tuple[int, int, int] = (120, 150, 200)
    holds: list[float] = field(default_factory=list)  # each position's own hold, where not hold_s (empty: none)

    def __post_init__(self) -> None:
        if self.fps <= 0 or self.hold_s < 0 or self.reach_s < 0 or any(h < 0 for h in self.holds):
            raise SceneError("fps must be positive, hold_s, holds and reach_s not negative")
        if self.holds and len(self.holds) != len(self.states):
            raise SceneError(f"holds gives {len(self.holds)} times for {len(self.states)} positions")

    def held(self, position: int) -> int:
        """How many frames position ``position`` is held still."""
        return round((self.holds[position] if self.holds else self.hold_s) * self.fps)

    @classmethod
    def from_json(cls, text: str) -> Sequence:
        try:
            return _build(cls, json.loads(text), "")
        except json.JSONDecodeError as exc:
            raise SceneError(f"not JSON: {exc}") from None

    def to_json(self) -> str:
        from dataclasses import asdict
        return json.dumps(asdict(self), indent=1)


def frames(sequence: Sequence) -> Iterator[tuple[float, Scene]]:
    """(time in seconds, scene) for every frame of the sequence."""
    for t, scene, _ in timeline(sequence):
        yield t, scene


def timeline(sequence: Sequence) -> Iterator[tuple[float, Scene, int]]:
    """(time in seconds, scene, position) for every frame: ``position`` is the index in
    ``sequence.states`` of the table the frame shows (while a hand makes a change, the old one
    until the hand touches the table, then the new one)."""
    dt = 1.0 / sequence.fps
    n = 0
    noise = 0  # which sensor noise a frame gets
    usual = max(1, round(sequence.hold_s * sequence.fps))
    for i, state in enumerate(sequence.states):
        held = sequence.held(i)
        for k in range(held):
            # a position's own longer hold (holds) repeats its last usual still frame's noise, so every later
            # frame is the one it would be without it
            yield n * dt, _frame_scene(state, noise + min(k, usual - 1)), i
            n += 1
        noise += min(held, usual)
        if i + 1 == len(sequence.states):
            break
        after = sequence.states[i + 1]
        spot = _changed_spot(state, after)
        reach = max(2, round(sequence.reach_s * sequence.fps))
        a = math.radians(90.0 + state.camera.yaw_deg)  # the camera-side player's edge of the table
        toward_player = np.array([math.cos(a), math.sin(a)])
        home = np.asarray(spot) + 700.0 * toward_player
        spot = np.asarray(spot) - 30.0 * toward_player  # fingertips reach past the spot: the hand covers it
        for k in range(reach):
            phase = (k + 0.5) / reach  # 0 -> 1: in, touch at 0.5, out
            closeness = math.sin(math.pi * phase)  # 0 away, 1 at the spot
            x, y = home + (np.asarray(spot) - home) * closeness
            speed = 700.0 * math.pi * abs(math.cos(math.pi * phase)) / sequence.reach_s  # mm per second
            px_per_mm = _px_per_mm(state)
            hand = HandObject(float(x), float(y), angle=math.degrees(a), height_mm=40.0 + 80.0 * (1 - closeness),
                              skin=sequence.skin, motion_px=float(min(40.0, speed * px_per_mm * dt * 0.5)))
            shown = i if phase < 0.5 else i + 1
            scene = _frame_scene(sequence.states[shown], noise)
            scene.hands = list(scene.hands) + [hand]
            yield n * dt, scene, shown
            n += 1
            noise += 1


def frame_count(sequence: Sequence) -> int:
    """How many frames :func:`timeline` yields."""
    positions = len(sequence.states)
    return (sum(sequence.held(i) for i in range(positions))
            + max(2, round(sequence.reach_s * sequence.fps)) * max(positions - 1, 0))


def render_sequence(sequence: Sequence, masks: bool = False) -> Iterator[tuple[float, Rendering]]:
    for t, scene in frames(sequence):
        yield t, render(scene, masks=masks)


def _frame_scene(state: Scene, n: int) -> Scene:
    """The state for frame ``n``: same table, fresh sensor noise. (The seed also picks the table's
    texture, one of ``surfaces.VARIANTS``: every frame's seed keeps the state's choice.)"""
    scene = copy.deepcopy(state)
    scene.seed = (state.seed * 100003 + n) * VARIANTS + state.seed % VARIANTS
    return scene


def _changed_spot(before: Scene, after: Scene) -> tuple[float, float]:
    """Where the table changes between two states (the mean position of what moved, came or went)."""
    def things(scene: Scene) -> set:
        return ({("card", c.id, c.face_up, round(c.x), round(c.y), c.pile) for c in scene.cards}
                | {("pyramid", p.stack, round(p.x), round(p.y)) for p in scene.pyramids}
                | {("die", d.orientation, round(d.x), round(d.y)) for d in scene.dice}
                | {("token", t.label, round(t.x), round(t.y)) for t in scene.tokens})
    changed = things(before) ^ things(after)
    if not changed:
        return tuple(before.camera.target_mm)
    points = np.array([[c[-3], c[-2]] if c[0] == "card" else [c[-2], c[-1]] for c in changed], np.float64)
    return float(points[:, 0].mean()), float(points[:, 1].mean())


def _px_per_mm(scene: Scene) -> float:
    f = scene.camera.size[0] / 2 / math.tan(math.radians(scene.camera.hfov_deg) / 2)
    return f / scene.camera.distance_mm
