"""Players' tokens under another light than they were shown in: shade is forgiven, black print is no token."""

import math

import pytest

from vision.pieces import PieceReader
from vision.pieces.tokens import REACH, colour_distance
from vision.pieces.reader import COLOUR_GATE
from vision.pieces.trials import calibration_of, match, pouches_registry, pouches_scene
from vision.synth.render import render

# Lab colours (OpenCV's 8-bit) measured on the bench's Pouches renders
CAT_SHOWN = (87.0, 104.0, 149.0)  # the green pawn registered from the side: mostly its shaded flanks
CAT_FROM_ABOVE = (156.5, 87.0, 167.0)  # its lit top, seen from above on table 100006
SPADE = (38.0, 128.0, 128.0)  # the black print of an ace of spades
RED_PAWN = (123.0, 162.0, 141.0)


def test_a_token_seen_brighter_than_it_was_shown_keeps_its_colour():
    assert colour_distance(CAT_FROM_ABOVE, CAT_SHOWN) < 0.2 * REACH
    assert colour_distance(CAT_FROM_ABOVE, RED_PAWN) > REACH  # shade changes no hue


def test_dark_print_is_not_a_dark_token_in_shade():
    # scaled down far enough, every colour nears black: compared at the brighter one's light they stay apart
    assert colour_distance(SPADE, CAT_SHOWN) > COLOUR_GATE * REACH


def test_colour_distance_takes_a_picture_of_colours():
    picture = [[CAT_FROM_ABOVE, SPADE], [CAT_SHOWN, RED_PAWN]]
    d = colour_distance(picture, CAT_SHOWN)
    assert d.shape == (2, 2) and d[1, 0] == pytest.approx(0.0, abs=1e-3)
    assert d[0, 0] == pytest.approx(colour_distance(CAT_FROM_ABOVE, CAT_SHOWN))


@pytest.fixture(scope="module")
def registry():
    return pouches_registry()


def _read(seed, registry):
    scene = pouches_scene(seed)
    rendering = render(scene)
    reading = PieceReader(calibration_of(scene), tokens=registry, dice_in_play=0,
                          pyramids_in_play=False).read(rendering.image)
    return rendering, reading


def test_a_pawn_shown_from_the_side_is_read_from_above_on_its_lit_top(registry):
    # table 100006: Cat's green pawn, registered from the side, stands on a card under a camera looking down
    rendering, reading = _read(100006, registry)
    cat = next(o for o in rendering.objects if o.kind == "token" and o.label == "cat")
    seen = [t for t in reading.tokens if t.label == "cat"]
    assert len(seen) == 1 and math.dist(seen[0].center_mm, (cat.pose["x"], cat.pose["y"])) < 5.0


@pytest.mark.parametrize("seed", [100200, 100206, 100208])
def test_an_ace_of_spades_is_not_read_as_a_dark_green_pawn(seed, registry):
    # with shade forgiven the other way round too, each of these tables read its ace's black spade as Cat's pawn
    rendering, reading = _read(seed, registry)
    pairs = match(reading.tokens, rendering.objects, "token")
    placed = {id(found) for _, found, _ in pairs if found is not None}
    assert [t.label for t in reading.tokens if id(t) not in placed] == []
    assert all(found is not None and found.label == truth.label for truth, found, _ in pairs)
