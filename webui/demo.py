"""The demo table: a scripted game rendered as camera frames and refereed through the real pipeline.

:class:`DemoRunner` plays ``demo:<game>`` (:mod:`vision.synth.demo`) into a dashboard game: every
frame goes through the same vision (cards, pieces, stabilisation) and the same referee session a
webcam's frames would. What a camera cannot see (a weapon named aloud, a card drawn into a pouch)
is entered for the players, as they would enter it on the dashboard, just before the table that
follows it comes into view. Paced by the wall clock, a slow machine skips frames rather than
falling behind, as the live pipeline does with a real camera.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from calibration.mats import mat_layout
from referee import layouts
from referee.log.events import Event
from referee.session import SessionError
from referee.verdict import IllegalAction
from vision.live import LivePipeline
from vision.table_reader import GamePieces, TableReader

DEMO_DECKS = {"pouches": "standard", "mongoose": "standard", "deck-town": "standard", "pungo": "standard"}


@dataclass
class DemoProgress:
    frames_read: int = 0
    frames_total: int = 0
    shots_entered: int = 0
    finished: bool = False
    error: str | None = None
    events: list[Event] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # players' entries the referee refused, and why


class DemoRunner(threading.Thread):
    """Plays the demo of ``game_name`` into ``live`` (a :class:`webui.live_games.LiveGame`).

    ``paced`` keeps to the demo's frame rate by the wall clock; unpaced, it reads every
    ``every``-th frame as fast as the machine allows (for tests)."""

    def __init__(self, live, source, paced: bool = True, every: int = 1, pieces=None, recogniser=None,
                 simulated: bool = False) -> None:
        super().__init__(name=f"demo {live.id}", daemon=True)
        self.live, self.source, self.paced, self.every = live, source, paced, max(1, int(every))
        self.progress = DemoProgress(frames_total=source.demo.frames)
        self._halt = threading.Event()
        game = live.game
        name = game.type.name
        from vision.synth.staging import MAT_GAMES

        options = {k: str(game.option(k)) for k in ("arena", "roll-grid")} if name == "pungo" else {}
        reader = TableReader(mat_layout(MAT_GAMES[name], "A3", options), deck=DEMO_DECKS.get(name, "auto"),
                             recogniser=recogniser, pieces=pieces)
        if simulated:  # what a perfect vision would report for each frame, in place of recognition
            reader = _SimulatedReader(source)
        self.pipeline = LivePipeline(reader, self._observe)

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        from vision.capture.sources import EndOfStream

        started = time.monotonic()
        interval = self.source.frame_interval
        try:
            while not self._halt.is_set():
                if self.paced:
                    due = int((time.monotonic() - started) / interval)
                    if due > self.source.position:
                        self.source.seek(due)
                    elif due < self.source.position:
                        time.sleep((self.source.position - due) * interval)
                elif self.every > 1 and self.source.position % self.every:
                    self.source.seek(self.source.position + self.every - self.source.position % self.every)
                try:
                    frame = self.source.read()
                except EndOfStream:
                    break
                truth = self.source.truth
                self._enter_spoken(truth.position)
                self.progress.frames_read += 1
                self.pipeline.step(frame, truth.t)
                if self.pipeline.stats.last is not None:
                    import cv2

                    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                    if ok:
                        self.live.show_frame(jpeg.tobytes())
        except Exception as exc:  # a demo that breaks must say why on the dashboard, not die silently
            self.progress.error = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            self.progress.finished = True

    def _observe(self, snapshot, jpeg: bytes) -> list[Event]:
        events = self.live.observe(snapshot, jpeg)
        self.progress.events.extend(events)
        return events

    def _enter_spoken(self, position: int) -> None:
        """Before shot ``position`` is read, the players enter what its table cannot show: every
        line that led to it but the last (the one the camera sees)."""
        while self.progress.shots_entered < position:
            self.progress.shots_entered += 1
            shot = self.source.demo.shots[self.progress.shots_entered]
            game = self.live.game
            for line in shot.lines[:-1]:
                if line.illegal_rule is None:
                    try:
                        self.progress.events.extend(self.live.enter(game.actions.parse(line.action)))
                    except (IllegalAction, SessionError) as exc:  # the referee's state differs from the
                        self.progress.refused.append(f"{line.action}: {exc}")  # script's: vision misread



def start_demo(app, game_name: str, paced: bool = True, every: int = 1, size=(1280, 720),
               simulated: bool = False) -> DemoRunner:
    """Start a dashboard game for ``demo:<game_name>`` in ``app`` and the runner that plays it.
    ``simulated`` replaces recognition by the renderer's ground truth (the referee and the
    dashboard are then shown at work whatever the models' accuracy)."""
    from vision.synth.demo import DemoSource
    from webui.live_games import Seating

    source = DemoSource(game_name, size=size, fps=10.0)
    pieces = None if simulated else demo_pieces(source)
    recorded = source.demo.recorded
    games = app.extensions["tableside.games"]
    setup = recorded.setup
    live = games.start(recorded.game, setup, Seating(camera=f"demo:{game_name}"),
                       layout=layouts.for_game(recorded.game, _zones(recorded.game)))
    runner = DemoRunner(live, source, paced=paced, every=every, pieces=None if simulated else pieces,
                        simulated=simulated)
    app.extensions.setdefault("tableside.demos", {})[live.id] = runner
    runner.start()
    return runner


def demo_pieces(source) -> GamePieces:
    """The pieces step for the demo, with each player's token shown to the camera at the start
    ("this is Ann's token"): the opening table rendered with that token alone on the mat."""
    import dataclasses

    from vision.synth.render import render

    game = source.demo.recorded.game
    opening = source.demo.sequence.states[0]
    showings = []
    for token in opening.tokens:
        alone = dataclasses.replace(opening, cards=[], pyramids=[], dice=[], tokens=[token], hands=[])
        showings.append((render(alone).image, token.label, token.shape, token.radius_mm, token.height_mm))
    return GamePieces(game.type.name, _mat(game), showings)


def _mat(game):
    from vision.synth.staging import MAT_GAMES

    name = game.type.name
    options = {k: str(game.option(k)) for k in ("arena", "roll-grid")} if name == "pungo" else {}
    return mat_layout(MAT_GAMES[name], "A3", options)


def _zones(game) -> dict:
    from vision.synth.staging import MAT_GAMES

    name = game.type.name
    options = {k: str(game.option(k)) for k in ("arena", "roll-grid")} if name == "pungo" else {}
    layout = mat_layout(MAT_GAMES[name], "A3", options)
    return {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in layout.zones}


class _SimulatedReader:
    """Stands in for :class:`TableReader`: the demo source's own truth for the frame just read."""

    def __init__(self, source) -> None:
        self.source = source

    def read(self, frame, t):
        from vision.table_reader import FrameReading

        return FrameReading(self.source.truth.snapshot, None)
