"""The snapshot a perfect vision would report for a rendered scene."""

from referee.snapshot import TableSnapshot
from vision.synth.render import render
from vision.synth.scene import (Camera, CardObject, DieObject, Effects, HandObject, PyramidObject, Scene,
                                TokenObject)
from vision.synth.snapshot import expected_snapshot


def test_the_expected_snapshot_lists_what_the_camera_can_see():
    scene = Scene(camera=Camera((100, 100), 600, 20, size=(1280, 720)), effects=Effects(noise=0),
                  cards=[CardObject("2C", 60, 100, 10), CardObject("AS", 60, 100, 10),  # 2C is hidden under AS
                         CardObject("mountain", 160, 100, -20, face_up=False)],
                  pyramids=[PyramidObject("green1+green2+green3", 60, 200), PyramidObject("red3+blue1", 120, 200)],
                  dice=[DieObject("132", 180, 200)], tokens=[TokenObject("ann", 220, 200)],
                  hands=[HandObject(400, 100, angle=0)])
    snapshot = expected_snapshot(render(scene), t=2.5)
    assert [(c.card, c.face_up) for c in snapshot.cards] == [("AS", True), ("back", False)]
    assert snapshot.cards[1].angle_deg == -20 and snapshot.cards[0].center_mm == (60, 100)
    assert [tuple(str(p) for p in s.stack) for s in snapshot.pyramids] == [("green3",), ("red3", "blue1")]
    assert [d.face for d in snapshot.dice] == [1] and [k.label for k in snapshot.tokens] == ["ann"]
    assert snapshot.occluded and snapshot.t == 2.5
    assert TableSnapshot.from_json(snapshot.to_json()) == snapshot


def test_no_hand_in_view_means_not_occluded():
    scene = Scene(cards=[CardObject("QH", 140, 90)], hands=[HandObject(3000, 3000)], effects=Effects(noise=0))
    assert not expected_snapshot(render(scene)).occluded
