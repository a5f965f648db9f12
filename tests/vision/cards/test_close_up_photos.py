"""Close-up photos of one card (the real dev set's phone photos, 640x640, a card filling much of the
picture): their indices are a sixth of the picture across, larger than any the detector learned at
its usual scales, so a picture showing few indices is looked at coarser too
(:data:`vision.cards.recognise.COARSE_SIDES`), while a table's picture is read as before."""

from __future__ import annotations

import cv2
import pytest

from models.cards import real
from vision.cards import grey, recognise
from vision.cards.recognise import CardRecogniser


@pytest.fixture(scope="module")
def recogniser() -> CardRecogniser:
    return CardRecogniser()


def _photo(shared, name: str):
    image = cv2.imread(str(shared / "data" / "cards_real" / "dev" / "images" / name))
    assert image is not None, name
    return image


# photos from the half the models never learned from, each named nothing (or a neighbour's corner at
# the picture's edge: the 2C's, whose own indices were not found) before the coarse look
@pytest.mark.parametrize("name, card", [("single-IMG_20220921_195944.jpg", "9C"),  # 9C seen at a slant
                                        ("single-IMG_20220921_200020.jpg", "2C"),  # a 6H's corner at the top
                                        ("single-IMG_20220921_201156.jpg", "6S"),  # grey-scale, from above
                                        ("single-IMG_20220921_201515.jpg", "7S")])  # grey-scale, under glare
def test_a_close_up_card_is_named_from_its_large_indices(recogniser, shared, name, card):
    assert not any(r["image"].endswith(name) for r in real.teaching(shared / "data" / "cards_real" / "dev"))
    cards = [c for c in recogniser.recognise(_photo(shared, name), deck="standard") if c.id not in (None, "back")]
    assert cards, "nothing named"
    assert max(cards, key=lambda c: c.confidence).id == card, [(c.id, round(c.confidence, 2)) for c in cards]


def test_a_table_showing_many_indices_is_not_looked_at_coarser(recogniser, shared, monkeypatch):
    # (at a coarse scale a pile of a face's hearts is boxed as one large index, read KH 0.98)
    image = _photo(shared, "tabletop-WIN_20240627_12_52_37_Pro.jpg")
    seen = recogniser.detect(image)
    monkeypatch.setattr(recognise, "COARSE_SIDES", ())
    assert recogniser.detect(image) == seen


# grey-scale photos (from the half never learned from) of diamonds, which the classifier, seeing their
# signs as dark as a club's, read as clubs or spades: their suit is told by the sign's shape
@pytest.mark.parametrize("name, card, misread", [("single-IMG_20220921_195938.jpg", "TD", "TC"),
                                                 ("single-IMG_20220921_200039.jpg", "KD", "KC"),  # court art about
                                                 ("single-IMG_20220921_200046.jpg", "JD", "JC"),
                                                 ("single-IMG_20220921_201125.jpg", "6D", "6C"),
                                                 # its boxes cut the sign off below the 7: looked at wider
                                                 ("single-IMG_20220921_200041.jpg", "7D", "7S")])
def test_a_grey_photo_of_a_diamond_is_read_as_a_diamond(recogniser, shared, name, card, misread):
    image = _photo(shared, name)
    assert grey.without_colour(image)
    cards = [c for c in recogniser.recognise(image, deck="standard") if c.id not in (None, "back")]
    assert cards and max(cards, key=lambda c: c.confidence).id == card, [(c.id, round(c.confidence, 2)) for c in cards]
    assert misread not in {c.id for c in cards}


def test_only_a_picture_without_colour_is_judged_grey(shared):
    photo = _photo(shared, "single-IMG_20220921_195938.jpg")
    assert grey.without_colour(photo)
    assert not grey.without_colour(_photo(shared, "single-IMG_20220921_195500.jpg"))  # a QD on a pale table
    assert not grey.without_colour(_photo(shared, "tabletop-WIN_20240627_12_52_37_Pro.jpg"))


def test_a_table_seen_by_the_camera_is_never_looked_at_as_a_close_up(recogniser):
    # the Pungo demo's table shows pyramids, a die and the mat's markers but no card: few indices, yet no
    # close-up (looked at coarser, the markers and the pyramids are boxed as large indices)
    from vision.synth.demo import DemoSource
    from vision.table_reader import _default_recogniser

    source = DemoSource("pungo")
    source.seek(20)
    frame = source.read()
    assert recogniser.detect(frame) != recogniser.detect(frame, coarse=False)  # (a photo might be one)
    table_reader = _default_recogniser()
    assert table_reader.detect(frame) == table_reader.detect(frame, coarse=False)


def test_a_decktet_table_is_not_looked_at_as_a_close_up(recogniser):
    # its indices are found less surely: the Deck Town demo's table shows few finds scoring 0.4, and looked
    # at coarser, its faces' art is boxed as large indices, which would outscore the cards' own
    from vision.synth.demo import DemoSource

    source = DemoSource("deck-town")
    source.seek(40)
    frame = source.read()
    assert recogniser.detect(frame) != recogniser.detect(frame, coarse=False)
    seen = [(c.id, round(c.confidence, 3)) for c in recogniser.recognise(frame, deck="decktet")]
    plain = CardRecogniser(close_ups=False)
    assert seen == [(c.id, round(c.confidence, 3)) for c in plain.recognise(frame, deck="decktet")]
