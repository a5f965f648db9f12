"""Capture and stabilisation together, in real time: a recorded video of a hand passing over the table,
played by the capture thread and judged by the stabiliser on the frames' monotonic timestamps."""

import cv2
from live_frames import table, with_hand

from vision.capture import STOPPED, CaptureThread, open_source
from vision.stabilise import Stabiliser

FPS = 60.0
SIZE = (640, 360)


def test_a_recorded_hand_gives_one_moment_before_it_and_one_after_it_has_gone(tmp_path):
    path = tmp_path / "hand.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    frames = [table(SIZE, seed=i) for i in range(48)]  # 0.8 s still
    for i in range(36):  # 0.6 s of a hand reaching in and back out
        frames.append(with_hand(table(SIZE, seed=i), 0.3 + 0.01 * i, 0.9 - 0.012 * min(i, 35 - i)))
    frames += [table(SIZE, seed=i) for i in range(60)]  # 1 s still
    for frame in frames:
        writer.write(frame)
    writer.release()

    stabiliser, moments, hand_seen_at = Stabiliser(), [], []
    with CaptureThread(open_source(str(path))) as capture:
        frame = None
        while True:
            frame = capture.next_frame(after=frame.number if frame else 0, timeout=2)
            if frame is None:
                break
            if 48 < frame.number <= 84:
                hand_seen_at.append(frame.t)
            moment = stabiliser.push(frame.t, frame.image)
            if moment is not None:
                moments.append((frame.number, moment))
        assert capture.state.status == STOPPED and capture.state.frames_read == len(frames)
    assert len(moments) == 2
    (first_number, first), (second_number, second) = moments
    assert first_number < 48 and 0.4 <= first.t - first.still_since < 0.6
    assert second_number > 84 and second.still_since >= max(hand_seen_at)  # not while the hand was there
    assert 0.4 <= second.t - second.still_since < 0.6  # and soon after it left
