"""Face-down cards found on a calibrated table, and the table reader's checks of what the card
models report: no card on a mat's marker, none of a size no card has."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.markers import detect_markers
from calibration.mats import mat_layout
from calibration.tracker import MatTracker
from referee.snapshot import CardSighting
from vision.cards.backs import _long_enough, _median, find_backs, visible_area
from vision.cards.recognise import CardSeen
from vision.synth.random_scene import random_scene
from vision.synth.render import render
from vision.synth.scene import CardObject, MatObject
from vision.table_reader import TableReader, card_sized


def _table(cards: list[CardObject], seed: int = 971_000):
    """A rendered A3 Pouches mat seen from 0.6 m, with ``cards`` on it, and its calibration."""
    scene = random_scene(seed, size=(1280, 720), cards=0, pyramids=0, hands=0)
    scene.mat = MatObject("pouches", "A3")
    scene.camera.target_mm, scene.camera.distance_mm, scene.camera.tilt_deg = (150.0, 120.0), 650.0, 18.0
    scene.camera.distortion = (0.0, 0.0, 0.0, 0.0, 0.0)
    scene.clutter = []
    scene.cards = cards
    image = render(scene).image
    tracker = MatTracker(mat_layout("pouches", "A3"), (1280, 720))
    calibration = tracker.update(detect_markers(image)).calibration
    assert calibration is not None
    return image, calibration


def _angle_gap(a: float, b: float) -> float:
    """Degrees between two directions of a card with no top (a back): modulo half a turn."""
    return abs((a - b + 90) % 180 - 90)


def test_face_down_cards_are_found_where_they_lie_and_face_up_ones_are_not_taken_for_backs():
    backs = [CardObject("back", 60 + 75 * (k % 3), 40 + 100 * (k // 3), angle=[0, 7, -12, 90, 25, 3][k], face_up=False)
             for k in range(6)]
    face_up = CardObject("QH", 300, 140, angle=-5)
    image, calibration = _table(backs + [face_up])
    found = find_backs(image, calibration, visible_area(calibration, around=(150, 120)), [(300.0, 125.0)])
    assert len(found) == len(backs), [b.centre_mm for b in found]
    for card in backs:
        nearest = min(found, key=lambda b: math.dist(b.centre_mm, (card.x, card.y)))
        assert math.dist(nearest.centre_mm, (card.x, card.y)) < 3.0
        assert _angle_gap(nearest.angle_deg, card.angle) < 3.0
    assert all(math.dist(b.centre_mm, (300, 140)) > 30 for b in found)  # the face-up card is not a back


def test_the_table_reader_reports_backs_with_a_cards_outline():
    image, _ = _table([CardObject("back", 120, 90, angle=15, face_up=False),
                       CardObject("back", 220, 90, angle=-30, face_up=False)])
    snapshot = TableReader(mat_layout("pouches", "A3"), deck="standard").read(image, 1.0).snapshot
    backs = [c for c in snapshot.cards if c.card == "back"]
    assert len(backs) == 2 and not [c for c in snapshot.cards if c.card != "back"]
    for card in backs:
        assert card_sized(card)
        assert min(math.dist(card.center_mm, (x, 90)) for x in (120, 220)) < 3.0


def _sighting(corners, face_up=True) -> CardSighting:
    c = np.mean(corners, axis=0)
    return CardSighting("QH" if face_up else "back", face_up, (float(c[0]), float(c[1])),
                        tuple((float(x), float(y)) for x, y in corners), 0.0, 0.9)


@pytest.mark.parametrize("scale, kept", [(1.0, True), (0.8, True), (1.25, True), (0.6, False), (2.8, False)])
def test_a_face_up_sighting_must_have_a_cards_size(scale, kept):
    w, h = 63 * scale, 88 * scale
    assert card_sized(_sighting([(0, 0), (w, 0), (w, h), (0, h)])) is kept


def test_a_face_down_box_may_be_as_wide_as_a_turned_card_but_not_three_times_a_card():
    # the detector boxes a face-down card upright: a card turned 45 degrees fills 107 x 107 mm
    assert card_sized(_sighting([(0, 0), (107, 0), (107, 107), (0, 107)], face_up=False))
    assert not card_sized(_sighting([(0, 0), (180, 0), (180, 190), (0, 190)], face_up=False))


def test_a_card_named_from_an_index_on_a_marker_is_left_out():
    from vision import table_reader

    image, calibration = _table([])
    markers = detect_markers(image)
    x0, y0 = markers[0].corners_px.min(axis=0)
    x1, y1 = markers[0].corners_px.max(axis=0)
    on_marker = CardSeen("5C", 0.8, [[0, 0], [1, 0], [1, 1], [0, 1]], indices=[[x0 + 2, y0 + 2, x1 - 2, y1 - 2]])
    off_marker = CardSeen("5C", 0.8, [[0, 0], [1, 0], [1, 1], [0, 1]], indices=[[600, 300, 615, 320]])
    assert table_reader._on_a_marker(on_marker, markers)
    assert not table_reader._on_a_marker(off_marker, markers)


def test_the_views_median_from_its_histogram_is_numpys_median():
    # odd and even pixel counts (an even count's median is the mean of its two middle values)
    rng = np.random.default_rng(5)
    for shape in ((101, 99), (100, 100), (1, 1), (2, 1)):
        grey = rng.integers(0, 256, shape, dtype=np.uint8)
        assert _median(grey) == float(np.median(grey))
    assert _median(np.array([[10, 200]], np.uint8)) == 105.0


def test_only_outlines_too_small_for_a_card_are_left_out_before_their_rectangles_are_measured():
    # a card-sized outline turned 30 degrees, and speckle a few pixels across: the speckle goes, the
    # card stays, and so does every outline whose smallest rectangle could be a card's
    image = np.zeros((400, 400), np.uint8)
    card = cv2.boxPoints(((200.0, 200.0), (95.0, 132.0), 30.0)).astype(np.int32)
    cv2.fillPoly(image, [card], 255)
    for x in range(10, 390, 25):
        cv2.circle(image, (x, 20), 3, 255, -1)
    contours, _ = cv2.findContours(image, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    need = 0.72 * 88 * 1.5
    kept = _long_enough(contours, need)
    assert len(contours) == 17 and len(kept) == 1  # (the card and 16 specks)
    assert all(any(c is k for k in kept) for c in contours if max(cv2.minAreaRect(c)[1]) >= need)
