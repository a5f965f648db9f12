"""The recogniser's own geometry and bookkeeping, without the networks: crops, outlines, merging."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.cards.classes import CLASSES, CROP, DECKS, INDEX, NONE
from vision.cards.recognise import CardRecogniser, RecognitionError, card_outline, crop_turned, merge, restrict


def one_hot(name: str, p: float = 0.9) -> np.ndarray:
    probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    probs[INDEX[name]] = p
    return probs


def test_an_unturned_crop_centres_the_box_and_scales_it():
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (140, 90), (159, 109), (255, 255, 255), -1)  # a 20 px square at (150, 100)
    crop = crop_turned(image, (140, 90, 160, 110), 0.0, side_scale=2.0)
    assert crop.shape == (CROP, CROP, 3)
    ys, xs = np.nonzero(crop[..., 0] > 127)
    assert abs(xs.mean() - CROP / 2) < 1.0 and abs(ys.mean() - CROP / 2) < 1.0
    assert abs((xs.max() - xs.min() + 1) - CROP / 2) <= 2  # the box fills half the crop's side


def test_a_crop_at_the_border_repeats_edge_pixels_instead_of_failing():
    image = np.full((50, 50, 3), 200, np.uint8)
    crop = crop_turned(image, (-10, -10, 10, 10), 0.0)
    assert crop.shape == (CROP, CROP, 3) and crop.min() == 200


@pytest.mark.parametrize("turn", [0, 30, 90, 145, -120])
def test_card_outline_from_an_index_and_the_centre_recovers_the_card(turn):
    # a 63 x 88 card, 3 px per mm, turned; its top-left index box and its centre
    k, a = 3.0, math.radians(turn)
    ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    centre = np.array([400.0, 300.0])
    corners = [centre + k * (sx * 31.5 * ex + sy * 44 * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    index = np.array([centre + k * ((-31.5 + u) * ex + (-44 + v) * ey) for u, v in ((1.5, 2), (11.5, 2), (11.5, 21), (1.5, 21))])
    box = (*index.min(axis=0), *index.max(axis=0))
    outline = np.array(card_outline(box, centre))
    # the same four corners, in the same order up to where the turn starts
    best = min(np.abs(np.roll(outline, s, axis=0) - corners).max() for s in range(4))
    assert best < 0.01 * k * 88


def test_merge_makes_one_card_of_two_agreeing_indices_and_keeps_distinct_cards_apart():
    indices = [{"box": [0, 0, 20, 30], "card_centre": [100, 150], "turn": 0.0},
               {"box": [180, 270, 200, 300], "card_centre": [102, 148], "turn": 180.0},  # the same card's other corner
               {"box": [400, 0, 420, 30], "card_centre": [500, 150], "turn": 0.0}]
    probs = np.stack([one_hot("QH"), one_hot("QH", 0.8), one_hot("7S")])
    cards = merge(indices, probs)
    assert sorted(c.id for c in cards) == ["7S", "QH"]
    qh = next(c for c in cards if c.id == "QH")
    assert len(qh.indices) == 2 and qh.confidence == pytest.approx(0.85, abs=0.01)


def test_one_index_found_twice_gives_a_card_of_card_size_not_one_between_the_finds():
    # the detector's second box round the same index takes in the pip beside it: both are turned
    # alike and name one card, so they are one corner, and the card lies where the index says
    # (not at the middle between them, as for a card's two opposite corners)
    centre = [1002.0, 597.0]
    twice = [{"box": [965, 562, 979, 582], "card_centre": centre, "turn": -12.0},
             {"box": [973, 568, 995, 600], "card_centre": [1029, 632], "turn": -5.0}]
    (card,) = merge(twice, np.stack([one_hot("8S", 0.92), one_hot("8S", 0.74)]))
    assert card.id == "8S" and len(card.indices) == 2
    assert np.allclose(np.mean(card.polygon, axis=0), centre)
    assert np.allclose(card.polygon, card_outline(twice[0]["box"], centre, "8S"))


def test_two_indices_read_as_different_names_at_one_cards_two_corners_make_one_card():
    # the top-left index says 8C, the bottom-right one (half a turn round) 8S: both place the card's
    # centre midway between them, so it is one card whose name is in doubt between the two readings
    one_card = [{"box": [0, 0, 20, 30], "card_centre": [100, 149], "turn": 3.0},
                {"box": [180, 270, 200, 300], "card_centre": [101, 151], "turn": 181.0}]
    cards = merge(one_card, np.stack([one_hot("8C", 0.9), one_hot("8S", 0.7)]))
    assert len(cards) == 1 and len(cards[0].indices) == 2
    # (averaged, neither reading is sure enough to name it: the players are asked, both offered)
    assert cards[0].id is None and [name for name, _ in cards[0].alternatives[:2]] == ["8C", "8S"]
    # the same two readings on two cards lying side by side (both turned alike) stay two cards
    side_by_side = [{"box": [0, 0, 20, 30], "card_centre": [100, 149], "turn": 3.0},
                    {"box": [60, 0, 80, 30], "card_centre": [160, 149], "turn": 2.0}]
    assert len(merge(side_by_side, np.stack([one_hot("8C", 0.9), one_hot("8S", 0.7)]))) == 2


def test_an_unclear_index_is_unknown_with_its_candidates_and_a_non_index_is_dropped():
    probs = np.full((2, len(CLASSES)), 0.0, np.float32)
    probs[0, INDEX["QH"]], probs[0, INDEX["QD"]] = 0.45, 0.4
    probs[0, INDEX[NONE]] = 0.15
    probs[1, INDEX[NONE]] = 0.95
    probs[1, INDEX["2C"]] = 0.05
    cards = merge([{"box": [0, 0, 10, 10], "card_centre": [50, 50], "turn": 0.0},
                   {"box": [300, 0, 310, 10], "card_centre": [350, 50], "turn": 0.0}], probs)
    assert len(cards) == 1
    assert cards[0].id is None
    assert [name for name, _ in cards[0].alternatives[:2]] == ["QH", "QD"]


def test_restricting_to_a_deck_removes_the_other_decks_names():
    probs = np.stack([one_hot("mountain", 0.5) + one_hot("9H", 0.4)])
    out = restrict(probs, "standard")
    assert out[0, INDEX["mountain"]] == 0 and CLASSES[int(out[0].argmax())] == "9H"
    assert out[0].sum() == pytest.approx(1.0)
    assert set(DECKS["decktet"]).isdisjoint(DECKS["standard"])


def test_missing_models_are_reported_with_how_to_rebuild(tmp_path):
    with pytest.raises(RecognitionError, match="make models"):
        CardRecogniser(tmp_path)


def test_an_unsure_index_is_named_by_the_vote_of_its_turns_and_turned_to_their_middle(monkeypatch):
    # read at the detector's turn (10) the index is 8S but not surely; read 30 degrees either side,
    # one far turn names 8C more surely than anything, the other 8S again: two reads outvote one,
    # the surest 8S read is kept, and the turn is the middle of the reads weighted by their 8S
    reads = {10.0: one_hot("8S", 0.85), -20.0: one_hot("8C", 0.95), 40.0: one_hot("8S", 0.88)}
    recogniser = CardRecogniser()

    def read(image, indices, turns):
        probs = np.stack([reads[round(float(t), 6)] for t in turns])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "_read", read)
    index = {"box": [100, 100, 114, 120], "turn_hint": 10.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [index])
    assert CLASSES[int(probs[0].argmax())] == "8S" and probs[0].max() == pytest.approx(0.88)
    w = {d: reads[10.0 + d][INDEX["8S"]] for d in (0.0, -30.0, 30.0)}
    middle = math.degrees(math.atan2(sum(v * math.sin(math.radians(d)) for d, v in w.items()),
                                     sum(v * math.cos(math.radians(d)) for d, v in w.items())))
    # (about halfway between the two turns that read 8S: 10 and 40)
    assert index["turn"] == pytest.approx(10.0 + middle) and 24.0 < index["turn"] < 26.0


def test_two_overlapping_finds_read_as_different_cards_are_one_index_in_doubt():
    # one index found twice, the second box taking in the pip beside it, read 8C and 8S: one card,
    # its name pooled (here in doubt between the two), not two cards a few millimetres apart
    twice = [{"box": [965, 562, 979, 582], "card_centre": [990, 560], "turn": -43.0},
             {"box": [973, 568, 995, 600], "card_centre": [1029, 632], "turn": -5.0}]
    (card,) = merge(twice, np.stack([one_hot("8C", 0.85), one_hot("8S", 0.76)]))
    assert card.id is None and len(card.indices) == 2
    assert [name for name, _ in card.alternatives[:2]] == ["8C", "8S"]
    # the same readings a card's width apart stay two cards
    apart = [twice[0], {**twice[1], "box": [1045, 568, 1067, 600], "card_centre": [1100, 632]}]
    assert len(merge(apart, np.stack([one_hot("8C", 0.85), one_hot("8S", 0.76)]))) == 2
