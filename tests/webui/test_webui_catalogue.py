"""The catalogue pages and JSON API, through Flask's test client (and once through a real server)."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request

import pytest
from werkzeug.serving import make_server

from referee import decktet, games
from referee.game import Dynamics, Edition, GameType, Information, Option, State
from webui import ConfigError, create_app
from webui.server import ServerError, serve


@pytest.fixture
def sample_registry(monkeypatch):
    """Two made-up games, so the pages are checked whatever the real registry holds today."""
    registry = games.Registry()
    registry.register(GameType(
        name="sample", title="Sample Game",
        editions=(Edition("2.0", "Sample Game 2.0", "sample-2.0.md"), Edition("1.0", "Sample Game 1.0", "sample-1.0.md")),
        min_players=2, max_players=5, dynamics=Dynamics.SIMULTANEOUS, information=Information.IMPERFECT,
        pieces="standard deck, a token per player",
        options=(Option("advanced", "play with the advanced rules", False, editions=("2.0",)),
                 Option("arena", "size of the play area", "3x3", choices=("3x3", "3x4"))),
    ), State)  # any state class marks the game as refereed
    registry.register(GameType(
        name="duel", title="Duel", editions=(Edition("1", "Duel", "duel.txt"),),
        min_players=2, max_players=2, dynamics=Dynamics.SEQUENTIAL, information=Information.PERFECT,
        pieces="9 pyramids",
    ))
    monkeypatch.setattr(games, "registry", lambda: registry)
    return registry


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


def test_home_says_what_tableside_is_and_links_the_catalogue(client):
    html = page(client, "/")
    assert "<h1>Tableside</h1>" in html
    for link in ('href="/play"', 'href="/history"', 'href="/games"', 'href="/pieces"', 'href="/api/catalogue/games"'):
        assert link in html
    assert 'href="/static/style.css"' in html


def test_stylesheet_is_served_locally(client):
    with client.get("/static/style.css") as response:  # a file response: close it
        assert response.status_code == 200
        assert "font" in response.get_data(as_text=True)


def test_games_page_lists_every_registered_game(client):
    html = page(client, "/games")
    registered = games.types()
    for game_type in registered:
        assert game_type.title in html
    if not registered:
        assert "No games are registered yet" in html


def test_games_page_shows_editions_players_options_and_referee_status(client, sample_registry):
    html = page(client, "/games")
    assert 'id="sample"' in html and 'id="duel"' in html
    assert "Sample Game 2.0" in html and "sample-1.0.md" in html
    assert "2–5" in html and "simultaneous" in html and "imperfect" in html
    assert "standard deck, a token per player" in html
    assert "play with the advanced rules" in html and "3x3 | 3x4" in html and "yes | no" in html
    assert html.count("<code>advanced</code>") == 1  # only in edition 2.0
    assert html.count("<code>arena</code>") == 2  # in both editions
    assert html.count(">refereed</span>") == 1
    assert "described, not refereed yet" in html


def test_api_games_matches_the_registry(client):
    data = client.get("/api/catalogue/games").get_json()
    assert [g["name"] for g in data] == [t.name for t in games.types()]
    for entry in data:
        assert entry["refereed"] == games.registry().is_refereed(entry["name"])


def test_api_games_describes_each_game(client, sample_registry):
    data = {g["name"]: g for g in client.get("/api/catalogue/games").get_json()}
    assert set(data) == {"sample", "duel"}
    sample = data["sample"]
    assert sample["title"] == "Sample Game"
    assert sample["editions"][0] == {"name": "2.0", "title": "Sample Game 2.0", "source": "sample-2.0.md"}
    assert (sample["min_players"], sample["max_players"]) == (2, 5)
    assert (sample["dynamics"], sample["information"]) == ("simultaneous", "imperfect")
    assert sample["refereed"] is True and data["duel"]["refereed"] is False
    assert sample["options"][0] == {"name": "advanced", "help": "play with the advanced rules",
                                    "default": False, "choices": [], "editions": ["2.0"]}
    assert sample["options"][1]["choices"] == ["3x3", "3x4"]
    assert data["duel"]["options"] == []


def test_pieces_page_shows_the_vocabulary(client):
    html = page(client, "/pieces")
    assert html.count('class="card black"') == 26 and html.count('class="card red"') == 26
    assert 'title="ace of spades">AS<' in html and 'title="10 of diamonds">TD<' in html
    for card in decktet.CATALOGUE.values():
        assert f"<code>{card.id}</code>" in html and card.name in html
    for count in (52, 36, 45, 72):
        assert f'<td class="num">{count}</td>' in html
    assert "25.4" in html and "44.5" in html and "14.3" in html
    assert "clear" in html and "purple" in html
    assert "<strong>24</strong> orientations" in html


def test_pieces_page_lists_decktet_suits_in_natural_order(client):
    html = page(client, "/pieces")
    row = html[html.index("<code>light-keeper</code>"):]
    row = row[:row.index("</tr>")]
    assert row.index("Suns") < row.index("Waves") < row.index("Knots")


def test_api_decktet_lists_all_45_cards(client):
    cards = client.get("/api/catalogue/decktet").get_json()
    assert len(cards) == 45
    by_id = {c["id"]: c for c in cards}
    assert by_id["mountain"] == {"id": "mountain", "name": "The Mountain", "rank": "4", "suits": ["Moons", "Suns"]}
    assert by_id["excuse"]["suits"] == []


def test_unknown_api_path_answers_json_error(client):
    response = client.get("/api/nope")
    assert response.status_code == 404
    assert response.is_json
    message = response.get_json()["error"]
    assert "/api/nope" in message and "/api/catalogue/games" in message


def test_wrong_method_on_api_answers_json_error(client):
    response = client.put("/api/catalogue/games")
    assert response.status_code == 405
    assert "error" in response.get_json()


def test_unknown_page_answers_a_friendly_html_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Page not found" in html and "/no-such-page" in html and 'href="/"' in html


def test_config_comes_from_instance_folder_then_test_config(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.json").write_text(json.dumps({"TABLE_NAME": "kitchen", "SECRET_KEY": "from-file"}))
    app = create_app({"TABLE_NAME": "garden"}, instance_path=str(instance))
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["TABLE_NAME"] == "garden"


def test_instance_folder_is_created(tmp_path):
    instance = tmp_path / "made" / "here"
    app = create_app(instance_path=str(instance))
    assert instance.is_dir() and app.config["SECRET_KEY"]


def test_serve_reports_a_busy_port_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ServerError) as raised:
            serve(port=port, instance_path=str(tmp_path))
    message = str(raised.value)
    assert "already in use" in message and f"--port {port + 1}" in message and "\n" not in message


def test_a_corrupt_instance_config_is_named(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ConfigError, match="config.json is not valid JSON.*fix or remove it"):
        create_app(instance_path=str(tmp_path))


def test_real_server_answers_api_games(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/catalogue/games", timeout=10) as response:
            assert response.status == 200
            assert response.headers.get_content_type() == "application/json"
            data = json.load(response)
    finally:
        server.shutdown()
        thread.join(timeout=10)
    assert [g["name"] for g in data] == [t.name for t in games.types()]
