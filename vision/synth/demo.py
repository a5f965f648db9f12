"""The demo table: the renderer playing a built-in scripted game, frame by frame, with its truth.

Each refereed game has one built-in game (``demo_games/<game>.txt``, a recorded playthrough):
Pouches of Destiny a three-player game with one illegal move that is put right, the others a
recorded game of the test suite. :func:`demo_game` stages it (:mod:`vision.synth.script`) and
:class:`DemoSource` plays it as a capture source (``demo:<game>``, see
:func:`vision.capture.sources.open_demo`), rendering each frame when it is read::

    source = open_source("demo:pouches")        # a DemoSource
    frame = source.read()                       # BGR uint8, 1280x720
    source.truth.snapshot                       # the TableSnapshot a perfect vision would report
    source.truth.shot.state                     # the game state the table shows

Rendering a 1280x720 frame takes about a tenth of a second on one core, so the demo plays at
about its frame rate (10 by default) where the machine allows, slower where it does not.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from importlib import resources
from itertools import islice

import numpy as np

from referee import playthrough as recorded_games
from referee.snapshot import TableSnapshot
from vision.capture.sources import EndOfStream
from vision.synth.render import ObjectTruth, render
from vision.synth.script import Shot, sequence
from vision.synth.sequence import Sequence, frame_count, timeline
from vision.synth.snapshot import expected_snapshot

DEMO_GAMES = ("pouches", "mongoose", "deck-town", "pungo")


def demo_playthrough(game: str) -> recorded_games.Playthrough:
    """The built-in scripted game of ``game`` (one of :data:`DEMO_GAMES`)."""
    if game not in DEMO_GAMES:
        raise ValueError(f"no demo game for {game!r}: the demo plays {', '.join(DEMO_GAMES)}")
    text = resources.files("vision.synth").joinpath("demo_games", f"{game}.txt").read_text()
    return recorded_games.parse(text, f"demo_games/{game}.txt")


@dataclass
class DemoGame:
    """A scripted game staged as a video: its playthrough, the tables shown, the sequence."""

    name: str
    recorded: recorded_games.Playthrough
    shots: list[Shot]
    sequence: Sequence

    @property
    def frames(self) -> int:
        """How many frames the whole game takes."""
        return frame_count(self.sequence)

    @property
    def duration_s(self) -> float:
        return self.frames / self.sequence.fps


def demo_game(game: str, seed: int = 0, size: tuple[int, int] = (1280, 720), fps: float = 10.0,
              hold_s: float = 1.0, reach_s: float = 1.5,
              recorded: recorded_games.Playthrough | None = None) -> DemoGame:
    """``game``'s built-in scripted game (or ``recorded``, another game of it) staged as a video."""
    recorded = recorded or demo_playthrough(game)
    seq, shots = sequence(recorded, seed=seed, size=size, fps=fps, hold_s=hold_s, reach_s=reach_s)
    return DemoGame(game, recorded, shots, seq)


@dataclass
class DemoFrame:
    """The truth of one demo frame."""

    number: int  # frames since the start (0 first)
    t: float  # seconds since the start, at the sequence's frame rate
    position: int  # which shot the table shows (index in DemoGame.shots)
    shot: Shot
    snapshot: TableSnapshot  # what a perfect vision would report (occluded while a hand shows)
    objects: list[ObjectTruth] = field(repr=False, default_factory=list)  # the renderer's truth


class DemoSource:
    """``demo:<game>`` as a recorded source: ``read()`` renders the next frame of the scripted game;
    ``truth`` is the :class:`DemoFrame` of the frame last read. Ends with :class:`EndOfStream`
    (or starts over with ``loop``)."""

    def __init__(self, game: str, seed: int = 0, size: tuple[int, int] = (1280, 720), fps: float = 10.0,
                 loop: bool = False, hold_s: float = 1.0, reach_s: float = 1.5,
                 recorded: recorded_games.Playthrough | None = None) -> None:
        self.demo = demo_game(game, seed=seed, size=size, fps=fps, hold_s=hold_s, reach_s=reach_s, recorded=recorded)
        self.description = f"demo table playing {game} ({self.demo.frames} frames, {self.demo.duration_s:.0f} s)"
        self.frame_interval = 1.0 / fps
        self.loop = loop
        self.truth: DemoFrame | None = None
        self._start()

    def _start(self) -> None:
        self._frames = timeline(self.demo.sequence)
        self.position = 0

    def seek(self, frame: int) -> None:
        """Skip to frame number ``frame`` (the next ``read()`` renders it)."""
        self._start()
        if frame > 0:
            next(islice(self._frames, frame - 1, frame), None)
        self.position = frame

    def read(self) -> np.ndarray:
        step = next(self._frames, None)
        if step is None:
            if not self.loop:
                raise EndOfStream(f"{self.description} ended after {self.position} frames")
            self._start()
            step = next(self._frames)
        t, scene, shown = step
        rendering = render(scene)
        self.truth = DemoFrame(self.position, t, shown, self.demo.shots[shown], expected_snapshot(rendering, t),
                               rendering.objects)
        self.position += 1
        return rendering.image

    def reopen(self) -> None:
        pass  # nothing to lose: the renderer is always there

    def close(self) -> None:
        pass


def demo_pieces(source: DemoSource):
    """The pieces step (a :class:`vision.table_reader.GamePieces`) for the demo, with each
    player's token shown to the camera at the start ("this is Ann's token"): the opening table
    rendered with that token alone on the mat."""
    from calibration.mats import mat_of
    from vision.table_reader import GamePieces  # the pipeline's step, above the renderer

    game = source.demo.recorded.game
    opening = source.demo.sequence.states[0]
    showings = []
    for token in opening.tokens:
        alone = dataclasses.replace(opening, cards=[], pyramids=[], dice=[], tokens=[token], hands=[])
        showings.append((render(alone).image, token.label, token.shape, token.radius_mm, token.height_mm))
    # the game's pyramids come in the colours its opening has (the players' supplies, Pungo's arena)
    colours = game.new_state(source.demo.recorded.setup).pyramid_colours()
    return GamePieces(game.type.name, mat_of(game), showings, pyramid_colours=colours or None)
