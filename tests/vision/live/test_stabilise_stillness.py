"""Stillness from real frames: a hand moving over a drawn table holds the moment back until it has gone
and 0.4 s have passed; sensor noise does not; garbage frames are a change, never an exception."""

import numpy as np
from live_frames import snapshot, table, with_hand

from vision.stabilise import MOVING, OCCLUDED, SETTLING, STABLE, Stabiliser

FPS = 30


def _play(stabiliser, frames, start=0.0, snapshots=None):
    """Push frames at 30 fps from ``start``; the times of the moments given."""
    moments = []
    for i, frame in enumerate(frames):
        t = start + i / FPS
        moment = stabiliser.push(t, frame, snapshots[i] if snapshots else None)
        if moment is not None:
            moments.append(moment)
    return moments


def _still(count, seed=0):
    return [table(seed=seed + i) for i in range(count)]  # the same table, fresh sensor noise in every frame


def test_a_still_table_with_sensor_noise_settles_once_after_the_settle_time():
    stabiliser = Stabiliser()
    moments = _play(stabiliser, _still(60))
    assert [round(m.t, 3) for m in moments] == [0.4]  # once, as soon as 0.4 s of stillness are seen
    assert moments[0].still_since == 0.0 and moments[0].frames == 12 and moments[0].snapshot is None
    assert stabiliser.status.status == STABLE and stabiliser.status.motion < stabiliser.still_fraction


def test_a_moving_hand_holds_the_moment_back_until_it_leaves_and_the_table_settles():
    stabiliser = Stabiliser()
    frames = _still(30)  # 0 to 1 s: still
    path = [(0.6 + 0.2 * np.sin(k / 3), 0.95 - 0.5 * min(k, 45 - k) / 22) for k in range(45)]
    frames += [with_hand(table(seed=100 + k), x, y) for k, (x, y) in enumerate(path)]  # 1 to 2.5 s: a hand
    frames += _still(30, seed=200)  # 2.5 to 3.5 s: gone
    moments = _play(stabiliser, frames)
    times = [round(m.t, 3) for m in moments]
    last_hand_frame = (30 + 44) / FPS
    first_clear_frame = 75 / FPS  # its difference from the last hand frame is the last change seen
    assert times[0] == 0.4 and len(times) == 2
    assert times[1] >= first_clear_frame + 0.4 - 1e-9 and times[1] < first_clear_frame + 0.4 + 1.5 / FPS
    assert moments[1].still_since == first_clear_frame and moments[1].still_since > last_hand_frame
    assert moments[1].frame is frames[round(times[1] * FPS)]


def test_the_status_says_moving_then_settling_then_stable():
    stabiliser = Stabiliser()
    statuses = []
    frames = _still(5) + [with_hand(table(seed=50), 0.5, 0.6 - 0.02 * k) for k in range(5)] + _still(20, seed=60)
    for i, frame in enumerate(frames):
        stabiliser.push(i / FPS, frame)
        statuses.append(stabiliser.status.status)
    assert statuses[0] == MOVING and statuses[1:5] == [SETTLING] * 4
    assert set(statuses[5:11]) == {MOVING} and stabiliser.status.status == STABLE
    assert statuses[11:22] == [SETTLING] * 11 and statuses[22:] == [STABLE] * 8


def test_a_hand_held_still_is_seen_through_the_occluded_flag():
    hand_frame = with_hand(table(seed=7), 0.5, 0.5)
    frames = _still(15) + [hand_frame] * 30 + _still(20, seed=300)  # the hand freezes over the table for 1 s
    flagged = [snapshot(i / FPS, occluded=15 <= i < 45) for i in range(len(frames))]
    with_flag = _play(Stabiliser(), frames, snapshots=flagged)
    assert [round(m.t, 3) for m in with_flag] == [0.4, round(45 / FPS + 0.4, 3)]
    assert Stabiliser().push(0, hand_frame, snapshot(0, occluded=True)) is None
    # pixels alone cannot tell a frozen hand from the table: that is what the flag is for
    without_flag = _play(Stabiliser(), frames)
    assert round(without_flag[1].t, 3) == round(15 / FPS + 0.4, 3)


def test_occluded_status_names_the_hand():
    stabiliser = Stabiliser()
    stabiliser.push(0.0, table(), snapshot(0.0))
    stabiliser.push(0.1, table(seed=1), snapshot(0.1, occluded=True))
    assert stabiliser.status.status == OCCLUDED and stabiliser.status.reason == "a hand over the table"


def test_a_card_slid_too_slowly_to_show_between_two_frames_is_still_a_change():
    stabiliser = Stabiliser()
    frames = []
    for i in range(80):  # a white card creeping 1 px a frame for 2 s, then lying still
        image = table(seed=i).copy()
        x = 100 + min(i, 59)
        image[300:360, x:x + 80] = 235
        frames.append(image)
    small = [stabiliser._small_grey(f)[0] for f in frames]
    steps = [stabiliser._changed_fraction(a, b) for a, b in zip(small, small[1:])]
    assert 0 < max(steps) <= stabiliser.still_fraction  # no two frames in a row differ enough...
    moments = _play(stabiliser, frames)
    # ...yet the slide holds the moment back (the still period is also checked against its first frame), and
    # the moment shows the card where it came to rest; a shift under ~10 px in 0.4 s would count as still
    assert len(moments) == 1 and moments[0].t > 59 / FPS
    assert moments[0].frame[330, 100 + 59 + 40, 0] > 200 and moments[0].frame[330, 150, 0] < 100


def test_garbage_frames_restart_the_wait_with_a_reason_and_raise_nothing():
    rng = np.random.default_rng(1)
    stabiliser = Stabiliser()
    for i in range(6):
        stabiliser.push(i / FPS, table(seed=i))
    for garbage, reason in [
        (rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8), "motion: "),
        (table(size=(640, 360)), "the frame size changed"),
        (np.zeros((720, 1280), np.float32), "not an 8-bit image (float32 array (720, 1280))"),
        (np.zeros((720, 1280, 5), np.uint8), "not an image (shape (720, 1280, 5))"),
        ("a string", "not an 8-bit image (str)"),
    ]:
        t = stabiliser._last_t + 1 / FPS
        assert stabiliser.push(t, garbage) is None
        assert stabiliser.status.status == MOVING and stabiliser.status.reason.startswith(reason)
        assert stabiliser.status.since == t
    moments = _play(stabiliser, _still(20), start=stabiliser._last_t + 1 / FPS)
    assert len(moments) == 1 and moments[0].t - moments[0].still_since >= 0.4 - 1e-6


def test_no_frame_only_snapshots_and_gaps():
    stabiliser = Stabiliser()
    moments = _play(stabiliser, [None] * 20, snapshots=[snapshot(i / FPS) for i in range(20)])
    # frame 0 is the change the stillness starts from: its snapshot does not vote
    assert len(moments) == 1 and moments[0].frame is None and moments[0].votes == 12
    assert stabiliser.push(5.0, None) is None and stabiliser.status.reason == "no frame for 4.4 s"
    assert stabiliser.push(4.0, None) is None and stabiliser.status.reason.startswith("frame time went backwards")


def test_grey_and_bgra_frames_are_measured_like_colour_ones():
    grey = [np.ascontiguousarray(table(seed=i)[:, :, 1]) for i in range(20)]
    bgra = [np.dstack([table(seed=i), np.full((720, 1280), 255, np.uint8)]) for i in range(20)]
    assert len(_play(Stabiliser(), grey)) == 1 and len(_play(Stabiliser(), bgra)) == 1
