"""Recorded playthroughs (referee/playthrough.py format) replayed to their end."""

from pathlib import Path

import pytest

from referee import playthrough

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


def test_there_are_playthroughs():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_its_outcome(path):
    recorded = playthrough.load(path)
    assert recorded.expected is not None
    assert playthrough.replay(recorded).state.is_over()
