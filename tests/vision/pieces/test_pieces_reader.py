"""The pieces reader on rendered tables: what it gets right today, the issue's figures (not yet reached), bad input."""

import math

import cv2
import numpy as np
import pytest

from referee import games, layouts
from referee.dice import Die
from referee.snapshot import TableSnapshot
from vision.pieces import PieceReader, TokenError, TokenRegistry, dice
from vision.pieces.camera import TableCamera
from vision.pieces.measure import measure
from vision.pieces.palette import Palette, PaletteError
from vision.pieces.trials import (MEASURE_SEEDS, POUCHES_TOKENS, calibration_of, deck_town_scene, piece_scene,
                                  pouches_registry, pouches_scene, pungo_scene, pungo_setup_scene, token_showing)
from vision.synth.render import render
from vision.synth.scene import Camera, DieObject, Light, PyramidObject, Scene, Surface

SEEDS = list(MEASURE_SEEDS)[:4]


@pytest.fixture(scope="module")
def pungo():
    """Four Pungo games under way (unseen seeds) as (rendering, reading), read as the live pipeline would: one
    die, the play area of the mat."""
    out = []
    for seed in SEEDS:
        scene = pungo_scene(seed)
        rendering = render(scene)
        reader = PieceReader(calibration_of(scene), dice_in_play=1, area_mm=_pungo_play_area())
        out.append((rendering, reader.read(rendering.image)))
    return out


def _pungo_zones():
    from calibration.mats import mat_layout
    return {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in mat_layout("pungo", "A3").zones}


def _pungo_play_area(margin=10.0):
    """The arena and the roll grid, as the live pipeline knows them from the mat."""
    zones = _pungo_zones().values()
    x0, y0 = min(z[0] for z in zones) - margin, min(z[1] for z in zones) - margin
    x1, y1 = max(z[0] + z[2] for z in zones) + margin, max(z[1] + z[3] for z in zones) + margin
    return (x0, y0, x1 - x0, y1 - y0)


def _cell(x, y):
    return next((name for name, (zx, zy, w, h) in _pungo_zones().items()
                 if name.startswith("arena/") and zx <= x <= zx + w and zy <= y <= zy + h), None)


def test_pungo_positions_read_today(pungo):
    # What the reader achieves today on these four positions, as a floor against regressions; the issue's
    # targets (99 %) are asserted by the strict xfail below and are not met: see models/pieces/README.md
    stacks = exact = near = sightings = 0
    for rendering, reading in pungo:
        truth = {(o.pose["x"], o.pose["y"]): o.label for o in rendering.objects if o.kind == "pyramid"}
        stacks += len(truth)
        for s in reading.pyramids:
            sightings += 1
            spot = min(truth, key=lambda t: math.dist(t, s.center_mm))
            if math.dist(spot, s.center_mm) < 5.0:
                near += 1
                exact += "+".join(map(str, s.stack)) == truth[spot]
    assert exact >= 0.5 * stacks
    assert near >= 0.75 * sightings


def test_the_pungo_layout_puts_each_stack_read_on_its_cell(pungo):
    game = games.get("pungo", players=["ann", "bob"])
    layout = layouts.for_game(game, zones=_pungo_zones())
    for rendering, reading in pungo:
        truth = [(o.pose["x"], o.pose["y"]) for o in rendering.objects if o.kind == "pyramid"]
        good = tuple(s for s in reading.pyramids if min(math.dist(t, s.center_mm) for t in truth) < 5.0)
        seen = layout.read(TableSnapshot(0.0, pyramids=good), game.new_state())
        placed = {p for p in seen.view if p.startswith("arena/")}
        assert placed == {_cell(*min(truth, key=lambda t: math.dist(t, s.center_mm))) for s in good}
        assert not seen.unplaced


def test_sightings_round_trip_through_json_with_confidences_in_range(pungo):
    _, reading = pungo[0]
    snapshot = TableSnapshot(0.0, pyramids=reading.pyramids, dice=reading.dice)
    assert TableSnapshot.from_json(snapshot.to_json()) == snapshot
    assert all(0 <= s.confidence <= 1 for s in reading.pyramids)


@pytest.mark.parametrize("face", range(1, 7))
def test_a_die_top_face_is_read_at_any_turn(face):
    orientation = str(Die.orientations(top=face)[face % 4])
    scene = Scene(surface=Surface("wood", (60, 110, 170)), camera=Camera((100, 80), 450, 30, yaw_deg=-15),
                  light=Light(kelvin=3200), dice=[DieObject(orientation, 100, 80, angle=17.0 * face)], seed=face)
    grey = cv2.cvtColor(render(scene).image, cv2.COLOR_BGR2GRAY)
    reading = dice.search_top_face(grey, TableCamera.from_calibration(calibration_of(scene)), 103.0, 77.0)
    assert reading.face == face
    assert math.dist((reading.x, reading.y), (100, 80)) < 2.0
    sighting = dice.sighting(reading)
    assert sighting is not None and sighting.face == face


def test_positions_on_random_tables_are_within_5_mm():
    tally = measure((s, piece_scene(s)) for s in SEEDS)
    errors = sorted(tally.errors_mm)
    assert len(errors) >= 0.8 * tally.summary()["pieces"]
    assert errors[int(0.95 * (len(errors) - 1))] < 5.0


@pytest.mark.xfail(strict=True, reason="issue 10's figures are not reached yet: see models/pieces/README.md")
def test_issue_10_figures_on_unseen_scenes():
    registry = pouches_registry()
    tally = measure([(s, piece_scene(s)) for s in SEEDS] + [(s, pungo_scene(s)) for s in SEEDS[:2]]
                    + [(s, pungo_setup_scene(s)) for s in SEEDS[:2]] + [(s, deck_town_scene(s)) for s in SEEDS[:2]])
    tally = measure([(s, pouches_scene(s)) for s in SEEDS[:2]], registry_of=lambda scene: registry, tally=tally)
    figures = tally.summary()
    assert figures["pyramid_colour_size"] >= 0.99
    assert figures["tree_stack"] >= 0.97
    assert figures["die_face"] >= 0.995
    assert figures["token_identity"] >= 0.99
    assert figures["position_max_mm"] <= 5.0
    assert figures["missed"] == 0


def test_pyramids_standing_on_face_up_cards_are_counted_apart():
    # a Deck Town board: six stacks on six cards, one pyramid in a supply beside them; the bench's figure for
    # pyramids on card art (the reader's hardest place) counts the six
    tally = measure([(SEEDS[0], deck_town_scene(SEEDS[0]))], pyramid_colours=None)
    assert (tally.pyramids, tally.on_cards) == (7, 6)
    assert tally.on_cards_right + tally.on_cards_missed <= tally.on_cards
    assert tally.summary()["on_cards_exact"] == tally.on_cards_right / 6


def test_a_shown_token_is_recognised_later_under_other_light():
    registry = pouches_registry()
    for k, token in enumerate(POUCHES_TOKENS):
        scene = token_showing(token, 9100 + k)  # another seed: another table, light and camera
        reading = PieceReader(calibration_of(scene), tokens=registry, dice_in_play=0,
                              pyramids_in_play=False).read(render(scene).image)
        assert [t.label for t in reading.tokens] == [token.label]
        assert math.dist(reading.tokens[0].center_mm, (140.0, 100.0)) < 5.0


def test_a_colour_registered_at_game_start_is_read_later():
    shown = token_showing(POUCHES_TOKENS[0], 5)
    shown.tokens, shown.pyramids = [], [PyramidObject("olive2", 140.0, 100.0, angle=20.0)]
    reader = PieceReader(calibration_of(shown), dice_in_play=0)
    assert not any(s.colour == "olive" for s in reader.read(render(shown).image).pyramids)
    reader.register_colour(render(shown).image, "olive")
    later = piece_scene(SEEDS[2])  # later in the game: the same table, lamp and camera, other pieces about
    later.surface, later.light, later.camera, later.effects = shown.surface, shown.light, shown.camera, shown.effects
    later.pyramids[0].stack = "olive2"
    rendering = render(later)
    reading = PieceReader(calibration_of(later), palette=reader.palette, dice_in_play=1).read(rendering.image)
    spot = (later.pyramids[0].x, later.pyramids[0].y)
    near = [s for s in reading.pyramids if math.dist(s.center_mm, spot) < 5.0]
    assert [str(p) for s in near for p in s.stack] == ["olive2"]


def test_a_registered_token_is_refused_twice_and_an_empty_view_registers_nothing():
    registry = TokenRegistry()
    registry.register_pyramid("ann", "red1")
    with pytest.raises(TokenError, match="already registered"):
        registry.register_pyramid("ann", "blue1")
    scene = token_showing(POUCHES_TOKENS[0], 1)
    scene.tokens = []
    with pytest.raises(TokenError, match="stands alone in view"):
        PieceReader(calibration_of(scene), tokens=registry).register_token(render(scene).image, "bob", "pawn", 8, 20)
    assert [s.label for s in registry.signatures] == ["ann"]


def test_bad_frames_and_a_missing_colour_table_get_clear_messages(tmp_path):
    scene = piece_scene(SEEDS[0])
    reader = PieceReader(calibration_of(scene))
    with pytest.raises(ValueError, match="BGR colour frame"):
        reader.read(np.zeros((720, 1280), np.uint8))
    with pytest.raises(ValueError, match="calibration was made at 1280x720"):
        reader.read(np.zeros((480, 640, 3), np.uint8))
    with pytest.raises(PaletteError, match="python -m models.pieces.recipe"):
        Palette.load(tmp_path / "none.npz")


def test_an_empty_table_shows_no_pieces():
    scene = piece_scene(SEEDS[1])
    scene.pyramids, scene.dice = [], []
    reading = PieceReader(calibration_of(scene)).read(render(scene).image)
    assert reading.pyramids == () and reading.dice == () and reading.tokens == ()


@pytest.mark.parametrize("stack, pointing", [("red3", 30.0), ("blue2", -120.0), ("yellow1", 170.0)])
def test_a_pyramid_lying_on_its_side_is_read_with_the_way_its_tip_points(stack, pointing):
    # blue2 points away from the camera, which then sees mostly its base; a standing pyramid beside it
    # must stay standing (the game's variant lays pyramids down to point: the reader is told so)
    scene = Scene(surface=Surface("wood", (60, 110, 170)), camera=Camera((100, 80), 450, 30, yaw_deg=-15),
                  light=Light(kelvin=4000), seed=1,
                  pyramids=[PyramidObject(stack, 100, 80, angle=pointing, lying=True),
                            PyramidObject("cyan2", 160, 60, angle=10)])
    reading = PieceReader(calibration_of(scene), dice_in_play=0, lying_in_play=True).read(render(scene).image)
    lying = [s for s in reading.pyramids if math.dist(s.center_mm, (100, 80)) < 5.0]
    standing = [s for s in reading.pyramids if math.dist(s.center_mm, (160, 60)) < 5.0]
    assert [str(p) for s in lying for p in s.stack] == [stack]
    assert abs((lying[0].pointing_deg - pointing + 180) % 360 - 180) <= 10.0
    assert [(str(s.stack[0]), s.pointing_deg) for s in standing] == [("cyan2", None)]
    assert len(reading.pyramids) == 2


def test_a_colour_registered_joins_the_colours_the_game_is_told_to_read():
    # a reader told the game's pyramids are red reports no olive stack, until olive is registered
    shown = token_showing(POUCHES_TOKENS[0], 5)
    shown.tokens, shown.pyramids = [], [PyramidObject("olive2", 140.0, 100.0, angle=20.0)]
    image = render(shown).image
    reader = PieceReader(calibration_of(shown), dice_in_play=0, pyramid_colours=frozenset({"red"}))
    assert reader.read(image).pyramids == ()
    reader.register_colour(image, "olive")
    assert reader.pyramid_colours == {"red", "olive"}
    assert [str(p) for s in reader.read(image).pyramids for p in s.stack] == ["olive2"]
