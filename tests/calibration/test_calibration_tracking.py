"""Keeping the lock while hands cover markers, re-locking after a bump, and refusing bad input."""

import numpy as np
import pytest
from mat_views import SIZE, area_grid, camera_over, cover, table_errors, view

from calibration.homography import CalibrationError, fit_points, from_corners
from calibration.markers import detect_markers
from calibration.mats import mat_layout
from calibration.tracker import KEPT, LOCKED, MOVING, RELOCKED, SEARCHING, MatTracker


def test_covering_half_the_markers_keeps_full_accuracy(a3):
    camera = camera_over(a3, yaw=20)
    frame = view("plain", "A3", camera)
    tracker = MatTracker(a3, SIZE)
    assert tracker.update(detect_markers(frame)).status == LOCKED
    grid = area_grid(a3, 20)
    full = table_errors(tracker.calibration, camera, grid).max()
    # a hand covers the whole left column, the worst half for a fresh fit
    result = tracker.update(detect_markers(cover(view("plain", "A3", camera, seed=1), camera, a3, (6, 7, 8))))
    assert result.status == LOCKED and result.markers_seen == (9, 10, 11)
    assert table_errors(result.calibration, camera, grid).max() < max(2 * full, 1.0)


def test_all_markers_covered_keeps_the_last_good_calibration(a3):
    camera = camera_over(a3)
    tracker = MatTracker(a3, SIZE)
    good = tracker.update(detect_markers(view("plain", "A3", camera))).calibration
    result = tracker.update(detect_markers(cover(view("plain", "A3", camera), camera, a3, range(6, 12))))
    assert result.status == KEPT and result.calibration is good and "keeping the last calibration" in result.message


@pytest.mark.parametrize("bump", [{"d_yaw_deg": 5}, {"d_tilt_deg": 5}], ids=["turned", "tipped"])
def test_a_5_degree_bump_is_noticed_and_relocked_within_10_frames(a3, bump):
    camera = camera_over(a3, yaw=-15)
    tracker = MatTracker(a3, SIZE)
    for seed in range(3):
        assert tracker.update(detect_markers(view("plain", "A3", camera, seed))).status == LOCKED
    bumped = camera.moved(**bump)
    statuses = []
    for seed in range(10):
        statuses.append(tracker.update(detect_markers(view("plain", "A3", bumped, seed + 10))).status)
        if statuses[-1] == RELOCKED:
            break
    assert statuses[0] == MOVING and statuses[-1] == RELOCKED and len(statuses) <= 10
    errors = table_errors(tracker.calibration, bumped, area_grid(a3, -15, half_mm=250))
    assert np.median(errors) < 1.0 and errors.max() < 3.0
    assert tracker.update(detect_markers(view("plain", "A3", bumped, 99))).status == LOCKED


def test_a_single_odd_frame_is_not_a_bump(a3):
    camera = camera_over(a3)
    tracker = MatTracker(a3, SIZE)
    good = tracker.update(detect_markers(view("plain", "A3", camera))).calibration
    assert tracker.update(detect_markers(view("plain", "A3", camera.moved(d_yaw_deg=5)))).status == MOVING
    result = tracker.update(detect_markers(view("plain", "A3", camera, seed=3)))
    assert result.status == LOCKED
    assert table_errors(result.calibration, camera, area_grid(a3)).max() < 3.0 and good is not None


def test_a_frame_without_markers_says_so(a3):
    result = MatTracker(a3, SIZE).update(detect_markers(np.full((720, 1280, 3), 90, np.uint8)))
    assert result.status == SEARCHING and result.calibration is None
    assert result.message == "no marker of the plain mat, A3 is visible: show the mat to the camera"


def test_the_mat_of_another_game_is_named_and_changes_nothing(a3):
    camera = camera_over(a3)
    tracker = MatTracker(a3, SIZE)
    good = tracker.update(detect_markers(view("plain", "A3", camera))).calibration
    pungo = mat_layout("pungo", "A4")
    result = tracker.update(detect_markers(view("pungo", "A4", camera_over(pungo))))
    assert result.status == KEPT and result.calibration is good
    assert result.message == "markers of the pungo mat (A4) are in view, but this game uses the plain mat, A3"
    fresh = MatTracker(a3, SIZE).update(detect_markers(view("pungo", "A4", camera_over(pungo))))
    assert fresh.status == SEARCHING and "pungo mat (A4)" in fresh.message


def test_four_clicked_corners_calibrate_without_a_mat(a3):
    camera = camera_over(a3, yaw=30)
    corner = np.array([-40.0, -60.0])  # the area's top-left corner becomes the table origin
    area = np.array([[0, 0], [500, 0], [500, 400], [0, 400]], float)
    calibration = from_corners(camera.project(area + corner), 500, 400, SIZE)
    inside = np.array([[x, y] for x in range(0, 501, 50) for y in range(0, 401, 50)], float)
    assert np.abs(calibration.to_table(camera.project(inside + corner)) - inside).max() < 0.01


@pytest.mark.parametrize("corners, message", [
    ([(100, 100), (300, 100), (500, 100), (300, 400)], "lie on one line"),
    ([(100, 100), (500, 100), (100, 400), (500, 400)], "not form a convex outline"),
    ([(100, 100), (500, 100), (500, 400)], "exactly four corners"),
])
def test_bad_clicks_get_specific_messages(corners, message):
    with pytest.raises(CalibrationError, match=message):
        from_corners(corners, 500, 400, SIZE)


def test_collinear_points_are_refused():
    line = [(x, 2 * x) for x in range(6)]
    with pytest.raises(CalibrationError, match="the table points all lie on one line"):
        fit_points(np.array(line, float), np.array(line, float) + 5, SIZE)
