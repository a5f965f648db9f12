"""The live dashboard in headless Chromium against a real server: what players see and click.

The game is driven as the camera would drive it: snapshots staged from a recorded Pouches game
(tests/webui/recorded_table.py) posted to the API while the page listens to /events.
"""

from __future__ import annotations

import base64
import json
import os
import random
import urllib.request

from playwright.sync_api import expect

from recorded_table import ROOT, commands, frame_jpeg, snapshot_json
from served import running
from referee import playthrough
from referee.log import force
from webui import create_app

FIGHT_BURY = ROOT / "tests" / "referee" / "pouches" / "playthroughs" / "02-fight-bury-1.9.txt"
WAIT_MS = 10_000
TOKEN = "browser-test-token-0123456789"
SCREENSHOTS = os.environ.get("TABLESIDE_SCREENSHOTS")  # a folder to keep pictures of the pages in


def api(url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def test_a_violation_shows_up_is_overruled_undone_and_a_misread_card_relabelled_then_replayed(browser, server):
    server, _ = server
    recorded = commands(FIGHT_BURY, 22)  # up to the @illegal uphill step
    game_id = api(f"{server}/api/games", {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
                                          "players": [{"name": n, "colour": c} for n, c in
                                                      zip(recorded.game.players, ("red", "blue", "green"))]})["id"]
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    for command in recorded.commands:
        body = dict(command.body)
        if command.kind == "snapshot":
            body["frame"] = base64.b64encode(frame_jpeg(command.notation)).decode()
        api(f"{server}/api/games/{game_id}/{command.kind}", body)
    expect(page.locator("#to-move")).to_have_text("ann to move", timeout=WAIT_MS)
    assert page.locator("[data-place='pouch/bob'] .piece.card").inner_text() == "A\u2660"

    step = recorded.stop
    illegal = force(step.before, recorded.game.actions.parse(step.line.action))
    api(f"{server}/api/games/{game_id}/snapshot",
        {"snapshot": snapshot_json(recorded.game, illegal, step.before, random.Random(1), 99.0),
         "frame": base64.b64encode(frame_jpeg("uphill!")).decode()})
    banner = page.locator("#problem-banner.violation")
    banner.wait_for(state="visible", timeout=WAIT_MS)
    assert "Violation" in banner.inner_text() and "move ann 0,1" in banner.inner_text()
    rule = banner.locator("a[href='/rules/pouches-1.9#pouches-1.9/move/uphill']")
    assert rule.inner_text() == "pouches-1.9/move/uphill"
    assert page.locator("#log .event.violation").count() == 1
    shot(page, "live-violation")

    banner.locator("button.overrule").click()
    banner.wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_selector("#log .event.overrule", timeout=WAIT_MS)
    assert "ann" in page.locator("[data-place='tokens/0,1']").inner_text()
    page.click("#undo")
    page.wait_for_selector("#log .event.undo", timeout=WAIT_MS)
    expect(page.locator("[data-place='tokens/-1,1']")).to_contain_text("ann", timeout=WAIT_MS)

    # an unsure reading of ann's token: the players are asked, and confirm the illegal move
    snapshot = snapshot_json(recorded.game, illegal, step.before, random.Random(2), 99.5)
    next(t for t in snapshot["tokens"] if t["label"] == "ann").update(confidence=0.4, alternatives=[["cat", 0.3]])
    api(f"{server}/api/games/{game_id}/snapshot", {"snapshot": snapshot})
    question = page.locator("#problem-banner.question")
    question.wait_for(state="visible", timeout=WAIT_MS)
    assert "unsure recognition" in question.locator("h2").inner_text()
    question.locator("button.choose").click()
    page.locator("#problem-banner.violation").wait_for(state="visible", timeout=WAIT_MS)
    api(f"{server}/api/games/{game_id}/snapshot", recorded.commands[-1].body)  # the table put back
    page.locator("#problem-banner").wait_for(state="hidden", timeout=WAIT_MS)

    # the camera misreads the 6C as a 6D while ann makes the recorded next move: the players relabel it
    after = step.before.apply(recorded.game.actions.parse("move ann -1,2"))
    snapshot = snapshot_json(recorded.game, after, step.before, random.Random(3), 100.0)
    index = next(i for i, card in enumerate(snapshot["cards"]) if card["card"] == "6C")
    snapshot["cards"][index]["card"] = "6D"
    api(f"{server}/api/games/{game_id}/snapshot", {"snapshot": snapshot})
    page.locator("#problem-banner").wait_for(state="visible", timeout=WAIT_MS)
    page.fill("#relabel-sighting", f"cards/{index}")
    page.fill("#relabel-label", "6C")
    page.click("#relabel-form button")
    page.locator("#problem-banner").wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_selector("#log .event.move:has-text('move ann -1,2')", timeout=WAIT_MS)
    assert page.locator("#log .event.correction:has-text('relabel cards/')").count() == 1
    assert page.locator("#command-error").is_hidden()
    page.click("#undo")  # nothing before this move can be undone twice in a row by mistake: it is one move
    expect(page.locator("#log .event.undo")).to_have_count(2, timeout=WAIT_MS)

    # the replay steps through the same game with the picture of each moment
    page.goto(f"{server}/history/{game_id}")
    page.wait_for_selector("#replay[data-shown='1']", timeout=WAIT_MS)
    assert page.locator("#frame").is_hidden()  # the game event has no picture
    page.click("#next")
    page.wait_for_selector("#replay[data-shown='2']", timeout=WAIT_MS)
    assert page.locator("#step-text").inner_text().startswith("accepted reveal heap/0,0 6C")
    assert page.locator("#frame").get_attribute("src") == f"/api/games/{game_id}/frames/000002.jpg"
    assert page.evaluate("document.getElementById('frame').naturalWidth") == 200  # the JPEG really loaded
    assert page.locator("[data-place='heap/0,0']").inner_text() == "6\u2663"
    assert page.locator("[data-place='heap/1,0'] .piece.back").count() == 1  # not revealed yet
    page.click("#last")
    events = api(f"{server}/api/games/{game_id}")["log"]
    page.wait_for_selector(f"#replay[data-shown='{events[-1]['seq']}']", timeout=WAIT_MS)
    assert page.locator("#step-kind").inner_text().lower() == "undo"
    shot(page, "replay")
    page.close()


def test_a_game_started_from_the_page_is_played_to_its_winner_banner(browser, server):
    server, _ = server
    page = browser.new_page()
    page.goto(f"{server}/play")
    page.select_option("#game", "pungo")
    names = page.locator("#seats input.name")
    assert names.count() == 2
    names.nth(0).fill("ann")
    names.nth(1).fill("bob")
    page.click("#start button[type=submit]")
    page.wait_for_url("**/play/*", timeout=WAIT_MS)
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    game_id = page.url.rsplit("/", 1)[1]
    arena = page.locator(".grid[data-group=arena]")
    assert arena.locator(".cell").count() == 12  # Pungo's 3x4 arena, the empty cells drawn too
    assert arena.locator(".cell.empty").count() == 12 - len(api(f"{server}/api/games/{game_id}")["view"]
                                                             .keys() & {f"arena/r{r}c{c}" for r in (1, 2, 3)
                                                                         for c in (1, 2, 3, 4)})
    recorded = playthrough.load(ROOT / "tests" / "referee" / "pungo" / "playthroughs" / "standard-whole-turns.txt")
    for line in recorded.lines:
        api(f"{server}/api/games/{game_id}/enter", {"action": line.action})
    winner = page.locator("#winner")
    winner.wait_for(state="visible", timeout=WAIT_MS)
    assert "ann wins!" in winner.inner_text()
    assert winner.locator("a[href='/rules/pungo#pungo/win/symmetry']").count() == 1
    shot(page, "live-winner")
    page.close()


def test_a_move_said_before_the_table_shows_the_one_it_follows_waits_on_the_page_and_is_played(browser, server):
    server, _ = server
    recorded = commands(FIGHT_BURY, 22)  # the nine reveals, then cat's order, said aloud, ...
    assert recorded.commands[9].body == {"action": "order cat anticlockwise"}
    game_id = api(f"{server}/api/games", {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
                                          "players": list(recorded.game.players)})["id"]
    page = browser.new_page()
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    page.fill("#enter-action", "order cat anticlockwise")  # before the camera has seen the heap turned up
    page.click("#enter-form button[type=submit]")
    waiting = page.locator("#said > li")
    expect(waiting).to_have_count(1, timeout=WAIT_MS)
    assert "order cat anticlockwise" in waiting.inner_text() and waiting.locator("a.rule").count() >= 1
    page.fill("#enter-action", "order bob clockwise")  # a second thought, taken back
    page.click("#enter-form button[type=submit]")
    expect(waiting).to_have_count(2, timeout=WAIT_MS)
    waiting.nth(1).locator("button.unsay").click()
    expect(waiting).to_have_count(1, timeout=WAIT_MS)
    for command in recorded.commands[:9]:  # the camera catches up: the order is played after the reveals
        api(f"{server}/api/games/{game_id}/{command.kind}", command.body)
    expect(page.locator("#said-box")).to_be_hidden(timeout=WAIT_MS)
    expect(page.locator("#to-move")).to_have_text("cat to move", timeout=WAIT_MS)
    page.close()


def test_the_start_page_shows_what_is_wrong(browser, server):
    server, _ = server
    page = browser.new_page()
    page.goto(f"{server}/play")
    page.select_option("#game", "pungo")
    page.locator("#seats input.name").nth(1).fill("ann")
    page.click("#start button[type=submit]")
    expect(page.locator("#problem")).to_contain_text("player names must differ", timeout=WAIT_MS)
    page.close()


def test_beyond_localhost_a_command_without_the_token_is_refused(browser, tmp_path):
    app = create_app({"TESTING": True, "ACCESS_TOKEN": TOKEN}, instance_path=str(tmp_path / "instance"))
    with running(app) as base:
        context = browser.new_context()
        page = context.new_page()
        response = page.goto(f"{base}/play")
        assert response.status == 401 and "access token" in page.locator("[role=alert]").inner_text()
        page.goto(f"{base}/?token={TOKEN}")
        assert page.url == f"{base}/"  # the token went into a cookie, out of the address bar
        page.goto(f"{base}/play")
        created = page.evaluate("postJSON('/api/games', {game: 'pungo', players: ['ann', 'bob']})")
        assert created["status"] == 201
        context.clear_cookies()
        refused = page.evaluate("postJSON('/api/games', {game: 'pungo', players: ['ann', 'bob']})")
        assert refused["status"] == 401 and "access token" in refused["data"]["error"]
        assert len(list(app.extensions["tableside.games"].folder.glob("*.sqlite"))) == 1
        context.close()
    app.extensions["tableside.games"].close()
