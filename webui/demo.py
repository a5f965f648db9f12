"""The demo table: a scripted game rendered as camera frames and refereed through the real pipeline.

:class:`DemoRunner` plays ``demo:<game>`` (:mod:`vision.synth.demo`) into a dashboard game: every
frame goes through the same vision (cards, pieces, stabilisation) and the same referee session a
webcam's frames would. What a camera cannot see (a weapon named aloud, a card drawn into a pouch)
is entered for the players, as they would enter it on the dashboard, just before the table that
follows it comes into view, to wait where the referee has yet to see the move before it (the
session plays it once the rules allow it); and when the referee asks which of several moves was
made (two moves the table cannot tell apart) or came first (two moves seen at once), the players
answer with the one they made. Paced by the wall clock, a slow machine skips
frames rather than falling behind, as the live pipeline does with a real camera.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import cv2

from calibration.mats import mat_of, zones_of
from referee import layouts
from referee.log.events import Event
from referee.playthrough import replay
from vision.capture.sources import EndOfStream
from vision.live import LivePipeline
from vision.synth.demo import DemoSource, demo_pieces
from vision.table_reader import FrameReading, for_game
from webui.camera_runner import camera_event

ANNOUNCE_EVERY = 20  # frames between the demo table's status events (2 s at its 10 frames a second)
FINAL_LOOK_S = 2.0  # how long the camera goes on looking at the table once the script has ended


@dataclass
class DemoProgress:
    frames_read: int = 0
    frames_total: int = 0
    shots_entered: int = 0
    finished: bool = False
    error: str | None = None  # why the runner stopped early, if it did
    events: list[Event] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # players' entries the referee never took, and why
    answered: list[str] = field(default_factory=list)  # the referee's questions the players answered: their move


class DemoRunner(threading.Thread):
    """Plays the demo ``source`` into ``live`` (a :class:`webui.live_games.LiveGame`) through ``reader``.

    ``paced`` keeps to the demo's frame rate by the wall clock, skipping the frames a slow machine
    cannot read in time; unpaced, it reads every ``every``-th frame (``tableside demo --every
    N``) as fast as the machine allows, so the frames read never depend on timing."""

    def __init__(self, live, source: DemoSource, reader, paced: bool = True, every: int = 1,
                 vision: str = "real") -> None:
        super().__init__(name=f"demo {live.id}", daemon=True)
        self.live, self.source, self.paced, self.every = live, source, paced, max(1, int(every))
        self.vision = vision  # "real" (the models read each frame) or "simulated" (the renderer's truth)
        self.progress = DemoProgress(frames_total=source.demo.frames)
        self.pipeline = LivePipeline(reader, self._observe)
        self._path: list | None = None  # (state, the move the game made from it), worked out when first asked

    def status(self) -> dict:
        """The demo table as a camera's status (``"camera"`` of ``GET /api/games/<id>`` and the
        ``camera`` events of /events, docs/api.md): how far it has played, read by which vision."""
        p = self.progress
        running = not p.finished
        state = {"source": self.live.seating.camera, "running": running, "status": "running" if running else "ended",
                 "frames_read": p.frames_read, "frames_total": p.frames_total, "vision": self.vision,
                 "message": p.error}
        how = "read by the card and piece models" if self.vision == "real" else \
            "read from the renderer's truth (simulated vision)"
        text = f"demo table {'playing' if running else 'ended'}, {how}; frame {p.frames_read} of {p.frames_total}"
        return {**state, "text": text + (f": stopped by {p.error}" if p.error else "")}

    def _announce(self) -> None:
        self.live.hub.announce(self.live.id, camera_event(self.live.id, self.status()))

    def run(self) -> None:
        started = time.monotonic()
        interval = self.source.frame_interval
        last = None
        try:
            while True:
                if self.paced:
                    due = int((time.monotonic() - started) / interval)
                    if due > self.source.position:
                        self.source.seek(due)
                    elif due < self.source.position:
                        time.sleep((self.source.position - due) * interval)
                elif self.source.position % self.every:
                    self.source.seek(self.source.position + self.every - self.source.position % self.every)
                try:
                    frame = self.source.read()
                except EndOfStream:
                    self._look_at_the_end(last)
                    break
                truth = self.source.truth
                self._enter_spoken(truth.position)
                self.progress.frames_read += 1
                if self.progress.frames_read % ANNOUNCE_EVERY == 1:
                    self._announce()
                self.pipeline.step(frame, truth.t)
                last = (frame, truth.t)
                ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                if ok:
                    self.live.show_frame(jpeg.tobytes())
        except Exception as exc:  # kept for whoever started the demo, then raised for the thread's report
            self.progress.error = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            self.progress.refused += [f"{said.action}: {said.verdict}" for said in self.live.session.said]
            self.progress.finished = True
            self._announce()

    def _look_at_the_end(self, last) -> None:
        """The script is over but the table is still there: the camera keeps reading its last
        frame for :data:`FINAL_LOOK_S` (a slow reader may not have seen the final table settle)."""
        if last is None:
            return
        frame, t = last
        step = self.source.frame_interval * self.every
        for k in range(1, int(FINAL_LOOK_S / step) + 1):
            self.pipeline.step(frame, t + k * step)

    def _observe(self, snapshot, jpeg: bytes) -> list[Event]:
        events = self.live.observe(snapshot, jpeg)
        self.progress.events.extend(events)
        if any(e.kind == "question" for e in events):
            events += self._answer()
        return events

    def _answer(self) -> list[Event]:
        """The players answer the referee's open question as they played: with the one legal reading
        that is a move of the shot in view, leads to the table it shows, or is the move they made
        next from where the referee is (which of two moves seen at once came first, the first one
        a move of a table the camera missed). None fits (the camera misread the table): they leave
        the question for the table to settle."""
        pending = self.live.session.pending
        if pending is None or pending.kind != "question":
            return []
        shot = self.source.demo.shots[self.source.truth.position]
        game, state = self.live.game, self.live.session.state
        played = {str(game.actions.parse(line.action)) for line in shot.lines if line.illegal_rule is None}
        made = self._made_after(state)
        fits = [k for k, c in enumerate(pending.candidates) if c.reading.verdict.legal and (
            str(c.reading.action) in played or str(c.reading.action) == made
            or state.apply(c.reading.action) == shot.state)]
        if len(fits) != 1:
            return []
        self.progress.answered.append(str(pending.candidates[fits[0]].reading.action))
        events = self.live.choose(fits[0])
        self.progress.events.extend(events)
        return events

    def _made_after(self, state) -> str | None:
        """The move the demo's game made from ``state``, when it passed through it (None when it did not, or
        ended there)."""
        if self._path is None:
            recorded = self.source.demo.recorded
            moves = [str(recorded.game.actions.parse(line.action)) for line in recorded.lines
                     if line.illegal_rule is None]
            self._path = list(zip(replay(recorded).states, moves))
        return next((move for passed, move in self._path if passed == state), None)

    def _enter_spoken(self, position: int) -> None:
        """Before shot ``position`` is read, the players say what its table cannot show: every line
        that led to it but the last (the one the camera sees), and the last too where the table
        cannot show it (:meth:`referee.game.State.is_spoken`: Deck Town's deal). What the referee
        cannot play yet (it has yet to see the move before) waits in the session; what still waits
        when the demo ends is reported as refused."""
        parse = self.live.game.actions.parse
        while self.progress.shots_entered < position:
            self.progress.shots_entered += 1
            shot = self.source.demo.shots[self.progress.shots_entered]
            state = shot.known
            for n, line in enumerate(shot.lines):
                if line.illegal_rule is None:
                    action = parse(line.action)
                    if n + 1 < len(shot.lines) or state.is_spoken(action):
                        self.progress.events.extend(self.live.enter(action, wait=True))
                    state = state.apply(action)


def start_demo(app, game_name: str, paced: bool = True, every: int = 1, size=(1280, 720),
               simulated: bool = False, source: DemoSource | None = None) -> DemoRunner:
    """Start a dashboard game for ``demo:<game_name>`` in ``app`` and the runner that plays it.
    ``simulated`` replaces recognition by the renderer's ground truth (the referee and the
    dashboard are then shown at work whatever the models' accuracy). ``source`` plays another
    game than the built-in one (:mod:`bench.trials`: seeded random games)."""
    from webui.live_games import Seating

    source = source or DemoSource(game_name, size=size, fps=10.0)
    game = source.demo.recorded.game
    mat = mat_of(game)
    if simulated:
        reader = _SimulatedReader(source)
    else:  # the deck the game is played with, as for a camera
        reader = for_game(game.type.name, mat, pieces=demo_pieces(source))
    live = app.extensions["tableside.games"].start(game, source.demo.recorded.setup,
                                                   Seating(camera=f"demo:{game_name}"),
                                                   layout=layouts.for_game(game, zones_of(mat)))
    runner = DemoRunner(live, source, reader, paced=paced, every=every, vision="simulated" if simulated else "real")
    app.extensions["tableside.demos"][live.id] = runner
    runner.start()
    return runner


class _SimulatedReader:
    """Stands in for :class:`TableReader`: the demo source's own truth for the frame just read."""

    def __init__(self, source: DemoSource) -> None:
        self.source = source

    def read(self, frame, t, recognise: bool = True) -> FrameReading:
        return FrameReading(self.source.truth.snapshot if recognise else None, None)
