"""The recogniser's own geometry and bookkeeping, without the networks: crops, outlines, merging."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.cards.classes import CLASSES, CROP, DECKS, INDEX, NONE
from vision.cards.recognise import (CardRecogniser, RecognitionError, card_centre, card_outline, crop_turned, merge,
                                    restrict)


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

    def read(image, indices, turns):  # (read again at the turns' middle with other boxes: nothing there)
        probs = np.stack([reads.get(round(float(t), 6), one_hot(NONE, 0.9)) for t in turns])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "_read", read)
    index = {"box": [100, 100, 114, 120], "turn_hint": 10.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [index])
    assert CLASSES[int(probs[0].argmax())] == "8S" and probs[0].max() == pytest.approx(0.88)
    assert index["box"] == pytest.approx([100, 100, 114, 120], abs=0.05)
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


def test_an_unsure_index_is_read_again_at_other_sizes_and_named_where_one_names_it_surely(monkeypatch):
    # the detector's box round a small index came out a third too small, cutting the rank off: read at
    # the box the index is 4D, unsurely, and JD about as unsurely 30 degrees either side (the turns'
    # vote: JD, not surely); read at that turn with a box 1.4 times as large it is JD surely, smaller
    # it is nothing and twice as large a 9D (the box takes in pips). The sure read is kept; the box
    # stays (a larger crop read surely is no measure of the index's size)
    recogniser = CardRecogniser()

    def read(image, indices, turns):
        side = [max(i["box"][2] - i["box"][0], i["box"][3] - i["box"][1]) for i in indices]
        probs = np.stack([one_hot(NONE, 0.9) if s < 14 else one_hot("9D", 0.6) if s > 26 else
                          one_hot("JD", 0.99) if s > 20 else
                          one_hot("4D", 0.45) if t == -10.0 else one_hot("JD", 0.5) for s, t in zip(side, turns)])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "_read", read)
    index = {"box": [100, 100, 112, 116], "turn_hint": -10.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [index])
    assert CLASSES[int(probs[0].argmax())] == "JD" and probs[0].max() == pytest.approx(0.99)
    assert index["box"] == [100, 100, 112, 116]
    # (the turns either side named JD alike, the detector's turn hardly: their middle is the detector's)
    assert index["turn"] == pytest.approx(-10.0)

    # a box half again too large (it took in the pip beside the index) reads AS unsurely at every turn,
    # surely at 0.7 times its size, and as something else larger: AS, and the box shrinks to that size
    def read_large(image, indices, turns):
        side = [max(i["box"][2] - i["box"][0], i["box"][3] - i["box"][1]) for i in indices]
        probs = np.stack([one_hot("AS", 0.99) if s < 30 else one_hot("AC", 0.5) if s > 40 else
                          one_hot("AS", 0.86) for s in side])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "_read", read_large)
    large = {"box": [100, 100, 132, 138], "turn_hint": 173.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [large])
    assert CLASSES[int(probs[0].argmax())] == "AS" and probs[0].max() == pytest.approx(0.99)
    assert large["box"] == pytest.approx([116 - 16 * 0.7, 119 - 19 * 0.7, 116 + 16 * 0.7, 119 + 19 * 0.7])

    # where no size names it surely, the turns' reading and the detector's box stand
    monkeypatch.setattr(recogniser, "_read", lambda image, indices, turns: (np.stack(
        [one_hot("JD", 0.7) for _ in turns]),) * 2)
    unclear = {"box": [100, 100, 112, 116], "turn_hint": -10.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [unclear])
    assert CLASSES[int(probs[0].argmax())] == "JD" and probs[0].max() == pytest.approx(0.7)
    assert unclear["box"] == [100, 100, 112, 116]
    # a sure read at the detector's box is not read again: its box stays as found
    monkeypatch.setattr(recogniser, "_read", lambda image, indices, turns: (np.stack([one_hot("QS", 0.97)]),) * 2)
    sure = {"box": [100, 100, 112, 116], "turn_hint": 5.0}
    recogniser.classify(np.zeros((300, 300, 3), np.uint8), [sure])
    assert sure["box"] == [100, 100, 112, 116]


def test_a_third_find_at_a_corner_of_a_card_seen_by_both_corners_is_that_corner_not_another_card():
    # a JD seen by both corners (half a turn apart, both placing the centre midway), and beside its
    # top-left index the pip of its picture's frame, found as an index and read 4D: the pip is that
    # corner found again (its box touches the index's, no more), so it joins the JD, named by its two
    # corners alone, instead of standing as a 4D lying on the JD
    jd = [{"box": [1005, 433, 1024, 457], "card_centre": [981, 406], "turn": 177.0},
          {"box": [936, 357, 952, 379], "card_centre": [977, 393], "turn": -15.0},
          {"box": [951, 365, 963, 384], "card_centre": [985, 398], "turn": -13.0}]
    cards = merge(jd, np.stack([one_hot("JD", 0.99), one_hot("JD", 0.98), one_hot("4D", 0.78)]))
    assert len(cards) == 1 and len(cards[0].indices) == 3
    assert cards[0].id == "JD" and cards[0].confidence == pytest.approx(0.985, abs=0.001)
    assert "4D" not in [name for name, _ in cards[0].alternatives]
    # the same 4D find turned as the JD's bottom-right index (not half a turn from it) is not at its
    # corner: a card of its own
    aside = [*jd[:2], {**jd[2], "turn": 170.0}]
    assert len(merge(aside, np.stack([one_hot("JD", 0.99), one_hot("JD", 0.98), one_hot("4D", 0.78)]))) == 2
    # a QD seen by both corners, its top-left index's turn read 43 degrees off (137 degrees from the
    # other's, not half a turn: yet the two lie a card's diagonal apart, so both corners show), and
    # beside that index the diamond of its picture's frame found and read KH surely: that corner's
    qd = [{"box": [355, 565, 373, 579], "card_centre": [360, 608], "turn": 43.0},
          {"box": [405, 633, 419, 655], "card_centre": [382, 606], "turn": 180.0},
          {"box": [367, 569, 394, 590], "card_centre": [365, 634], "turn": 54.0}]
    (card,) = merge(qd, np.stack([one_hot("QD", 0.99), one_hot("QD", 0.98), one_hot("KH", 0.94)]))
    assert card.id == "QD" and len(card.indices) == 3


def test_a_cards_two_corners_a_diagonal_apart_place_its_centre_midway_though_one_turn_was_read_wrong():
    # a 4S's bottom-right index, its turn read 45 degrees off (-148 for about -193), placed the card's
    # centre 25 px from where it lies; its top-left index, a card's diagonal away, agrees on the name:
    # the two are the card's corners, and the centre is midway between them whatever the turns say
    corners = [{"box": [702, 552, 730, 576], "card_centre": [711, 510], "turn": -148.0},
               {"box": [660, 491, 676, 509], "card_centre": [694, 522], "turn": -13.0}]
    (card,) = merge(corners, np.stack([one_hot("4S", 0.99), one_hot("4S", 0.93)]))
    assert card.id == "4S" and np.allclose(np.mean(card.polygon, axis=0), [692, 532])


def _corner_finds(turns: tuple[float, float]) -> list[dict]:
    """An upright card at 2 px per mm, its top-left corner at (100, 100): its two index boxes, each
    with the turn given and the centre that turn places (``card_centre``)."""
    boxes = [[103, 104, 123, 142], [203, 234, 223, 272]]  # 10 x 19 mm indices, their middles a diagonal apart
    return [{"box": b, "turn": t, "card_centre": card_centre(b, t, "KS")} for b, t in zip(boxes, turns)]


def test_two_corners_a_diagonal_apart_read_as_names_in_doubt_are_one_card_named_by_both():
    # the KS's top-left index is read KS surely; its bottom-right one KD (0.7, KS 0.2), its turn read
    # 26 degrees off, so the centres the two place lie 20 px apart: still the card's two corners, as
    # they lie its index diagonal apart and the KD read allows KS. Both corners must allow the name,
    # so the card is the KS (an average of the two reads would leave it unknown)
    finds = _corner_finds((15.0, -154.0))
    assert math.dist(finds[0]["card_centre"], finds[1]["card_centre"]) > 15
    kd = one_hot("KD", 0.7)
    kd[INDEX["KS"]] = 0.2
    kd /= kd.sum()
    (card,) = merge(finds, np.stack([one_hot("KS", 0.99), kd]))
    assert card.id == "KS" and card.confidence > 0.8 and len(card.indices) == 2
    assert np.allclose(np.mean(card.polygon, axis=0), [163, 188], atol=1.0)  # the card's centre
    # two sure reads of cards that do not allow each other's names are two cards, however they lie
    assert len(merge(_corner_finds((15.0, -154.0)), np.stack([one_hot("7C", 0.9), one_hot("5H", 0.9)]))) == 2
    # and reads in doubt half a card's diagonal apart are two cards
    near = _corner_finds((15.0, -154.0))
    near[1]["box"] = [153, 169, 173, 207]
    assert len(merge(near, np.stack([one_hot("KS", 0.99), kd]))) == 2


def test_a_box_round_a_pip_beside_an_index_does_not_veto_the_name_its_corners_agree_on():
    # a 3C read 3C surely at both corners; beside its bottom-right index a box round the index and a pip,
    # turned like it, reads 9S. That box is the same corner found again: averaged with its index (one
    # bad box must not rule its corner's name out), then combined with the other corner: 3C
    finds = _corner_finds((0.0, 180.0))
    pip = {"box": [196, 220, 224, 262], "turn": 170.0, "card_centre": [163, 188]}
    nine = np.zeros(len(CLASSES), np.float32)
    nine[INDEX["9S"]], nine[INDEX["4S"]] = 0.71, 0.29  # (a sure misreading: no 3C in it at all)
    (card,) = merge([*finds, pip], np.stack([one_hot("3C", 0.95), one_hot("3C", 0.97), nine]))
    assert card.id == "3C" and card.confidence > 0.9 and len(card.indices) == 3
