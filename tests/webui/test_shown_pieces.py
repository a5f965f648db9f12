"""Players' tokens and pyramid colours shown to the camera (webui.registered_pieces), through the real API.

The pictures are rendered tables (vision.synth): the printed mat of the game with one token alone
on it, with nothing, with two tokens, and later with the token elsewhere beside another player's.
They reach the game as a snapshot's frame, or from a camera that shows whichever picture the test
chooses (put in place of open_source, as no real camera can be staged on cue), read by the real
camera runner, TableReader and pieces reader.
"""

from __future__ import annotations

import base64
import math
import time

import cv2
import numpy as np
import pytest

import webui.camera_runner as camera_runner
import webui.live as live_api
from calibration.homography import fit_markers
from calibration.markers import detect_markers
from calibration.mats import mat_of, mat_options
from referee import games
from vision.synth.render import render
from vision.synth.scene import Camera, Effects, Light, MatObject, PyramidObject, Scene, Surface, TokenObject
from vision.table_reader import GamePieces
from webui import create_app

PLAYERS = ["ann", "bob", "cat"]
RED, BLUE = (40, 40, 200), (200, 90, 30)
LATER_MM = (290.0, 90.0)  # where ann's token stands later in the game


def _mat_centre(game):
    layout = mat_of(game)
    ox, oy = layout.origin_on_paper
    return layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy


def _table(game, tokens=(), pyramids=(), seed=1) -> np.ndarray:
    """The game's A3 mat seen by a webcam 650 mm away, with these pieces on it."""
    cx, cy = _mat_centre(game)
    options = ",".join(f"{k}:{v}" for k, v in mat_options(game).items())
    scene = Scene(surface=Surface("wood", (60, 105, 160)), camera=Camera((cx, cy), 650, 20, hfov_deg=65),
                  light=Light(), effects=Effects(jpeg_quality=85), mat=MatObject(game.type.name, "A3", options),
                  tokens=list(tokens), pyramids=list(pyramids), seed=seed)
    return render(scene).image


def _pawn(label, colour, x, y):
    return TokenObject(label, x, y, colour=colour, shape="pawn", radius_mm=8, height_mm=22)


@pytest.fixture(scope="module")
def tables():
    """Pouches tables: ann's red pawn alone, nothing, ann's and bob's pawns, and later ann's pawn
    elsewhere beside bob's (bob's never shown)."""
    game = games.get("pouches", players=PLAYERS)
    cx, cy = _mat_centre(game)
    return {"alone": _table(game, [_pawn("ann", RED, cx - 40, cy)]),
            "empty": _table(game),
            "two": _table(game, [_pawn("ann", RED, cx - 40, cy), _pawn("bob", BLUE, cx + 60, cy + 30)]),
            "later": _table(game, [_pawn("ann", RED, *LATER_MM), _pawn("bob", BLUE, cx - 60, cy + 40)], seed=2)}


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def _show(client, game_id: str, image: np.ndarray) -> None:
    """The picture becomes the game's latest camera picture (a snapshot of an empty table with it as frame)."""
    frame = base64.b64encode(_jpeg(image)).decode()
    response = client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": {"t": 0.0}, "frame": frame})
    assert response.status_code == 200, response.get_json()


def _start(client, game="pouches", players=PLAYERS, **more) -> str:
    response = client.post("/api/games", json={"game": game, "players": players, **more})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


# -- registering from the latest picture --
def test_a_token_shown_alone_is_registered_kept_and_read_again_after_a_restart(client, app, tables, tmp_path):
    game_id = _start(client)
    _show(client, game_id, tables["alone"])
    response = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"})  # pawn, 8 mm, 22 mm by default
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["registered"] == {"kind": "token", "label": "ann", "picture": "token-001.jpg",
                                                  "shape": "pawn", "radius_mm": 8.0, "height_mm": 22.0}
    pieces = client.get(f"/api/games/{game_id}").get_json()["pieces"]
    assert pieces == {"tokens": [{"kind": "token", "label": "ann", "shape": "pawn", "radius_mm": 8.0,
                                  "height_mm": 22.0, "picture": f"/api/games/{game_id}/pieces/token-001.jpg"}],
                      "colours": [], "problems": []}
    picture = client.get(pieces["tokens"][0]["picture"])
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR).shape == (720, 1280, 3)
    assert client.get(f"/api/games/{game_id}/pieces/../{game_id}.json").status_code == 404

    # a restarted server resumes the game with its shown token, and its pieces step reads it later in the game
    folder = app.extensions["tableside.games"].folder
    app.extensions["tableside.games"].close()
    again = create_app({"TESTING": True, "GAMES_FOLDER": str(folder)}, instance_path=app.instance_path)
    try:
        resumed = again.test_client().get(f"/api/games/{game_id}").get_json()["pieces"]
        assert [t["label"] for t in resumed["tokens"]] == ["ann"] and resumed["problems"] == []
        live = again.extensions["tableside.games"].get(game_id)
        game = live.game
        later = tables["later"]
        calibration = fit_markers(detect_markers(later), mat_of(game), (1280, 720))
        _, _, tokens = live.pieces.game_pieces("pouches", mat_of(game))(later, calibration)
        assert [t.label for t in tokens] == ["ann"]  # bob's pawn was never shown: not read as anybody's
        assert math.dist(tokens[0].center_mm, LATER_MM) < 5.0
    finally:
        again.extensions["tableside.games"].close()


def test_showing_again_replaces_the_token_and_its_picture(client, app, tables):
    game_id = _start(client)
    _show(client, game_id, tables["alone"])
    assert client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"}).status_code == 201
    again = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann", "height_mm": 21.5})
    assert again.status_code == 201, again.get_json()
    tokens = again.get_json()["pieces"]["tokens"]
    assert [(t["label"], t["height_mm"], t["picture"].rsplit("/", 1)[1]) for t in tokens] == \
        [("ann", 21.5, "token-002.jpg")]
    folder = app.extensions["tableside.games"].pieces_path(game_id)
    assert sorted(p.name for p in folder.iterdir()) == ["pieces.json", "token-002.jpg"]


def test_a_token_the_camera_cannot_tell_from_one_already_shown_is_refused(client, tables):
    game_id = _start(client)
    _show(client, game_id, tables["alone"])
    assert client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"}).status_code == 201
    refused = client.post(f"/api/games/{game_id}/tokens", json={"label": "cat"})  # ann's red pawn again
    assert refused.status_code == 422
    assert refused.get_json() == {"error": "token 'cat': it looks too much like ann's token for the camera to "
                                           "tell them apart; use a token of another colour or shape"}
    _show(client, game_id, _bob_alone(tables))  # a blue pawn is told from ann's red one
    response = client.post(f"/api/games/{game_id}/tokens", json={"label": "bob"})
    assert response.status_code == 201, response.get_json()
    assert [t["label"] for t in response.get_json()["pieces"]["tokens"]] == ["ann", "bob"]


@pytest.mark.parametrize("table, words", [
    ("empty", "token 'ann': no pawn of radius 8.0 mm and height 22.0 mm stands alone in view; "
              "put just that token down in front of the camera"),
    ("two", "token 'ann': more than one pawn stands in view; leave only ann's token on the table and press again"),
])
def test_a_picture_without_the_token_alone_is_refused_with_what_to_do(client, app, tables, table, words):
    game_id = _start(client)
    _show(client, game_id, tables[table])
    response = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"})
    assert response.status_code == 422
    assert response.get_json() == {"error": words}
    assert client.get(f"/api/games/{game_id}").get_json()["pieces"]["tokens"] == []
    assert not app.extensions["tableside.games"].pieces_path(game_id).exists()  # nothing kept


def test_no_picture_or_no_calibration_or_no_tokens_in_the_game_is_a_409(client, tables):
    game_id = _start(client)
    refused = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"})
    assert refused.status_code == 409 and refused.get_json()["error"].startswith("no camera picture yet")
    _show(client, game_id, np.full((720, 1280, 3), 128, np.uint8))  # no mat in view, none saved
    refused = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"})
    assert refused.status_code == 409
    assert refused.get_json()["error"] == ("the table is not calibrated: show the pouches mat's markers to the "
                                           "camera, or click the four corners on the calibration page")
    mongoose = _start(client, "mongoose", ["ann", "bob"])
    refused = client.post(f"/api/games/{mongoose}/tokens", json={"label": "ann"})
    assert refused.status_code == 409 and "cards only" in refused.get_json()["error"]
    refused = client.post(f"/api/games/{game_id}/colours", json={"name": "olive"})
    assert refused.status_code == 409 and "without pyramids" in refused.get_json()["error"]


@pytest.mark.parametrize("body, error", [
    ({}, "label is required"),
    ({"label": "dan"}, "label is the player whose token it is: one of ann, bob, cat; got 'dan'"),
    ({"label": "ann", "shape": "cube"}, "shape is pawn or disc, got 'cube'"),
    ({"label": "ann", "radius_mm": "8"}, 'radius_mm is a number of millimetres from 2 to 40, got "8"'),
    ({"label": "ann", "height_mm": 0}, "height_mm is a number of millimetres from 1 to 80, got 0"),
    ({"label": "ann", "radius_mm": True}, "radius_mm is a number of millimetres from 2 to 40, got true"),
    ({"label": "ann", "colour": "red"}, "unknown field colour; the fields are height_mm, label, radius_mm, shape"),
])
def test_malformed_token_requests_are_refused_with_400(client, body, error):
    game_id = _start(client)
    response = client.post(f"/api/games/{game_id}/tokens", json=body)
    assert response.status_code == 400 and response.get_json() == {"error": error}


def test_malformed_colour_requests_are_refused_with_400(client):
    game_id = _start(client, "pungo", ["ann", "bob"])
    for body, error in [({}, "name is required"),
                        ({"name": "Olive!"}, "name is the colour's name, one lower-case word such as olive; "
                                             "got 'Olive!'"),
                        ({"name": "olive", "stack": "olive2"}, "unknown field stack; the fields are name")]:
        response = client.post(f"/api/games/{game_id}/colours", json=body)
        assert response.status_code == 400 and response.get_json() == {"error": error}
    assert client.post(f"/api/games/{game_id}/colours", data="olive").status_code == 415


def test_a_pyramid_colour_shown_alone_is_learnt_read_later_and_two_pyramids_are_refused(client, app):
    game = games.get("pungo", players=["ann", "bob"])
    cx, cy = _mat_centre(game)
    game_id = _start(client, "pungo", ["ann", "bob"])
    _show(client, game_id, _table(game, pyramids=[PyramidObject("olive2", cx, cy, angle=20.0),
                                                  PyramidObject("olive1", cx + 70, cy + 20)]))
    refused = client.post(f"/api/games/{game_id}/colours", json={"name": "olive"})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("colour 'olive': show exactly one pyramid of it alone in front of the "
                                           "camera; then press again")
    _show(client, game_id, _table(game, pyramids=[PyramidObject("olive2", cx, cy, angle=20.0)]))
    response = client.post(f"/api/games/{game_id}/colours", json={"name": "olive"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["pieces"]["colours"] == [
        {"kind": "colour", "label": "olive", "picture": f"/api/games/{game_id}/pieces/colour-001.jpg"}]

    # later in the game, the camera runner's pieces step reads the olive pyramid as olive, where the
    # standard palette alone takes it for yellow
    later = _table(game, pyramids=[PyramidObject("olive2", cx - 60, cy + 30, angle=-10.0),
                                   PyramidObject("red3", cx + 50, cy - 20)], seed=4)
    calibration = fit_markers(detect_markers(later), mat_of(game), (1280, 720))
    live = app.extensions["tableside.games"].get(game_id)

    def olive_spot(pyramids):
        return ["+".join(map(str, p.stack)) for p in pyramids if math.dist(p.center_mm, (cx - 60, cy + 30)) < 5.0]

    assert olive_spot(live.pieces.game_pieces("pungo", mat_of(game))(later, calibration)[0]) == ["olive2"]
    assert olive_spot(GamePieces("pungo", mat_of(game))(later, calibration)[0]) != ["olive2"]


# -- a game refereed from its camera --
class StagedCamera:
    """A live camera showing ``picture`` (the test changes it) about 20 times a second."""

    frame_interval = None
    description = "staged test camera"

    def __init__(self, picture: np.ndarray):
        self.picture = picture

    def read(self):
        time.sleep(0.05)
        return self.picture.copy()

    def reopen(self):
        pass

    def close(self):
        pass


@pytest.fixture
def staged(monkeypatch, tables):
    """Games started with camera "staged:0" see the StagedCamera returned, ann's token alone first."""
    camera = StagedCamera(tables["alone"])

    def open_staged(spec, **_):
        assert spec == "staged:0"
        return camera

    monkeypatch.setattr(live_api, "open_source", open_staged)
    monkeypatch.setattr(camera_runner, "open_source", open_staged)
    return camera


def _wait_for(what, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (value := what()):
        assert time.monotonic() < deadline, f"gave up after {timeout} s"
        time.sleep(0.1)
    return value


def test_a_token_shown_to_a_running_camera_is_read_from_its_later_frames(client, app, staged, tables):
    staged.picture = tables["later"]
    game_id = _start(client, camera="staged:0")
    runner = app.extensions["tableside.cameras"].get(game_id)
    _wait_for(lambda: runner.status()["calibrated"])
    assert runner.pipeline.stats.last.snapshot.tokens == ()  # no token shown yet: none is read
    _stage(app, game_id, staged, tables["alone"])
    response = client.post(f"/api/games/{game_id}/tokens", json={"label": "ann"})
    assert response.status_code == 201, response.get_json()

    staged.picture = tables["later"]  # the game goes on: ann's token elsewhere, beside bob's (never shown)
    assert client.get(f"/api/games/{game_id}").get_json()["pieces"]["problems"] == []

    def ann_seen():
        reading = runner.pipeline.stats.last
        tokens = reading.snapshot.tokens if reading is not None and reading.snapshot is not None else ()
        return [t for t in tokens if math.dist(t.center_mm, LATER_MM) < 5.0]

    seen = _wait_for(ann_seen)
    assert [t.label for t in seen] == ["ann"]
    assert [t.label for t in runner.pipeline.stats.last.snapshot.tokens] == ["ann"]
    client.post(f"/api/games/{game_id}/camera/stop")


# -- the live page --
def test_the_live_page_registers_a_token_and_stops_and_starts_the_camera(server, browser, staged, tables):
    url, app = server
    client = app.test_client()
    game_id = _start(client, camera="staged:0")
    runner = app.extensions["tableside.cameras"].get(game_id)
    _wait_for(lambda: runner.status()["calibrated"])
    page = browser.new_page()
    try:
        page.goto(f"{url}/play/{game_id}")
        page.wait_for_selector("#camera-controls:not([hidden])")
        assert page.input_value("#token-radius") == "8" and page.input_value("#token-height") == "22"
        page.select_option("#token-player", "bob")
        _stage(app, game_id, staged, tables["empty"])
        assert _register(page) == "refused"
        assert "token 'bob': no pawn of radius 8.0 mm" in page.text_content("#pieces-result")
        _stage(app, game_id, staged, _bob_alone(tables))
        assert _register(page) == "registered", page.text_content("#pieces-result")
        assert page.text_content("#pieces-result") == "Registered bob's token."
        assert page.get_attribute("#pieces-list li", "data-label") == "bob"

        page.click("#camera-stop")
        page.wait_for_selector("#camera-status[data-status='stopped']")
        assert page.is_disabled("#camera-stop") and not page.is_disabled("#camera-start")
        page.click("#camera-start")
        page.wait_for_selector("#camera-status[data-status='running']")
        assert page.is_enabled("#camera-stop")
    finally:
        page.close()
        client.post(f"/api/games/{game_id}/camera/stop")


def _register(page) -> str:
    """Press Register; what the page said of it (registered or refused)."""
    page.evaluate("delete document.getElementById('pieces-result').dataset.outcome")
    page.click("#token-register")
    page.wait_for_selector("#pieces-result[data-outcome]")
    return page.get_attribute("#pieces-result", "data-outcome")


def _stage(app, game_id: str, camera: StagedCamera, picture: np.ndarray) -> None:
    """Put ``picture`` before the camera and wait until the game's latest picture is of it (where it
    differs from the one before, it is nearer to it)."""
    live = app.extensions["tableside.games"].get(game_id)
    before, camera.picture = camera.picture, picture
    changed = np.abs(picture.astype(np.int16) - before).max(axis=2) > 40

    def shown() -> bool:
        latest = cv2.imdecode(np.frombuffer(live.latest_frame(), np.uint8), cv2.IMREAD_COLOR).astype(np.int16)
        return np.abs(latest - picture)[changed].mean() < np.abs(latest - before)[changed].mean()

    if changed.any():
        _wait_for(shown)


def _bob_alone(tables) -> np.ndarray:
    game = games.get("pouches", players=PLAYERS)
    cx, cy = _mat_centre(game)
    return _table(game, [_pawn("bob", BLUE, cx + 30, cy - 20)], seed=3)
