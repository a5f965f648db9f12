"""The capture thread with real threads: newest frame only, a camera unplugged and back, garbage frames,
a network camera that drops out, and a clean stop."""

import threading
import time

import cv2
import numpy as np
import pytest
from live_frames import FakeCamera, MjpegServer, read_number, wait_until

from vision.capture import RETRYING, RUNNING, STOPPED, Backoff, CaptureThread, open_source

FAST = Backoff(first_s=0.02, factor=2.0, max_s=0.08)


@pytest.fixture
def thread_errors():
    """Exceptions that escape any thread during the test (there must be none)."""
    caught, previous = [], threading.excepthook
    threading.excepthook = lambda args: caught.append(args.exc_value)
    yield caught
    threading.excepthook = previous


def test_a_slow_consumer_gets_the_newest_frame_and_the_rest_are_dropped_not_queued():
    camera = FakeCamera(period_s=0.002)
    with CaptureThread(camera) as capture:
        got = []
        frame = None
        for _ in range(5):
            frame = capture.next_frame(after=frame.number if frame else 0, timeout=2)
            assert frame is not None
            got.append(frame)
            time.sleep(0.05)  # a slow pipeline: ~25 frames arrive meanwhile
        newest = capture.latest()
        state = capture.state
    numbers = [f.number for f in got]
    assert numbers == sorted(numbers) and all(b - a > 5 for a, b in zip(numbers, numbers[1:]))
    assert newest.number - got[-1].number > 5  # while we slept, the slot kept moving on
    assert all(read_number(f.image) == f.number for f in got)  # each frame is the one read with that number
    assert state.frames_dropped > 20 and state.frames_read >= newest.number
    times = [f.t for f in got]
    assert times == sorted(times) and times[-1] <= time.monotonic()
    assert not got[0].image.flags.writeable  # shared between consumers: read-only


def test_an_unplugged_camera_is_retried_with_backoff_and_resumes_when_back(thread_errors):
    camera = FakeCamera(["frame"] * 5 + ["lost"])
    changes = []
    capture = CaptureThread(camera, Backoff(first_s=0.01, factor=2.0, max_s=0.04), on_change=changes.append)
    with capture:
        assert wait_until(lambda: capture.state.status == RETRYING and capture.state.attempt >= 4)
        before = capture.state.frames_read
        assert capture.next_frame(after=before, timeout=0.1) is None  # nothing new while unplugged
        retrying = capture.state
        assert retrying.reason == "fake camera still unplugged"
        camera.unplugged.clear()  # plugged back in
        resumed = capture.next_frame(after=before, timeout=2)
        assert resumed is not None and capture.state.status == RUNNING and capture.state.reason == ""
    statuses = [s.status for s in changes]
    assert statuses[:3] == ["running", "retrying", "retrying"] and "running" in statuses[3:]
    delays = [s.retry_in_s for s in changes if s.status == RETRYING]
    assert delays[:4] == [0.01, 0.02, 0.04, 0.04]  # doubling, capped
    assert changes[1].reason == "fake camera unplugged" and retrying.attempt >= 4
    assert camera.reopens >= 4 and capture.state.status == STOPPED and camera.closed
    assert thread_errors == []


def test_any_exception_from_the_source_is_a_reason_to_retry_never_a_crash(thread_errors):
    camera = FakeCamera(["frame", RuntimeError("USB controller reset"), "frame"])
    with CaptureThread(camera, FAST) as capture:
        assert wait_until(lambda: capture.state.frames_read >= 3)
        assert capture.alive
    retrying = [s for s in capture.history() if s.status == RETRYING]
    assert retrying and retrying[0].reason == "fake camera failed: RuntimeError: USB controller reset"
    assert thread_errors == []


def test_garbage_frames_are_rejected_with_a_reason_and_the_stream_goes_on(thread_errors):
    good = FakeCamera().frame
    script = [good(1), None, np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8),
              np.zeros((100, 50, 3), np.uint8), np.zeros((0, 0, 3), np.uint8), "not an image",
              np.zeros((240, 320, 3), np.float32), np.zeros((240, 320, 3, 2), np.uint8),
              np.full((240, 320), 7, np.uint8), good(10)]
    camera = FakeCamera(script, period_s=0.03)  # slow enough for the consumer to take every frame
    seen = []
    with CaptureThread(camera) as capture:
        frame = None
        while len(seen) < 4:
            frame = capture.next_frame(after=frame.number if frame else 0, timeout=2)
            assert frame is not None
            seen.append(frame)
            capture.latest()
        state = capture.state
    assert state.frames_rejected == 6 and state.status in (RUNNING, STOPPED)
    # the random-noise frame is a valid image (the stabiliser will call it motion); the grey one becomes BGR
    assert np.array_equal(seen[1].image, script[2])
    assert seen[2].image.shape == (240, 320, 3) and seen[2].image[5, 5].tolist() == [7, 7, 7]
    assert state.last_rejected == "the source gave an array of shape (240, 320, 3, 2), not an image"
    assert thread_errors == []


def test_each_kind_of_garbage_has_its_own_message():
    capture = CaptureThread(FakeCamera())
    capture._normalise(np.zeros((240, 320, 3), np.uint8))  # the stream's size is now 320x240
    problems = [capture._normalise(bad)[1] for bad in (
        None, "junk", np.zeros((0, 3), np.uint8), np.zeros((240, 320, 3), np.float64),
        np.zeros((240, 320, 5), np.uint8), np.zeros((100, 50, 3), np.uint8))]
    assert problems == ["the source gave no image (None)", "the source gave a str, not an image",
                        "the source gave an empty image (shape (0, 3))",
                        "the source gave float64 pixels; frames are 8-bit",
                        "the source gave an array of shape (240, 320, 5), not an image",
                        "a 50x100 frame in a 320x240 stream"]


def test_a_new_frame_size_that_persists_is_accepted_as_the_cameras_new_resolution():
    big = [np.full((240, 320, 3), 50, np.uint8)] * 2
    camera = FakeCamera(big, size=(160, 120))  # after two 320x240 frames it gives 160x120 ones for good
    with CaptureThread(camera, resize_after=4) as capture:
        frame = wait_until(lambda: (f := capture.latest()) is not None and f.image.shape == (120, 160, 3) and f)
        assert frame
        state = capture.state
    assert state.frames_rejected == 3
    assert any(s.reason == "the frame size changed from 320x240 to 160x120" for s in capture.history())


def test_a_run_of_garbage_counts_as_a_lost_camera_and_is_retried():
    camera = FakeCamera(["frame"] + [None] * 5)
    with CaptureThread(camera, FAST, lost_after=5) as capture:
        assert wait_until(lambda: capture.state.frames_read >= 3)
    retries = [s for s in capture.history() if s.status == RETRYING]
    assert retries and retries[0].reason == "fake camera: 5 bad frames in a row (the source gave no image (None))"


def test_the_end_of_a_video_stops_the_thread_and_says_why(tmp_path):
    path = tmp_path / "short.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 50.0, (64, 48))
    for i in range(10):
        writer.write(np.full((48, 64, 3), 20 * i, np.uint8))
    writer.release()
    capture = CaptureThread(open_source(str(path))).start()
    started = time.monotonic()
    assert wait_until(lambda: capture.state.status == STOPPED, timeout=3)
    elapsed = time.monotonic() - started
    assert capture.state.reason.endswith("ended after 10 frames") and capture.state.frames_read == 10
    assert elapsed >= 0.15  # played at its own 50 fps (10 frames: 0.2 s), not as fast as it decodes
    assert capture.next_frame(after=10, timeout=1) is None  # a stopped thread answers at once
    assert not capture.alive or wait_until(lambda: not capture.alive)


def test_stop_is_prompt_even_while_waiting_to_retry():
    camera = FakeCamera(["lost"])
    capture = CaptureThread(camera, Backoff(first_s=30, max_s=30)).start()
    assert wait_until(lambda: capture.state.status == RETRYING)
    started = time.monotonic()
    capture.stop()
    assert time.monotonic() - started < 1 and not capture.alive and capture.state.status == STOPPED


def test_a_network_camera_that_drops_out_is_reconnected(thread_errors):
    server = MjpegServer()
    try:
        with CaptureThread(open_source(server.url), FAST) as capture:
            first = capture.next_frame(timeout=5)
            assert first is not None and first.image.shape == (120, 160, 3)
            server.unplug()
            assert wait_until(lambda: capture.state.status == RETRYING, timeout=10)
            assert wait_until(lambda: capture.state.attempt >= 2, timeout=5)  # refused while the camera is off
            server.plug()
            assert wait_until(lambda: capture.state.status == RUNNING, timeout=10)
            before = capture.state.frames_read
            assert capture.next_frame(after=before, timeout=5) is not None
        assert "camera http://127.0.0.1" in [s for s in capture.history() if s.status == RETRYING][0].reason
    finally:
        server.close()
    assert thread_errors == []
