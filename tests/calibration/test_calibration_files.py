"""Mats as files, the calibration file, rectified views and the lens model."""

import dataclasses
import json
import os
import struct
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pytest
from mat_views import SIZE, area_grid, camera_over, table_errors, view

from calibration import store
from calibration.homography import fit_markers
from calibration.intrinsics import IntrinsicsError, board_drawing, calibrate_camera
from calibration.markers import detect_markers
from calibration.mats import MAT_GAMES, PAPERS, MatError, identify, mat_layout
from calibration import rectify as rectify_module
from calibration.rectify import rectified_to_table, rectify, table_to_rectified
from vision.synth.camera import PinholeCamera, render_plane


@pytest.mark.parametrize("game", MAT_GAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_mat_names_itself_and_keeps_places_clear_of_markers(game, paper):
    layout = mat_layout(game, paper)
    assert {identify(m.id) for m in layout.markers} == {(game, paper)}
    for zone in layout.zones:
        for marker in layout.markers:
            m = marker.corners_mm()
            overlap = (zone.x_mm < m[1, 0] and m[0, 0] < zone.x_mm + zone.w_mm and
                       zone.y_mm < m[2, 1] and m[0, 1] < zone.y_mm + zone.h_mm)
            assert not overlap, (zone.name, marker.id)


def test_marker_ids_are_unique_across_all_mats():
    ids = [m.id for g in MAT_GAMES for p in PAPERS for m in mat_layout(g, p).markers]
    assert len(ids) == len(set(ids)) and max(ids) < 100


def test_pungo_mat_has_the_arena_and_roll_grid_of_its_options():
    default = mat_layout("pungo", "A3")
    assert {z.name for z in default.zones if z.name.startswith("arena/")} == {f"arena/r{r}c{c}" for r in (1, 2, 3)
                                                                               for c in (1, 2, 3, 4)}
    assert default.zone("roll/r2c2").label == "die"
    other = mat_layout("pungo", "A3", {"arena": "4x3", "roll-grid": "3x4"})
    assert other.zone("arena/r4c3") and other.zone("roll/r2c3").label == "die"
    with pytest.raises(MatError, match="rows x columns"):
        mat_layout("pungo", "A3", {"arena": "big"})


def test_mongoose_collections_lie_beyond_the_long_edges():
    layout = mat_layout("mongoose", "A3")
    pool, top, bottom = layout.zone("pool"), layout.zone("collection/top"), layout.zone("collection/bottom")
    assert top.y_mm + top.h_mm < pool.y_mm < pool.y_mm + pool.h_mm < bottom.y_mm
    assert layout.zone_at(pool.x_mm + 10, pool.y_mm + 10).name == "pool"


@pytest.mark.parametrize("bad, message", [(("chess", "A4"), "no mat for 'chess'"), (("pungo", "A5"), "unknown paper")])
def test_unknown_mats(bad, message):
    with pytest.raises(MatError, match=message):
        mat_layout(*bad)


def test_png_mat_is_300_dpi_with_markers_where_the_layout_says(tmp_path):
    layout = mat_layout("deck-town", "letter")
    path = layout.drawing().save(tmp_path / "mat.png")
    data = path.read_bytes()
    ppm = struct.unpack(">IIB", data[data.index(b"pHYs") + 4:][:9])
    assert ppm == (11811, 11811, 1)  # 300 dpi in pixels per metre
    image = cv2.imread(str(path))
    assert image.shape[:2] == (round(215.9 * 300 / 25.4), round(279.4 * 300 / 25.4))
    px_per_mm = 300 / 25.4
    found = detect_markers(image)
    assert [m.id for m in found] == [m.id for m in layout.markers]
    for marker in found:
        expected = (layout.marker(marker.id).corners_mm() + layout.origin_on_paper) * px_per_mm - 0.5
        assert np.abs(marker.corners_px - expected).max() < 1.0  # under 0.1 mm


def test_svg_mat_is_in_millimetres(tmp_path):
    root = ET.fromstring(mat_layout("pungo", "A4").drawing().save(tmp_path / "mat.svg").read_text())
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("297.0mm", "210.0mm", "0 0 297.0 210.0")
    assert len(root) > 100  # the marker cells, places and text


def test_pdf_mat_is_a_well_formed_page_of_the_paper_size(tmp_path):
    data = mat_layout("mongoose", "A3").drawing().save(tmp_path / "mat.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 1190.551 841.890]" in data  # 420 x 297 mm in points
    xref = int(data[data.rindex(b"startxref") + 9:].split()[0])
    offsets = [int(line.split()[0]) for line in data[xref:].split(b"\n")[3:8]]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())


def test_pdf_mat_renders_with_a_real_pdf_renderer(tmp_path):
    import shutil
    import subprocess

    if shutil.which("pdftoppm") is None:
        message = "pdftoppm (Debian's poppler-utils) is not installed; .ci/run installs it"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    layout = mat_layout("pungo", "A3")
    layout.drawing().save(tmp_path / "mat.pdf")
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(tmp_path / "mat.pdf"), str(tmp_path / "page")],
                   check=True)
    found = detect_markers(cv2.imread(str(tmp_path / "page.png")))
    px_per_mm = 150 / 25.4
    assert [m.id for m in found] == [m.id for m in layout.markers]
    for marker in found:
        expected = (layout.marker(marker.id).corners_mm() + layout.origin_on_paper) * px_per_mm - 0.5
        assert np.abs(marker.corners_px - expected).max() < 1.0


def _calibrated(a3, yaw=20):
    camera = camera_over(a3, yaw=yaw)
    frame = view("plain", "A3", camera)
    return camera, frame, fit_markers(detect_markers(frame), a3, SIZE)


def test_calibration_file_round_trip(tmp_path, a3):
    _, _, calibration = _calibrated(a3)
    store.save(calibration, tmp_path)
    again = store.load(tmp_path, image_size=SIZE, mat=("plain", "A3"))
    assert np.allclose(again.image_from_table, calibration.image_from_table) and again.mat == ("plain", "A3")


def test_missing_corrupt_and_stale_calibration_files(tmp_path, a3):
    with pytest.raises(store.CalibrationMissing, match="no calibration at .*tableside mat GAME"):
        store.load(tmp_path)
    _, _, calibration = _calibrated(a3)
    path = store.save(calibration, tmp_path)
    with pytest.raises(store.CalibrationStale, match="made at 1280x720 but the camera now delivers 1920x1080"):
        store.load(tmp_path, image_size=(1920, 1080))
    with pytest.raises(store.CalibrationStale, match="made with the plain mat \\(A3\\), not the pungo mat"):
        store.load(tmp_path, mat=("pungo", "A3"))
    path.write_text("{ half a file")
    with pytest.raises(store.CalibrationCorrupt, match="cannot be read .*delete it and calibrate again"):
        store.load(tmp_path)
    data = json.loads(json.dumps({"version": 1, "image_size": [1280, 720], "image_from_table": [[1, 0], [0, 1]]}))
    path.write_text(json.dumps(data))
    with pytest.raises(store.CalibrationCorrupt, match="not an invertible 3x3 matrix"):
        store.load(tmp_path)
    path.write_text(json.dumps({**data, "version": 99}))
    with pytest.raises(store.CalibrationStale, match="version 99"):
        store.load(tmp_path)


def test_rectified_view_puts_table_points_where_asked(a3):
    camera, frame, calibration = _calibrated(a3, yaw=-25)
    area = (-10.0, -10.0, a3.paper_mm[0] - 4, a3.paper_mm[1] - 4)
    top_down = rectify(frame, calibration, area, px_per_mm=3.0)
    assert top_down.shape[:2] == (round(area[3] * 3), round(area[2] * 3))
    for marker in detect_markers(top_down):
        seen_mm = rectified_to_table(marker.corners_px, area, 3.0)
        assert np.abs(seen_mm - a3.marker(marker.id).corners_mm()).max() < 0.5
    point = np.array([[123.4, 56.7]])
    assert np.allclose(rectified_to_table(table_to_rectified(point, area, 3.0), area, 3.0), point)


def test_the_one_warp_rectification_shows_what_the_point_by_point_one_shows(a3):
    # without a lens model the view is one homography (one OpenCV warp); with a lens model (here one
    # that does not distort) every pixel is mapped through it: both must give the same picture
    from calibration.intrinsics import CameraIntrinsics

    _, frame, calibration = _calibrated(a3, yaw=-25)
    K = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
    lensed = dataclasses.replace(calibration, intrinsics=CameraIntrinsics(K, np.zeros(5), (1280, 720)))
    area = (-10.0, -10.0, 200.0, 150.0)
    fast, exact = rectify(frame, calibration, area, 2.0), rectify(frame, lensed, area, 2.0)
    assert fast.shape == exact.shape
    assert np.abs(fast.astype(int) - exact.astype(int)).mean() < 0.5


def test_a_lens_models_view_is_every_pixel_projected_through_the_lens_and_is_reused_frame_after_frame(a3):
    # the rectified view with a lens model interpolates the lens between every 8th pixel: it must show
    # what projecting every pixel shows; a second frame with the same calibration reuses the map
    from calibration.intrinsics import CameraIntrinsics

    _, frame, calibration = _calibrated(a3, yaw=-25)
    K = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
    lensed = dataclasses.replace(calibration, intrinsics=CameraIntrinsics(K, np.array([-0.3, 0.1, 0.001, -0.001, 0]),
                                                                         (1280, 720)))
    area = (-10.0, -10.0, 203.0, 151.0)  # sides that are no multiple of 8 pixels
    jj, ii = np.meshgrid(np.arange(406, dtype=np.float64), np.arange(302, dtype=np.float64))
    table = np.stack([area[0] + (jj + 0.5) / 2.0, area[1] + (ii + 0.5) / 2.0], -1).reshape(-1, 2)
    source = lensed.to_image(table).astype(np.float32).reshape(302, 406, 2)
    exact = cv2.remap(frame, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    view = rectify(frame, lensed, area, 2.0)
    assert view.shape == exact.shape
    assert np.abs(view.astype(int) - exact.astype(int)).mean() < 0.5
    assert np.array_equal(rectify(frame[:, ::-1].copy(), lensed, area, 2.0),
                          cv2.remap(frame[:, ::-1].copy(), *rectify_module._last_map[2], cv2.INTER_LINEAR))
    other = dataclasses.replace(lensed, image_from_table=lensed.image_from_table @ np.diag([1.0, 1.0, 1.01]))
    rectify(frame, other, area, 2.0)
    assert rectify_module._last_map[0] is other  # a new calibration, a new map


LENS = (-0.1, 0.03, 0.0005, -0.0003, 0.0)  # a typical webcam's barrel distortion
# Board photos as a user is told to take them: the board near every edge and corner, and tilted.
BOARD_POSES = [(0, 0, 0, (0, 0)), (25, 10, 0, (110, 65)), (30, -10, 0, (-110, 65)), (20, -15, 0, (110, -65)),
               (35, 15, 0, (-110, -65)), (15, 5, 0, (130, 0)), (30, -5, 0, (-130, 0)), (25, 0, 10, (0, 75)),
               (20, 0, -10, (0, -75)), (40, 30, 0, (0, 0)), (40, -30, 0, (0, 0))]


@pytest.fixture(scope="module")
def lens():
    """Eleven photos of the printed board through a distorting lens, and the calibration they give."""
    drawing = board_drawing()
    texture, ppm = drawing.raster(5), 5
    centre = np.array((drawing.width_mm / 2, drawing.height_mm / 2))
    cameras = [PinholeCamera.looking_at(tuple(centre + offset), 470, tilt, yaw_deg=yaw, roll_deg=roll, size=SIZE,
                                        hfov_deg=60, dist=LENS) for tilt, yaw, roll, offset in BOARD_POSES]
    frames = [render_plane(texture, ppm, (0, 0), c, background=60, supersample=2) for c in cameras]
    return cameras[0], calibrate_camera(frames)


def test_lens_calibration_from_board_photos_undistorts_like_the_real_lens(lens):
    true, intrinsics = lens
    assert intrinsics.rms_px < 0.3
    assert abs(intrinsics.K[0, 0] - true.K[0, 0]) / true.K[0, 0] < 0.01
    # judged where photos of the board can reach: the frame less a 5 % border
    grid = np.array([[x, y] for x in np.linspace(64, 1216, 12) for y in np.linspace(36, 684, 8)], np.float64)
    ours = intrinsics.undistort_points(grid.reshape(-1, 1, 2)).reshape(-1, 2)
    theirs = cv2.undistortPoints(grid.reshape(-1, 1, 2), true.K, true.dist, P=true.K).reshape(-1, 2)
    assert np.abs(ours - theirs).max() < 0.75
    back = intrinsics.distort_points(ours.reshape(-1, 1, 2)).reshape(-1, 2)
    assert np.abs(back - grid).max() < 0.01


def test_a_distorting_lens_is_undone_by_its_calibration(a3, lens):
    _, intrinsics = lens
    camera = camera_over(a3, yaw=10, dist=LENS)
    markers = detect_markers(view("plain", "A3", camera))
    grid = area_grid(a3, 10)
    with_lens = table_errors(fit_markers(markers, a3, SIZE, intrinsics), camera, grid)
    without = table_errors(fit_markers(markers, a3, SIZE), camera, grid)
    assert np.median(with_lens) < 1.0 and with_lens.max() < 3.0
    assert without.max() > 2 * with_lens.max()  # the lens model is what makes the difference


def test_lens_calibration_needs_the_board():
    with pytest.raises(IntrinsicsError, match="found in 0 of 2 frames; at least 5"):
        calibrate_camera([np.full((540, 960, 3), 128, np.uint8)] * 2)
    with pytest.raises(IntrinsicsError, match="no frames given"):
        calibrate_camera([])
