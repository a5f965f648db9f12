"""Hand-written playthroughs (referee/playthrough.py format), replayed action by action to the expected winner."""

import json
from pathlib import Path

import pytest

from referee import playthrough

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


def test_there_are_at_least_three_playthroughs():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_the_expected_winner(path):
    recorded = playthrough.load(path)
    assert recorded.expected is not None
    result = playthrough.replay(recorded)
    assert len(result.states) > 10
    again = result.state.game.state_from_json(json.loads(json.dumps(result.state.to_json())))
    assert again == result.state and again.outcome() == result.state.outcome()
