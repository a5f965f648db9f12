"""The calibration check's API: what a camera sees of a mat, the rectified table, four clicked
corners, printable mats, and every way a request can be wrong.

Cameras here are folders holding one rendered picture (tests/webui/table_pictures.py), opened by
the real capture code; a network camera that never answers stands for one that hangs.
"""

from __future__ import annotations

import base64
import socket
import threading
import time

import cv2
import numpy as np
import pytest

from calibration import store
from calibration.markers import detect_markers
from calibration.rectify import rectified_to_table
from table_pictures import BOARD_MM, as_camera, board_camera, board_picture, board_texture, mat_picture
from webui import create_app
from webui.table_calibration import default_px_per_mm


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cameras")
    mat, layout, camera = mat_picture("pouches", "A4")
    board, board_corners = board_picture()
    covered = mat.copy()
    for marker_id in (layout.markers[0].id, layout.markers[4].id):  # a hand over two markers
        corners = camera.project(layout.marker(marker_id).corners_mm())
        cv2.fillConvexPoly(covered, np.round((corners - corners.mean(0)) * 1.5 + corners.mean(0)).astype(np.int32),
                           (70, 90, 110))
    return {"mat": as_camera(folder / "mat", mat), "layout": layout, "mat_picture": mat,
            "covered": as_camera(folder / "covered", covered),
            "board": as_camera(folder / "board", board), "board_corners": board_corners.tolist(),
            "empty": str((folder / "empty").mkdir() or folder / "empty"),
            "broken": _broken_camera(folder / "broken")}


def _broken_camera(folder):
    folder.mkdir()
    (folder / "frame.jpg").write_bytes(b"not a picture at all")
    return str(folder)


def decode(response) -> np.ndarray:
    assert response.status_code == 200 and response.mimetype == "image/jpeg", response.get_data(as_text=True)[:200]
    image = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def test_a_mat_in_view_is_named_with_its_markers_counted(client, pictures):
    status = client.get("/api/calibration/status", query_string={"camera": pictures["mat"], "game": "pouches"})
    body = status.get_json()
    assert status.status_code == 200, body
    ids = [m.id for m in pictures["layout"].markers]
    assert body["mat"] == {"game": "pouches", "paper": "A4", "title": "pouches mat, A4", "markers_seen": ids,
                           "markers_total": 6, "fits_game": True}
    assert body["image_size"] == [1280, 720]
    assert body["message"] == "the pouches mat (A4): 6 of its 6 markers seen"
    assert body["calibration"]["source"] == "mat" and body["calibration"]["rms_px"] < 0.5
    assert [m["id"] for m in body["markers"]] == ids and all(m["mine"] for m in body["markers"])
    assert body["rectified"].startswith("/api/calibration/rectified.jpg?")


def test_covered_markers_are_not_counted_and_the_wrong_game_is_said(client, pictures):
    query = {"camera": pictures["covered"], "game": "pungo"}
    body = client.get("/api/calibration/status", query_string=query).get_json()
    seen = [m.id for m in pictures["layout"].markers]
    del seen[4], seen[0]
    assert body["mat"]["markers_seen"] == seen and body["mat"]["fits_game"] is False
    assert body["message"].startswith("the pouches mat (A4): 4 of its 6 markers seen")
    assert "this is not the pungo mat" in body["message"]


def test_the_marker_view_outlines_each_marker_on_the_camera_picture(client, pictures):
    view = decode(client.get("/api/calibration/view.jpg", query_string={"camera": pictures["mat"]}))
    raw = pictures["mat_picture"]
    assert view.shape == raw.shape
    for marker in detect_markers(raw):
        x, y = np.round(marker.corners_px[2]).astype(int)  # the bottom-right corner: outlined in green
        patch = view[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).astype(int)
        assert any(g > 150 and g - b > 80 and g - r > 80 for b, g, r in patch), (marker.id, patch)
    far = view[5:60, 5:60].astype(int) - raw[5:60, 5:60].astype(int)  # away from the mat: the picture as it was
    assert np.abs(far).max() < 12  # JPEG's own error


def test_the_rectified_view_puts_each_marker_where_the_mat_has_it(client, pictures):
    layout = pictures["layout"]
    picture = decode(client.get("/api/calibration/rectified.jpg", query_string={"camera": pictures["mat"]}))
    ox, oy = layout.origin_on_paper
    area = (-ox, -oy, *layout.paper_mm)  # the whole sheet: the pouches mat has no place beside it
    px_per_mm = default_px_per_mm(area)
    assert picture.shape[:2] == (round(area[3] * px_per_mm), round(area[2] * px_per_mm))
    found = {m.id: m for m in detect_markers(picture)}
    assert set(found) == {m.id for m in layout.markers}
    for marker in layout.markers:
        where = rectified_to_table(found[marker.id].corners_px, area, px_per_mm)
        assert np.abs(where - marker.corners_mm()).max() < 2.0, marker.id  # millimetres


def test_four_clicked_corners_are_saved_and_give_the_table_from_above(client, app, pictures):
    camera = pictures["board"]
    before = client.get("/api/calibration/status", query_string={"camera": camera}).get_json()
    assert before["mat"] is None and before["calibration"] is None and before["rectified"] is None
    assert client.get("/api/calibration/rectified.jpg", query_string={"camera": camera}).status_code == 409

    saved = client.post("/api/calibration/corners", json={"camera": camera, "corners": pictures["board_corners"],
                                                          "width_mm": BOARD_MM[0], "height_mm": BOARD_MM[1]})
    assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["rms_px"] < 0.01
    calibration = store.load(app.instance_path, image_size=(1280, 720))  # where `tableside calibrate` keeps it
    assert np.allclose(calibration.to_table(np.array(pictures["board_corners"])),
                       [[0, 0], [600, 0], [600, 400], [0, 400]], atol=0.01)

    after = client.get("/api/calibration/status", query_string={"camera": camera}).get_json()
    assert after["calibration"]["source"] == "corners" and after["calibration"]["camera"] == camera
    picture = decode(client.get(saved.get_json()["rectified"]))
    px_per_mm = default_px_per_mm((0, 0) + BOARD_MM)
    assert picture.shape[:2] == (round(BOARD_MM[1] * px_per_mm), round(BOARD_MM[0] * px_per_mm))  # 600 x 900
    truth = board_texture(px_per_mm).astype(np.float32)
    seen = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner = (slice(8, -30), slice(8, -8))  # away from the outline drawn round the area and the scale bar
    correlation = np.corrcoef(truth[inner].ravel(), seen[inner].ravel())[0, 1]
    assert correlation > 0.9, correlation  # the checkerboard comes back square and in place

    sized = decode(client.get("/api/calibration/rectified.jpg",
                              query_string={"camera": camera, "use": "stored", "px_per_mm": "0.5"}))
    assert sized.shape[:2] == (200, 300)


@pytest.mark.parametrize("camera, status, message", [
    (None, 400, "camera is required"),
    ("  ", 400, "camera is required"),
    ("x" * 501, 400, "at most 500 characters"),
    ("/no/such/place", 400, "no such file or folder"),
    ("-1", 400, "indexes count from 0"),
    ("demo:chess", 400, "no game named 'chess'"),
    ("ftp://camera.local/x", 400, "unsupported camera URL scheme"),
])
def test_a_camera_that_cannot_be_opened_is_a_clear_400(client, camera, status, message):
    for path in ("/api/calibration/status", "/api/calibration/view.jpg", "/api/calibration/rectified.jpg"):
        response = client.get(path, query_string={} if camera is None else {"camera": camera})
        assert response.status_code == status and message in response.get_json()["error"], response.get_json()


def test_a_camera_without_a_picture_is_a_503(client, pictures):
    empty = client.get("/api/calibration/status", query_string={"camera": pictures["empty"]})
    assert empty.status_code == 400 and "holds no images" in empty.get_json()["error"]
    broken = client.get("/api/calibration/status", query_string={"camera": pictures["broken"]})
    assert broken.status_code == 503 and "not a readable image" in broken.get_json()["error"]


def test_a_camera_that_hangs_is_a_503_in_the_time_allowed_and_is_released(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    accepted = []
    threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()
    app = create_app({"TESTING": True, "CAMERA_TIMEOUT_S": 1.0}, instance_path=str(tmp_path / "instance"))
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/video"
    started = time.monotonic()
    response = app.test_client().get("/api/calibration/status", query_string={"camera": url})
    assert response.status_code == 503 and "gave no picture within 1 s" in response.get_json()["error"]
    assert time.monotonic() - started < 3
    grab = app.extensions["tableside.stills"]._grabs[url]
    grab.join(timeout=15)  # the device's own time-out ends the grab, which closes the camera
    assert not grab.is_alive() and grab.error is not None
    listener.close()
    app.extensions["tableside.games"].close()


def test_the_game_and_the_options_of_a_rectified_view_are_checked(client, pictures):
    camera = pictures["mat"]
    cases = [({"game": "chess"}, 400, "no game named 'chess'"), ({"use": "sometimes"}, 400, "use is one of"),
             ({"px_per_mm": "lots"}, 400, "px_per_mm is a number"), ({"px_per_mm": "50"}, 400, "between 0.1 and 10"),
             ({"use": "stored"}, 409, "no calibration is saved")]
    for extra, status, message in cases:
        response = client.get("/api/calibration/rectified.jpg", query_string={"camera": camera, **extra})
        assert response.status_code == status and message in response.get_json()["error"], (extra, response.get_json())


GOOD = [[360, 130], [1010, 220], [1010, 660], [200, 520]]
SIZE = {"width_mm": 600, "height_mm": 400}
BOARD = "<the board camera>"  # replaced by the folder that shows the checkerboard


@pytest.mark.parametrize("body, message", [
    ({"corners": GOOD, **SIZE}, "camera is required"),
    ({"camera": 3, "corners": GOOD, **SIZE}, "camera is text"),
    ({"camera": BOARD, "corners": GOOD[:3], **SIZE}, "got 3 points"),
    ({"camera": BOARD, "corners": GOOD + [[1, 1]], **SIZE}, "got 5 points"),
    ({"camera": BOARD, "corners": "four", **SIZE}, "corners is a list of four"),
    ({"camera": BOARD, "corners": [[1, 2], [3, 4], [5], [6, 7]], **SIZE}, "corners[2] is [x, y]"),
    ({"camera": BOARD, "corners": [[1, 2], [3, 4], ["5", 6], [6, 7]], **SIZE}, "corners[2] is [x, y]"),
    ({"camera": BOARD, "corners": [[1, 2], [3, 4], [True, 6], [6, 7]], **SIZE}, "corners[2] is [x, y]"),
    ({"camera": BOARD, "corners": GOOD, "height_mm": 400}, "width_mm is required"),
    ({"camera": BOARD, "corners": GOOD, "width_mm": "600", "height_mm": 400}, "width_mm is a number"),
    ({"camera": BOARD, "corners": GOOD, "width_mm": 600, "height_mm": -4}, "height_mm must be between 10 and 5000"),
    ({"camera": BOARD, "corners": GOOD, **SIZE, "depth_mm": 3}, "unknown field depth_mm"),
    ({"camera": BOARD, "corners": [[100, 100], [400, 100], [700, 100], [100, 500]], **SIZE}, "lie on one line"),
    ({"camera": BOARD, "corners": [[100, 100], [700, 500], [700, 100], [100, 500]], **SIZE}, "convex"),
    ({"camera": BOARD, "corners": [[100, 100], [1400, 100], [700, 500], [100, 500]], **SIZE},
     "corner 2 lies outside the 1280x720 picture"),
])
def test_bad_corners_are_refused_and_nothing_is_saved(client, app, pictures, body, message):
    body = {**body, "camera": pictures["board"]} if body.get("camera") == BOARD else body
    response = client.post("/api/calibration/corners", json=body)
    assert response.status_code == 400 and message in response.get_json()["error"], response.get_json()
    with pytest.raises(store.CalibrationMissing):
        store.load(app.instance_path)


def test_corners_that_are_not_numbers_at_all_are_refused(client, app, pictures):
    text = '{"camera": "%s", "corners": [[NaN, 1], [2, 3], [4, 5], [6, 7]], "width_mm": 600, "height_mm": 400}'
    response = client.post("/api/calibration/corners", data=text % pictures["board"], content_type="application/json")
    assert response.status_code == 400 and "corners[0] is [x, y]" in response.get_json()["error"]
    form = client.post("/api/calibration/corners", data="corners=1", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415


@pytest.mark.parametrize("fmt, mimetype, magic", [("pdf", "application/pdf", b"%PDF"), ("png", "image/png", b"\x89PNG"),
                                                  ("svg", "image/svg+xml", b"<svg")])
def test_a_mat_downloads_in_each_format(client, fmt, mimetype, magic):
    response = client.get(f"/mats/pungo.{fmt}", query_string={"paper": "A3"})
    assert response.status_code == 200 and response.mimetype == mimetype
    assert magic in response.data[:200]
    assert response.headers["Content-Disposition"] == f'attachment; filename="pungo-mat-A3.{fmt}"'
    if fmt == "png":  # 300 dpi, A3 landscape
        image = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_GRAYSCALE)
        assert image.shape == (round(297 / 25.4 * 300), round(420 / 25.4 * 300))
        assert len(detect_markers(image)) == 6


@pytest.mark.parametrize("path, status, message", [
    ("/mats/chess.pdf", 404, "no mat for 'chess'"),
    ("/mats/pungo.doc", 404, "mats come as pdf, png, svg"),
    ("/mats/pungo.pdf?paper=B5", 400, "unknown paper 'B5'"),
    ("/mats/pungo.pdf?option=arena", 400, "option is NAME=VALUE"),
    ("/mats/pungo.pdf?option=arena=three", 400, "arena is rows x columns"),
])
def test_a_mat_that_does_not_exist_is_refused_with_a_reason(client, path, status, message):
    response = client.get(path)
    assert response.status_code == status and message in response.get_json()["error"], response.get_json()


def test_the_calibration_page_is_linked_from_the_start_page(client):
    start = client.get("/play").get_data(as_text=True)
    assert 'id="calibration-link" href="/play/calibrate"' in start
    page = client.get("/play/calibrate?camera=demo:pouches&game=pouches&back=//elsewhere.example/")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and 'value="demo:pouches"' in text
    assert "elsewhere.example" not in text  # a link back goes to this site only


def _jpeg_text(picture) -> str:
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return base64.b64encode(data.tobytes()).decode()


def _card(corners_mm, card="QH") -> dict:
    centre = np.mean(corners_mm, axis=0).tolist()
    return {"card": card, "face_up": True, "center_mm": centre, "corners_mm": corners_mm, "angle_deg": 0.0,
            "confidence": 0.8, "alternatives": []}


def test_the_overlay_places_the_last_snapshots_cards_on_the_latest_picture(client, pictures):
    game_id = client.post("/api/games", json={"game": "pouches", "players": ["ann", "bob"]}).get_json()["id"]
    empty = client.get(f"/api/games/{game_id}/sightings").get_json()
    assert empty["sightings"] == [] and empty["image_size"] is None and empty["placed_by"] is None
    assert len(empty["deck"]) == 53 and empty["deck"][-1] == "back"
    assert client.get("/api/games/no-such-game/sightings").status_code == 404

    corners_mm = [[100.0, 60.0], [163.0, 60.0], [163.0, 148.0], [100.0, 148.0]]
    snapshot = {"t": 1.0, "cards": [_card(corners_mm)], "pyramids": [], "dice": [], "tokens": []}
    client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": snapshot})
    unplaced = client.get(f"/api/games/{game_id}/sightings").get_json()
    assert unplaced["sightings"] == [{"sighting": "cards/0", "label": "QH", "face_up": True, "confidence": 0.8,
                                      "corners_px": None}]  # no picture yet: nothing to place it on

    picture, layout, camera = mat_picture("pouches", "A4")
    client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": {**snapshot, "t": 2.0},
                                                        "frame": _jpeg_text(picture)})
    placed = client.get(f"/api/games/{game_id}/sightings").get_json()
    assert placed["image_size"] == [1280, 720] and placed["placed_by"] == "the pouches mat's markers"
    where = np.array(placed["sightings"][0]["corners_px"])
    assert np.abs(where - camera.project(np.array(corners_mm))).max() < 1.0  # pixels


def test_without_a_mat_the_overlay_uses_the_saved_corners(client, pictures):
    board, board_corners = board_picture()
    saved = client.post("/api/calibration/corners", json={"camera": pictures["board"], "corners": board_corners.tolist(),
                                                          "width_mm": BOARD_MM[0], "height_mm": BOARD_MM[1]})
    assert saved.status_code == 201
    game_id = client.post("/api/games", json={"game": "mongoose", "players": ["ann", "bob"]}).get_json()["id"]
    square = [[50.0, 50.0], [100.0, 50.0], [100.0, 100.0], [50.0, 100.0]]  # a checkerboard square
    snapshot = {"t": 1.0, "cards": [_card(square, "7S")], "pyramids": [], "dice": [], "tokens": []}
    client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": snapshot, "frame": _jpeg_text(board)})
    placed = client.get(f"/api/games/{game_id}/sightings").get_json()
    assert placed["placed_by"] == "the saved calibration"
    truth = board_camera().project(np.array(square))
    assert np.abs(np.array(placed["sightings"][0]["corners_px"]) - truth).max() < 1.0  # pixels
