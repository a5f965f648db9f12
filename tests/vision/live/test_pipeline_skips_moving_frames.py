"""The live pipeline recognises only frames the stabiliser can use: a frame in motion (a hand reaching
over the table) would restart the wait and its reading be thrown away, so it is not recognised at all;
a table still for ``quiet_s`` whose reading was given and holds is recognised again only every
``recheck_s`` (a frame of it read again tells nothing new but now and then a face read right at
last). The referee gets exactly what it got when every frame was recognised: each settled table twice,
a glance and then a second look (``snapshot.glance``: no violation is flagged on a glance)."""

import numpy as np
from live_frames import snapshot, table, with_hand

from referee.snapshot import CardSighting
from vision.live import LivePipeline
from vision.stabilise import Stabiliser
from vision.table_reader import FrameReading

FPS = 30
SIZE = (640, 360)


def _frames():
    """1 s still, 1.5 s of a hand reaching in and back out, 1 s still with a card moved."""
    still = [table(SIZE, seed=i) for i in range(30)]
    path = [(0.6 + 0.2 * np.sin(k / 3), 0.95 - 0.5 * min(k, 45 - k) / 22) for k in range(45)]
    hand = [with_hand(table(SIZE, seed=100 + k), x, y) for k, (x, y) in enumerate(path)]
    return still + hand + [table(SIZE, seed=200 + i) for i in range(30)], range(30, 75)


class _Recogniser:
    """Stands in for card recognition: the 7H where the frame's time says it lies (it moves under the
    hand), and a record of which frames it was asked to read. ``always`` ignores the pipeline's skip."""

    def __init__(self, always: bool = False, name=lambda t: "7H", where=lambda t: 100.0 if t < 2.0 else 160.0):
        self.always, self.read_at, self.name, self.where = always, [], name, where

    def read(self, frame, t, recognise=True):
        if not (recognise or self.always):
            return FrameReading(None, None)
        self.read_at.append(round(t * FPS))
        x = self.where(t)
        card = CardSighting(self.name(t), True, (x, 50.0), ((x - 31, 6), (x + 31, 6), (x + 31, 94), (x - 31, 94)), 0.0, 0.97)
        return FrameReading(snapshot(t, [card]), None, [])


def _run(recogniser, frames=None):
    given = []
    pipeline = LivePipeline(recogniser, lambda snap, jpeg: given.append(snap) or [])
    frames = frames or _frames()[0]
    for n, frame in enumerate(frames):
        pipeline.step(frame, n / FPS)
    return pipeline, given


def test_moving_says_beforehand_what_push_will_decide_and_asking_changes_nothing():
    frames, hand = _frames()
    asked, plain = Stabiliser(), Stabiliser()
    for n, frame in enumerate(frames):
        t = n / FPS
        moving = asked.moving(frame)
        assert asked.moving(frame) == moving  # a question, not a step
        assert asked.push(t, frame) == plain.push(t, frame)
        assert moving == asked.status.reason.startswith("motion"), n
        assert not moving or hand.start <= n <= hand.stop, n  # only the hand moves (and the frame it left)
    assert sum(asked.moving(f) for f in frames[hand.start:hand.stop]) > 0


def test_frames_in_motion_are_not_recognised_and_the_referee_gets_the_same_tables():
    skipping, given = _run(_Recogniser())
    everything, given_always = _run(_Recogniser(always=True))
    # the table before the hand, and after it moved the card: each a glance, then a second look on later frames
    assert given == given_always and len(given) == 4
    assert [(s.cards[0].center_mm, s.glance) for s in given] == [
        ((100.0, 50.0), True), ((100.0, 50.0), False), ((160.0, 50.0), True), ((160.0, 50.0), False)]
    settle = skipping.stabiliser.settle_s
    assert given[1].t - given[0].t >= settle - 1e-6 and given[3].t - given[2].t >= settle - 1e-6
    frames, hand = _frames()
    read = set(skipping.reader.read_at)
    assert len(everything.reader.read_at) == len(frames)
    assert skipping.stats.moving > len(hand) // 2
    assert read >= set(range(hand.start)) | set(range(hand.stop + 1, len(frames)))  # a 1 s hold: every frame read
    assert skipping.stats.settled_skips == 0


def test_a_quiet_table_is_only_rechecked_and_a_face_read_right_at_last_still_corrects_it():
    # 5 s of a still table whose 7H is read 7D from 2.5 s on (recognition only then got it right)
    still = [table(SIZE, seed=i) for i in range(150)]
    late = lambda t: "7H" if t < 2.5 else "7D"  # noqa: E731
    skipping, given = _run(_Recogniser(name=late, where=lambda t: 100.0), still)
    everything, given_always = _run(_Recogniser(always=True, name=late, where=lambda t: 100.0), still)
    assert [(s.cards[0].card, round(s.cards[0].confidence, 2), s.glance) for s in given] == [
        (s.cards[0].card, round(s.cards[0].confidence, 2), s.glance) for s in given_always] == [
        ("7H", 0.97, True), ("7H", 0.97, False), ("7D", 0.97, True), ("7D", 0.97, False)]
    # the correction comes at most two rechecks later: a vote on one recheck that read 7H and one that read 7D
    # does not clearly contradict the 7H given (Stabiliser's hysteresis), the next one does
    assert given[2].t - given_always[2].t <= 2 * skipping.recheck_s
    read = sorted(skipping.reader.read_at)
    quiet, recheck = round(skipping.quiet_s * FPS), round(skipping.recheck_s * FPS)
    assert read[:quiet] == list(range(quiet))  # every frame of the first quiet_s
    assert [n for n in read if quiet <= n < quiet + recheck - 1] == []  # then a recheck every recheck_s ...
    differs = round(2.5 * FPS) + 2 * recheck
    assert set(range(differs, differs + 5)) <= set(read)  # ... and every frame once the rechecks disagree
    assert skipping.stats.settled_skips == len(still) - len(read) > 30
