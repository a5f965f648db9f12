"""The demo table (`tableside demo`): the scripted game played into a dashboard game, watched in
headless Chromium.

With the renderer's ground truth in place of recognition (`--simulated-vision`), the demo must
reach its flagged violation and its winner on the live page: this checks the players' spoken moves
the runner enters, the stabiliser, the session, the events and the page together. A short game read
by a reader slower than the frame rate checks the runner's pacing: it skips what it cannot read in
time and still referees every move.
Through real recognition (the card and token models on every fourth rendered frame, as
`make demo` does on every frame), the Pouches demo must be refereed move for move as it was
played: every move of the script accepted in order, nothing else, its illegal move flagged with
its rule, Cat's win declared.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from calibration.mats import mat_of, zones_of
from referee import layouts
from referee.playthrough import follows, random_playthrough, replay
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


def followed_to_the_end(tmp_path, game: str, **how):
    """Play ``demo:<game>`` into a dashboard game (``start_demo(..., **how)``, unpaced) and check that the
    referee followed it: every entry of the players taken, every state it reached one the script
    reached, in order, ending at the script's final state. Returns the runner's progress, the
    session's moves and the script's legal moves (in notation)."""
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    try:
        runner = start_demo(app, game, paced=False, **how)
        runner.join(timeout=900)
        progress = runner.progress
        assert progress.finished and progress.error is None and not progress.refused, progress.refused
        recorded = runner.source.demo.recorded
        script = [str(recorded.game.actions.parse(line.action)) for line in recorded.lines if line.illegal_rule is None]
        session = runner.live.session
        assert follows(recorded, list(session.moves)), "a state the script never reached, or not its end"
        assert session.state == replay(recorded).states[-1] and session.state.outcome() is not None
        return progress, list(session.moves), script
    finally:
        app.extensions["tableside.games"].close()


def rules_broken(progress, kind: str = "violation") -> list[list[str]]:
    """The rules each violation (or other held problem) of the demo cites, in order."""
    return [[r["rule"] for r in e.payload["readings"][0]["verdict"]["reasons"]] for e in progress.events if e.kind == kind]


def test_the_pouches_demo_is_refereed_through_real_vision_move_for_move_to_its_winner(tmp_path):
    # 1280x720, the models read every 4th frame (2.5 looks a second, as a slow machine keeps up with a camera)
    progress, moves, script = followed_to_the_end(tmp_path, "pouches", every=4)
    assert moves == script  # no move misread, none missed, none made up
    # bob's weapon dropped on the pile under his and cat's tokens: the camera sees it there when the 8S's
    # outline is laid out true; where the tokens hide it, it looks like a bury elsewhere and the players say
    assert set(progress.answered) <= {"discard bob 8S drop"}
    assert rules_broken(progress) == [["pouches-1.9/move/uphill"]]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [(o["winners"], o["rule"]) for o in outcome] == [(["cat"], "pouches-1.9/win/at-once")]


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


def test_the_mongoose_demo_is_refereed_through_real_vision_move_for_move_to_bob_s_win(tmp_path):
    # every 2nd frame (5 looks a second). Ann's and bob's collections are fans of 7 to 9 cards showing
    # ~23 mm of each (indices ~10 px at the far side of the table). Every move is the script's, in order
    # (the cards of a reveal or a discard named in the order the camera found them). Turn 8's discard was
    # once read with a 9D too many in the discards (the discarded 8D's bottom-right corner, read 9D 0.99)
    # and an unknown card in bob's fan (the foot of his JD's picture, read 9D 0.42 by its covered corner)
    progress, moves, script = followed_to_the_end(tmp_path, "mongoose", every=2)
    def cards_in_any_order(move: str) -> str:
        return " ".join(",".join(sorted(word.split(","))) for word in move.split())
    assert [cards_in_any_order(m) for m in moves] == [cards_in_any_order(m) for m in script]
    assert rules_broken(progress) == [] and not [e for e in progress.events if e.kind == "question"]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [o["winners"] for o in outcome] == [["bob"]]


def test_the_deck_town_demo_is_refereed_through_real_vision_move_for_move_to_ann_s_win(tmp_path):
    # every 2nd frame: the deal entered by the players, then every move read from the camera: the town's
    # Decktet cards named from their whole face, the fanned discard pile card by card from the index each
    # shows (one under the top that shows too little is read where the state has it), the pyramids on
    # cards and in the supplies (a red disc printed on the Painter in the pile is no pyramid)
    progress, moves, script = followed_to_the_end(tmp_path, "deck-town", every=2)
    assert moves == script
    assert rules_broken(progress) == [] and not [e for e in progress.events if e.kind == "question"]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [(o["winners"], o["rule"]) for o in outcome] == [(["ann"], "deck-town-1.1/end/poker-block")]
