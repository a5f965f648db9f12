"""`tableside render`, as a user runs it."""

import json

import cv2

from vision.synth.random_scene import random_scene
from webui.cli import main


def test_render_a_scene_file_with_its_truth_and_masks(tmp_path, capsys):
    scene = tmp_path / "scene.json"
    scene.write_text(random_scene(4, size=(640, 480), cards=5).to_json())
    out, truth = tmp_path / "out.png", tmp_path / "out.json"
    assert main(["render", str(scene), "-o", str(out), "--truth", str(truth), "--masks"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert cv2.imread(str(out)).shape == (480, 640, 3)
    objects = json.loads(truth.read_text())["objects"]
    assert [o["kind"] for o in objects].count("card") == 5
    masks = cv2.imread(str(tmp_path / "out-masks.png"), cv2.IMREAD_UNCHANGED)
    assert masks.shape == (480, 640) and masks.max() <= len(objects)


def test_render_random_scenes_into_a_folder(tmp_path, capsys):
    assert main(["render", "--random", "2", "--seed", "40", "-o", str(tmp_path / "set")]) == 0
    captured = capsys.readouterr()
    assert "rendered 2/2" in captured.err
    names = sorted(p.name for p in (tmp_path / "set").iterdir())
    assert names == ["render-000040.jpg", "render-000040.truth.json", "render-000041.jpg", "render-000041.truth.json",
                     "scene-000040.json", "scene-000041.json"]


def test_render_refuses_bad_requests_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": [{"id": "ZZ", "x": 0, "y": 0}]}')
    assert main(["render", str(bad), "-o", str(tmp_path / "o.png")]) == 2
    assert capsys.readouterr().err == (f"tableside: {bad}: cards[0].id: 'ZZ' is not a card id (standard like 'QH', "
                                       "Decktet like 'mountain', or 'back')\n")
    assert main(["render", str(tmp_path / "none.json"), "-o", str(tmp_path / "o.png")]) == 2
    assert "cannot read the scene file" in capsys.readouterr().err
    bad.write_text('{"faces": "%s"}' % (tmp_path / "no-faces"))
    assert main(["render", str(bad), "-o", str(tmp_path / "o.png")]) == 2
    assert "face folder" in capsys.readouterr().err
    bad.write_text("{}")
    assert main(["render", str(bad), "-o", str(tmp_path / "o.txt")]) == 2
    assert "use a .png or .jpg file name" in capsys.readouterr().err
    assert main(["render", str(bad), "--random", "3", "-o", str(tmp_path)]) == 2
    assert "a scene file or --random N" in capsys.readouterr().err
