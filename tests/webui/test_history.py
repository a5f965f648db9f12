"""Past games: the list, the state at each event, export and import, statistics. Real logs, written
by real sessions through the API (recorded Pungo games entered move by move)."""

from __future__ import annotations

import json
import re

import pytest

from recorded_table import ROOT
from referee import playthrough

PUNGO = ROOT / "tests" / "referee" / "pungo" / "playthroughs"
SAME_ORIGIN = {"Origin": "http://localhost"}


def play(client, name: str, moves: int | None = None) -> tuple[str, playthrough.Playthrough]:
    """Start the recorded game ``name`` and enter its moves by hand (all of them, or the first ``moves``)."""
    recorded = playthrough.load(PUNGO / name)
    game = recorded.game
    response = client.post("/api/games", json={"game": "pungo", "players": list(game.players),
                                               "options": dict(game.option_values)}, headers=SAME_ORIGIN)
    game_id = response.get_json()["id"]
    lines = [line for line in recorded.lines if line.illegal_rule is None][:moves]
    for line in lines:
        response = client.post(f"/api/games/{game_id}/enter", json={"action": line.action}, headers=SAME_ORIGIN)
        assert response.status_code == 200, (line.action, response.get_json())
    return game_id, recorded


@pytest.fixture
def three_games(client):
    """ann wins one, bob wins one, one is left unfinished."""
    ann_wins, _ = play(client, "standard-whole-turns.txt")
    bob_wins, _ = play(client, "pyramid-die.txt")
    unfinished, _ = play(client, "standard-symmetry.txt", moves=2)
    return ann_wins, bob_wins, unfinished


def test_the_history_lists_every_game_with_players_result_and_length(client, three_games):
    ann_wins, bob_wins, unfinished = three_games
    listed = {p["id"]: p for p in client.get("/api/history").get_json()}
    assert set(listed) == set(three_games)
    assert listed[ann_wins]["winners"] == ["ann"] and listed[ann_wins]["result"].startswith("ann won")
    assert listed[ann_wins]["moves"] == 5 and listed[ann_wins]["players"] == ["ann", "bob"]
    assert listed[bob_wins]["winners"] == ["bob"]
    assert listed[unfinished]["winners"] is None and listed[unfinished]["result"].startswith("not finished")
    assert listed[unfinished]["moves"] == 2
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", p["started"]) for p in listed.values())
    html = client.get("/history").get_data(as_text=True)
    for game_id in three_games:
        assert f'href="/history/{game_id}"' in html and f'href="/history/{game_id}/export.jsonl"' in html
    assert "ann won" in html and "bob won" in html


def test_the_state_after_each_event_steps_through_the_game(client, three_games):
    ann_wins = three_games[0]
    recorded = playthrough.load(PUNGO / "standard-whole-turns.txt")
    states = playthrough.replay(recorded).states
    events = client.get(f"/api/games/{ann_wins}").get_json()["log"]
    moves = [e for e in events if e["kind"] == "move"]
    assert len(moves) == 5
    for number, move in enumerate(moves, start=1):
        at = client.get(f"/api/history/{ann_wins}/at/{move['seq']}").get_json()
        assert at["view"] == states[number].view().to_json(), number
        assert len(at["moves"]) == number
    assert client.get(f"/api/history/{ann_wins}/at/1").get_json()["view"] == states[0].view().to_json()
    last = client.get(f"/api/history/{ann_wins}/at/{events[-1]['seq']}").get_json()
    assert last["outcome"]["winners"] == ["ann"]
    assert client.get(f"/api/history/{ann_wins}/at/{len(events) + 1}").status_code == 404
    assert client.get("/api/history/no-such-game/at/1").status_code == 404
    page = client.get(f"/history/{ann_wins}").get_data(as_text=True)
    steps = json.loads(re.search(r'<script id="steps" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert [s["seq"] for s in steps] == [e["seq"] for e in events]


def test_an_export_imports_back_as_the_same_game(client, three_games):
    ann_wins = three_games[0]
    export = client.get(f"/history/{ann_wins}/export.jsonl")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    assert f'filename="{ann_wins}.jsonl"' in export.headers["Content-Disposition"]
    lines = export.get_data(as_text=True).splitlines()
    assert json.loads(lines[0]) == {"format": "tableside-playthrough", "version": 1}
    imported = client.post("/api/history/import", data=export.data, content_type="application/x-ndjson",
                           headers=SAME_ORIGIN)
    assert imported.status_code == 201
    new_id = imported.get_json()["id"]
    assert imported.get_json()["events"] == len(lines) - 1
    listed = {p["id"]: p for p in client.get("/api/history").get_json()}
    assert listed[new_id]["winners"] == ["ann"] and listed[new_id]["moves"] == 5
    again = client.get(f"/history/{new_id}/export.jsonl").get_data(as_text=True).splitlines()
    assert again == lines  # every event kept as it was: numbers, times, payloads


@pytest.mark.parametrize("body,content_type,status,message", [
    (b"", "application/x-ndjson", 400, "the body is empty"),
    (b'{"format": "something-else"}\n', "application/x-ndjson", 400, "not a Tableside playthrough header"),
    (b'{"format": "tableside-playthrough", "version": 1}\n{not json\n', "application/x-ndjson", 400,
     "line 2 (event 1) is not valid JSON"),
    (b'{"format": "tableside-playthrough", "version": 1}\n', "application/json", 415, "application/x-ndjson"),
])
def test_a_bad_import_says_why_and_leaves_nothing_behind(client, app, body, content_type, status, message):
    response = client.post("/api/history/import", data=body, content_type=content_type, headers=SAME_ORIGIN)
    assert response.status_code == status and message in response.get_json()["error"]
    assert "/tmp" not in response.get_json()["error"]  # the server's scratch paths are not shown
    folder = app.extensions["tableside.games"].folder
    assert not folder.exists() or not list(folder.glob("imported-*"))


def test_an_import_the_rules_refuse_is_refused(client, three_games):
    lines = client.get(f"/history/{three_games[0]}/export.jsonl").get_data(as_text=True).splitlines()
    first, second = json.loads(lines[3]), json.loads(lines[5])  # entered by hand: correction, action, ...
    assert (first["kind"], second["kind"], second["seq"]) == ("action", "action", 5)
    second["payload"]["action"] = first["payload"]["action"]  # ann's first turn again, in bob's turn
    lines[5] = json.dumps(second)
    response = client.post("/api/history/import", data="\n".join(lines).encode(),
                           content_type="application/x-ndjson", headers=SAME_ORIGIN)
    assert response.status_code == 400 and "event 5 (action): the rules refuse" in response.get_json()["error"]


def test_statistics_count_wins_per_player_and_game_length(client, three_games):
    stats = client.get("/api/history/stats").get_json()
    pyramid_die = playthrough.load(PUNGO / "pyramid-die.txt")
    moves = len([line for line in pyramid_die.lines if line.illegal_rule is None])
    assert stats["games"]["Pungo"] == {"plays": 3, "finished": 2, "average_moves": round((5 + moves) / 2, 1),
                                       "average_minutes": stats["games"]["Pungo"]["average_minutes"]}
    assert stats["players"]["Pungo"] == {"ann": {"played": 2, "won": 1}, "bob": {"played": 2, "won": 1}}
    html = client.get("/history/stats").get_data(as_text=True)
    assert html.count("<svg") == 2  # game lengths, and Pungo's wins per player
    assert f"{round((5 + moves) / 2, 1)} moves" in html and "1 of 2" in html


def test_a_damaged_log_is_listed_with_its_problem(client, app, three_games):
    folder = app.extensions["tableside.games"].folder
    (folder / "20260101-0000-pungo-dead.sqlite").write_bytes(b"this is not a database")
    listed = {p["id"]: p for p in client.get("/api/history").get_json()}
    assert "not a readable playthrough log" in listed["20260101-0000-pungo-dead"]["problem"]
    assert "the log is damaged" in client.get("/history").get_data(as_text=True)
    assert client.get("/history/stats").status_code == 200
