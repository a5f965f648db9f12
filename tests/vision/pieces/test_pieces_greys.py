"""Grey, white and clear pyramids on grey tables: their plastic in shade looks like the table's shadow (session 12).

A shadow dims the table and keeps its chromaticity; so does white plastic in shade, and clear plastic over a grey
table. The foreground used to leave all of it out as shadow: lone grey pyramids were missed, and a tree whose bottom
was grey was read as its coloured top alone. Each scene is one of the bench's random piece tables (unseen seeds).
"""

import math

import pytest

from referee.pyramids import Stack
from vision.pieces import PieceReader
from vision.pieces.palette import Palette, _achromatic
from vision.pieces.trials import calibration_of, piece_scene
from vision.synth.render import render


def _read(seed):
    scene = piece_scene(seed)
    rendering = render(scene)
    reading = PieceReader(calibration_of(scene), dice_in_play=len(scene.dice)).read(rendering.image)
    return rendering, reading


def _seen_at(rendering, reading, label):
    """The stack read within 15 mm of the pyramid ``label`` of the scene (None: nothing there)."""
    truth = next(o for o in rendering.objects if o.kind == "pyramid" and o.label == label)
    spot = (truth.pose["x"], truth.pose["y"])
    near = [p for p in reading.pyramids if math.dist(p.center_mm, spot) < 15.0]
    return min(near, key=lambda p: math.dist(p.center_mm, spot)) if near else None


def test_a_grey_pyramid_with_nothing_beside_it_to_cast_a_shadow_is_read():
    # Table 100001: a warm grey table under a soft light; the clear large and the white small, in shade, have the
    # table's chromaticity at 0.7 to 0.9 of its brightness: the shadow test took all of them. Nothing standing out
    # lies beside them that could have cast such a shadow.
    rendering, reading = _read(100001)
    clear = _seen_at(rendering, reading, "clear3")
    assert clear is not None and str(clear.stack[0]) == "clear3"
    assert _seen_at(rendering, reading, "white1") is not None


def test_a_grey_patch_on_a_grey_table_is_read_as_plastic_of_no_hue():
    # Table 100013: the clear large on a pale grey table (Lab a, b within 5 of the table's, the table within 12 of
    # neutral); its nearest examples in the colour table were pink ones, a hue it does not have
    rendering, reading = _read(100013)
    clear = _seen_at(rendering, reading, "clear3")
    assert clear is not None and str(clear.stack[0]) == "clear3"


def test_a_patch_with_a_grey_tables_hue_has_no_hue_and_a_coloured_one_has():
    table = [170.0, 127.0, 130.0]
    light = [200.0, 127.0, 130.0]
    grey = [120.0, 126.0, 132.0] + table + light + [8.0]
    pink = [120.0, 150.0, 126.0] + table + light + [8.0]
    on_pink = [120.0, 150.0, 126.0, 170.0, 152.0, 127.0] + light + [8.0]
    assert _achromatic(grey)
    assert not _achromatic(pink)
    assert not _achromatic(on_pink)  # (the table has a hue: clear plastic over it shows it too)
    votes = Palette.load().classify(grey)
    assert votes and votes[0][0] in ("white", "clear", "black")


@pytest.mark.parametrize("seed, label", [(100004, "white3+clear2+pink1"), (100028, "clear3+cyan2+blue1")])
def test_a_tree_on_a_grey_bottom_is_read_with_its_bottom(seed, label):
    # The large's grey plastic rings the coloured pyramid on it on every side, 0.8 or more of the large's outline
    # round the blob shaded; a shadow falls one way, away from the light (the coloured singles' rings: 0.5 at most).
    # Before, only the top's blob stood out and its stack was read from a medium or a small.
    rendering, reading = _read(seed)
    seen = _seen_at(rendering, reading, label)
    assert seen is not None and seen.stack[0] == Stack.parse(label).pyramids[0], seen


@pytest.mark.parametrize("seed, label", [(100021, "purple3+red2+clear1"), (100022, "green3+clear1")])
def test_a_clear_pyramid_perched_on_a_coloured_one_is_read_clear(seed, label):
    # Clear plastic on a coloured pyramid shows that colour washed with white (lighter, of its hue, 0.6 to 0.7 of its
    # chroma): the colour table, which learned clear plastic over tables, named it the colour below (green3+green1)
    # or a neighbour's (orange for clear on red)
    rendering, reading = _read(seed)
    seen = _seen_at(rendering, reading, label)
    assert seen is not None and "+".join(map(str, seen.stack)) == label, seen


def test_the_same_plastic_or_white_on_a_colour_is_not_washed():
    from vision.pieces.stacks import _washed
    green = [100.0, 92.0, 157.0]
    assert _washed(green, [131.0, 106.0, 149.0])  # clear on green: lighter, 0.64 of its chroma, the same hue
    assert not _washed(green, [101.0, 91.0, 158.0])  # green on green
    assert not _washed(green, [200.0, 127.0, 129.0])  # white on green: next to no chroma left
    assert not _washed([139.0, 168.0, 150.0], [170.0, 110.0, 126.0])  # cyan on red: another hue
    assert not _washed([132.0, 131.0, 120.0], [140.0, 129.0, 123.0])  # below: too little colour to say
