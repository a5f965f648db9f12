"""Recorded playthroughs (readable notation, one action a line, '#' comments) replayed to their end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FOLDER = Path(__file__).parent / "playthroughs"


def read(path: Path):
    header, actions = {}, []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            actions.append(text)
        elif line.startswith("# ") and ":" in line and line[2:].split(":")[0] in ("players", "options", "outcome"):
            key, value = line[2:].split(":", 1)
            header[key] = value.strip()
    return header, actions


@pytest.mark.parametrize("path", sorted(FOLDER.glob("*.txt")), ids=lambda p: p.stem)
def test_playthrough_replays_to_its_outcome(path, make_game):
    header, actions = read(path)
    options = {} if header["options"] == "-" else dict(o.split("=") for o in header["options"].split())
    game = make_game(header["players"].split(), **{k.replace("-", "_"): v for k, v in options.items()})
    state = game.new_state()
    for number, text in enumerate(actions, start=1):
        action = game.actions.parse(text)
        verdict = state.check(action)
        assert verdict.legal, f"{path.name} action {number} ({text}): {verdict}"
        state = state.apply(action)
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    winner, rule = header["outcome"].split()
    assert state.outcome() is not None, f"{path.name} ends unfinished"
    assert state.outcome().winners == (winner,) and state.outcome().rule == rule
