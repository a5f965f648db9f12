"""Sizes read on a face-up card, weighed by how often each was right (vision.pieces.card_sizes).

On Deck Town's trial tables a small on a Decktet card's art often merges with the print round it and is read a
medium, or a patch of art is read a large. The table reader now weighs each lone pyramid read on a face-up card
by how often that size, read on a card, was each size or nothing (counted on trial seeds the trials never play).
"""

import json

import pytest

from referee.pyramids import Pyramid, Size
from referee.snapshot import Alternative, CardSighting, PyramidSighting
from vision.pieces.card_sizes import NOTHING, CardSizes, CardSizesError, on_a_card

# the shape of the shipped counts (size read -> what stood there), smaller
SIZES = CardSizes({"1": {"1": 88, "2": 2, NOTHING: 8}, "2": {"1": 12, "2": 10, NOTHING: 6}})


def _lone(size: Size, confidence: float, *alternatives: Alternative) -> PyramidSighting:
    return PyramidSighting((Pyramid("red", size),), (100.0, 50.0), confidence, None, alternatives)


def test_a_medium_read_on_a_card_is_doubtful_and_offers_the_small_it_often_was_as_its_runner_up():
    weighed = SIZES.weigh(_lone(Size.MEDIUM, 0.9))
    assert weighed.stack == (Pyramid("red", Size.MEDIUM),)
    assert weighed.confidence == pytest.approx(0.9 * 12 / 30, abs=1e-4)  # 10 right, 2 taken as right (the prior)
    assert [a.label for a in weighed.alternatives] == ["red1"]
    # a small as often, but the reading stands first: the stabiliser names an object by its likeliest reading
    assert weighed.alternatives[0].probability == pytest.approx(0.95 * weighed.confidence, abs=1e-4)


def test_a_small_read_on_a_card_stays_sure_and_the_likeliest_of_two_alternatives_for_one_reading_is_kept():
    weighed = SIZES.weigh(_lone(Size.SMALL, 1.0, Alternative("red2", 0.3)))
    assert weighed.confidence == pytest.approx(90 / 100)
    # the reader's red2, scaled as the reading is (0.27), over the counts' (2 of 100)
    assert [(a.label, a.probability) for a in weighed.alternatives] == [("red2", pytest.approx(0.27))]


def test_a_stack_of_several_and_a_size_never_counted_are_weighed_as_counted():
    tree = PyramidSighting((Pyramid("red", Size.LARGE), Pyramid("yellow", Size.SMALL)), (0.0, 0.0), 0.8)
    assert SIZES.weigh(tree) == tree  # which of its pyramids would change is not counted
    large = SIZES.weigh(_lone(Size.LARGE, 0.8))
    assert (large.confidence, large.alternatives) == (0.8, ())  # no large was counted: the prior alone


def test_only_pyramids_on_a_face_up_named_card_are_weighed():
    square = [[0.0, 0.0], [64.0, 0.0], [64.0, 89.0], [0.0, 89.0]]
    up = CardSighting("castle", True, (32.0, 44.5), square, 0.0, 1.0)
    down = CardSighting("back", False, (32.0, 44.5), square, 0.0, 1.0)
    assert on_a_card((10.0, 10.0), [up]) and not on_a_card((70.0, 10.0), [up])
    assert not on_a_card((10.0, 10.0), [down])
    on, off = _lone(Size.MEDIUM, 0.9), PyramidSighting((Pyramid("red", Size.MEDIUM),), (200.0, 10.0), 0.9)
    on = PyramidSighting(on.stack, (10.0, 10.0), 0.9)
    weighed = SIZES.weigh_on_cards([on, off], [up])
    assert weighed[0].confidence < 0.6 and weighed[1] == off


def test_the_shipped_counts_load_round_trip_and_a_missing_file_says_how_to_rebuild(tmp_path):
    shipped = CardSizes.load()
    assert shipped.truths(Size.MEDIUM)["2"] < 0.6  # a medium read on a card is no sure medium
    shipped.save(tmp_path / "sizes.json", about="test")
    assert CardSizes.load(tmp_path / "sizes.json") == shipped
    (tmp_path / "bad.json").write_text(json.dumps({"counts": {"2": [1, 2]}}))
    with pytest.raises(CardSizesError, match="python -m models.pieces.card_sizes"):
        CardSizes.load(tmp_path / "bad.json")
    with pytest.raises(CardSizesError, match="python -m models.pieces.card_sizes"):
        CardSizes.load(tmp_path / "none.json")
