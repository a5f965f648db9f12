"""`tableside mat` and `tableside calibrate`, as a user runs them."""

import cv2
import numpy as np
from mat_views import camera_over, view

from calibration import store
from calibration.mats import mat_layout
from webui.cli import main


def test_mat_writes_a_printable_file(tmp_path, capsys):
    out = tmp_path / "pungo.pdf"
    assert main(["mat", "pungo", "--paper", "A3", "--option", "arena=4x3", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF") and "print it at 100 %" in capsys.readouterr().out


def test_mat_refuses_bad_requests_in_one_line(tmp_path, capsys):
    assert main(["mat", "chess", "-o", str(tmp_path / "m.pdf")]) == 2
    assert capsys.readouterr().err == "tableside: no mat for 'chess'; mats exist for plain, pouches, mongoose, " \
                                      "deck-town, pungo\n"
    assert main(["mat", "pungo", "-o", str(tmp_path / "m.doc")]) == 2
    assert "use a .pdf, .svg or .png file name" in capsys.readouterr().err
    assert main(["mat", "pungo", "--option", "arena", "-o", str(tmp_path / "m.pdf")]) == 2
    assert "--option takes NAME=VALUE" in capsys.readouterr().err


def test_calibrate_table_from_a_photo_saves_the_calibration(tmp_path, capsys):
    layout = mat_layout("pungo", "A3")
    camera = camera_over(layout, yaw=12)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), view("pungo", "A3", camera))
    instance = tmp_path / "instance"
    assert main(["calibrate", "table", str(photo), "--game", "pungo", "--paper", "A3", "--instance", str(instance)]) == 0
    assert "table calibrated from markers 78, 79, 80, 81, 82, 83" in capsys.readouterr().out
    calibration = store.load(instance, image_size=(1280, 720), mat=("pungo", "A3"))
    centre = layout.zone("arena/r2c2").polygon_mm().mean(axis=0)
    assert np.abs(calibration.to_table(camera.project([centre])) - centre).max() < 0.5


def test_calibrate_table_explains_what_is_wrong(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 90, np.uint8))
    assert main(["calibrate", "table", str(blank), "--game", "pungo", "--instance", str(tmp_path)]) == 2
    assert "no marker of the pungo mat, A4 is visible" in capsys.readouterr().err
    assert main(["calibrate", "table", str(tmp_path / "missing.jpg"), "--game", "pungo"]) == 2
    assert "cannot read an image from" in capsys.readouterr().err
    assert not (tmp_path / "calibration.json").exists()


def test_calibrate_board_and_camera(tmp_path, capsys):
    assert main(["calibrate", "board", "-o", str(tmp_path / "board.png")]) == 0
    board = cv2.imread(str(tmp_path / "board.png"))
    assert board is not None and board.shape[1] == round(297 * 300 / 25.4)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((540, 960, 3), 200, np.uint8))
    assert main(["calibrate", "camera", str(blank), str(blank), "--instance", str(tmp_path)]) == 2
    assert "the board was found in 0 of 2 frames" in capsys.readouterr().err
