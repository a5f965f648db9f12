"""A Decktet card's print is no piece: a pyramid read where its card looked the same bare is dropped."""

import math

import cv2
import numpy as np

from calibration.homography import TableCalibration
from referee.pyramids import Pyramid, Size
from referee.snapshot import CardSighting, PyramidSighting
from vision.card_looks import CardLooks
from vision.pieces.reader import CUT, WHOLE

PX = 3.0  # pixels a millimetre of the drawn table
CENTRE = (100.0, 70.0)  # the card's middle, table mm
ART_SPOT = (120.0, 62.0)  # a red ellipse of its art
PANEL_SPOT = (80.0, 75.0)  # a plain part of its green panel


def _calibration() -> TableCalibration:
    return TableCalibration(np.diag([PX, PX, 1.0]), (600, 450))


def _card(shift_mm: float = 0.0, turned: bool = False) -> CardSighting:
    x, y = CENTRE[0] + shift_mm, CENTRE[1] + shift_mm
    corners = [(x - 44.5, y - 32), (x + 44.5, y - 32), (x + 44.5, y + 32), (x - 44.5, y + 32)]
    if turned:  # the same outline read from its other end
        corners = corners[2:] + corners[:2]
    return CardSighting("painter", True, (x, y), tuple(corners), 180.0 if turned else 0.0, 0.99)


def _px(point):
    return round(point[0] * PX), round(point[1] * PX)


def _table(light: float = 1.0, pyramid_at=None, card: str = "painter", covered_mm: float = 0.0,
           ground=(90, 100, 110)) -> np.ndarray:
    """A grey table with the card drawn on it: white, its art a green panel with a red ellipse (another card
    of ``card`` "other": a blue panel, a yellow ellipse elsewhere; none of None); a red small's outline (a
    triangle, shaded) where ``pyramid_at`` says; and the card's left ``covered_mm`` under a dark piece. The table
    is ``ground``'s colour (a mat: white)."""
    frame = np.full((450, 600, 3), ground, np.uint8)
    x, y = CENTRE
    if card is not None:
        panel, ellipse, spot = ((60, 170, 70), (40, 40, 200), ART_SPOT) if card == "painter" else \
            ((190, 120, 50), (40, 200, 220), PANEL_SPOT)
        cv2.rectangle(frame, _px((x - 44.5, y - 32)), _px((x + 44.5, y + 32)), (235, 238, 240), -1)
        cv2.rectangle(frame, _px((x - 35, y - 22)), _px((x + 35, y + 22)), panel, -1)
        cv2.ellipse(frame, _px(spot), (round(8 * PX), round(5 * PX)), 0, 0, 360, ellipse, -1)
    if covered_mm:
        cv2.rectangle(frame, _px((x - 50, y - 40)), _px((x - 44.5 + covered_mm, y + 40)), (30, 30, 110), -1)
    if pyramid_at is not None:
        cx, cy = _px(pyramid_at)
        r = round(7 * PX)
        cv2.fillPoly(frame, [np.int32([(cx - r, cy + r), (cx + r, cy + r), (cx, cy - 2 * r)])], (30, 30, 150))
        cv2.line(frame, (cx, cy - 2 * r), (cx, cy + r), (20, 20, 90), 2)
    noise = np.random.default_rng(1).normal(0, 2.0, frame.shape)
    return np.clip(frame * light + noise, 0, 255).astype(np.uint8)


def _small(at) -> PyramidSighting:
    return PyramidSighting((Pyramid("red", Size.SMALL),), at, 0.92)


def test_a_pyramid_read_on_a_cards_art_where_the_card_looked_the_same_bare_is_print():
    looks = CardLooks()
    calibration = _calibration()
    looks.keep(_table(), calibration, [_card()], ())
    assert set(looks.faces) == {"painter"}
    # the ellipse read as a red small: under a dimmer light, the outline placed 4 mm off each way, or read the other way up
    for frame, card in [(_table(), _card()), (_table(light=0.8), _card()), (_table(), _card(shift_mm=4.0)),
                        (_table(), _card(turned=True))]:
        assert looks.print_only(frame, calibration, _small(ART_SPOT), [card])
    # a real small on the panel, and one on the ellipse itself, are pieces
    assert not looks.print_only(_table(pyramid_at=PANEL_SPOT), calibration, _small(PANEL_SPOT), [_card()])
    assert not looks.print_only(_table(pyramid_at=ART_SPOT), calibration, _small(ART_SPOT), [_card()])
    # a pyramid on no card with a kept look is left alone
    assert not looks.print_only(_table(), calibration, _small((10.0, 10.0)), [_card()])


def test_a_card_first_named_with_a_pyramid_beside_it_keeps_no_look():
    """A hatch puts a card and its small down together: the small may go unseen, and a look kept then would
    make it print for good (Deck Town trial 7's Chance Meeting)."""
    looks = CardLooks()
    calibration = _calibration()
    beside = _small((CENTRE[0] + 50, CENTRE[1]))
    looks.keep(_table(), calibration, [_card()], (beside,))
    looks.keep(_table(), calibration, [_card()], ())  # bare at the next look, the small now unseen
    assert looks.faces == {} and not looks.print_only(_table(), calibration, _small(ART_SPOT), [_card()])
    unsure = CardLooks()
    unsure.keep(_table(), calibration, [CardSighting("painter", True, CENTRE, _card().corners_mm, 0.0, 0.5)], ())
    assert unsure.faces == {}  # named unsurely: no look kept, and the next sure look is its first
    unsure.keep(_table(), calibration, [_card()], ())
    assert set(unsure.faces) == {"painter"} and math.isclose(float(np.median(unsure.faces["painter"][:3])), 1.0, abs_tol=0.05)


def test_a_card_seen_bare_is_there_with_part_of_its_art_covered_and_not_once_taken_away():
    """A pyramid set on a card can hide it from the recogniser (Deck Town trial 9's Chance Meeting, a medium
    over its corner): its kept face, there over most of its art, says it lies where it lay."""
    looks = CardLooks()
    calibration = _calibration()
    looks.keep(_table(), calibration, [_card()], ())
    for frame, card in [(_table(covered_mm=30), _card()), (_table(light=0.8, covered_mm=30), _card()),
                        (_table(pyramid_at=ART_SPOT), _card(shift_mm=4.0)), (_table(covered_mm=30), _card(turned=True))]:
        assert looks.there(frame, calibration, card)
    # taken away, another card put in its place, most of its art covered, or an outline laid 20 mm off
    for frame, card in [(_table(card=None), _card()), (_table(card="other"), _card()), (_table(covered_mm=70), _card()),
                        (_table(covered_mm=30), _card(shift_mm=-15.0))]:
        assert not looks.there(frame, calibration, card)
    # a card of a name with no kept face is never there by its looks
    assert not CardLooks().there(_table(), calibration, _card())


def test_a_card_overlapped_by_another_keeps_its_face_only_once_seen_apart():
    """A reveal's cards lie over each other: a face cut out there at an outline a little off takes in the other
    card (Deck Town trial 1's Windfall kept half the Consul over it)."""
    looks = CardLooks()
    calibration = _calibration()
    over = CardSighting("consul", True, (CENTRE[0] - 30, CENTRE[1]), tuple((x - 30, y) for x, y in _card().corners_mm),
                        0.0, 0.99)
    looks.keep(_table(), calibration, [_card(), over], ())
    assert looks.faces == {}
    beside = CardSighting("consul", True, (CENTRE[0] - 95, CENTRE[1]), tuple((x - 95, y) for x, y in _card().corners_mm),
                          0.0, 0.99)  # a neighbour in the town's grid lies apart
    looks.keep(_table(), calibration, [_card(), beside], ())
    assert "painter" in looks.faces


def test_a_card_laid_out_off_its_own_outline_keeps_its_face_only_from_a_look_at_its_outline():
    """An outline laid 15 mm off takes in the table on one side: its art lies off its middle (Deck Town trial
    3's Desert, kept 18 mm off, later put a Desert found at its place back where it was not)."""
    calibration = _calibration()
    # on the white mat the art lies off the outline's middle; on a dark table all of it, its border no paper, is art
    for ground in ((236, 238, 240), (90, 100, 110)):
        looks = CardLooks()
        looks.keep(_table(ground=ground), calibration, [_card(shift_mm=15.0)], ())
        assert looks.faces == {} and looks.named == set()
        looks.keep(_table(ground=ground), calibration, [_card()], ())
        assert set(looks.faces) == {"painter"}


def test_a_card_whose_face_is_kept_read_surely_by_another_name_keeps_no_face_under_that_name():
    """Deck Town trial 3's Mountain, its face kept, was read surely as the Diplomat once: kept under that name, its
    face would later have put a Diplomat where the Mountain lay."""
    looks = CardLooks()
    calibration = _calibration()
    looks.keep(_table(), calibration, [_card()], ())
    misread = CardSighting("diplomat", True, CENTRE, _card().corners_mm, 0.0, 0.95)
    looks.keep(_table(light=0.9), calibration, [misread], ())
    assert set(looks.faces) == {"painter"} and "diplomat" not in looks.named
    other = CardSighting("diplomat", True, CENTRE, _card().corners_mm, 0.0, 0.95)  # the real Diplomat's face is kept
    looks.keep(_table(card="other"), calibration, [other], ())
    assert set(looks.faces) == {"painter", "diplomat"}


def _shadowed(frame: np.ndarray, at, share: float = 0.6) -> np.ndarray:
    """``frame`` with a soft-edged shadow (light cut to ``share``) over a 16 x 10 mm patch at ``at``."""
    shade = np.ones(frame.shape[:2], np.float32)
    cv2.rectangle(shade, _px((at[0] - 8, at[1] - 5)), _px((at[0] + 8, at[1] + 5)), share, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.5)
    return np.clip(frame * shade[..., None], 0, 255).astype(np.uint8)


def test_what_stands_on_a_card_shows_against_its_bare_look_and_its_shadow_does_not():
    """A small on busy art merges with it in the pieces reader's foreground (Deck Town trial 0's yellow smalls on the
    Darkness, unseen): against the card's kept bare look it stands out alone."""
    looks = CardLooks()
    calibration = _calibration()
    assert looks.standing(_table(), calibration, [_card()]) is None  # no look kept yet
    looks.keep(_table(), calibration, [_card()], ())
    # a red small on the green panel: its drawn triangle is found, and nothing of the card round it
    mask = looks.standing(_table(pyramid_at=PANEL_SPOT), calibration, [_card()])
    assert mask is not None
    cx, cy = _px(PANEL_SPOT)
    r = round(7 * PX)
    triangle = np.zeros_like(mask)
    cv2.fillPoly(triangle, [np.int32([(cx - r, cy + r), (cx + r, cy + r), (cx, cy - 2 * r)])], 255)
    found = mask > 0
    assert (found & (triangle > 0)).sum() >= 0.8 * (triangle > 0).sum()
    assert (found & ~(cv2.dilate(triangle, np.ones((7, 7), np.uint8)) > 0)).sum() == 0
    assert set(np.unique(mask[found])) == {WHOLE}  # within the card
    # one at the card's right end reaches its rim: what stands there may go on over the edge
    rim = looks.standing(_table(pyramid_at=(CENTRE[0] + 40, CENTRE[1])), calibration, [_card()])
    assert set(np.unique(rim[rim > 0])) == {CUT}
    # nothing stands there: the bare card under a dimmer light, its outline read 4 mm off or the other way up, a
    # shadow falling across its panel and border (only darker, alike in every colour)
    for frame, card in [(_table(light=0.8), _card()), (_table(), _card(shift_mm=4.0)), (_table(), _card(turned=True)),
                        (_shadowed(_table(), PANEL_SPOT), _card()), (_shadowed(_table(), (CENTRE[0], CENTRE[1] + 28)),
                                                                      _card())]:
        mask = looks.standing(frame, calibration, [card])
        assert mask is None or not mask.any()
    # a card another overlaps is left out: the other card changed it
    over = CardSighting("consul", True, (CENTRE[0] - 30, CENTRE[1]), tuple((x - 30, y) for x, y in _card().corners_mm),
                        0.0, 0.99)
    assert looks.standing(_table(pyramid_at=PANEL_SPOT), calibration, [_card(), over]) is None
