"""The demo table (`tableside demo`): the scripted game played into a dashboard game, watched in
headless Chromium.

With the renderer's ground truth in place of recognition (`--simulated-vision`), the demo must
reach its flagged violation and its winner on the live page: this checks the players' spoken moves
the runner enters, the stabiliser, the session, the events and the page together. A short game read
by a reader slower than the frame rate checks the runner's pacing: it skips what it cannot read in
time and still referees every move.
The demos refereed through real recognition are in ``test_demo_real_vision.py``.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from calibration.mats import mat_of, zones_of
from demo_play import followed_to_the_end, rules_broken
from referee import layouts
from referee.playthrough import random_playthrough
from served import running
from vision.synth.demo import DemoSource, demo_playthrough
from webui import create_app
from webui.demo import DemoRunner, _SimulatedReader, start_demo
from webui.live_games import Seating


def test_demo_reaches_its_violation_and_winner_on_the_live_page(browser, tmp_path):
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    with running(app) as base:
        # unpaced, every third frame: the page sees the same game as paced, without waiting out its 90 s
        runner = start_demo(app, "pouches", paced=False, every=3, size=(640, 360), simulated=True)
        page = browser.new_page()
        page.goto(f"{base}/play/{runner.live.id}")
        expect(page.locator("#camera-status")).to_contain_text("demo table playing", timeout=30_000)
        banner = page.locator("#problem-banner.violation")
        expect(banner).to_be_visible(timeout=150_000)
        assert "move ann 0,1" in banner.inner_text()
        assert banner.locator("a[href='/rules/pouches-1.9#pouches-1.9/move/uphill']").count() == 1
        winner = page.locator("#winner")
        expect(winner).to_be_visible(timeout=150_000)
        assert "cat wins!" in winner.inner_text()
        page.close()
        runner.join(timeout=60)
    assert runner.progress.error is None and not runner.progress.refused, runner.progress
    violations = [e for e in runner.progress.events if e.kind == "violation"]
    assert len(violations) == 1 and "pouches-1.9/move/uphill" in str(violations[0].payload)
    assert runner.live.session.state.outcome().winners == ("cat",)
    assert runner.live.latest_frame() is not None  # the page had pictures to show
    app.extensions["tableside.games"].close()


class _SlowReader:
    """The renderer's truth, read in 2.5 frame intervals: a machine slower than the camera."""

    def __init__(self, source, seconds: float) -> None:
        self.truth, self.seconds = _SimulatedReader(source), seconds

    def read(self, frame, t, recognise: bool = True):
        time.sleep(self.seconds)
        return self.truth.read(frame, t, recognise)


def test_a_paced_demo_skips_the_frames_a_slow_reader_cannot_read_in_time_and_still_referees_every_move(tmp_path):
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    game = DemoSource("pouches").demo.recorded.game
    recorded = random_playthrough(game, demo_playthrough("pouches").setup, seed=3, max_actions=3)
    source = DemoSource("pouches", size=(480, 270), fps=10.0, recorded=recorded)
    live = app.extensions["tableside.games"].start(game, recorded.setup, Seating(camera="demo:pouches"),
                                                   layout=layouts.for_game(game, zones_of(mat_of(game))))
    runner = DemoRunner(live, source, _SlowReader(source, 2.5 * source.frame_interval), paced=True,
                        vision="simulated")
    try:
        runner.start()
        runner.join(timeout=120)
        progress = runner.progress
        assert progress.finished and progress.error is None and not progress.refused, progress
        assert progress.frames_read <= 0.6 * progress.frames_total  # about 1 frame in 2.5
        assert list(live.session.moves) == [line.action for line in recorded.lines]
    finally:
        app.extensions["tableside.games"].close()


def test_the_demo_table_reports_its_progress_and_vision_as_the_games_camera(tmp_path):
    """The live page's status line for a demo game: which demo, how far, read by which vision."""
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    runner = start_demo(app, "pouches", paced=False, every=40, size=(640, 360), simulated=True)
    client = app.test_client()
    deadline = time.monotonic() + 60
    while runner.progress.frames_read < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    camera = client.get(f"/api/games/{runner.live.id}").get_json()["camera"]
    assert camera["source"] == "demo:pouches" and camera["vision"] == "simulated"
    assert camera["frames_total"] == runner.source.demo.frames and camera["frames_read"] >= 2
    assert "simulated vision" in camera["text"] and f"of {camera['frames_total']}" in camera["text"]
    runner.join(timeout=120)
    ended = client.get(f"/api/games/{runner.live.id}").get_json()["camera"]
    assert (ended["status"], ended["running"], ended["message"]) == ("ended", False, None)
    assert ended["frames_read"] == runner.progress.frames_read and ended["text"].startswith("demo table ended")
    app.extensions["tableside.games"].close()


def test_the_demos_players_answer_a_question_only_they_can_settle(tmp_path):
    # Pungo's demo twice lands a small on a small, stepping it in from one side or another: the table
    # looks the same either way, so the referee asks, and the players answer with the step they made
    progress, _, _ = followed_to_the_end(tmp_path, "pungo", size=(640, 360), simulated=True)  # read by whole turns
    questions = [e for e in progress.events if e.kind == "question"]
    assert len(questions) == 2 and progress.answered == ["turn ann - r1c2:1:W", "turn ann - r2c2:1:W"]
    for question, answer in zip(questions, progress.answered):
        readings = [r["notation"] for r in question.payload["readings"]]
        assert len(readings) == 2 and answer in readings and all(r[:-1] == answer[:-1] for r in readings)
    chosen = [e.payload for e in progress.events if e.kind == "correction" and e.payload["what"] == "choose"]
    assert [c["notation"] for c in chosen] == progress.answered
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [(o["winners"], o["rule"]) for o in outcome] == [(["ann"], "pungo/win/all-nine")]


def test_a_slow_camera_that_sees_two_moves_at_once_still_follows_the_demo_move_for_move(tmp_path):
    # every 6th frame (1.7 looks a second): some settled tables show two players' moves, and a pass said
    # aloud comes before the referee has seen the move it follows; the players wait and enter it then
    progress, moves, script = followed_to_the_end(tmp_path, "pouches", every=6, size=(640, 360), simulated=True)
    assert moves == script
    looks: dict[float, list[str]] = {}
    for event in progress.events:
        if event.kind == "action" and event.payload["source"] == "camera":
            looks.setdefault(event.snapshot_t, []).append(event.payload["action"].get("player", "*table*"))
    assert any(len(set(players) - {"*table*"}) >= 2 for players in looks.values()), looks
    assert rules_broken(progress) == [["pouches-1.9/move/uphill"]]


def test_the_deck_town_demo_deal_is_said_by_the_players_and_the_game_followed_to_its_winner(tmp_path):
    # the deal puts cards face down into hands and each player says whether they hold a number card:
    # the camera cannot read it, so the players enter it, and the rest is read from the table
    progress, moves, script = followed_to_the_end(tmp_path, "deck-town", every=2, size=(640, 360), simulated=True)
    assert moves == script
    actions = [(e.payload["notation"], e.payload["source"]) for e in progress.events if e.kind == "action"]
    assert actions[0][0].startswith("deal") and actions[0][1] == "hand"
    assert all(source == "camera" for _, source in actions[1:])
    assert not [e for e in progress.events if e.kind in ("violation", "question", "unrecognised")]


def test_the_demos_players_know_the_move_they_made_next_from_any_position_of_their_game():
    # asked which of two moves seen at once came first, the first being a move of a table the camera missed,
    # the players answer with the move they made from where the referee is
    from types import SimpleNamespace

    from referee.playthrough import replay

    source = DemoSource("deck-town", size=(640, 360))
    runner = DemoRunner(SimpleNamespace(id="g"), source, reader=None)
    recorded = source.demo.recorded
    states = replay(recorded).states
    moves = [line.action for line in recorded.lines if line.illegal_rule is None]  # as the script writes them
    assert len(states) == len(moves) + 1 > 10
    assert [runner._made_after(s) for s in states] == moves + [None]
    elsewhere = next(states[5].apply(a) for a in states[5].legal_actions() if str(a) != moves[5])
    assert runner._made_after(elsewhere) is None
