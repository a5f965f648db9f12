"""Sequences: positions held still, a hand reaching in to make each change, frames at the frame rate."""

import pytest

from vision.synth.demo import demo_playthrough
from vision.synth.render import render
from vision.synth.scene import Camera, CardObject, Effects, Scene, SceneError
from vision.synth.script import ILLEGAL_LONGER_S
from vision.synth.script import sequence as scripted
from vision.synth.sequence import Sequence, frame_count, frames, render_sequence


def _positions():
    camera, effects = Camera((100, 100), 600, 25, size=(640, 480)), Effects(noise=1)
    first = Scene(camera=camera, effects=effects, cards=[CardObject("QH", 60, 100)])
    second = Scene(camera=camera, effects=effects, cards=[CardObject("QH", 60, 100), CardObject("7S", 160, 100)])
    return first, second


def test_the_hand_comes_to_the_change_and_the_change_happens_under_it():
    first, second = _positions()
    shots = list(frames(Sequence([first, second], fps=10, hold_s=0.3, reach_s=1.0)))
    assert [round(t, 2) for t, _ in shots] == [round(0.1 * i, 2) for i in range(16)]
    reach = [s for _, s in shots if s.hands]
    assert len(reach) == 10 and not shots[0][1].hands and not shots[-1][1].hands
    closest = min(reach, key=lambda s: abs(s.hands[0].x - 160) + abs(s.hands[0].y - 100))
    assert abs(closest.hands[0].x - 160) < 40 and abs(closest.hands[0].y - 100) < 40
    assert [len(s.cards) for s in reach] == [1] * 5 + [2] * 5
    assert len({s.seed for _, s in shots}) == len(shots)  # fresh sensor noise every frame


def test_frames_render_and_the_hand_hides_the_new_card_as_it_lands():
    first, second = _positions()
    sequence = Sequence([first, second], fps=10, hold_s=0.1, reach_s=1.0)
    rendered = list(render_sequence(sequence))
    assert len(rendered) == 1 + 10 + 1
    _, landing = rendered[6]  # the first frame that shows the second position, hand still at the spot
    card = next(o for o in landing.objects if o.label == "7S")
    assert card.visible < 0.9
    assert render(second).objects[1].visible > 0.99


def test_sequences_round_trip_and_refuse_nonsense():
    first, second = _positions()
    sequence = Sequence([first, second], fps=12)
    assert Sequence.from_json(sequence.to_json()) == sequence
    with pytest.raises(SceneError, match="fps must be positive"):
        Sequence([first], fps=0)
    with pytest.raises(SceneError, match=r"states\[0\].cards\[0\].id"):
        Sequence.from_json('{"states": [{"cards": [{"id": "XX", "x": 0, "y": 0}]}]}')


def test_a_position_may_be_held_for_its_own_time():
    # a table after an illegal move stays longer: its player waits for the referee's word
    first, second = _positions()
    sequence = Sequence([first, second], fps=10, hold_s=0.3, reach_s=1.0, holds=[0.5, 0.2])
    shots = list(frames(sequence))
    assert [bool(s.hands) for _, s in shots] == [False] * 5 + [True] * 10 + [False] * 2
    assert frame_count(sequence) == len(shots) and Sequence.from_json(sequence.to_json()) == sequence
    # a longer hold repeats its last still frame's sensor noise: every later frame is the one it would be without it
    longer = [s.seed for _, s in frames(Sequence([first, second], fps=10, hold_s=0.3, reach_s=1.0, holds=[0.5, 0.3]))]
    usual = [s.seed for _, s in frames(Sequence([first, second], fps=10, hold_s=0.3, reach_s=1.0))]
    assert longer[:3] + longer[5:] == usual and longer[2] == longer[3] == longer[4]
    with pytest.raises(SceneError, match="holds gives 1 times for 2 positions"):
        Sequence([first, second], holds=[1.0])
    with pytest.raises(SceneError, match="not negative"):
        Sequence([first, second], holds=[1.0, -0.1])


def test_a_scripted_illegal_table_is_held_longer_by_whole_looks_of_a_slow_camera():
    recorded = demo_playthrough("pouches")  # its uphill move is an @illegal line
    seq, table = scripted(recorded, size=(320, 180), hold_s=1.0)
    illegal = [n for n, shot in enumerate(table) if shot.illegal]
    assert illegal and all(seq.held(n) == 22 for n in illegal) and seq.held(0) == 10
    assert all(round(ILLEGAL_LONGER_S * seq.fps) % every == 0 for every in (2, 3, 4, 6))
