"""The live game API through Flask's test client, with real sessions, real layouts and real SQLite logs.

Games are driven by snapshots staged from recorded playthroughs (tests/webui/recorded_table.py), so
every verdict below is the real referee's. Server-sent events and the MJPEG stream need a real
server: those tests start one in a thread.
"""

from __future__ import annotations

import base64
import json
import random
import urllib.error
import urllib.request

import pytest

from served import running
from recorded_table import ROOT, commands, frame_jpeg, snapshot_json
from referee.log import PlaythroughLog, force, replay
from webui import create_app

FIGHT_BURY = ROOT / "tests" / "referee" / "pouches" / "playthroughs" / "02-fight-bury-1.9.txt"
UPHILL_LINE = 22  # "@illegal move ann 0,1 | pouches-1.9/move/uphill"
SAME_ORIGIN = {"Origin": "http://localhost"}


@pytest.fixture(scope="module")
def recorded():
    return commands(FIGHT_BURY, UPHILL_LINE)


def post(client, path, body=None, **kwargs):
    headers = {**SAME_ORIGIN, **kwargs.pop("headers", {})}
    if body is None and "data" not in kwargs:
        return client.post(path, headers=headers, **kwargs)
    if "data" in kwargs:
        return client.post(path, headers=headers, **kwargs)
    return client.post(path, json=body, headers=headers, **kwargs)


def start(client, recorded, **extra) -> str:
    body = {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
            "players": [{"name": name, "seat": i} for i, name in enumerate(recorded.game.players)], **extra}
    response = post(client, "/api/games", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def play_until_the_uphill_step(client, game_id, recorded, frames=True):
    for command in recorded.commands:
        body = dict(command.body)
        if frames and command.kind == "snapshot":
            body["frame"] = base64.b64encode(frame_jpeg(command.notation)).decode()
        response = post(client, f"/api/games/{game_id}/{command.kind}", body)
        assert response.status_code == 200, (command.line, response.get_json())
        assert "move" in [e["kind"] for e in response.get_json()["events"]], command.line


def illegal_uphill_snapshot(recorded) -> dict:
    step = recorded.stop
    return snapshot_json(recorded.game, force(step.before, recorded.game.actions.parse(step.line.action)),
                         step.before, random.Random(1), 99.0)


def kinds(response):
    return [e["kind"] for e in response.get_json()["events"]]


# ---------------------------------------------------------------- starting a game

def test_a_started_game_has_its_log_its_players_and_the_view_the_camera_should_see(client, app, recorded):
    game_id = start(client, recorded, players=[{"name": "ann", "seat": 0, "colour": "red"}, {"name": "bob", "seat": 1},
                                               {"name": "cat", "seat": 2, "colour": "#00aa00"}])
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["game"] == {"game": "pouches", "edition": "1.9", "players": ["ann", "bob", "cat"],
                             "options": state["game"]["options"]}
    assert [(p["name"], p["seat"], p["colour"]) for p in state["players"]] == [
        ("ann", 0, "red"), ("bob", 1, None), ("cat", 2, "#00aa00")]
    assert state["to_move"] == "table"  # the heap's top cards are still to be revealed
    assert state["view"]["tokens/-1,1"] == ["ann"] and state["pending"] is None and state["outcome"] is None
    assert [e["kind"] for e in state["log"]] == ["start"] and state["last_seq"] == 1
    log_path = app.extensions["tableside.games"].log_path(game_id)
    assert log_path.is_file() and PlaythroughLog.open(log_path, readonly=True).events()[0].kind == "game"


def test_seats_order_the_players_whatever_order_they_are_listed_in(client, recorded):
    game_id = start(client, recorded, players=[{"name": "cat", "seat": 2}, {"name": "ann", "seat": 0},
                                               {"name": "bob", "seat": 1}])
    assert client.get(f"/api/games/{game_id}").get_json()["game"]["players"] == ["ann", "bob", "cat"]


@pytest.mark.parametrize("body,status,message", [
    ({"game": "chess", "players": ["ann", "bob"]}, 400, "no game named 'chess'"),
    ({"game": "pungo", "players": ["ann"]}, 400, "Pungo is for 2 players, got 1"),
    ({"game": "pungo", "players": "ann,bob"}, 400, "players is a list"),
    ({"game": "pungo", "players": [{"name": "ann", "seat": 0}, {"name": "bob", "seat": 0}]}, 400,
     "seats are numbered 0 to 1, each once"),
    ({"game": "pungo", "players": [{"name": "ann", "seat": "first"}, "bob"]}, 400, "seat is a whole number"),
    ({"game": "pungo", "players": ["ann", {"name": "bob", "colour": "url(x)"}]}, 400, "colour is a colour name"),
    ({"game": "pungo", "players": ["ann", "ann"]}, 400, "player names must differ"),
    ({"game": "pungo", "players": ["ann", "bob"], "options": {"arena": "9x9"}}, 400, "arena"),
    ({"game": "pungo", "players": ["ann", "bob"], "options": ["arena"]}, 400, "options is an object"),
    ({"game": 3, "players": ["ann", "bob"]}, 400, "game is text, got a number"),
    ({"players": ["ann", "bob"]}, 400, "game is required"),
    ({"game": "pungo", "players": ["ann", "bob"], "colour": "red"}, 400, "unknown field colour"),
    ({"game": "pouches", "edition": "1.9", "players": ["ann", "bob"], "setup": {"first": "zed"}}, 400, "setup"),
])
def test_a_game_that_cannot_start_says_why_and_leaves_nothing_behind(client, app, body, status, message):
    response = post(client, "/api/games", body)
    assert response.status_code == status
    assert message in response.get_json()["error"]
    folder = app.extensions["tableside.games"].folder
    assert not folder.exists() or not list(folder.glob("*.sqlite"))


@pytest.mark.parametrize("data,content_type,status,message", [
    ("{not json", "application/json", 400, "the body is not valid JSON at line 1 column 2"),
    ("[1, 2]", "application/json", 400, "the body must be a JSON object, got a list"),
    ('"pungo"', "application/json", 400, "got text"),
    ("", "application/json", 400, "the request has no body"),
    ("game=pungo", "application/x-www-form-urlencoded", 415, "Content-Type: application/json"),
    ('{"game": "pungo"}', "text/plain", 415, "not text/plain"),
    (b"\xff\xfe{", "application/json", 400, "the body is not valid JSON"),
])
def test_malformed_bodies_are_refused_with_a_clear_message(client, data, content_type, status, message):
    response = post(client, "/api/games", data=data, content_type=content_type)
    assert response.status_code == status and response.is_json
    assert message in response.get_json()["error"]


def test_an_oversized_body_is_refused_413(client):
    response = post(client, "/api/games", data="x" * 1_100_000, content_type="application/json")
    assert response.status_code == 413 and response.is_json


@pytest.mark.parametrize("path", ["/api/games/20260101-0000-pungo-ffff", "/api/games/NOT..AN..ID",
                                  "/api/games/20260101-0000-pungo-ffff/frame.jpg"])
def test_an_unknown_game_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "no game" in response.get_json()["error"]


@pytest.mark.parametrize("command", ["snapshot", "relabel", "choose", "enter", "overrule", "undo"])
def test_commands_to_an_unknown_game_are_404(client, command):
    response = post(client, f"/api/games/20260101-0000-pungo-ffff/{command}", {})
    assert response.status_code == 404 and "no game '20260101-0000-pungo-ffff'" in response.get_json()["error"]


# ---------------------------------------------------------------- refereeing through the API

def test_snapshots_drive_the_game_and_a_violation_cites_its_rule_until_the_table_is_put_back(client, recorded):
    game_id = start(client, recorded)
    play_until_the_uphill_step(client, game_id, recorded)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["to_move"] == "ann" and state["view"]["pouch/bob"] == ["AS"]
    assert state["moves"][-2:] == ["pick bob 2,1", "reveal pouch/bob AS"]

    response = post(client, f"/api/games/{game_id}/snapshot", {"snapshot": illegal_uphill_snapshot(recorded)})
    assert response.status_code == 200 and kinds(response) == ["violation"]
    pending = response.get_json()["state"]["pending"]
    assert pending["kind"] == "violation" and pending["readings"][0]["notation"] == "move ann 0,1"
    reason = pending["readings"][0]["reasons"][0]
    assert reason["rule"] == "pouches-1.9/move/uphill"
    assert reason["url"] == "/rules/pouches-1.9#pouches-1.9/move/uphill" and reason["statement"]
    assert client.get(reason["url"].split("#")[0]).status_code == 200

    put_back = recorded.commands[-1].body  # the table as it was before the illegal step
    response = post(client, f"/api/games/{game_id}/snapshot", put_back)
    assert kinds(response) == ["resolved"] and response.get_json()["state"]["pending"] is None


def test_overrule_plays_the_violation_and_undo_takes_it_back(client, recorded):
    game_id = start(client, recorded)
    play_until_the_uphill_step(client, game_id, recorded, frames=False)
    assert post(client, f"/api/games/{game_id}/overrule").status_code == 409  # nothing held yet
    post(client, f"/api/games/{game_id}/snapshot", {"snapshot": illegal_uphill_snapshot(recorded)})
    assert post(client, f"/api/games/{game_id}/overrule", {"index": 3}).status_code == 409
    response = post(client, f"/api/games/{game_id}/overrule", {})
    assert response.status_code == 200 and kinds(response) == ["overrule"]
    assert response.get_json()["state"]["view"]["tokens/0,1"] == ["ann"]
    response = post(client, f"/api/games/{game_id}/undo")
    assert kinds(response) == ["undo"] and response.get_json()["events"][0]["payload"]["notation"] == "move ann 0,1"
    assert response.get_json()["state"]["view"]["tokens/-1,1"] == ["ann"]


def test_a_misread_card_is_corrected_by_relabelling_it(client, recorded):
    game_id = start(client, recorded)
    play_until_the_uphill_step(client, game_id, recorded, frames=False)
    step = recorded.stop
    after = step.before.apply(recorded.game.actions.parse("move ann -1,2"))  # the recorded next move
    snapshot = snapshot_json(recorded.game, after, step.before, random.Random(3), 50.0)
    index = next(i for i, card in enumerate(snapshot["cards"]) if card["card"] == "6C")
    snapshot["cards"][index]["card"] = "6D"  # the camera misreads the 6C at heap/0,0
    response = post(client, f"/api/games/{game_id}/snapshot", {"snapshot": snapshot})
    assert "move" not in kinds(response) and response.get_json()["state"]["pending"] is not None

    response = post(client, f"/api/games/{game_id}/relabel", {"sighting": f"cards/{index}", "label": "6C"})
    assert response.status_code == 200
    assert kinds(response) == ["correction", "resolved", "move"]
    assert response.get_json()["events"][-1]["payload"]["notation"] == "move ann -1,2"
    assert response.get_json()["state"]["pending"] is None


def unsure_uphill_snapshot(recorded) -> dict:
    """The illegal uphill step, with ann's token read below the confidence threshold (maybe cat's)."""
    snapshot = illegal_uphill_snapshot(recorded)
    ann = next(token for token in snapshot["tokens"] if token["label"] == "ann")
    ann.update(confidence=0.4, alternatives=[["cat", 0.3]])
    return snapshot


def test_an_unsure_reading_is_a_question_the_players_answer(client, recorded):
    game_id = start(client, recorded)
    play_until_the_uphill_step(client, game_id, recorded, frames=False)
    response = post(client, f"/api/games/{game_id}/snapshot", {"snapshot": unsure_uphill_snapshot(recorded)})
    assert kinds(response) == ["question"]
    pending = response.get_json()["state"]["pending"]
    assert pending["why"] == "unsure recognition, and every reading is illegal"
    assert [r["notation"] for r in pending["readings"]] == ["move ann 0,1"]
    refused = post(client, f"/api/games/{game_id}/choose", {"index": 1})
    assert refused.status_code == 409 and "readings 0 to 0" in refused.get_json()["error"]
    response = post(client, f"/api/games/{game_id}/choose", {"index": 0})
    assert kinds(response) == ["correction", "violation"]  # the players confirm it: an illegal move
    assert response.get_json()["state"]["pending"]["kind"] == "violation"


@pytest.mark.parametrize("body,status,message", [
    ({"sighting": "cards/999", "label": "6C"}, 409, "there is no cards/999"),
    ({"sighting": "hands/1", "label": "6C"}, 409, "name a sighting as <kind>/<index>"),
    ({"sighting": "cards/0"}, 400, "label is required"),
    ({"sighting": "cards/0", "label": 6}, 400, "label is text"),
    ({"sighting": "cards/0", "label": "   "}, 400, "label is empty"),
    ({"sighting": "cards/0", "label": "6C", "why": "x"}, 400, "unknown field why"),
])
def test_relabel_refuses_what_it_cannot_do(client, recorded, body, status, message):
    game_id = start(client, recorded)
    post(client, f"/api/games/{game_id}/snapshot", recorded.commands[0].body)
    response = post(client, f"/api/games/{game_id}/relabel", body)
    assert response.status_code == status and message in response.get_json()["error"]


def test_relabel_before_any_snapshot_is_a_conflict(client, recorded):
    game_id = start(client, recorded)
    response = post(client, f"/api/games/{game_id}/relabel", {"sighting": "cards/0", "label": "6C"})
    assert response.status_code == 409 and "no snapshot" in response.get_json()["error"]


def test_enter_plays_an_unseen_move_refuses_an_illegal_one_and_parses_notation(client, recorded):
    game_id = start(client, recorded)
    for command in recorded.commands[:9]:  # the nine reveals
        post(client, f"/api/games/{game_id}/{command.kind}", command.body)
    assert recorded.commands[9].body == {"action": "order cat anticlockwise"}  # said aloud: nothing to see
    response = post(client, f"/api/games/{game_id}/enter", recorded.commands[9].body)
    assert kinds(response) == ["correction", "move"] and response.get_json()["state"]["to_move"] == "cat"
    post(client, f"/api/games/{game_id}/snapshot", recorded.commands[10].body)  # move cat 1,2
    response = post(client, f"/api/games/{game_id}/enter", {"action": "order ann clockwise"})
    assert response.status_code == 422
    body = response.get_json()
    assert "overrule: true" in body["error"] and body["verdict"]["legal"] is False
    assert body["verdict"]["reasons"][0]["rule"] == "pouches-1.9/turn/declare"
    assert body["verdict"]["reasons"][0]["url"] == "/rules/pouches-1.9#pouches-1.9/turn/declare"
    unknown = post(client, f"/api/games/{game_id}/enter", {"action": "fly ann"})
    assert unknown.status_code == 400 and unknown.get_json()["error"].startswith("action:")
    wrong_type = post(client, f"/api/games/{game_id}/enter", {"action": "order cat", "overrule": "yes"})
    assert wrong_type.status_code == 400 and "overrule is true or false" in wrong_type.get_json()["error"]
    assert client.get(f"/api/games/{game_id}").get_json()["moves"][-1] == "move cat 1,2"  # nothing changed


def test_a_move_said_with_wait_waits_for_the_table_and_can_be_taken_back(client, recorded):
    game_id = start(client, recorded)
    said = post(client, f"/api/games/{game_id}/enter", {**recorded.commands[9].body, "wait": True})
    assert said.status_code == 200 and kinds(said) == ["correction"]  # the heap is not turned up yet
    waiting = said.get_json()["state"]["said"]
    assert [(w["notation"], w["legal"]) for w in waiting] == [("order cat anticlockwise", False)]
    assert [r["rule"] for r in waiting[0]["reasons"]] == ["pouches-1.9/setup/reveal"]
    assert waiting[0]["reasons"][0]["url"] == "/rules/pouches-1.9#pouches-1.9/setup/reveal"
    for command in recorded.commands[:9]:  # the nine reveals: the order is played after the last
        last = post(client, f"/api/games/{game_id}/{command.kind}", command.body)
    assert [e["kind"] for e in last.get_json()["events"]][-3:] == ["move", "correction", "move"]
    assert last.get_json()["state"]["said"] == [] and last.get_json()["state"]["to_move"] == "cat"
    assert client.get(f"/api/games/{game_id}").get_json()["moves"][-1] == "order cat anticlockwise"
    again = post(client, f"/api/games/{game_id}/enter", {"action": "order ann clockwise", "wait": True})
    seq = again.get_json()["state"]["said"][0]["seq"]
    taken = post(client, f"/api/games/{game_id}/unsay", {"said": seq})
    assert taken.status_code == 200 and kinds(taken) == ["correction"] and taken.get_json()["state"]["said"] == []
    assert post(client, f"/api/games/{game_id}/unsay", {"said": seq}).status_code == 409
    assert post(client, f"/api/games/{game_id}/unsay", {"said": "1"}).status_code == 400
    both = post(client, f"/api/games/{game_id}/enter", {"action": "order ann clockwise", "wait": True, "overrule": True})
    assert both.status_code == 400 and "choose one" in both.get_json()["error"]


def test_choose_without_a_question_is_a_conflict_and_index_must_be_a_number(client, recorded):
    game_id = start(client, recorded)
    assert post(client, f"/api/games/{game_id}/choose", {"index": 0}).status_code == 409
    response = post(client, f"/api/games/{game_id}/choose", {"index": "0"})
    assert response.status_code == 400 and "index is a whole number" in response.get_json()["error"]
    assert post(client, f"/api/games/{game_id}/choose", {"index": True}).status_code == 400


@pytest.mark.parametrize("body,message", [
    ({}, "snapshot is required"),
    ({"snapshot": {"cards": []}}, "snapshot:"),
    ({"snapshot": {"t": "soon"}}, "snapshot:"),
    ({"snapshot": {"t": 1.0, "cards": [{"card": "ZZ"}]}}, "snapshot:"),
    ({"snapshot": {"t": 1.0}, "frame": "not base64!"}, "frame is not valid base64"),
    ({"snapshot": {"t": 1.0}, "frame": base64.b64encode(b"GIF89a....").decode()}, "frame is not a JPEG"),
    ({"snapshot": {"t": 1.0}, "frame": 12}, "frame is a JPEG picture encoded as base64"),
])
def test_a_bad_snapshot_is_refused_and_changes_nothing(client, recorded, body, message):
    game_id = start(client, recorded)
    response = post(client, f"/api/games/{game_id}/snapshot", body)
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert client.get(f"/api/games/{game_id}").get_json()["last_seq"] == 1


def test_frames_the_latest_picture_and_each_events_picture(client, recorded):
    game_id = start(client, recorded)
    assert client.get(f"/api/games/{game_id}/frame.jpg").status_code == 404
    first, second = recorded.commands[0], recorded.commands[1]
    for command in (first, second):
        post(client, f"/api/games/{game_id}/snapshot",
             {**command.body, "frame": base64.b64encode(frame_jpeg(command.notation)).decode()})
    latest = client.get(f"/api/games/{game_id}/frame.jpg")
    assert latest.status_code == 200 and latest.mimetype == "image/jpeg"
    assert latest.data == frame_jpeg(second.notation)
    log = client.get(f"/api/games/{game_id}").get_json()["log"]
    assert log[1]["frame"] == f"/api/games/{game_id}/frames/000002.jpg"
    assert client.get(log[1]["frame"]).data == frame_jpeg(first.notation)
    assert client.get(f"/api/games/{game_id}/frames/..%2f..%2fx.jpg").status_code == 404
    assert client.get(f"/api/games/{game_id}/frames/000099.jpg").status_code == 404


def test_a_game_survives_a_server_restart(tmp_path, recorded):
    instance = str(tmp_path / "instance")
    first = create_app({"TESTING": True}, instance_path=instance)
    game_id = start(first.test_client(), recorded)
    play_until_the_uphill_step(first.test_client(), game_id, recorded, frames=False)
    first.extensions["tableside.games"].close()
    again = create_app({"TESTING": True}, instance_path=instance)
    state = again.test_client().get(f"/api/games/{game_id}").get_json()
    assert state["to_move"] == "ann" and state["moves"][-1] == "reveal pouch/bob AS"
    assert state["view"] == recorded.stop.before.view().to_json()
    again.extensions["tableside.games"].close()


def test_live_games_are_listed(client, recorded):
    game_id = start(client, recorded)
    listed = client.get("/api/games").get_json()
    assert [g["id"] for g in listed] == [game_id] and listed[0]["title"] == "Pouches of Destiny"


# ---------------------------------------------------------------- a real server: events and video

@pytest.fixture
def server(app):
    with running(app) as url:
        yield url


def http_post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def sse_events(response, count):
    """Read ``count`` data events from an open text/event-stream response."""
    out, data = [], []
    while len(out) < count:
        line = response.readline().decode().rstrip("\n")
        if line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and data:
            out.append(json.loads("\n".join(data)))
            data = []
    return out


def test_events_stream_every_event_with_its_public_kind(server, recorded):
    game_id = http_post(f"{server}/api/games", {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
                                                "players": list(recorded.game.players)})["id"]
    with urllib.request.urlopen(f"{server}/events?game={game_id}&since=0", timeout=10) as stream:
        assert stream.headers.get_content_type() == "text/event-stream"
        assert [e["kind"] for e in sse_events(stream, 1)] == ["start"]  # the log so far, from since=0
        http_post(f"{server}/api/games/{game_id}/{recorded.commands[0].kind}", recorded.commands[0].body)
        move, = sse_events(stream, 1)
        assert move["kind"] == "move" and move["log_kind"] == "action" and move["game"] == game_id
        assert move["seq"] == 2 and move["payload"]["notation"] == "reveal heap/0,0 6C"
        assert move["text"].startswith("accepted reveal heap/0,0 6C")
    with urllib.request.urlopen(f"{server}/events", timeout=10) as every_game:
        http_post(f"{server}/api/games/{game_id}/enter", {"action": "reveal heap/1,0 7C"})
        correction, move = sse_events(every_game, 2)
    assert (correction["kind"], move["kind"]) == ("correction", "move") and move["game"] == game_id


def test_events_for_an_unknown_game_or_a_bad_since_are_refused(server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server}/events?game=nope-0000", timeout=10)
    assert refused.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server}/events?since=3", timeout=10)
    assert refused.value.code == 400


def test_video_streams_the_latest_frames_as_mjpeg(server, recorded):
    game_id = http_post(f"{server}/api/games", {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
                                                "players": list(recorded.game.players)})["id"]
    picture = frame_jpeg("hello")
    http_post(f"{server}/api/games/{game_id}/snapshot",
              {**recorded.commands[0].body, "frame": base64.b64encode(picture).decode()})
    with urllib.request.urlopen(f"{server}/video/{game_id}", timeout=10) as video:
        assert video.headers.get_content_type() == "multipart/x-mixed-replace"
        assert video.readline() == b"--frame\r\n"
        assert video.readline() == b"Content-Type: image/jpeg\r\n"
        length = int(video.readline().split(b":")[1])
        video.readline()
        assert video.read(length) == picture


def test_the_log_written_through_the_api_replays_to_the_same_state(client, app, recorded):
    game_id = start(client, recorded)
    play_until_the_uphill_step(client, game_id, recorded, frames=False)
    path = app.extensions["tableside.games"].log_path(game_id)
    with PlaythroughLog.open(path, readonly=True) as log:
        assert replay(log.events()).state == recorded.stop.before


def test_a_reconnecting_browser_resumes_after_the_last_event_it_got(server, recorded):
    game_id = http_post(f"{server}/api/games", {"game": "pouches", "edition": "1.9", "setup": recorded.setup,
                                                "players": list(recorded.game.players)})["id"]
    for command in recorded.commands[:3]:
        http_post(f"{server}/api/games/{game_id}/{command.kind}", command.body)
    request = urllib.request.Request(f"{server}/events?game={game_id}&since=0", headers={"Last-Event-ID": "2"})
    with urllib.request.urlopen(request, timeout=10) as stream:
        assert [e["seq"] for e in sse_events(stream, 2)] == [3, 4]
