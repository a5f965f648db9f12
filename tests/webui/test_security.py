"""Who may use the dashboard: the access token, loopback-only without one, same-origin commands, no debug."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from webui import ConfigError, create_app
from webui.security import TOKEN_COOKIE, is_loopback
from webui.server import ServerError, access_token

TOKEN = "s3cret-token-for-tests-0123"
GAME = {"game": "pungo", "players": ["ann", "bob"]}


@pytest.fixture
def shared_app(tmp_path):
    """The app as `tableside serve --host 0.0.0.0` builds it: a token is required."""
    app = create_app({"TESTING": True, "ACCESS_TOKEN": TOKEN}, instance_path=str(tmp_path / "instance"))
    yield app
    app.extensions["tableside.games"].close()


@pytest.fixture
def local_app(tmp_path):
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    yield app
    app.extensions["tableside.games"].close()


# ---------------------------------------------------------------- the token

@pytest.mark.parametrize("path", ["/api/games", "/api/catalogue/games", "/events", "/play", "/history", "/"])
def test_without_the_token_nothing_is_served(shared_app, path):
    response = shared_app.test_client().get(path)
    assert response.status_code == 401
    text = response.get_data(as_text=True)
    assert "access token" in text and TOKEN not in text


def test_a_command_without_the_token_is_refused_and_changes_nothing(shared_app):
    client = shared_app.test_client()
    response = client.post("/api/games", json=GAME, headers={"Origin": "http://localhost"})
    assert response.status_code == 401 and "Authorization: Bearer" in response.get_json()["error"]
    assert not list(shared_app.extensions["tableside.games"].folder.glob("*.sqlite"))


def test_a_wrong_token_is_403(shared_app):
    client = shared_app.test_client()
    assert client.post("/api/games", json=GAME, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get("/?token=nope").status_code == 403
    client.set_cookie(TOKEN_COOKIE, "stale")
    assert client.get("/play").status_code == 403


def test_a_bearer_token_lets_a_script_command_without_origin(shared_app):
    client = shared_app.test_client()
    response = client.post("/api/games", json=GAME, headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 201


def test_the_printed_link_sets_a_cookie_and_hides_the_token(shared_app):
    client = shared_app.test_client()
    response = client.get(f"/play?token={TOKEN}&x=1")
    assert response.status_code == 303 and response.headers["Location"] == "/play?x=1"
    cookie = response.headers["Set-Cookie"]
    assert f"{TOKEN_COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/play").status_code == 200  # the cookie now carries the token
    response = client.post("/api/games", json=GAME, headers={"Origin": "http://localhost"})
    assert response.status_code == 201


def test_the_stylesheet_needs_no_token(shared_app):
    with shared_app.test_client().get("/static/style.css") as response:
        assert response.status_code == 200


# ---------------------------------------------------------------- same origin, loopback

@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Origin": "null"},
                                     {"Referer": "http://evil.example/page"},
                                     {"Origin": "http://localhost:9999"}])
def test_a_cross_origin_command_is_refused(local_app, headers):
    response = local_app.test_client().post("/api/games", json=GAME, headers=headers)
    assert response.status_code == 403 and "commands are accepted from pages of http://localhost only" in \
        response.get_json()["error"]
    assert not list(local_app.extensions["tableside.games"].folder.glob("*.sqlite"))


def test_a_cross_origin_command_is_refused_even_with_the_cookie(shared_app):
    client = shared_app.test_client()
    client.get(f"/?token={TOKEN}")
    response = client.post("/api/games", json=GAME, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403


def test_same_origin_commands_are_accepted_by_origin_or_referer(local_app):
    client = local_app.test_client()
    assert client.post("/api/games", json=GAME, headers={"Origin": "http://localhost"}).status_code == 201
    assert client.post("/api/games", json=GAME, headers={"Referer": "http://localhost/play"}).status_code == 201


def test_without_a_token_only_loopback_host_names_are_served(local_app):
    client = local_app.test_client()
    response = client.get("/api/games", headers={"Host": "rebound.example:5000"})
    assert response.status_code == 403 and "serves only this machine" in response.get_json()["error"]
    assert client.get("/api/games", headers={"Host": "127.0.0.1:5000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "[::1]:5000"}).status_code == 200


def test_responses_forbid_framing_and_sniffing(local_app):
    response = local_app.test_client().get("/play")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_debug_mode_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="debug mode"):
        create_app({"DEBUG": True}, instance_path=str(tmp_path))


@pytest.mark.parametrize("host,expected", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                           ("[::1]", True), ("127.0.0.2", True), ("0.0.0.0", False),
                                           ("192.168.1.5", False), ("tableside.local", False), ("", False)])
def test_is_loopback(host, expected):
    assert is_loopback(host) is expected


# ---------------------------------------------------------------- tableside serve

def test_a_token_is_made_when_serving_beyond_this_machine(monkeypatch):
    monkeypatch.delenv("TABLESIDE_TOKEN", raising=False)
    assert access_token("127.0.0.1") is None
    made = access_token("0.0.0.0")
    assert made and len(made) >= 16 and made != access_token("0.0.0.0")
    assert access_token("0.0.0.0", TOKEN) == TOKEN
    monkeypatch.setenv("TABLESIDE_TOKEN", TOKEN)
    assert access_token("192.168.1.5") == TOKEN and access_token("127.0.0.1") == TOKEN
    with pytest.raises(ServerError, match="at least 16 characters"):
        access_token("0.0.0.0", "short")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_beyond_localhost_prints_a_token_and_requires_it(tmp_path, monkeypatch):
    """`tableside serve --host 0.0.0.0` for real: the printed address works, a bare command is refused."""
    monkeypatch.delenv("TABLESIDE_TOKEN", raising=False)
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "webui.cli", "serve", "--host", "0.0.0.0", "--port", str(port),
                                "--instance", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"running at (http://127\.0\.0\.1:\d+/)\?token=(\S+) ", line)
        assert match, line + process.stderr.read() if process.poll() is not None else line
        base, token = match.group(1), match.group(2)
        assert len(token) >= 16 and "From another device" in process.stdout.readline()
        body = json.dumps(GAME).encode()
        bare = urllib.request.Request(f"{base}api/games", body, headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bare, timeout=10)
        assert refused.value.code == 401
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}play", timeout=10)
        assert refused.value.code == 401
        bare.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(bare, timeout=10) as response:
            assert response.status == 201
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()
        process.stderr.close()
