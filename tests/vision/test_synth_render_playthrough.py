"""`tableside render --playthrough`: a recorded game as video frames with their truth, as a user runs it."""

import json
from pathlib import Path

import cv2

from referee import layouts, playthrough
from referee.snapshot import TableSnapshot
from vision.synth.staging import Stager
from webui.cli import main

GAME = Path(__file__).resolve().parents[2] / "tests/referee/pungo/playthroughs/standard-whole-turns.txt"


def test_render_a_playthrough_as_frames_with_truth_and_a_progress_bar(tmp_path, capsys):
    out = tmp_path / "frames"
    args = ["render", "--playthrough", str(GAME), "-o", str(out), "--fps", "2", "--hold", "0.5", "--reach", "2",
            "--size", "320x180", "--seed", "3"]
    assert main(args) == 0
    captured = capsys.readouterr()
    shots = json.loads((out / "shots.json").read_text())
    frames = len(shots) * 1 + (len(shots) - 1) * 4  # one frame held per table, four for each hand
    assert f"wrote {frames} frames ({frames / 2:.1f} s at 2 fps)" in captured.out
    assert f"frame {frames}/{frames}" in captured.err and "[###" in captured.err
    assert len(list(out.glob("frame-*.jpg"))) == frames and cv2.imread(str(out / "frame-000000.jpg")).shape == (180, 320, 3)
    recorded = playthrough.load(GAME)
    states = playthrough.replay(recorded).states
    assert shots[-1]["view"] == states[-1].view().to_json()
    layout = layouts.for_game(recorded.game, Stager(recorded.game, [states[0]]).zones)
    last = json.loads((out / f"frame-{frames - 1:06d}.truth.json").read_text())
    assert last["position"] == len(shots) - 1 and last["size"] == [320, 180]
    snapshot = TableSnapshot.from_json(last["snapshot"])
    assert layout.read(snapshot, states[-1]).view == states[-1].view()
    reaching = json.loads((out / "frame-000002.truth.json").read_text())  # a hand over the first move
    assert reaching["snapshot"]["occluded"] and any(o["kind"] == "hand" for o in reaching["objects"])


def test_render_playthrough_refuses_bad_requests_in_one_line(tmp_path, capsys):
    assert main(["render", "--playthrough", str(tmp_path / "none.txt"), "-o", str(tmp_path / "f")]) == 2
    assert capsys.readouterr().err == f"tableside: no such playthrough file: {tmp_path / 'none.txt'}\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("move ann 0,0\n")
    assert main(["render", "--playthrough", str(bad), "-o", str(tmp_path / "f")]) == 2
    assert capsys.readouterr().err == "tableside: bad.txt:1: an action before the @game line\n"
    assert main(["render", "--playthrough", str(GAME), "--size", "big", "-o", str(tmp_path / "f")]) == 2
    assert "--size is width x height in pixels, like 1280x720; got 'big'" in capsys.readouterr().err
    assert main(["render", "--playthrough", str(GAME), "--random", "2", "-o", str(tmp_path / "f")]) == 2
    assert "a scene file or --random N or --playthrough FILE: exactly one" in capsys.readouterr().err
    assert not (tmp_path / "f").exists()  # nothing written for a refused request
