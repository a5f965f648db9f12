"""The pieces step on the demo tables (`make demo`): rendered frames through the demo's own pieces step, and
the two fixes they needed: a coloured piece split from a grey thing it merged with, and a game's dice chosen
as the best matching candidates."""

import math

import numpy as np
import pytest

from calibration.markers import detect_markers
from calibration.tracker import MatTracker
from vision.pieces.demo_check import DemoTally, tally_reading
from vision.pieces.foreground import Foreground
from vision.synth.demo import DemoSource
from vision.synth.render import render
from vision.synth.demo import demo_pieces


def _read_shot(game: str, shot: int):
    """The demo's pieces step on the settled table of one shot: (rendering, (pyramids, dice, tokens), step)."""
    source = DemoSource(game)
    pieces = demo_pieces(source)
    rendering = render(source.demo.sequence.states[shot])
    frame = rendering.image
    tracker = MatTracker(pieces.layout, (frame.shape[1], frame.shape[0]))
    tracker.update(detect_markers(frame))
    calibration = tracker.update(detect_markers(frame)).calibration
    assert calibration is not None, "the demo mat's markers were not found"
    return rendering, pieces(frame, calibration), pieces


def test_the_pouches_demo_registers_every_players_token_and_reads_each_where_it_stands():
    # Ann's and Bob's tokens are shown at the start beside a marker of the mat, where they merge with it
    # into one blob; all three must register and be read on a table with the heap's cards
    rendering, (pyramids, dice, tokens), pieces = _read_shot("pouches", 3)
    assert pieces.problems == []
    assert sorted(s.label for s in pieces._reader.tokens.signatures) == ["ann", "bob", "cat"]
    truth = {o.label: (o.pose["x"], o.pose["y"]) for o in rendering.objects if o.kind == "token"}
    assert sorted(t.label for t in tokens) == sorted(truth) == ["ann", "bob", "cat"]  # no card back taken for Bob's
    for token in tokens:
        assert math.dist(token.center_mm, truth[token.label]) < 5.0, token
    assert pyramids == () and dice == ()


def test_a_pyramid_whose_printed_pips_look_like_a_face_does_not_take_the_games_one_die():
    # Pungo demo, shot 16: a medium pyramid's pips matched a 2 and, found first, used to take the one die's
    # place, so the real die (a 6) went unread and the pyramid was lost
    rendering, reading, _ = _read_shot("pungo", 16)
    tally = DemoTally("pungo")
    tally_reading(tally, 16, reading, rendering.objects)
    assert [d.face for d in reading[1]] == [6]
    assert tally.read["die"] == tally.truth["die"] == 1
    assert tally.read["pyramid"] == tally.truth["pyramid"] == len(reading[0])  # every bottom right, nothing extra


def _foreground(draw) -> tuple[Foreground, tuple, np.ndarray]:
    """A grey table with things drawn on it (Lab, OpenCV scaling), its whole foreground as one blob."""
    import cv2

    table = np.full((60, 80, 3), (200, 128, 128), np.uint8)
    lab = table.copy()
    draw(lab, cv2)
    mask = (np.abs(lab.astype(int) - table.astype(int)).sum(axis=2) > 0).astype(np.uint8)
    fg = Foreground(lab, table, mask * 255, np.array([230, 128, 128], np.float32))
    return fg, (0, 0, 80, 60), mask


def _parts_centres(fg, box, mask):
    import cv2

    out = []
    for (x0, y0, _, _), part in fg.colour_parts(box, mask):
        m = cv2.moments(part, binaryImage=True)
        out.append((x0 + m["m10"] / m["m00"], y0 + m["m01"] / m["m00"]))
    return sorted(out)


def _near(found, drawn, px=1.5):
    return len(found) == len(drawn) and all(math.dist(f, d) <= px for f, d in zip(found, drawn))


def test_a_coloured_piece_comes_apart_from_a_grey_marker_it_touches():
    def draw(lab, cv2):
        cv2.rectangle(lab, (10, 20), (30, 40), (30, 128, 128), -1)  # a marker's black square
        cv2.circle(lab, (36, 30), 5, (120, 175, 150), -1)  # a red token against it

    fg, box, mask = _foreground(draw)
    assert mask.sum() > 21 * 21  # one blob: marker and token together
    assert _near(_parts_centres(fg, box, mask), [(36, 30)])


def test_two_pieces_of_different_colours_come_apart_but_print_of_one_hue_does_not():
    def two_pieces(lab, cv2):
        cv2.rectangle(lab, (10, 20), (30, 40), (30, 128, 128), -1)
        cv2.circle(lab, (36, 30), 5, (120, 175, 150), -1)  # red
        cv2.circle(lab, (46, 30), 5, (90, 140, 80), -1)  # blue, touching the red one

    fg, box, mask = _foreground(two_pieces)
    assert _near(_parts_centres(fg, box, mask), [(36, 30), (46, 30)])

    def print_of_one_hue(lab, cv2):  # a card back's pattern: blue round a white emblem, all one blob
        cv2.rectangle(lab, (10, 10), (60, 50), (90, 140, 80), -1)
        cv2.circle(lab, (35, 30), 12, (230, 128, 128), 2)

    fg, box, mask = _foreground(print_of_one_hue)
    assert _parts_centres(fg, box, mask) == []


@pytest.mark.parametrize("bad", ["mongoose", "nope"])
def test_the_demo_check_refuses_a_game_without_pieces(bad, capsys):
    from vision.pieces.demo_check import main

    with pytest.raises(SystemExit):
        main([bad])
    assert "not a demo game with pieces" in capsys.readouterr().err


def _packed_supply():
    """A grey table with nine red pieces packed 2 pixels apart in a 3x3 grid (a Deck Town supply seen from far:
    each about 12 pixels across at the reader's half size, where a large pyramid stands 22 pixels tall)."""
    import cv2

    image = np.full((360, 640, 3), (170, 175, 180), np.uint8)
    image = cv2.add(image, np.random.default_rng(0).integers(0, 4, image.shape, dtype=np.uint8))
    squares = []
    for r in range(3):
        for c in range(3):
            x, y = 300 + c * 14, 150 + r * 14
            cv2.rectangle(image, (x, y), (x + 12, y + 12), (40, 40, 170), -1)
            squares.append((x + 6, y + 6))
    return image, squares


def test_the_middle_of_a_packed_supply_stands_out():
    image, _ = _packed_supply()
    # the median alone takes the pack's middle for the table: none of the middle square stood out before
    # 2026-11-22; now its rim does (about half of it: its inside is as far from the ring's colour as from the
    # table's)
    middle = Foreground.of(image, 22.0).mask[164:176, 314:326] > 0
    assert middle.mean() > 0.3


def test_a_pack_of_pieces_comes_apart_at_its_gaps():
    import cv2

    image, squares = _packed_supply()
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    table = np.full_like(lab, cv2.cvtColor(image[:1, :1], cv2.COLOR_BGR2LAB)[0, 0])
    # the pack as the foreground sees it: one blob, the 2-pixel gaps closed over
    mask = (cv2.absdiff(lab, table).max(axis=2) > 20).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    fg = Foreground(lab, table, mask, np.array([230, 128, 128], np.float32))
    x0, y0, w, h = cv2.boundingRect(mask)
    parts = fg.packed_parts((x0, y0, x0 + w, y0 + h), (mask[y0:y0 + h, x0:x0 + w] > 0).astype(np.uint8))
    centres = [((a + c) / 2, (b + d) / 2) for (a, b, c, d), _ in parts]
    assert len(centres) == len(squares)  # each part is one square (its box's centre within a sixth of it)
    assert all(min(math.dist(c, s) for c in centres) <= 2.0 for s in squares)


def test_pieces_standing_apart_in_a_row_are_not_joined_into_one_blob():
    import cv2

    image = np.full((360, 640, 3), (170, 175, 180), np.uint8)
    for k in range(6):  # a row of red pieces 8 pixels apart: each stands out on its own
        cv2.rectangle(image, (200 + 20 * k, 150), (211 + 20 * k, 161), (40, 40, 170), -1)
    fg = Foreground.of(image, 22.0)
    _, _, stats, _ = cv2.connectedComponentsWithStats(fg.mask)
    assert sorted(stats[1:, cv2.CC_STAT_AREA] > 50) == [True] * 6


def test_the_deck_town_demo_reads_the_supplies_beside_the_mat():
    # Shot 20: the players' supplies (14 pyramids packed close) lie beside the mat, off its paper, and four
    # smalls stand on Decktet cards. Before, the reading area was the paper: no supply pyramid was read
    from vision.pieces.trials import match

    rendering, (pyramids, dice, tokens), pieces = _read_shot("deck-town", 20)
    ox, oy = pieces.layout.origin_on_paper
    pw, ph = pieces.layout.paper_mm
    on_paper = supply = on_paper_right = supply_right = 0
    for truth, seen, _ in match(pyramids, rendering.objects, "pyramid"):
        right = seen is not None and str(seen.stack[0]) == truth.label.split("+")[0]
        if -ox <= truth.pose["x"] <= pw - ox and -oy <= truth.pose["y"] <= ph - oy:
            on_paper, on_paper_right = on_paper + 1, on_paper_right + right
        else:
            supply, supply_right = supply + 1, supply_right + right
    # today's floor (see models/pieces/README.md): pieces packed close still merge or are lost (8 of 14 read
    # on 2026-11-22, 9 since session 5's packs, 14 by session 9); the four smalls on the cards' art: 1 of 4 on
    # 2026-11-22, 3 by session 9 (the Battle card's red small read as a large with the art's edge), 4 since session 10
    assert supply == 14 and supply_right >= 9
    assert on_paper == 4 and on_paper_right == 4
    assert dice == () and tokens == ()


def test_deck_town_reads_only_pyramids_of_the_colours_its_players_brought():
    # Shots 7-9: the Decktet cards' art (pink, cyan, purple, white blobs) read as pyramids; the game's
    # pyramids are red and yellow (the opening's supplies), so those are no pieces of it
    from vision.pieces.trials import match

    for shot in (7, 8):
        rendering, (pyramids, dice, tokens), pieces = _read_shot("deck-town", shot)
        assert pieces.pyramid_colours == {"red", "yellow"}
        assert pyramids and all(p.colour in {"red", "yellow"} for s in pyramids for p in s.stack)
        pieces._reader.pyramid_colours = None  # the same reader, told nothing of the colours
        unfiltered = pieces._reader.read(rendering.image).pyramids
        phantoms = [s for s in unfiltered if any(p.colour not in {"red", "yellow"} for p in s.stack)]
        # (since session 9 a stack with a colour not in play is no reading, and the blob's parts are read instead:
        # told the colours, the reader also finds the yellow small on the Sailor card's print)
        # (confidences differ: told the colours, a yellow read can be no orange one)
        assert {(s.stack, s.center_mm) for s in unfiltered if s not in phantoms} <= {(s.stack, s.center_mm)
                                                                                      for s in pyramids}
        truth = [o for o in rendering.objects if o.kind == "pyramid" and o.visible >= 0.2]
        on_art = [s for s in phantoms if not any(math.dist(s.center_mm, (o.pose["x"], o.pose["y"])) < 15 for o in truth)]
        assert len(on_art) >= 2  # pyramids read where there is none
        right = sum(seen is not None and str(seen.stack[0]) == t.label.split("+")[0]
                    for t, seen, _ in match(pyramids, rendering.objects, "pyramid"))
        assert right >= sum(seen is not None and str(seen.stack[0]) == t.label.split("+")[0]
                            for t, seen, _ in match(unfiltered, rendering.objects, "pyramid"))  # none lost
