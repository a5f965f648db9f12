"""Pyramids lying on their side: drawn where the truth says, the tip where it points, in the snapshot."""

from __future__ import annotations

import math

import numpy as np
import pytest

from synth_checks import iou, polygon_mask
from vision.synth.random_scene import random_scene
from vision.synth.render import camera_of, render
from vision.synth.scene import Camera, Effects, PyramidObject, Scene, SceneError
from vision.synth.snapshot import expected_snapshot
from vision.synth.solids import lying_footprint

LYING = [PyramidObject("red3", 60, 60, angle=0, lying=True), PyramidObject("blue2", 140, 60, angle=90, lying=True),
         PyramidObject("yellow1", 210, 60, angle=-135, lying=True), PyramidObject("clear1+clear3", 60, 150, angle=30,
                                                                                  lying=True),
         PyramidObject("black2", 140, 150, angle=200, lying=True), PyramidObject("green3", 210, 150)]


def _scene(tilt=25.0):
    return Scene(camera=Camera((135, 105), 420, tilt, size=(1280, 720)), pyramids=LYING, effects=Effects(noise=1.0))


@pytest.mark.parametrize("tilt", [0.0, 35.0])
def test_a_lying_pyramid_is_drawn_inside_its_truth_outline_with_its_tip_where_it_points(tilt):
    scene = _scene(tilt)
    rendering = render(scene, masks=True)
    camera = camera_of(scene)
    for thing, truth in zip(scene.pyramids, [o for o in rendering.objects if o.kind == "pyramid"]):
        drawn = rendering.instances == truth.index
        assert iou(drawn, polygon_mask(truth.polygon, drawn.shape)) > 0.9, thing
        if not thing.lying:
            assert "pointing_deg" not in truth.extra
            continue
        assert truth.extra["pointing_deg"] == pytest.approx((thing.angle + 180) % 360 - 180)
        length, _, _ = lying_footprint(thing)
        a = math.radians(thing.angle)
        tip, heel = (camera.project(np.array([[thing.x + k * math.cos(a) * length / 2,
                                               thing.y + k * math.sin(a) * length / 2]]))[0] for k in (1, -1))
        ys, xs = np.nonzero(drawn)
        far = np.argmax((xs - heel[0]) ** 2 + (ys - heel[1]) ** 2)  # the drawn pixel furthest from the base edge
        assert math.dist((xs[far], ys[far]), tip) < 4, (thing.stack, (xs[far], ys[far]), tip)


def test_the_snapshot_reports_the_pointing_direction_and_a_nest_as_its_outer_pyramid():
    pyramids = expected_snapshot(render(_scene())).pyramids
    assert [(str(p.stack[-1]), p.pointing_deg) for p in pyramids] == [
        ("red3", 0.0), ("blue2", 90.0), ("yellow1", -135.0), ("clear3", 30.0), ("black2", -160.0), ("green3", None)]


def test_only_a_lone_pyramid_or_a_nest_lies_down_and_scenes_keep_it():
    with pytest.raises(SceneError, match=r"pyramids\[0\].lying: only one pyramid \(or a nest\) lies on its side, "
                                         "not the tree red3\\+blue1"):
        Scene(pyramids=[PyramidObject("red3+blue1", 0, 0, lying=True)])
    scene = _scene()
    assert Scene.from_json(scene.to_json()) == scene
    lying = [p for seed in range(60) for p in random_scene(seed).pyramids if p.lying]
    assert len(lying) >= 5  # random scenes knock a few over
