"""What Mongoose's recorded playthroughs show beyond the replay every game gets (tests/referee/test_playthrough.py):
cards conserved at the end, explained outcomes, full games and a forfeit, and a refused wrong move."""

from pathlib import Path

import pytest

from referee import playthrough

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_ends_with_all_52_cards_accounted_for_and_an_explained_outcome(path):
    recorded = playthrough.load(path)
    assert recorded.expected is not None and recorded.expected.text
    state = playthrough.replay(recorded).state
    revealed = [card for card in state.plays if card]  # a forfeit may come between a play and its capture
    assert len(state.discards) + sum(map(len, state.collections)) + len(state.pool) + len(state.unseen) + len(
        revealed) == 52


def test_there_are_full_games_and_a_forfeit():
    rules = {playthrough.load(path).expected.rule for path in FILES}
    assert any(r.startswith("mongoose/rank/") for r in rules) and "mongoose/end/forfeit" in rules


def test_a_recorded_wrong_move_is_refused():
    result = playthrough.replay(playthrough.load(Path(__file__).parent / "playthroughs" / "four-and-a-pair.txt"))
    assert result.refused == 1 and result.state.outcome().winners == ("ann",)
