"""Game states staged as table scenes: the inverse of :mod:`referee.layouts`.

A :class:`Stager` lays out the states of one game on one table: the game's printed mat, and every
card, pyramid, die and token of a state's view where that game's layout would read it back as
that view, each put down by a slightly sloppy hand (a few millimetres off its spot, a few degrees
turned; seeded, and the same for a thing that stays put, so consecutive states differ only where
the game changed). One camera, chosen to see every state of the game, and one light and table
look are kept for the whole game::

    stager = Stager(game, states, seed=3)          # states: every state the game passes through
    scene = stager.scene(state)                    # a vision.synth.scene.Scene
    layout = referee.layouts.for_game(game, stager.zones)
    layout.read(expected_snapshot(render(scene)), state).view == state.view()

``scene(state, known=before)`` stages ``state`` as the referee will read it while it still knows
``before`` (Pouches and Deck Town measure where a player's area begins from the grid the referee
knew; see :mod:`referee.layouts.tabletop`).

Each game's placement lives in its own module (:mod:`.pouches`, :mod:`.deck_town`,
:mod:`.mongoose`, :mod:`.pungo`), each documenting the layout's bands it aims for.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.mats import mat_of, mat_options, zones_of
from referee.game import Game, State
from vision.synth.scene import (CARD_MM, Camera, CardObject, DieObject, Effects, Light, MatObject, PyramidObject,
                                Scene, Surface, TokenObject)
from vision.synth.staging.table import Hand, frame_camera

STAGED = ("pouches", "mongoose", "deck-town", "pungo")  # the games with a module here that lays them out

@dataclass
class Table:
    """What a game's staging puts on the table for one state."""

    cards: list[CardObject] = field(default_factory=list)  # in the order they are laid: later on top
    pyramids: list[PyramidObject] = field(default_factory=list)
    dice: list[DieObject] = field(default_factory=list)
    tokens: list[TokenObject] = field(default_factory=list)

    def footprint(self) -> np.ndarray:
        """Table points that must be in the picture: card corners, and round every piece."""
        pts = []
        w, h = CARD_MM
        for c in self.cards:
            a = np.radians(c.angle)
            ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            pts += [np.array([c.x, c.y]) + sx * w / 2 * ex + sy * h / 2 * ey for sx in (-1, 1) for sy in (-1, 1)]
        for thing, r in [(p, 16.0) for p in self.pyramids] + [(d, 14.0) for d in self.dice] + \
                        [(t, t.radius_mm + 2) for t in self.tokens]:
            pts += [(thing.x + dx, thing.y + dy) for dx in (-r, r) for dy in (-r, r)]
        return np.array(pts, np.float64).reshape(-1, 2)


class Stager:
    """Stages the states of one configured ``game`` on one table (see the module docstring).

    ``states``: every state the game will show (the camera is chosen to see all of them, and where
    a game keeps things in place across states, such as the Mongoose pool, the history decides
    where each card sits). ``seed`` varies the sloppiness, the light and the table; ``size`` is
    the picture; ``paper`` the mat's paper; ``sloppy=False`` lays everything exactly on its spot.
    """

    def __init__(self, game: Game, states: Sequence[State] = (), seed: int = 0, size: tuple[int, int] = (1280, 720),
                 paper: str = "A3", sloppy: bool = True) -> None:
        name = game.type.name
        if name not in STAGED:
            raise ValueError(f"no staging for {game.type.title}: staging knows {', '.join(STAGED)}")
        self.game, self.seed, self.size = game, int(seed), tuple(size)
        options = mat_options(game)
        self.layout = mat_of(game, paper)
        self.mat = MatObject(name, paper, ",".join(f"{k}:{v}" for k, v in options.items()))
        self.zones = zones_of(self.layout)
        self.hand = Hand(self.seed, sloppy)
        module = importlib.import_module(f"vision.synth.staging.{name.replace('-', '_')}")
        self.placer = module.Placer(game, list(states), self.hand, self.zones)
        self.states = list(states)
        self._camera: Camera | None = None
        self._mat_corners = np.array([[-self.layout.origin_on_paper[0], -self.layout.origin_on_paper[1]],
                                      [self.layout.paper_mm[0] - self.layout.origin_on_paper[0],
                                       self.layout.paper_mm[1] - self.layout.origin_on_paper[1]]])

    def table(self, state: State, known: State | None = None) -> Table:
        """The things on the table in ``state`` (``known``: the state the referee knows meanwhile)."""
        return self.placer.place(state, known)

    def scene(self, state: State, known: State | None = None) -> Scene:
        """The scene of ``state``: mat, camera, light, table and every visible thing of its view."""
        table = self.table(state, known)
        return Scene(surface=self._surface(), camera=self.camera(extra=table), light=self._light(),
                     effects=Effects(exposure=1.0, vignette=0.25, focus_blur_px=0.6, noise=2.0, jpeg_quality=85,
                                     glare=0.25, haze=0.03),
                     mat=self.mat, cards=table.cards, pyramids=table.pyramids, dice=table.dice, tokens=table.tokens,
                     seed=self.seed)

    def camera(self, extra: Table | None = None) -> Camera:
        """One camera for the whole game, seeing the mat and every state's things, from whichever
        side of the table (yaw 0 or 90 degrees) sees them all from nearer. (A stager given no
        states frames each scene on its own, ``extra`` being its table.)"""
        if self._camera is None or (extra is not None and not self.states):
            tables = [self.placer.place(s, prev) for prev, s in zip([None] + self.states[:-1], self.states)]
            if extra is not None:
                tables.append(extra)
            pts = np.vstack([self._mat_corners] + [t.footprint() for t in tables])
            tilt = round(float(self.hand.rng("camera").uniform(12, 26)), 1)
            # the camera stands at the table's long side, so the picture's width takes its length
            framings = [(frame_camera(pts, self.size, tilt, 65.0, yaw), yaw) for yaw in (0.0, 90.0)]
            (target, distance), yaw = min(framings, key=lambda f: f[0][1])
            camera = Camera(target_mm=(round(target[0], 1), round(target[1], 1)), distance_mm=distance,
                            tilt_deg=tilt, yaw_deg=yaw, size=self.size, hfov_deg=65.0)
            if not self.states:
                return camera
            self._camera = camera
        return self._camera

    def _surface(self) -> Surface:
        r = self.hand.rng("surface")
        kind = str(r.choice(["wood", "felt", "cloth", "light"]))
        colour = {"wood": (60, 105, 160), "felt": (55, 100, 45), "cloth": (150, 160, 170), "light": (205, 210, 215)}
        return Surface(kind, colour[kind], scale_mm=float(round(r.uniform(6, 12), 1)), contrast=0.4)

    def _light(self) -> Light:
        r = self.hand.rng("light")
        return Light(ambient=0.6, strength=0.5, azimuth_deg=round(float(r.uniform(0, 360)), 1),
                     elevation_deg=round(float(r.uniform(50, 75)), 1), kelvin=round(float(r.uniform(3500, 6000))),
                     falloff=0.15, shadow_softness_mm=5.0)


def stage(game: Game, state: State, seed: int = 0, **kwargs) -> Scene:
    """The scene of one ``state`` on its own (a Stager for just that state)."""
    return Stager(game, [state], seed=seed, **kwargs).scene(state)
