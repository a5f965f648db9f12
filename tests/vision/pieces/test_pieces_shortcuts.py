"""The reader's shortcuts for speed give what the plain way gives: the die face search's windows of one flat
plane are the faces one warp per pose would see, and the packed-supplies pass works in boxes round its rings."""

import cv2
import numpy as np

from referee.dice import Die
from vision.pieces import dice
from vision.pieces.camera import TableCamera
from vision.pieces.foreground import _merged_boxes
from vision.pieces.trials import calibration_of
from vision.synth.render import render
from vision.synth.scene import Camera, DieObject, Light, Scene, Surface


def test_a_scan_correlates_the_same_faces_as_one_warp_per_pose():
    orientation = str(Die.orientations(top=5)[1])
    scene = Scene(surface=Surface("wood", (60, 110, 170)), camera=Camera((100, 80), 450, 30, yaw_deg=-15),
                  light=Light(kelvin=3200), dice=[DieObject(orientation, 100, 80, angle=25.0)], seed=5)
    grey = cv2.cvtColor(render(scene).image, cv2.COLOR_BGR2GRAY)
    camera = TableCamera.from_calibration(calibration_of(scene))
    poses, scores = dice._scan(grey, camera, 103.0, 77.0, [10.0, 25.0, 70.0], [13.0, 16.0],
                               np.linspace(-4.5, 4.5, 7))
    assert poses.shape == (3 * 2 * 7 * 7, 4) and scores.shape == (len(poses), 6)
    # every window is where its pose says: the same pose warped on its own correlates the same
    plain = dice._match(dice._faces(grey, camera, poses))
    assert np.abs(scores - plain).max() < 1e-3
    # and the best of them is the die's top face, a 5, near where the die stands
    best = int(np.argmax(scores.max(axis=1)))
    assert int(np.argmax(scores[best])) + 1 == 5
    assert np.hypot(poses[best, 0] - 100, poses[best, 1] - 80) < 2.0


def test_rings_close_together_are_worked_out_in_one_box_and_boxes_stay_in_the_picture():
    # connected-component stats rows: x, y, width, height, area
    stats = np.array([[10, 10, 5, 5, 25], [22, 12, 4, 4, 16], [90, 50, 6, 6, 36], [0, 58, 3, 3, 9]])
    boxes = sorted(_merged_boxes(stats, margin=4, w=100, h=60))
    # the first two grown by 4 overlap: one box; the other two are apart, the last one cut at the picture's edge
    assert boxes == [(0, 54, 7, 60), (6, 6, 30, 20), (86, 46, 100, 60)]
    # a chain of overlaps merges whole
    chain = np.array([[0, 0, 4, 4, 16], [20, 0, 4, 4, 16], [10, 0, 4, 4, 16]])
    assert _merged_boxes(chain, margin=4, w=100, h=60) == [(0, 0, 28, 8)]
