"""The demo table: built-in scripted games, staged and rendered as a capture source with per-frame truth.

The Pouches demo is refereed end to end by the real Session on what a perfect vision sees of the
rendered frames: the illegal move is flagged with its rule, resolved when put right, and Cat wins.
"""

from __future__ import annotations

import pytest

from referee import layouts, playthrough
from referee.session import Session
from vision.capture import EndOfStream, open_source
from vision.synth.demo import DEMO_GAMES, DemoSource, demo_game, demo_playthrough
from vision.synth.render import render
from vision.synth.script import shots
from vision.synth.sequence import Sequence, frame_count, timeline
from vision.synth.snapshot import expected_snapshot
from vision.synth.surfaces import VARIANTS

SMALL = (480, 270)


@pytest.mark.parametrize("game", DEMO_GAMES)
def test_every_demo_game_replays_to_a_winner(game):
    recorded = demo_playthrough(game)
    assert recorded.game.type.name == game
    result = playthrough.replay(recorded)
    assert result.state.outcome().winners == recorded.expected.winners


def test_the_pouches_demo_is_three_players_with_one_illegal_move_put_right():
    recorded = demo_playthrough("pouches")
    assert len(recorded.game.players) == 3
    assert [line.illegal_rule for line in recorded.lines if line.illegal_rule] == ["pouches-1.9/move/uphill"]
    table = shots(recorded)
    flagged = [i for i, s in enumerate(table) if s.illegal]
    assert len(flagged) == 1 and table[flagged[0] + 1].put_right
    wrong, right = table[flagged[0]], table[flagged[0] + 1]
    assert wrong.state.view()["tokens/0,1"] == ("ann",) and right.state.view() == wrong.known.view()


def test_the_pouches_demo_refereed_by_the_session_flags_the_illegal_move_and_cat_wins(tmp_path):
    demo = demo_game("pouches", size=SMALL)
    game = demo.recorded.game
    layout = layouts.for_game(game, _zones(demo))
    session = Session.start(game, layout, tmp_path / "demo.sqlite", setup=demo.recorded.setup)
    kinds = []
    for i, (shot, scene) in enumerate(zip(demo.shots, demo.sequence.states)):
        for line in shot.lines[:-1]:  # spoken moves (stay, order...): the players enter them
            kinds += [e.kind for e in session.enter(game.actions.parse(line.action))]
        events = session.observe(expected_snapshot(render(scene), t=float(i)))
        kinds += [e.kind for e in events]
        if shot.illegal:
            assert [e.kind for e in events] == ["violation"]
            cited = [r["rule"] for reading in events[0].payload["readings"] for r in reading["verdict"]["reasons"]]
            assert shot.illegal in cited
        elif shot.put_right:
            assert [e.kind for e in events] == ["resolved"]
        else:
            assert session.state == shot.state, (i, shot.lines)
    assert kinds.count("violation") == 1 and "unrecognised" not in kinds and "question" not in kinds
    outcome = next(e for e in session.log.events() if e.kind == "outcome")
    assert outcome.payload["winners"] == ["cat"] and outcome.payload["rule"] == "pouches-1.9/win/at-once"


def test_open_source_plays_the_demo_with_truth_for_every_frame():
    source = open_source("demo:deck-town", fps=5)
    assert isinstance(source, DemoSource) and source.frame_interval == pytest.approx(0.2)
    demo = source.demo
    assert demo.frames == frame_count(demo.sequence) == len(list(timeline(demo.sequence)))
    assert demo.duration_s == pytest.approx(demo.frames / 5)
    layout = layouts.for_game(demo.recorded.game, _zones(demo))
    first = source.read()
    assert first.shape == (720, 1280, 3) and source.truth.number == 0 and source.truth.position == 0
    assert not source.truth.snapshot.occluded
    # the middle of a reach: a hand over the table, the snapshot says so
    hold, reach = round(demo.sequence.hold_s * 5), round(demo.sequence.reach_s * 5)
    source.seek(hold + reach // 2)
    source.read()
    assert source.truth.snapshot.occluded and source.truth.t == pytest.approx((hold + reach // 2) / 5)
    # a held table later in the game: its truth reads back as the state it shows
    source.seek(demo.frames - 1)
    source.read()
    last = source.truth
    assert last.position == len(demo.shots) - 1 and last.shot.state.is_over()
    assert layout.read(last.snapshot, last.shot.state).view == last.shot.state.view()
    with pytest.raises(EndOfStream, match="ended after"):
        source.read()


def test_a_looping_demo_starts_over():
    source = DemoSource("pungo", size=SMALL, loop=True)
    source.seek(source.demo.frames - 1)
    source.read()
    source.read()
    assert source.truth.number == 0 and source.truth.position == 0


def test_frames_of_a_sequence_keep_the_table_texture_and_change_the_noise():
    demo = demo_game("pungo", size=SMALL)
    seq = Sequence(demo.sequence.states[:2], fps=4, hold_s=0.5, reach_s=1.0)
    seeds = [scene.seed for _, scene, _ in timeline(seq)]
    assert len(set(seeds)) == len(seeds) and {s % VARIANTS for s in seeds} == {seq.states[0].seed % VARIANTS}
    assert [p for _, _, p in timeline(seq)] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_a_demo_for_an_unknown_game_says_which_games_it_plays():
    with pytest.raises(ValueError, match="no demo game for 'chess': the demo plays pouches, mongoose"):
        demo_playthrough("chess")


def _zones(demo):
    from calibration.mats import mat_of, zones_of

    return zones_of(mat_of(demo.recorded.game))
