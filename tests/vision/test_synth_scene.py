"""Scenes as data: JSON round trips, clear refusals of bad input, random scenes from a seed."""

import doctest
import json

import pytest

import vision.synth.faces
import vision.synth.random_scene
import vision.synth.scene
import vision.synth.sequence
from vision.synth.random_scene import SIZES, random_scene
from vision.synth.scene import CardObject, DieObject, PyramidObject, Scene, SceneError


@pytest.mark.parametrize("module", [vision.synth.scene, vision.synth.random_scene, vision.synth.faces,
                                    vision.synth.sequence])
def test_docstring_examples_hold(module):
    assert doctest.testmod(module).failed == 0


def test_random_scenes_are_fixed_by_their_seed():
    assert random_scene(11).to_json() == random_scene(11).to_json()
    assert random_scene(11).to_json() != random_scene(12).to_json()


def test_a_scene_survives_json():
    for seed in range(20):
        scene = random_scene(seed)
        assert Scene.from_json(scene.to_json()) == scene


def test_random_scenes_stay_in_realistic_ranges():
    scenes = [random_scene(seed) for seed in range(60)]
    for s in scenes:
        assert tuple(s.camera.size) in SIZES
        assert 0 <= s.camera.tilt_deg <= 45 and 280 <= s.camera.distance_mm <= 1200
        assert 2700 <= s.light.kelvin <= 7500
    # and they vary: every surface kind, decks of both kinds, hands, pyramids, piles, mats, face-down cards
    assert {s.surface.kind for s in scenes} == {"wood", "felt", "cloth", "knit", "light", "dark"}
    ids = {c.id for s in scenes for c in s.cards}
    assert "QH" in ids or "AS" in ids
    assert any(i in ids for i in ("mountain", "ace-moons", "excuse", "author"))
    assert any(s.hands for s in scenes) and any(s.pyramids for s in scenes) and any(s.mat for s in scenes)
    assert any(c.pile > 1 for s in scenes for c in s.cards) and any(not c.face_up for s in scenes for c in s.cards)
    assert {c.shape for s in scenes for c in s.clutter} == {"box", "cylinder", "sheet"}


def test_random_scenes_take_pinned_counts():
    scene = random_scene(3, size=(1280, 720), cards=30, pyramids=9, hands=0, deck="decktet")
    assert len(scene.cards) == 30 and len(scene.pyramids) == 9 and not scene.hands
    assert tuple(scene.camera.size) == (1280, 720)
    assert all(c.id in vision.synth.faces.decktet.CATALOGUE for c in scene.cards)


@pytest.mark.parametrize("data, message", [
    ({"cards": [{"id": "ZZ", "x": 1, "y": 2}]}, "cards[0].id: 'ZZ' is not a card id"),
    ({"cards": [{"id": "QH", "x": "left", "y": 2}]}, "cards[0].x: expected a number, got 'left'"),
    ({"cards": [{"id": "QH", "y": 2}]}, "cards[0].x: missing"),
    ({"cards": [{"id": "QH", "x": 1, "y": 2, "pile": 0}]}, "cards[0].pile: a pile holds at least one card"),
    ({"pyramids": [{"stack": "red4", "x": 0, "y": 0}]}, "pyramids[0].stack: 'red4' is not a pyramid"),
    ({"dice": [{"orientation": "123", "x": 0, "y": 0}]}, "dice[0].orientation: no die has top 1, north 2, east 3"),
    ({"surface": {"kind": "marble"}}, "surface.kind: 'marble' is not one of wood, felt"),
    ({"camera": {"size": [1280]}}, "camera.size: expected a list of 2 numbers"),
    ({"mat": {"game": "chess"}}, "mat: no mat for 'chess'"),
    ({"light": {"glow": 1}}, "light: unknown field 'glow'"),
    ({"clutter": [{"shape": "vase", "x": 0, "y": 0}]}, "clutter[0].shape: 'vase' is not one of box, cylinder, sheet"),
    ({"clutter": [{"shape": "box", "x": 0, "y": 0, "size_mm": [10, 0, 5]}]}, "clutter[0].size_mm: sizes are positive"),
    ({"cards": {"id": "QH"}}, "cards: expected a list"),
    ([1, 2], "the scene: expected an object"),
])
def test_bad_scenes_are_refused_naming_the_field(data, message):
    with pytest.raises(SceneError) as error:
        Scene.from_json(json.dumps(data))
    assert message in str(error.value)


def test_text_that_is_not_json_is_refused():
    with pytest.raises(SceneError, match="not JSON"):
        Scene.from_json("{cards: [")


def test_objects_built_in_code_are_checked_too():
    with pytest.raises(SceneError, match="cards\\[1\\].id"):
        Scene(cards=[CardObject("QH", 0, 0), CardObject("queen", 0, 0)])
    Scene(cards=[CardObject("mountain", 0, 0), CardObject("back", 0, 0, face_up=False)],
          pyramids=[PyramidObject("green1+green2+green3", 0, 0)], dice=[DieObject("132", 0, 0)])
