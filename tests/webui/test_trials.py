"""Seeded random games refereed through the demo runner (bench/trials.py), with simulated vision here:
the referee, the layouts, the stabiliser and the players' entries at work on games nobody wrote by hand.
Real vision takes minutes a game: `make trials` measures that (docs/live.md)."""

from __future__ import annotations

import pytest

from bench.trials import GAMES, main, run_trial, summary
from referee import playthrough
from vision.synth.demo import demo_playthrough


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_random_game_is_followed_with_no_false_violation(game):
    trial = run_trial(game, seed=1, vision="simulated", every=2, shots=12, size=(320, 180))
    assert trial.error is None and trial.refused == 0, trial
    assert trial.followed and trial.violations == 0 and trial.unrecognised == 0, trial
    assert trial.moves >= 8 and trial.shots == 12, trial  # a real stretch of game, cut at 12 tables


def test_random_games_are_seeded_and_replay():
    demo = demo_playthrough("pungo")
    first, again, other = (playthrough.random_playthrough(demo.game, demo.setup, seed) for seed in (4, 4, 5))
    assert first.lines == again.lines and first.lines != other.lines
    result = playthrough.replay(first)  # every line legal, the @expect (if it ended) met
    assert len(result.states) == len([line for line in first.lines if line.illegal_rule is None]) + 1


def test_the_summary_counts_false_violations_per_game():
    trials = [{"game": "pungo", "seed": 0, "followed": True, "violations": 0, "questions": 1, "seconds": 2.0},
              {"game": "pungo", "seed": 1, "followed": False, "violations": 2, "seconds": 3.0},
              {"game": "pouches", "seed": 0, "error": "RuntimeError: boom"}]
    s = summary(trials)
    assert s["pungo"]["trials"] == 2 and s["pungo"]["followed"] == 1 and s["pungo"]["with_false_violation"] == 1
    assert s["pungo"]["false_violations"] == 2 and s["pouches"]["errors"] == 1


def test_bad_arguments_get_a_clear_message(capsys):
    for argv, words in ((["--games", "chess"], "games are some of"), (["--seeds", "a-b"], "seeds are"),
                        (["--size", "big"], "WIDTHxHEIGHT"), (["--shots", "0"], "1 or more"),
                        (["--jobs", "two"], "1 or more")):
        with pytest.raises(SystemExit):
            main(argv)
        assert words in capsys.readouterr().err
