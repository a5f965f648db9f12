"""The ``tableside`` command line, through ``main()`` and through the installed console script."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee import games
from webui.cli import main


def test_games_lists_every_game_edition_and_option(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for game_type in games.types():
        assert f"{game_type.name}: {game_type.title}" in out
        for edition in game_type.editions:
            assert f"edition {edition.name}: {edition.title}" in out
        for option in game_type.options:
            assert option.describe() in out


def test_games_as_json(capsys):
    assert main(["games", "--json"]) == 0
    listed = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    assert set(listed) == {t.name for t in games.types()}
    pungo = listed["pungo"]["editions"][0]["options"]
    assert {"name": "arena", "help": pungo[0]["help"], "default": "3x4", "choices": ["3x4", "4x3"]} in pungo


@pytest.mark.parametrize("command", [[], ["games"], ["demo"]])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exited:
        main(command + ["--help"])
    assert exited.value.code == 0
    assert "usage: tableside" in capsys.readouterr().out


def test_unknown_command_fails_with_usage(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["referee-everything"])
    assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_installed_console_script():
    script = Path(sys.executable).parent / "tableside"
    if not script.exists():
        script = shutil.which("tableside")
    if script is None:
        message = "the tableside script is not installed in this environment (make test installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    done = subprocess.run([str(script), "games"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "pouches: Pouches of Destiny" in done.stdout


def test_demo_on_a_busy_port_says_so_in_one_line(tmp_path, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["demo", "--port", str(port), "--instance", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tableside: port {port} on 127.0.0.1 is already in use") and err.count("\n") == 1
