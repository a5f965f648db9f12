"""`tableside serve` and `tableside demo`: the flags reach the server, and bad ones are one-line errors."""

from __future__ import annotations

import pytest

import webui.server
from webui.cli import main


@pytest.fixture
def served(monkeypatch):
    """What serve() was asked to do (the server itself is tested in test_security.py)."""
    calls = []
    monkeypatch.setattr(webui.server, "serve", lambda **kwargs: calls.append(kwargs))
    return calls


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_defaults_listen_on_this_machine_only_and_open_no_browser(served, command):
    assert main([command]) == 0
    demo = "pouches" if command == "demo" else None  # the demo table plays Pouches unless told otherwise
    assert served == [{"host": "127.0.0.1", "port": 5000, "open_browser": False, "instance_path": None, "token": None,
                       "demo": demo, "simulated_vision": False,
                       "every": 2 if command == "demo" else None}]  # the demo reads one frame in two


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_flags_reach_the_server(served, command, tmp_path):
    assert main([command, "--host", "0.0.0.0", "--port", "5050", "--open", "--token", "t" * 20,
                 "--instance", str(tmp_path)]) == 0
    assert served == [{"host": "0.0.0.0", "port": 5050, "open_browser": True, "instance_path": str(tmp_path),
                       "token": "t" * 20, "demo": "pouches" if command == "demo" else None, "simulated_vision": False,
                       "every": 2 if command == "demo" else None}]


def test_demo_takes_the_game_and_simulated_vision(served):
    assert main(["demo", "--game", "decktown", "--simulated-vision"]) == 0
    assert served[0]["demo"] == "deck-town" and served[0]["simulated_vision"] is True


def test_demo_can_read_every_nth_frame_instead_of_keeping_pace(served, capsys):
    assert main(["demo", "--every", "2"]) == 0
    assert served[0]["every"] == 2 and served[0]["simulated_vision"] is False
    for bad in ("0", "two", "-1"):
        with pytest.raises(SystemExit):
            main(["demo", "--every", bad])
        assert "expected a whole number of frames, 1 or more" in capsys.readouterr().err


def test_demo_can_keep_to_the_tables_pace_instead(served, capsys):
    assert main(["demo", "--paced"]) == 0
    assert served[0]["every"] is None  # the server keeps the table's pace, skipping what it cannot read in time
    with pytest.raises(SystemExit):
        main(["demo", "--paced", "--every", "3"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_short_token_is_refused_in_one_line(tmp_path, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--token", "abc", "--instance", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("tableside: an access token is at least 16 characters") and error.count("\n") == 1


def test_help_names_every_flag(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    for flag in ("--host", "--port", "--open", "--token", "--instance"):
        assert flag in text
