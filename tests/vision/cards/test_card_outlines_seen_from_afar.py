"""Card-sized outlines on tables the demo never uses (the seeded trials of ``bench.trials``): a
striped table cut by the picture's edge is no back, and a face-up card no index was found on is
read from a closer look, never taken for a back."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bench.trials import HOLD_S, REACH_S, _cut
from calibration.mats import mat_of
from referee.playthrough import random_playthrough
from vision.cards.backs import find_backs, visible_area
from vision.synth.demo import DemoSource, demo_playthrough, demo_pieces
from vision.table_reader import for_game


def _trial_frame(seed: int, t: float, game: str = "pouches"):
    """Frame ``t`` seconds into the seeded random trial ``seed`` of ``game``, its truth and a reader."""
    demo = demo_playthrough(game)
    source = DemoSource(game, seed=seed, fps=10.0, hold_s=HOLD_S, reach_s=REACH_S,
                        recorded=_cut(random_playthrough(demo.game, demo.setup, seed), 20))
    source.seek(round(t * 10))
    frame = source.read()
    game = source.demo.recorded.game
    return frame, source.truth, for_game(game.type.name, mat_of(game), pieces=demo_pieces(source))


def _cards(snapshot) -> Counter:
    return Counter(c.card for c in snapshot.cards)


def _read_as_it_lies(seed: int, t: float, game: str = "pouches") -> bool:
    """Whether the table reader names the cards of trial ``seed``'s frame at ``t`` as they lie."""
    frame, truth, reader = _trial_frame(seed, t, game)
    return _cards(reader.read(frame, truth.t).snapshot) == _cards(truth.snapshot)


@pytest.fixture(scope="module")
def far_table():
    # seed 7, 27 s: the camera 1.3 m away frames a heap spread wide; three hearts lie across the picture
    return _trial_frame(7, 27.0)


def test_a_striped_table_cut_by_the_pictures_edge_makes_no_back():
    # seed 8 opens on a striped table: below the mat, the stripes, the mat's edge and the picture's
    # edge made two card-sized rectangles, read as two more face-down cards in the heap
    frame, truth, reader = _trial_frame(8, 0.4)
    reading = reader.read(frame, truth.t)
    assert _cards(reading.snapshot) == _cards(truth.snapshot) == Counter({"back": 9})


def test_face_up_cards_seen_from_afar_are_read_closer_and_none_is_taken_for_a_back(far_table):
    frame, truth, reader = far_table
    assert _cards(truth.snapshot)["back"] == 0 and sum(_cards(truth.snapshot).values()) == 10
    assert _cards(reader.read(frame, truth.t).snapshot) == _cards(truth.snapshot)


def test_a_neighbours_index_merged_into_a_card_does_not_hide_the_card_it_lies_on():
    # seed 0, 12.4 s: the 8D's index, found, was merged into the 6H beside it as a corner found
    # again; its outline, holding that index, was taken for the 6H's, and the 8D was not read at all
    frame, truth, reader = _trial_frame(0, 12.4)
    seen, expected = _cards(reader.read(frame, truth.t).snapshot), _cards(truth.snapshot)
    assert expected["8D"] == 1 and seen["8D"] == 1 and seen["back"] == expected["back"]


def test_outlines_of_face_up_cards_look_like_faces_and_backs_do_not(far_table):
    frame, truth, reader = far_table
    calibration = reader.read(frame, truth.t, recognise=False).track.calibration
    layout = reader.layout
    ox, oy = layout.origin_on_paper
    paper = (-ox, -oy, *layout.paper_mm)
    area = visible_area(calibration, around=(layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy))
    faces = find_backs(frame, calibration, area, paper_mm=paper)  # no card named: every outline is offered
    truth_centres = np.array([c.center_mm for c in truth.snapshot.cards])
    assert len(faces) == 10 and all(np.min(np.linalg.norm(truth_centres - f.centre_mm, axis=1)) < 6 for f in faces)
    assert all(f.face_like for f in faces), [round(f.paper, 2) for f in faces]
    frame, truth, reader = _trial_frame(8, 0.4)
    calibration = reader.read(frame, truth.t, recognise=False).track.calibration
    backs = find_backs(frame, calibration, visible_area(calibration, around=(210.0, 140.0)), paper_mm=paper)
    assert len(backs) == 9 and not any(b.face_like for b in backs), [round(b.paper, 2) for b in backs]


def test_a_card_the_index_stage_could_not_name_is_named_from_the_closer_look():
    # seed 1, 12.4 s: the JH just turned up, seen from 1.2 m, was an unknown card (one index boxed
    # with the 4H's beside it); its outline, white inside, read closer names it, and the unknown goes
    frame, truth, reader = _trial_frame(1, 12.4)
    seen = _cards(reader.read(frame, truth.t).snapshot)
    assert _cards(truth.snapshot)["JH"] == 1 and seen["JH"] == 1 and seen[None] == 0


def test_a_card_turned_up_white_on_the_white_mat_is_found_by_a_second_look_where_its_back_was():
    # seed 12, 2.2 s: the first card of the heap turned up, over-lit, white on the white mat: no
    # outline to find, its index too small for the detector. The reader that saw its back there a
    # moment before looks again, closer, where that back no longer is
    frame, truth, _ = _trial_frame(12, 2.2)
    assert _cards(truth.snapshot)["9S"] == 1
    _, _, alone = _trial_frame(12, 2.2)
    assert _cards(alone.read(frame, truth.t).snapshot)["9S"] == 0  # one frame alone: not found
    before, earlier, reader = _trial_frame(12, 0.4)
    assert _cards(reader.read(before, earlier.t).snapshot) == Counter({"back": 9})
    assert _cards(reader.read(frame, truth.t).snapshot) == _cards(truth.snapshot)


@pytest.mark.parametrize("seed", [2, 9])
def test_the_print_of_a_face_down_deck_read_as_an_index_is_no_card(seed):
    # Mongoose trials 2 and 9 open on the mat with the deck beside it: a corner of the deck's back
    # pattern was found as an index no name fitted, an unknown card the layout put in bob's play area
    frame, truth, reader = _trial_frame(seed, 0.4, "mongoose")
    assert _cards(truth.snapshot) == Counter({"back": 1})
    assert _cards(reader.read(frame, truth.t).snapshot) == Counter({"back": 1})


def test_a_name_read_twice_is_looked_at_again_closer_and_a_mark_on_a_card_goes():
    # Mongoose seed 0, 30 s: ann's collection, fanned at the far side, read a JD 0.92 (the 2D's corner)
    # and bob's a KH 0.82 (between his JH and TC), the pool's JD and KH read 1.00 besides. One deck holds
    # each card once: the less sure of the two, looked at closer, is another card on the table, and goes
    frame, truth, reader = _trial_frame(0, 30.0, game="mongoose")
    seen = _cards(reader.read(frame, truth.t).snapshot)
    assert seen == _cards(truth.snapshot) and max(seen.values()) == 1


@pytest.mark.parametrize("t", [17.2, 18.0])
def test_an_index_read_turned_where_a_cards_other_corner_lies_is_that_corner(t):
    # Mongoose seed 8: the 2D seen by its top-left index alone, its bottom-right one (upside down, above
    # the 4S and 8S) read QH 0.74 (17.2 s) or KH 0.48 (18.0 s) at a turn 45 degrees off, laid out as a
    # card turned across the 4S and 8S: a second KH for the stabiliser. It lies where the 2D's index places
    # the 2D's other corner; read at the 2D's turn, in a box somewhat larger, it is the 2D's
    assert _read_as_it_lies(8, t, "mongoose")


def test_a_small_index_boxed_at_a_wrong_turn_is_read_at_its_neighbours_turn():
    # Mongoose seed 6, the last table: ann's collection of six at the far side, the indices 10 px tall.
    # The 8D's was boxed at a turn 60 degrees off, twice its size, taking in the 4S's pip: read 4S 0.43,
    # and at every retried turn and size unsure. The cards of a row lie alike: read at the turn of the
    # 4S named surely beside it, in a smaller box, it is the 8D (the trial was lost at its last capture)
    assert _read_as_it_lies(6, 38.6, "mongoose")


def test_a_small_index_boxed_too_small_is_read_in_a_larger_box():
    # Mongoose seed 2, the last table: the 8C's index in ann's collection at the far side, 11 x 14 px, found
    # clearly (0.63) but boxed with its rank cut off: read as no index (0.73), the 8C went unseen and the
    # trial was lost at its last capture. In a box 1.4 times as large it reads 8C surely
    assert _read_as_it_lies(2, 38.4, "mongoose")


def test_a_covered_corner_is_measured_at_the_pictures_scale_where_its_cards_box_is_loose():
    # Mongoose seed 10, 20.2 s: the pool's TD, its bottom-right corner half under the AD, read 7D 0.94 there:
    # a 7D that never was (the referee took it as a reveal). It lies a TD's index diagonal from the TD's
    # top-left index at the picture's scale, but the TD's box, round its two digits, is a third too large, and
    # the line measured by that box looked a fifth too short for the TD's other corner
    assert _read_as_it_lies(10, 20.2, "mongoose")


def test_bare_paper_boxed_by_the_cards_round_it_is_no_card():
    # Mongoose seed 7, 32.2 s: the empty place right of the pool's AD, boxed by the AD's and the 9C's edges
    # and the mat's printed lines, made a card-sized outline as white as a face: an unknown card the
    # referee saw turned up (the trial was lost there). Nothing is printed on it: no card
    frame, truth, reader = _trial_frame(7, 32.2, "mongoose")
    seen = _cards(reader.read(frame, truth.t).snapshot)
    assert seen[None] == 0 and sum(seen.values()) == sum(_cards(truth.snapshot).values())


@pytest.mark.parametrize("t", [14.2, 14.6])
def test_a_cards_corner_by_the_edge_of_the_card_over_it_is_its_corner_and_no_card(t):
    # Mongoose seed 5: the pool's QH, the TC over its right side, its bottom-right index by the TC's edge
    # read KH 0.95 at a turn 70 degrees off: a KH that never was (the referee took a `reveal KD` from
    # it), and the QH, its top-left index boxed with the court art beside it (KD), unknown
    assert _read_as_it_lies(5, t, "mongoose")



def test_two_cards_named_surely_are_two_even_where_their_corners_lie_as_one_cards():
    # Pouches seed 19, 32.2 s: Ann's pouch, the AS laid over the 5C; the AS's top corner (AS 0.97) and
    # the 5C's bottom one (5C 1.00), turned half round from each other, were joined as one card in
    # doubt between them, the 5C went from the pouch and the referee read it buried
    assert _read_as_it_lies(19, 32.2)


def test_cards_seen_by_one_small_index_are_turned_as_the_pictures_edges_say():
    # seed 16, 30.2 s: a heap seen from afar, its indices 10 px tall; the JC, AH, JD and 9D, each seen by
    # one index, had their turns read 40-50 degrees off and lay 15-30 mm from where they are (half a
    # cell: the layout read the JC on the 2D's pile); turned along the picture's edges they lie true
    frame, truth, reader = _trial_frame(16, 30.2)
    where = {c.card: c for c in truth.snapshot.cards}
    seen = {c.card: c for c in reader.read(frame, truth.t).snapshot.cards}
    for name in ("JC", "AH", "JD", "9D", "6S"):
        assert np.hypot(*np.subtract(seen[name].center_mm, where[name].center_mm)) < 5, (name, seen[name].center_mm)
    assert all(np.hypot(*np.subtract(seen[n].center_mm, where[n].center_mm)) < 12 for n in where), seen


def test_a_box_round_court_art_beside_an_index_read_unsurely_as_a_like_card_is_no_card():
    # Mongoose seed 18, 20 s: the pool's JC, its picture's crown and club beside its index boxed at a
    # turn 48 degrees from the index's and read JS 0.62 (JC 0.09 next): a JS that never was, which the
    # referee took as revealed with the AD, so the deal ended a card early
    assert _read_as_it_lies(18, 20.0, "mongoose")


def test_a_mark_on_the_edge_of_the_face_down_deck_is_no_card():
    # Mongoose seed 15, 10.8 s: a mark on the deck's right edge, 0.2 mm outside the back's outline, read
    # as an unknown card (2H 0.35 its likeliest): the votes named it 2H, in ann's play area, for 20 s
    assert _read_as_it_lies(15, 10.8, "mongoose")

