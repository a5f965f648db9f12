"""A dashboard game refereed from its camera (webui.camera_runner), through the real API.

The cameras are real capture sources: folders of frames rendered by vision.synth (the demo
table's scripted Mongoose game on its printed mat; a table with no mat, for the saved-corners
calibration), read by the real TableReader. The lost camera is a source that stops and comes back,
put in place of open_source, since no real device can be unplugged on cue.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

import webui.camera_runner as camera_runner
import webui.live as live_api
from referee import playthrough
from vision.capture import SourceLost
from webui import create_app

ROOT = Path(__file__).resolve().parents[2]
FORFEIT = ROOT / "tests" / "referee" / "mongoose" / "playthroughs" / "forfeit.txt"
PLAYERS = ["ann", "bob"]


def wait_for(what, timeout: float = 30.0, every: float = 0.05):
    """Poll ``what()`` until it is truthy; its last value (failing the test on timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value or time.monotonic() > deadline:
            assert value, f"gave up after {timeout} s"
            return value
        time.sleep(every)


def camera_of(client, game_id: str) -> dict:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    return response.get_json()["camera"]


def drain(listener) -> list[dict]:
    items = []
    while not listener.events.empty():
        items.append(listener.events.get_nowait())
    return items


# -- a scripted game filmed on its mat --
@pytest.fixture(scope="module")
def mongoose_frames(tmp_path_factory):
    """The demo table's Mongoose game, frames 0-37 at 10 a second: the opening table (still),
    a hand dealing the pool, the twelve pool cards (still); and the truth of the last frame."""
    from vision.synth.demo import DemoSource

    folder = tmp_path_factory.mktemp("mongoose-frames")
    source = DemoSource("mongoose", size=(1280, 720), fps=10.0)
    for number in range(38):
        cv2.imwrite(str(folder / f"frame{number:03d}.jpg"), source.read(), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return folder, source.truth.snapshot


def test_a_game_started_with_a_folder_camera_is_refereed_from_its_frames(client, app, mongoose_frames):
    folder, truth = mongoose_frames
    listener = app.extensions["tableside.hub"].subscribe()
    started = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS, "camera": str(folder)})
    assert started.status_code == 201, started.get_json()
    game_id = started.get_json()["id"]

    camera = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c, timeout=60)
    assert camera["source"] == str(folder) and camera["running"] is False
    assert camera["message"] == f"folder {folder} ended after 38 images"
    # every frame it took was read; a slow machine takes fewer than the folder holds, never more
    assert 2 <= camera["frames_read"] <= camera["frames_captured"] == 38
    assert camera["calibrated"] is True and camera["calibration"] == "the mat's markers (A3)"
    assert camera["error"] is None
    assert camera["snapshots"] >= 1  # the table settled at least once and was handed to the referee

    live = app.extensions["tableside.games"].get(game_id)
    seen = live.last_snapshot()
    assert seen is not None  # the referee read a settled table
    frame = cv2.imdecode(np.frombuffer(client.get(f"/api/games/{game_id}/frame.jpg").data, np.uint8),
                         cv2.IMREAD_COLOR)
    assert frame.shape == (720, 1280, 3)  # the latest camera picture is served
    # the last settled table is the twelve pool cards and the face-down deck: most are read, in place
    found = [c for c in truth.cards if any(math.dist(c.center_mm, s.center_mm) < 15 for s in seen.cards)]
    assert len(found) >= 10, (sorted(c.card for c in truth.cards), sorted(str(s.card) for s in seen.cards))

    items = [item for item in drain(listener) if item["game"] == game_id]
    # the dealt pool was judged: read as a move, or as a question or flag when a card was misread
    judged = [item for item in items if item["kind"] in ("move", "question", "unrecognised", "violation")]
    moves = [item for item in judged if item["kind"] == "move"]
    assert judged and all(item["payload"]["source"] == "camera" for item in moves)
    news = [item for item in items if item["kind"] == "camera"]
    assert any(item["camera"]["calibration"] == "the mat's markers (A3)" for item in news)
    assert news[-1]["camera"]["status"] == "ended" and "ended after 38 images" in news[-1]["text"]
    assert all("seq" not in item for item in news)  # camera news is not a logged event


def test_the_mat_is_read_on_the_paper_its_markers_name(client, tmp_path):
    from table_pictures import mat_picture

    picture, _, _ = mat_picture("pouches", "A4")  # printed on A4, where A3 is assumed until markers show
    folder = tmp_path / "a4"
    folder.mkdir()
    for number in range(5):
        cv2.imwrite(str(folder / f"frame{number}.png"), picture)
    game_id = client.post("/api/games", json={"game": "pouches", "players": ["ann", "bob", "cat"],
                                              "camera": str(folder)}).get_json()["id"]
    camera = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c)
    assert camera["calibration"] == "the mat's markers (A4)" and camera["error"] is None


# -- a camera that cannot be opened --
@pytest.mark.parametrize("camera, words", [
    ("/no/such/folder/anywhere", "no such file or folder"),
    ("empty", "holds no images"),
    ("rtsp://", "names no host"),
])
def test_a_camera_that_cannot_be_opened_is_refused_and_no_game_is_created(client, app, tmp_path, camera, words):
    if camera == "empty":
        camera = str(tmp_path / "empty")
        Path(camera).mkdir()
    response = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS, "camera": camera})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(f"camera {camera!r} cannot be opened")
    assert words in response.get_json()["error"]
    assert client.get("/api/games").get_json() == []
    folder = app.extensions["tableside.games"].folder
    assert not folder.exists() or list(folder.iterdir()) == []


def test_run_camera_false_keeps_the_camera_for_the_calibration_page_only(client):
    response = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS, "camera": "/not/opened",
                                               "run_camera": False})
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    assert camera_of(client, game_id) is None  # recorded, not read: no runner
    assert client.get(f"/api/games/{game_id}").get_json()["camera_source"] == "/not/opened"
    refused = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS, "camera": "0",
                                              "run_camera": "yes"})
    assert refused.status_code == 400 and refused.get_json()["error"] == 'run_camera is true or false, got text ("yes")'


# -- a camera lost mid-game --
class FlakyCamera:
    """A live camera of grey frames that is unplugged after ``good`` frames; ``reopen`` fails
    ``failures`` times, then it is back. Only the test's ``unplug`` event decides when."""

    frame_interval = None
    description = "flaky test camera"

    def __init__(self, failures: int = 1):
        self.failures, self.unplugged, self.reads, self.reopened = failures, False, 0, 0
        self.closed = False

    def read(self):
        time.sleep(0.03)  # a camera's pace: about 30 frames a second
        if self.unplugged:
            raise SourceLost("flaky test camera was unplugged")
        self.reads += 1
        return np.full((360, 640, 3), 128, np.uint8)

    def reopen(self):
        if self.failures > 0:
            self.failures -= 1
            raise SourceLost("flaky test camera is still unplugged")
        self.unplugged = False
        self.reopened += 1

    def close(self):
        self.closed = True


@pytest.fixture
def flaky(monkeypatch):
    cameras = []

    def open_flaky(spec, **_):
        assert spec == "flaky:0"
        cameras.append(FlakyCamera())
        return cameras[-1]

    monkeypatch.setattr(live_api, "open_source", open_flaky)
    monkeypatch.setattr(camera_runner, "open_source", open_flaky)
    return cameras


def test_a_camera_lost_mid_game_is_reported_retried_and_comes_back(client, app, flaky):
    listener = app.extensions["tableside.hub"].subscribe()
    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": "flaky:0"}).get_json()["id"]
    before = wait_for(lambda: (c := camera_of(client, game_id))["frames_read"] >= 3 and c)
    assert before["status"] == "running" and before["calibrated"] is False
    assert before["calibration"] is None and "searching for the mat" in before["text"]

    flaky[0].unplugged = True
    news = []  # the camera events so far, in order

    def camera_news(status: str) -> list[dict]:
        news.extend(item for item in drain(listener) if item["kind"] == "camera")
        return [item for item in news if item["camera"]["status"] == status]

    lost = wait_for(lambda: camera_news("retrying"))
    assert "flaky test camera was unplugged" in lost[0]["camera"]["message"]
    assert lost[0]["text"].startswith("camera lost, retrying: flaky test camera was unplugged (retry 1 in 0.5 s)")
    assert client.get(f"/api/games/{game_id}").status_code == 200  # the game goes on

    wait_for(lambda: news[-1]["camera"]["status"] == "running" if camera_news("running") else False, timeout=10)
    assert flaky[0].reopened == 1
    assert [item["camera"]["status"] for item in news[-3:]] == ["retrying", "retrying", "running"]
    read = camera_of(client, game_id)["frames_read"]
    after = wait_for(lambda: (c := camera_of(client, game_id))["frames_read"] > read + 2 and c)
    assert after["status"] == "running" and after["running"] is True
    assert after["frames_captured"] >= after["frames_read"] + after["frames_dropped"]  # each one taken or dropped


def test_the_camera_is_stopped_and_started_and_the_runner_stops_when_the_game_ends(client, app, flaky):
    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": "flaky:0"}).get_json()["id"]
    wait_for(lambda: camera_of(client, game_id)["frames_read"] >= 1)
    stopped = client.post(f"/api/games/{game_id}/camera/stop")
    assert stopped.status_code == 200 and stopped.get_json()["camera"]["status"] == "stopped"
    assert flaky[0].closed  # the camera is let go
    sidecar = app.extensions["tableside.games"].seating_path(game_id)
    assert json.loads(sidecar.read_text())["run_camera"] is False

    started = client.post(f"/api/games/{game_id}/camera/start")
    assert started.status_code == 200 and len(flaky) == 2
    assert json.loads(sidecar.read_text())["run_camera"] is True
    wait_for(lambda: camera_of(client, game_id)["status"] == "running")

    # the players enter the rest of a recorded game by hand: it ends, and so does the camera's work
    recorded = playthrough.load(FORFEIT)
    for line in recorded.lines:
        if line.illegal_rule is None:
            response = client.post(f"/api/games/{game_id}/enter", json={"action": line.action})
            assert response.status_code == 200, response.get_json()
    camera = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c)
    assert camera["message"] == "the game is over" and not camera["running"]
    over = client.post(f"/api/games/{game_id}/camera/start")
    assert over.status_code == 409 and "the game is over" in over.get_json()["error"]
    no_camera = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS}).get_json()["id"]
    refused = client.post(f"/api/games/{no_camera}/camera/start")
    assert refused.status_code == 409 and "without a camera" in refused.get_json()["error"]
    assert camera_of(client, no_camera) is None


def test_a_resumed_game_reads_its_camera_again(tmp_path, flaky):
    instance = str(tmp_path / "instance")
    first = create_app({"TESTING": True}, instance_path=instance)
    game_id = first.test_client().post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                                           "camera": "flaky:0"}).get_json()["id"]
    wait_for(lambda: camera_of(first.test_client(), game_id)["frames_read"] >= 1)
    first.extensions["tableside.games"].close()  # the server stops: its runners first, then the logs
    assert flaky[0].closed

    second = create_app({"TESTING": True}, instance_path=instance)  # the server restarted
    try:
        camera = wait_for(lambda: (c := camera_of(second.test_client(), game_id))["frames_read"] >= 1 and c)
        assert camera["status"] == "running" and len(flaky) == 2
    finally:
        second.extensions["tableside.games"].close()


def test_a_resumed_game_goes_on_from_the_frame_after_the_last_its_log_was_read_from(tmp_path, mongoose_frames):
    # a recorded camera played again from its first frame would show the referee the table's past
    folder, _ = mongoose_frames
    instance = str(tmp_path / "instance")
    first = create_app({"TESTING": True}, instance_path=instance)
    client = first.test_client()
    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": str(folder)}).get_json()["id"]
    wait_for(lambda: camera_of(client, game_id)["status"] == "ended", timeout=60)
    logged = first.extensions["tableside.games"].get(game_id).session.log.events()
    last_t = max(e.snapshot_t for e in logged if e.snapshot_t is not None)
    assert last_t < 3.7  # read before the folder's last frame (3.7 s at 10 a second): some frames are left
    first.extensions["tableside.games"].close()

    second = create_app({"TESTING": True}, instance_path=instance)  # the server restarted
    try:
        again = second.test_client()
        camera = wait_for(lambda: (c := camera_of(again, game_id))["status"] == "ended" and c, timeout=60)
        assert camera["frames_captured"] == 38 - (round(last_t * 10) + 1)  # only the frames after it
        resumed = second.extensions["tableside.games"].get(game_id).session.log.events()
        new = [e for e in resumed if e.seq > logged[-1].seq]
        assert all(e.snapshot_t is None or e.snapshot_t > last_t for e in new)  # its time goes on too
    finally:
        second.extensions["tableside.games"].close()


# -- calibration from four saved corners, without a mat --
AREA_MM = (500.0, 340.0)
CARDS = [("QH", 120.0, 110.0, 0.0), ("7S", 260.0, 170.0, 25.0), ("2D", 390.0, 230.0, -10.0)]
EDGE_CARDS = [("QH", 250.0, 50.0, 0.0), ("7S", 445.0, 170.0, 0.0), ("2D", 250.0, 290.0, 0.0)]


def table_without_mat(folder: Path, cards=CARDS, distance_mm: float = 750.0, distortion=(0.0, 0.0, 0.0, 0.0, 0.0)):
    """Twenty frames (2 s) of a table with ``cards`` and no mat in ``folder``, the measured area's corners
    in the picture (from the renderer's camera, as a player would click them) and that camera."""
    from vision.synth.render import camera_of as synth_camera
    from vision.synth.render import render
    from vision.synth.scene import Camera, CardObject, Scene

    scene = Scene(camera=Camera(target_mm=(AREA_MM[0] / 2, AREA_MM[1] / 2), distance_mm=distance_mm, tilt_deg=25.0,
                                distortion=distortion),
                  cards=[CardObject(card, x, y, angle) for card, x, y, angle in cards])
    picture = render(scene).image
    w, h = AREA_MM
    camera = synth_camera(scene)
    corners = camera.project(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    folder.mkdir(parents=True)
    for number in range(20):  # enough for three readings to vote on however many frames the machine drops
        cv2.imwrite(str(folder / f"frame{number}.png"), picture)
    cv2.imwrite(f"/tmp/camera_runner_{folder.name}.png", picture)
    return str(folder), corners.tolist(), camera


def placed_cards(client, app, camera: str, corners) -> tuple[dict, object]:
    """Save the clicked corners, start a Mongoose game on ``camera``, and read its frames to the end:
    (the camera status, the last settled snapshot)."""
    saved = client.post("/api/calibration/corners", json={"camera": camera, "corners": corners,
                                                           "width_mm": AREA_MM[0], "height_mm": AREA_MM[1]})
    assert saved.status_code == 201, saved.get_json()
    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": camera}).get_json()["id"]
    status = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c)
    return status, app.extensions["tableside.games"].get(game_id).last_snapshot()


def misplacement_mm(seen, cards=CARDS) -> list[float]:
    """How far from where the renderer put each card the nearest sighting's centre is."""
    return [min(math.dist(s.center_mm, (x, y)) for s in seen.cards) for _, x, y, _ in cards]


def test_saved_corners_place_the_cards_when_no_mat_is_in_view(client, app, tmp_path):
    camera, corners, _ = table_without_mat(tmp_path / "no-mat")
    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": camera}).get_json()["id"]
    searching = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c)
    assert searching["calibrated"] is False and searching["snapshots"] == 0  # no mat, nothing saved yet
    assert "no marker of the mongoose mat, A3 is visible" in searching["calibration_message"]

    saved = client.post("/api/calibration/corners", json={"camera": camera, "corners": corners,
                                                           "width_mm": AREA_MM[0], "height_mm": AREA_MM[1]})
    assert saved.status_code == 201, saved.get_json()
    assert client.post(f"/api/games/{game_id}/camera/start").status_code == 200
    status = wait_for(lambda: (c := camera_of(client, game_id))["status"] == "ended" and c)
    assert status["calibration"] == "the saved calibration" and status["snapshots"] >= 1

    seen = app.extensions["tableside.games"].get(game_id).last_snapshot()
    assert seen is not None and len(seen.cards) == len(CARDS)
    # each card where the renderer put it, in the clicked area's millimetres (cards are 63 mm wide)
    assert max(misplacement_mm(seen)) < 8.0, misplacement_mm(seen)


def test_corners_saved_while_the_camera_runs_are_taken_up_at_once(client, app, flaky):
    from calibration.homography import from_corners
    from calibration.store import save

    game_id = client.post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                              "camera": "flaky:0"}).get_json()["id"]
    searching = wait_for(lambda: (c := camera_of(client, game_id))["frames_read"] >= 2 and c)
    assert searching["calibration"] is None
    wrong_size = from_corners([[100, 50], [1180, 50], [1180, 670], [100, 670]], 400.0, 260.0, (1280, 720))
    save(wrong_size, app.instance_path)  # made for another resolution: not used, and the status says why
    stale = wait_for(lambda: "was made at 1280x720, the camera delivers 640x360" in
                     camera_of(client, game_id)["calibration_message"])
    assert stale
    save(from_corners([[100, 50], [540, 50], [540, 310], [100, 310]], 400.0, 260.0, (640, 360)), app.instance_path)
    calibrated = wait_for(lambda: (c := camera_of(client, game_id))["calibration"] == "the saved calibration" and c)
    assert calibrated["calibrated"] is True and calibrated["status"] == "running"


def test_the_saved_lens_model_straightens_a_distorting_camera(client, app, tmp_path):
    from calibration.intrinsics import CameraIntrinsics
    from calibration.store import CAMERA_FILENAME, save_intrinsics

    # a strong barrel lens, the cards at the middle of the area's edges, where four corners alone
    # place the table worst (by 15 to 20 mm here: the corners themselves are exact)
    camera, corners, lens = table_without_mat(tmp_path / "barrel", EDGE_CARDS, 550.0, (-0.5, 0.1, 0.0, 0.0, 0.0))
    _, without = placed_cards(client, app, camera, corners)
    assert min(misplacement_mm(without, EDGE_CARDS)) > 10.0, misplacement_mm(without, EDGE_CARDS)

    save_intrinsics(CameraIntrinsics(lens.K, lens.dist, (lens.width, lens.height)), app.instance_path)
    status, corrected = placed_cards(client, app, camera, corners)  # the same corners, through the lens model
    assert status["calibration"] == "the saved calibration"
    assert max(misplacement_mm(corrected, EDGE_CARDS)) < 8.0, misplacement_mm(corrected, EDGE_CARDS)
    assert Path(app.instance_path, CAMERA_FILENAME).is_file()


# -- the live page's camera line, in headless Chromium against a real server --
def test_the_live_page_shows_the_camera_lost_and_back(browser, tmp_path, flaky):
    from playwright.sync_api import expect

    from served import running

    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    try:
        with running(app) as url:
            game_id = app.test_client().post("/api/games", json={"game": "mongoose", "players": PLAYERS,
                                                                 "camera": "flaky:0"}).get_json()["id"]
            page = browser.new_page()
            page.goto(f"{url}/play/{game_id}")
            page.wait_for_selector("#live[data-connected=yes]", timeout=15_000)
            line = page.locator("#camera-status")
            expect(line).to_contain_text("camera running, searching for the mat", timeout=15_000)

            flaky[0].unplugged = True  # the news comes by /events: the line changes without a reload
            expect(line).to_have_attribute("data-status", "retrying", timeout=15_000)
            expect(line).to_contain_text("camera lost, retrying: flaky test camera was unplugged (retry 1 in 0.5 s)")
            expect(line).to_have_attribute("data-status", "running", timeout=15_000)
            page.close()
    finally:
        app.extensions["tableside.games"].close()
