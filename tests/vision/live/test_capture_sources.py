"""Capture sources with real OpenCV: a video file written and read back, a folder of images, a local
MJPEG camera, and the messages for everything a user can get wrong."""

import os
import time

import cv2
import numpy as np
import pytest
from live_frames import MjpegServer, table

from vision.capture import (BadFrame, CaptureError, EndOfStream, FolderSource, NetworkSource, VideoFileSource,
                            open_source)


def _write_video(path, count, fps=15.0, size=(320, 240)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    assert writer.isOpened()
    frames = []
    for i in range(count):
        image = table(size, seed=i)
        cv2.rectangle(image, (10 + 12 * i, 10), (30 + 12 * i, 40), (0, 0, 255), -1)  # a marker that moves each frame
        frames.append(image)
        writer.write(image)
    writer.release()
    return frames


def test_a_video_file_reads_back_frame_by_frame_at_its_own_rate(tmp_path):
    path = tmp_path / "game.avi"
    written = _write_video(path, 12)
    source = open_source(str(path))
    assert isinstance(source, VideoFileSource)
    assert source.frame_interval == pytest.approx(1 / 15)
    read = []
    with pytest.raises(EndOfStream, match="ended after 12 frames"):
        while True:
            read.append(source.read())
    assert len(read) == 12
    for original, back in zip(written, read):
        assert back.shape == (240, 320, 3)
        assert np.abs(back.astype(int) - original).mean() < 4  # MJPEG is lossy, but it is the same picture
    # the moving marker puts each frame in its place: frame i matches written frame i better than any other
    for i, back in enumerate(read):
        errors = [np.abs(back.astype(int) - w).mean() for w in written]
        assert int(np.argmin(errors)) == i
    source.close()


def test_a_looping_video_starts_again_and_fps_overrides_the_file(tmp_path):
    path = tmp_path / "loop.avi"
    _write_video(path, 3)
    source = open_source(str(path), fps=5, loop=True)
    assert source.frame_interval == pytest.approx(0.2)
    assert [source.read().shape for _ in range(7)] == [(240, 320, 3)] * 7


def test_a_folder_plays_its_images_in_natural_order_and_skips_a_damaged_one(tmp_path):
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame{n}.png"), np.full((48, 64, 3), n * 20, np.uint8))
    (tmp_path / "frame3.jpg").write_bytes(b"not a jpeg at all")
    (tmp_path / "notes.txt").write_text("ignored")
    source = open_source(str(tmp_path), fps=4)
    assert isinstance(source, FolderSource) and source.frame_interval == 0.25
    assert [p.name for p in source.files] == ["frame1.png", "frame2.png", "frame3.jpg", "frame10.png"]
    assert source.read()[0, 0, 0] == 20
    assert source.read()[0, 0, 0] == 40
    with pytest.raises(BadFrame, match="frame3.jpg .*not a readable image"):
        source.read()
    assert source.read()[0, 0, 0] == 200
    with pytest.raises(EndOfStream, match="after 4 images"):
        source.read()


@pytest.mark.parametrize("spec, message", [
    ("", "no capture source given"),
    ("missing-game.avi", "no such file or folder: missing-game.avi$"),
    ("-1", "indexes count from 0"),
    ("/no/such/dir/game.avi", r"the folder /no/such/dir does not exist either"),
    ("rtsp:/192.168.1.20/live", r"malformed camera URL .*expected rtsp://host"),
    ("http://", "names no host"),
    ("http://phone.local:http/video", "malformed camera URL"),
    ("rtsp://cam:99999/live", "Port out of range"),
    ("ftp://phone.local/video", "unsupported camera URL scheme 'ftp'"),
    ("demo:chess", "no game named 'chess'"),
])
def test_each_bad_spec_gets_a_message_that_says_what_is_wrong(spec, message):
    with pytest.raises(CaptureError, match=message):
        open_source(spec)


def test_a_webcam_index_that_does_not_open_says_so():
    with pytest.raises(CaptureError, match=r"webcam 57 did not open: no camera has that index.*\(.*\)"):
        open_source("57")


def test_a_file_that_is_not_a_video_is_refused(tmp_path):
    path = tmp_path / "notes.avi"
    path.write_text("this is not a video")
    with pytest.raises(CaptureError, match="not a video OpenCV can read"):
        open_source(str(path))


def test_a_folder_without_images_is_refused(tmp_path):
    (tmp_path / "readme.txt").write_text("no pictures here")
    with pytest.raises(CaptureError, match=r"holds no images \(.png"):
        open_source(str(tmp_path))


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads every folder")
def test_a_folder_that_cannot_be_listed_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        with pytest.raises(CaptureError, match="cannot read the folder .*permission denied"):
            open_source(str(locked))
    finally:
        locked.chmod(0o755)


def test_a_password_in_a_camera_url_never_shows_in_messages():
    with pytest.raises(CaptureError) as caught:
        open_source("rtsp://ann:hunter2@127.0.0.1:9/live")  # port 9 (discard): nothing answers
    assert "hunter2" not in str(caught.value) and "ann:***@127.0.0.1:9" in str(caught.value)


def test_an_http_mjpeg_camera_gives_frames():
    server = MjpegServer()
    try:
        started = time.monotonic()
        source = open_source(server.url)
        assert isinstance(source, NetworkSource) and source.frame_interval is None
        frames = [source.read() for _ in range(5)]
        assert all(f.shape == (120, 160, 3) for f in frames)
        assert time.monotonic() - started < 5
        source.close()
    finally:
        server.close()
