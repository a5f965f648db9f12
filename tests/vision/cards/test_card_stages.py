"""The recogniser's own geometry and bookkeeping, without the networks: crops, outlines, merging."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.cards.classes import CLASSES, CROP, DECKS, INDEX, NONE
from vision.cards.recognise import (CardRecogniser, RecognitionError, _suppress, card_centre, card_outline, crop_turned,
                                    merge, restrict)


def one_hot(name: str, p: float = 0.9) -> np.ndarray:
    probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    probs[INDEX[name]] = p
    return probs


def _place(*named) -> None:
    """Give each (find, name) the centre its index places that card at, as stage 2 does."""
    for find, name in named:
        find["card_centre"] = card_centre(find["box"], find["turn"], name)


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


def test_names_a_games_deck_lacks_and_the_excuse_read_at_an_index_are_no_index_not_their_runners_up():
    # the Excuse prints no corner index; Deck Town's deck holds no Light Keeper: a crop read as either is
    # none, and the names left keep their own shares (renormalised, the Soldier would be named 0.8 surely)
    probs = np.zeros((2, len(CLASSES)), np.float32)
    probs[0, [INDEX["excuse"], INDEX["soldier"], INDEX[NONE]]] = 0.6, 0.3, 0.1
    probs[1, [INDEX["light-keeper"], INDEX["soldier"], INDEX[NONE]]] = 0.8, 0.15, 0.05
    myrmex = frozenset(DECKS["decktet"]) - {"excuse", "light-keeper", "rite"}
    out = restrict(probs, "decktet", myrmex)
    assert out[:, INDEX["excuse"]].tolist() == [0, 0] and out[1, INDEX["light-keeper"]] == 0
    assert out[0, INDEX["soldier"]] == pytest.approx(0.3) and out[1, INDEX["soldier"]] == pytest.approx(0.15)
    assert CLASSES[int(out[0].argmax())] == CLASSES[int(out[1].argmax())] == NONE
    assert out.sum(axis=1) == pytest.approx([1.0, 1.0])
    # a Decktet table told no game's deck still names the Light Keeper, never the Excuse; nor does a picture
    # of either deck (`tableside recognize`'s default, --deck auto), where a hidden corner looks as blank
    assert CLASSES[int(restrict(probs, "decktet")[1].argmax())] == "light-keeper"
    auto = restrict(probs, "auto")
    assert auto[0, INDEX["excuse"]] == 0 and CLASSES[int(auto[0].argmax())] == NONE
    assert auto[1].tolist() == probs[1].tolist()  # (the rest as read)
    with pytest.raises(ValueError, match="unknown card names: joker"):
        CardRecogniser().recognise(np.zeros((64, 64, 3), np.uint8), deck="standard", among=frozenset({"AS", "joker"}))


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
    monkeypatch.setattr(recogniser, "read_turned", read)
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
    monkeypatch.setattr(recogniser, "read_turned", read)
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
    monkeypatch.setattr(recogniser, "read_turned", read_large)
    large = {"box": [100, 100, 132, 138], "turn_hint": 173.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [large])
    assert CLASSES[int(probs[0].argmax())] == "AS" and probs[0].max() == pytest.approx(0.99)
    assert large["box"] == pytest.approx([116 - 16 * 0.7, 119 - 19 * 0.7, 116 + 16 * 0.7, 119 + 19 * 0.7])

    # where no size names it surely, the turns' reading and the detector's box stand
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack(
        [one_hot("JD", 0.7) for _ in turns]),) * 2)
    unclear = {"box": [100, 100, 112, 116], "turn_hint": -10.0}
    probs, _ = recogniser.classify(np.zeros((300, 300, 3), np.uint8), [unclear])
    assert CLASSES[int(probs[0].argmax())] == "JD" and probs[0].max() == pytest.approx(0.7)
    assert unclear["box"] == [100, 100, 112, 116]
    # a sure read at the detector's box is not read again: its box stays as found
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack([one_hot("QS", 0.97)]),) * 2)
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
    # corner: a card of its own (its card placed from its box at that turn, as stage 2 places it)
    aside = [*jd[:2], {**jd[2], "turn": 170.0, "card_centre": card_centre(jd[2]["box"], 170.0, "4D")}]
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


def test_an_unclear_find_is_read_in_the_boxes_it_outscored_and_each_index_apart_is_kept(monkeypatch):
    # a fan's KC and 4D, their indices 40 px apart (the demo's second capture, frame 172): at a coarse
    # scale the detector boxed them as one, a little more surely than the fine boxes round each and
    # round the KC's pip between them, which that box suppressed; read, the big box names nothing surely
    big = {"box": [579, 515, 621, 571], "score": 0.357, "turn_hint": -7.0}
    kc = {"box": [571, 514, 588, 542], "score": 0.355, "turn_hint": 11.0}
    pip = {"box": [584, 518, 613, 551], "score": 0.352, "turn_hint": 14.0}
    four = {"box": [608, 517, 628, 539], "score": 0.339, "turn_hint": 20.0}
    (found,) = _suppress([big, kc, pip, four])
    assert found["box"] == big["box"] and [a["box"] for a in found["alike"]] == [kc["box"], pip["box"], four["box"]]
    reads = {tuple(kc["box"]): one_hot("KC", 0.98), tuple(pip["box"]): one_hot("KC", 0.68),
             tuple(four["box"]): one_hot("4D", 0.999)}
    recogniser = CardRecogniser()

    def read(image, indices, turns):
        probs = np.stack([reads.get(tuple(i["box"]), one_hot("3S", 0.2)) for i in indices])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "read_turned", read)
    indices = [found]
    probs, embeddings = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), indices)
    # the surest read (4D) takes the big box's place; the KC, apart from it, is an index too; the pip,
    # one thing with the KC's box, is no third
    assert [i["box"] for i in indices] == [four["box"], kc["box"]] and len(probs) == len(embeddings) == 2
    assert [CLASSES[int(p.argmax())] for p in probs] == ["4D", "KC"]
    assert [i["turn"] for i in indices] == [20.0, 11.0]
    # a find named surely where found keeps its box, whatever it outscored
    reads[tuple(big["box"])] = one_hot("QS", 0.95)
    (again,) = _suppress([big, kc, pip, four])
    probs, _ = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), [again])
    assert again["box"] == big["box"] and len(probs) == 1


def test_a_box_round_a_pip_joins_the_card_it_names_before_the_next_cards_index_it_overlaps():
    # a fan's KC (its top-left index) and, 40 px right, the next card's 4D; a box round the KC's club
    # pip between them overlaps the 4D's index box by a third, and reads KC placing the card as its index does
    kc = {"box": [571, 514, 588, 542], "turn": 11.0}
    pip = {"box": [584, 518, 613, 551], "turn": 11.0}
    four = {"box": [608, 517, 628, 539], "turn": 20.0}
    _place((kc, "KC"), (pip, "KC"), (four, "4D"))
    cards = merge([kc, pip, four], np.stack([one_hot("KC", 0.98), one_hot("KC", 0.68), one_hot("4D", 0.999)]))
    assert sorted((str(c.id), len(c.indices)) for c in cards) == [("4D", 1), ("KC", 2)]


def test_a_pip_on_the_face_of_a_card_seen_by_both_corners_is_that_corner_whatever_its_turn():
    # a KD seen by both corners, and a box round the diamond beside its top-left index, on its face,
    # read JD at a turn 43 degrees from that index's: the KD's corner found again, not a JD on the KD
    kd = [{"box": [513, 375, 531, 400], "turn": 8.0}, {"box": [568, 456, 590, 485], "turn": -180.0},
          {"box": [527, 383, 555, 404], "turn": 51.0}]
    _place(*zip(kd, ("KD", "KD", "JD")))
    (card,) = merge(kd, np.stack([one_hot("KD", 0.999), one_hot("KD", 0.999), one_hot("JD", 0.7)]))
    assert card.id == "KD" and len(card.indices) == 3
    # the same find beside the face (off the card, left of its index) is another card's
    aside = [*kd[:2], {**kd[2], "box": [489, 383, 511, 404]}]
    aside[2]["card_centre"] = card_centre(aside[2]["box"], aside[2]["turn"], "JD")
    assert len(merge(aside, np.stack([one_hot("KD", 0.999), one_hot("KD", 0.999), one_hot("JD", 0.7)]))) == 2


def test_a_lone_index_pairs_with_a_found_index_across_its_card_read_again_at_the_lines_turn(monkeypatch):
    # a KS's top-left index (turn -6), and a card's index diagonal away its bottom-right one, its turn
    # read 65 degrees off (-119 for about 174), where a spade looks like a club: KC 0.94. Read at the
    # turn the line between them gives, it is KS (0.44 among the standard cards: unsure, yet the
    # top-left's name), and the top-left KS again: one KS
    top = {"box": [738, 168, 758, 192], "turn_hint": -6.0, "turn": -6.0}
    bottom = {"box": [794, 242, 813, 264], "turn_hint": -140.0, "turn": -119.0}
    _place((top, "KS"), (bottom, "KC"))
    recogniser = CardRecogniser()

    def read(image, indices, turns):  # the bottom-right reads KS (unsurely) only near half a turn from the top-left
        probs = np.stack([one_hot("KS", 0.95) if i is top else one_hot(
            "KS", 0.3) if abs((float(t) - 180.0 + 180.0) % 360.0 - 180.0) <= 25 else one_hot("KC", 0.94)
            for i, t in zip(indices, turns)])
        return probs, probs[:, :4].copy()
    monkeypatch.setattr(recogniser, "read_turned", read)
    probs = np.stack([one_hot("KS", 0.96), one_hot("KC", 0.94)])
    assert len(merge([dict(top), dict(bottom)], probs)) == 2  # as found: a KS and a KC
    indices = [top, bottom]
    probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), indices, probs, [], "standard")
    assert len(indices) == 2 and bottom["corner_of"] == 0
    (card,) = merge(indices, probs)
    assert card.id == "KS" and len(card.indices) == 2
    # a found index there read surely as another card at the line's turn is not paired with it; named
    # less surely than the KS, it is the KS's covered corner misread (a JS there, turned half round,
    # would lie on the KS, over its index): none; named more surely, it is left as read
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack(
        [one_hot("KS", 0.95) if i["box"][0] == 738 else one_hot("JS", 0.99) for i in indices]),) * 2)
    for js, kept in ((0.9, NONE), (0.99, "JS")):
        top2, bottom2 = ({k: v for k, v in f.items() if k != "corner_of"} for f in (top, bottom))
        bottom2["turn"] = -119.0
        bottom2["card_centre"] = card_centre(bottom2["box"], -119.0, "JS")
        probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), [top2, bottom2],
                                         np.stack([one_hot("KS", 0.96), one_hot("JS", js)]), [], "standard")
        assert "corner_of" not in bottom2 and CLASSES[int(probs[1].argmax())] == kept


def test_a_pip_read_with_a_card_far_down_its_candidates_is_no_corner_of_that_card():
    # a fan's 6S, its top-left index read surely, and a card's index diagonal from it (its own corner
    # under the next cards) a pip of the 7S beside it, read 4S 0.6, 7S 0.22, 6S 0.056: the pip's read
    # leaves no doubt that it is no 6S corner, so the 6S stays one card at its own index
    six = {"box": [522, 71, 534, 89], "turn": -3.0}
    pip = {"box": [623, 126, 645, 160], "turn": 177.0}
    six["card_centre"] = card_centre(six["box"], six["turn"], "6S")
    pip["card_centre"] = card_centre(pip["box"], pip["turn"], "4S")
    read = np.full(len(CLASSES), 0.001, np.float32)
    for name, p in (("4S", 0.595), ("7S", 0.221), (NONE, 0.056), ("6S", 0.056)):
        read[INDEX[name]] = p
    cards = merge([six, pip], np.stack([one_hot("6S", 0.977), read / read.sum()]))
    assert [len(c.indices) for c in cards] == [1, 1] and cards[0].id == "6S"
    # a read giving the 6S as its runner-up leaves it in doubt: one card, its two corners
    read[INDEX["7S"]], read[INDEX["6S"]] = 0.056, 0.221
    (card,) = merge([six, pip], np.stack([one_hot("6S", 0.977), read / read.sum()]))
    assert len(card.indices) == 2


def test_an_unsure_find_at_a_lone_index_covered_corner_read_there_as_no_index_is_dropped(monkeypatch):
    # a 2H under a 3D: its top-left index shows, its bottom-right one only as a sliver by the 3D's edge,
    # found and read JD 0.58 at the detector's turn (-113); at the turn the line from the 2H's index gives
    # it is no index (0.99): it is no card, where before it stood as a second JD
    two = {"box": [206, 68, 223, 92], "turn_hint": 15.0, "turn": 15.0}
    sliver = {"box": [242, 149, 262, 163], "turn_hint": -142.0, "turn": -113.0}
    two["card_centre"] = card_centre(two["box"], two["turn"], "2H")
    sliver["card_centre"] = card_centre(sliver["box"], sliver["turn"], "JD")
    recogniser = CardRecogniser()
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack(
        [one_hot("2H", 0.99) if i is two else one_hot(NONE, 0.99) for i in indices]),) * 2)
    probs = np.stack([one_hot("2H", 0.999), one_hot("JD", 0.58)])
    assert len(merge([dict(two), dict(sliver)], probs.copy())) == 2
    probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), [two, sliver], probs, [], "standard")
    assert CLASSES[int(probs[1].argmax())] == NONE and "corner_of" not in sliver
    (card,) = merge([two, sliver], probs)
    assert card.id == "2H"
    # a find there named surely as another card is left as it was read
    sure = {**sliver, "box": [242, 149, 262, 163]}
    probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), [dict(two), sure],
                                     np.stack([one_hot("2H", 0.999), one_hot("JD", 0.95)]), [], "standard")
    assert CLASSES[int(probs[1].argmax())] == "JD"
    # nor is a find there dropped where the lone find is itself named unsurely (a pip, maybe)
    probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), [dict(two), dict(sliver)],
                                     np.stack([one_hot("2H", 0.7), one_hot("JD", 0.58)]), [], "standard")
    assert CLASSES[int(probs[1].argmax())] == "JD"


def test_a_corner_with_a_box_round_its_pip_still_pairs_with_the_card_s_other_corner():
    # a TH in the pool: its top-left index read TH surely, a box round the pip beside it (one corner:
    # 53 degrees from it, a box's side away) read TH too, and its bottom-right index, turned half round,
    # read 4H 0.57 with TH its runner-up (0.14), a card's index diagonal away: one TH, not a TH and a 4H
    top = {"box": [803, 179, 816, 199], "turn": 3.0}
    pip = {"box": [806, 183, 826, 207], "turn": -50.0}
    bottom = {"box": [867, 249, 880, 269], "turn": -173.0}
    _place((top, "TH"), (pip, "TH"), (bottom, "4H"))
    four = one_hot("4H", 0.57)
    four[INDEX["TH"]] = 0.14
    four /= four.sum()
    cards = merge([top, pip, bottom], np.stack([one_hot("TH", 0.999), one_hot("TH", 0.8), four]))
    assert [(c.id, len(c.indices)) for c in cards] == [("TH", 3)]


def test_a_box_three_times_an_index_s_side_overlapping_it_is_not_that_index_found_again():
    # a box round the TH's pips (60 x 52 px) read 4D 0.94, sharing a fifth of the TH's index box (13 x 20):
    # no index found twice (that one would be a box round the index and a pip, at most twice its side),
    # so the TH is named by its index alone; the pip box stands apart (the table reader drops it: no
    # index is that large)
    th = {"box": [803, 179, 816, 199], "turn": 3.0}
    pips = {"box": [810, 190, 870, 242], "turn": -50.0}
    th["card_centre"] = card_centre(th["box"], th["turn"], "TH")
    pips["card_centre"] = card_centre(pips["box"], pips["turn"], "4D")
    cards = merge([th, pips], np.stack([one_hot("TH", 0.999), one_hot("4D", 0.94)]))
    assert sorted(str(c.id) for c in cards) == ["4D", "TH"]
    # the same overlap by a box one and a half times the index's side is the index found again
    near = {**pips, "box": [806, 183, 826, 213]}
    (card,) = merge([th, near], np.stack([one_hot("TH", 0.999), one_hot("4D", 0.94)]))
    assert len(card.indices) == 2


def test_a_card_found_again_by_its_index_boxed_with_a_pip_and_its_bottom_pips_misread_alike_is_one_card():
    # the demo's second discard: a 4D whose bottom-right index lies under the 2C beside it. Its
    # top-left index reads 4D surely; a box round that index and the pip beside it, read at a turn 36
    # degrees off, says 7D (0.47, no index 0.48); a box round its two bottom pips, read upside down,
    # says 7D surely (0.90) and places the card where that box does. The box sharing the 4D's index
    # is that index found again, lying apart from the 7D's other find: one 4D, named and placed by its
    # index alone (the misread finds are left out, so a reader lays it out as a card seen by one index)
    four = {"box": [249, 138, 271, 158], "turn": 6.0}
    again = {"box": [264, 129, 296, 157], "turn": 42.0}
    pips = {"box": [275, 200, 317, 232], "turn": -129.0}
    _place((four, "4D"), (again, "7D"), (pips, "7D"))
    unsure = one_hot("7D", 0.47)
    unsure[INDEX[NONE]] = 0.48
    unsure /= unsure.sum()
    (card,) = merge([four, again, pips], np.stack([one_hot("4D", 0.99), unsure, one_hot("7D", 0.9)]))
    assert card.id == "4D" and card.confidence > 0.95 and card.indices == [four["box"]]
    alone = merge([four], one_hot("4D", 0.99)[None])[0]
    assert np.allclose(card.polygon, alone.polygon)
    # a 4D index not named surely vouches for no such thing: the 7D finds stay a card of their own
    assert sorted(str(c.id) for c in merge([four, again, pips], np.stack(
        [one_hot("4D", 0.8), unsure, one_hot("7D", 0.9)]))) == ["4D", "7D"]


def test_the_larger_of_two_sure_finds_sharing_a_box_but_not_a_name_is_read_in_the_boxes_it_outscored(monkeypatch):
    # bob's fanned collection in the demo: a box (36 x 50 px) spanning the JC's index and the 9H's
    # beside it outscored the fine box round the 9H's index, and read KD 0.95; with the JC's own index
    # (0.97) it shared a third of a box, so the two were pooled into an unknown card and the 9H went
    # unread. Two finds sure of different names cannot both be right: the larger is read in the boxes
    # it outscored, and the 9H's box names it
    jc = {"box": [681, 522, 708, 547], "score": 0.53, "turn_hint": 48.0}
    span = {"box": [698, 523, 734, 573], "score": 0.42, "turn_hint": 0.0}
    nine = {"box": [716, 523, 737, 546], "score": 0.3, "turn_hint": 10.0}
    reads = {tuple(jc["box"]): one_hot("JC", 0.97), tuple(span["box"]): one_hot("KD", 0.95),
             tuple(nine["box"]): one_hot("9H", 0.99)}
    recogniser = CardRecogniser()
    seen = []

    def read(image, indices, turns):
        seen.extend(tuple(i["box"]) for i in indices)
        probs = np.stack([reads.get(tuple(i["box"]), one_hot(NONE, 0.99)) for i in indices])
        return probs, np.zeros((len(indices), 1), np.float32)

    monkeypatch.setattr(recogniser, "read_turned", read)
    indices = _suppress([jc, span, nine])
    assert len(indices) == 2  # the 9H's box was outscored by the span round it
    probs, _ = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), indices)
    assert sorted(str(c.id) for c in merge(indices, probs)) == ["9H", "JC"]
    # a sure find whose box shares no other sure find's keeps its name (the box it outscored, read
    # there as another card, does not replace it)
    alone = _suppress([{**span}, {**nine}])
    probs, _ = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), alone)
    assert [str(c.id) for c in merge(alone, probs)] == ["KD"] and alone[0]["box"] == span["box"]


def test_a_box_read_unsurely_beside_a_surely_named_index_does_not_pull_its_name_below_named():
    # bob's JC in the demo's fan, its index read JC 0.99, and a box round it and the club beside it,
    # sharing a third of its box, read KC 0.52 (QC 0.15, JC 0.13): one index found twice, whose sure
    # read alone names it (averaged, JC came to 0.56: an unknown card where the JC lies)
    jc = {"box": [683, 523, 706, 546], "turn": 39.0}
    pip = {"box": [698, 527, 734, 553], "turn": 48.0}
    for find in (jc, pip):
        find["card_centre"] = card_centre(find["box"], find["turn"], "JC")
    unsure = np.full(len(CLASSES), 0.001, np.float32)
    for name, p in (("KC", 0.52), ("QC", 0.15), ("JC", 0.13), (NONE, 0.1)):
        unsure[INDEX[name]] = p
    (card,) = merge([jc, pip], np.stack([one_hot("JC", 0.99), unsure / unsure.sum()]))
    assert card.id == "JC" and card.confidence > 0.95 and len(card.indices) == 2
    # two unsure reads of one index are still averaged (neither speaks for it alone): in doubt
    (card,) = merge([jc, pip], np.stack([one_hot("JC", 0.7), unsure / unsure.sum()]))
    assert card.id is None


def test_a_surely_named_index_in_a_box_much_larger_than_one_it_outscored_takes_that_box(monkeypatch):
    # the demo pool's 5D: boxed 36 x 33 px round its index and the pip beside it (half again an index's
    # size on the table, which the table reader takes for no index), read 5D 0.94; the fine box it
    # outscored (18 x 25 px), lying inside it, reads 5D 0.99 at its turn and becomes the index's box
    big = {"box": [582, 275, 618, 308], "score": 0.45, "turn_hint": -3.0}
    fine = {"box": [583, 279, 601, 304], "score": 0.3, "turn_hint": 0.0}
    reads = {tuple(big["box"]): one_hot("5D", 0.94), tuple(fine["box"]): one_hot("5D", 0.99)}
    recogniser = CardRecogniser()

    def read(image, indices, turns):
        probs = np.stack([reads.get(tuple(i["box"]), one_hot(NONE, 0.99)) for i in indices])
        return probs, np.zeros((len(indices), 1), np.float32)

    monkeypatch.setattr(recogniser, "read_turned", read)
    (index,) = _suppress([dict(big), dict(fine)])
    probs, _ = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), [index])
    assert index["box"] == fine["box"] and CLASSES[int(probs[0].argmax())] == "5D"
    # where the fine box names another card, the find keeps its box and its name
    reads[tuple(fine["box"])] = one_hot("6D", 0.99)
    (index,) = _suppress([dict(big), dict(fine)])
    probs, _ = recogniser.classify(np.zeros((720, 1280, 3), np.uint8), [index])
    assert index["box"] == big["box"] and CLASSES[int(probs[0].argmax())] == "5D"


def test_a_pip_on_a_card_seen_by_both_corners_placing_its_card_where_that_card_lies_is_no_card():
    # the demo's 7H in bob's collection, seen by both corners; a box round a heart by its bottom-left,
    # read KH 0.90 at a turn of -115, places its card 18 px from the 7H's centre: a KH there would lie
    # on the 7H, over the indices it is seen by. It is the 7H's pip, with no say in its name
    top = {"box": [816, 533, 841, 552], "turn": 15.0}
    bottom = {"box": [894, 610, 917, 638], "turn": 168.0}
    heart = {"box": [808, 617, 837, 644], "turn": -115.0}
    _place((top, "7H"), (bottom, "7H"), (heart, "KH"))
    (card,) = merge([top, bottom, heart], np.stack([one_hot("7H", 0.999), one_hot("7H", 0.99), one_hot("KH", 0.9)]))
    assert card.id == "7H" and card.confidence > 0.95 and len(card.indices) == 3
    # the same find placing its card well away from the 7H's centre (its turn read otherwise) is a card
    turned = {**heart, "turn": 60.0}
    turned["card_centre"] = card_centre(turned["box"], turned["turn"], "KH")
    assert sorted(str(c.id) for c in merge([top, bottom, turned], np.stack(
        [one_hot("7H", 0.999), one_hot("7H", 0.99), one_hot("KH", 0.9)]))) == ["7H", "KH"]


def test_a_lone_index_pairs_with_a_found_index_of_its_name_across_its_card_whatever_its_turn(monkeypatch):
    # the demo's TD played beside the pool: its bottom-right index read TD surely at a turn of 168, its
    # top-left one (a card's index diagonal away) TD 0.65 at a turn of 68, 80 degrees off: not half a
    # turn from the other, so each stood as a TD of its own. Naming the same card, it is a candidate for
    # the lone index's other corner whatever its turn, and read at the line's turn: one TD
    bottom = {"box": [987, 273, 1003, 296], "turn_hint": 168.0, "turn": 168.0}
    top = {"box": [920, 195, 943, 221], "turn_hint": 98.0, "turn": 68.0}
    for find in (bottom, top):
        find["card_centre"] = card_centre(find["box"], find["turn"], "TD")
    probs = np.stack([one_hot("TD", 0.999), one_hot("TD", 0.65)])
    recogniser = CardRecogniser()
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack(
        [one_hot("TD", 0.97) for _ in indices]), np.zeros((len(indices), 1), np.float32)))
    indices = [bottom, top]
    probs = recogniser.other_corners(np.zeros((720, 1280, 3), np.uint8), indices, probs, [], "standard")
    assert top["corner_of"] == 0 and top["turn"] == pytest.approx(bottom["turn"] - 180.0, abs=15.0)
    (card,) = merge(indices, probs)
    assert card.id == "TD" and len(card.indices) == 2


def test_an_unnamed_find_beside_a_surely_named_index_turned_as_it_is_the_pip_beside_it():
    # bob's fanned KC in the demo: its index read KC 0.98, and right beside it (touching, not sharing
    # its box) a box round the club of its picture's frame, turned as the index, read QC 0.48: no card
    # of its own (an unknown card the referee asked about), but the KC's pip
    kc = {"box": [565, 516, 589, 547], "turn": 12.0}
    pip = {"box": [589, 528, 611, 558], "turn": 10.0}
    _place((kc, "KC"), (pip, "QC"))
    unsure = np.full(len(CLASSES), 0.001, np.float32)
    for name, p in (("QC", 0.48), ("KC", 0.18), ("QS", 0.08)):
        unsure[INDEX[name]] = p
    unsure /= unsure.sum()
    (card,) = merge([kc, pip], np.stack([one_hot("KC", 0.98), unsure]))
    assert card.id == "KC" and card.confidence > 0.95 and len(card.indices) == 2
    # the next card's index beside it, read surely, stays a card (a fan's neighbour)
    assert sorted(str(c.id) for c in merge([kc, pip], np.stack([one_hot("KC", 0.98), one_hot("TH", 0.96)]))) \
        == ["KC", "TH"]
    # a box round court art takes its turn partly from the art: 45 degrees off, it is still the art (a
    # Mongoose trial's JC, the club of its picture's frame read JS 0.50, stood as an unknown card)
    art = {**pip, "turn": 57.0}
    art["card_centre"] = card_centre(art["box"], art["turn"], "QC")
    (card,) = merge([kc, art], np.stack([one_hot("KC", 0.98), unsure]))
    assert card.id == "KC"
    # and an unnamed find turned crosswise stays a card (not read as an index beside this one)
    turned = {**pip, "turn": 80.0}
    turned["card_centre"] = card_centre(turned["box"], turned["turn"], "QC")
    assert len(merge([kc, turned], np.stack([one_hot("KC", 0.98), unsure]))) == 2


def test_reads_batched_into_one_run_are_the_reads_made_one_by_one():
    # stage 2 reads its retried turns and sizes in one run of the classifier; a read must not depend
    # on what it was batched with (the figures measured read by read must stand)
    from vision.synth.random_scene import random_scene
    from vision.synth.render import render
    image = render(random_scene(3, size=(640, 360), cards=6, pyramids=0)).image
    recogniser = CardRecogniser()
    boxes = [{"box": [x, y, x + 18.0, y + 24.0]} for x, y in ((100, 80), (300, 150), (500, 60))]
    batches = [(boxes, np.array([0.0, 45.0, -90.0])), (boxes[:2], np.array([30.0, 170.0])), (boxes[2:], [12.5])]
    together = recogniser._read_each(image, batches)
    for (p, e), (indices, turns) in zip(together, batches):
        alone_p, alone_e = recogniser.read_turned(image, indices, turns)
        assert p.shape == alone_p.shape and np.array_equal(p, alone_p) and np.array_equal(e, alone_e)
    assert not np.array_equal(together[1][0], together[0][0][:2])  # (other turns read otherwise)


def test_a_lone_find_read_as_another_card_at_a_surely_named_lone_index_s_covered_corner_is_no_card(monkeypatch):
    # the demo's pool 6C, its top-left index read 6C 0.99, its bottom-right corner half under the 8C's
    # edge and boxed with a club: read 4C 0.89, and 4C still at the turn the line between them gives.
    # A 4C there, turned half round from the 6C and centred on it, would cover the 6C's index: none
    six = {"box": [662, 268, 676, 289], "turn_hint": -4.0, "turn": -4.0}
    four = {"box": [709, 343, 739, 369], "turn_hint": 177.0, "turn": 170.0}
    _place((six, "6C"), (four, "4C"))
    recogniser = CardRecogniser()
    monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns: (np.stack(
        [one_hot("6C", 0.99) if i["box"][0] == 662 else one_hot("4C", 0.79) for i in indices]),) * 2)
    image = np.zeros((720, 1280, 3), np.uint8)

    def read(*finds, six_read=0.99):
        finds = [dict(f) for f in finds]
        probs = np.stack([one_hot("6C", six_read), *[one_hot("4C", 0.89)] * (len(finds) - 1)])
        probs = recogniser.other_corners(image, finds, probs, [], "standard")
        return sorted((str(c.id), len(c.indices)) for c in merge(finds, probs))  # (each card, its finds)

    assert len(merge([dict(six), dict(four)], np.stack([one_hot("6C", 0.99), one_hot("4C", 0.89)]))) == 2
    assert read(six, four) == [("6C", 1)]
    # not where the 6C is named less surely than the find (either may be the misread one)
    assert read(six, four, six_read=0.85) == [("4C", 1), ("6C", 1)]
    # nor where the line between them runs 28 degrees from the 6C's own turn (a real 5S lying across a 4D)
    assert read({**six, "turn": 30.0, "turn_hint": 30.0}, four) == [("4C", 1), ("6C", 1)]
    # nor where the find is a card's own corner: its other corner names it too, placing it alike
    other = {"box": [625, 263, 647, 285], "turn_hint": -10.0, "turn": -10.0}
    _place((other, "4C"))
    assert read(six, four, other) == [("4C", 2), ("6C", 1)]


def test_an_unnamed_find_at_a_lone_index_s_corner_is_read_there_whatever_its_turn(monkeypatch):
    # the demo's AH in the pool: its top-left index read AH 0.99, its bottom-right corner by the 4H's edge
    # found but read 6D 0.14 at a turn 86 degrees from half round (an unknown card). Read at the turn the
    # line between them gives, it is the AH's corner where it reads AH surely there, and no corner (the
    # lone index keeps its outline) where it reads AH unsurely: a box round pips may lie there too
    ace = {"box": [513, 272, 530, 297], "turn_hint": 4.0, "turn": 4.0}
    corner = {"box": [570, 356, 589, 380], "turn_hint": 90.0, "turn": 90.0}
    _place((ace, "AH"), (corner, "6D"))
    recogniser = CardRecogniser()
    image = np.zeros((720, 1280, 3), np.uint8)
    for there, pairs in ((0.95, True), (0.5, False)):
        monkeypatch.setattr(recogniser, "read_turned", lambda image, indices, turns, there=there: (np.stack(
            [one_hot("AH", 0.99 if i["box"][0] == 513 else there) for i in indices]),) * 2)
        finds = [dict(ace), dict(corner)]
        probs = recogniser.other_corners(image, finds, np.stack([one_hot("AH", 0.99), one_hot("6D", 0.14)]), [],
                                         "standard")
        cards = merge(finds, probs)
        assert [c.id for c in cards if len(c.indices) == 2] == (["AH"] if pairs else [])


def test_a_cards_two_corners_read_alike_are_one_card_at_the_pictures_scale_though_one_box_is_half_its_size():
    # a real webcam table (held-out 12_53_34): the KS's top-left index boxed round its rank alone, half the
    # size of its other corner's box, placed the card's centre 100 px from where that corner placed it, and
    # the KS was named twice. At the picture's scale (its surely named indices' median: the KH's, 8H's and
    # 5S's corners), the two lie half a turn apart as the KS's two corners: one card, its centre midway
    def find(box, turn, name):
        return {"box": box, "turn": turn, "card_centre": card_centre(box, turn, name)}

    finds = [find([591, 134, 610, 168], -5.0, "KS"), find([789, 260, 825, 302], 168.0, "KS"),
             find([611, 61, 648, 117], -12.0, "KH"), find([813, 158, 863, 218], 153.0, "KH"),
             find([553, 267, 602, 330], -27.0, "8H"), find([759, 418, 798, 471], 158.0, "8H"),
             find([545, 353, 572, 394], -5.0, "5S"), find([760, 504, 794, 563], 174.0, "5S")]
    assert math.dist(finds[0]["card_centre"], finds[1]["card_centre"]) > 90
    reads = np.stack([one_hot(n, p) for n, p in (("KS", 1.0), ("KS", 0.95), ("KH", 1.0), ("KH", 1.0), ("8H", 1.0),
                                                 ("8H", 0.98), ("5S", 1.0), ("5S", 0.98))])
    cards = merge(finds, reads)
    assert sorted(c.id for c in cards) == ["5S", "8H", "KH", "KS"]
    (ks,) = [c for c in cards if c.id == "KS"]
    assert len(ks.indices) == 2 and np.allclose(np.mean(ks.polygon, axis=0), [703.75, 216.0], atol=1.0)
    # with too few indices named surely to give the picture's scale, the two stay apart (as before)
    assert [c.id for c in merge(finds[:2], reads[:2])] == ["KS", "KS"]
    # read as two cards of one rank, they stay two cards (joined, the two reads' mean named such a
    # card less often than either alone)
    two = merge(finds, np.stack([*reads[:1], one_hot("KC", 0.95), *reads[2:]]))
    assert sorted(c.id for c in two) == ["5S", "8H", "KC", "KH", "KS"]


def test_a_fans_next_index_named_surely_beside_a_card_seen_by_both_corners_is_a_card_of_its_own():
    # a real webcam fan (held-out 12_54_48): the 7S's bottom-right index, read 7S 0.91, lies within a box's
    # side of the 6S's bottom-right index, turned alike, but beside the 6S's face, not on it: the next card
    # of the fan, not the 6S's corner found again (its top-left index, under the 6S, shows only its rank)
    def find(box, turn, name):
        return {"box": box, "turn": turn, "card_centre": card_centre(box, turn, name)}

    finds = [find([749, 430, 785, 494], 172.0, "6S"), find([538, 303, 570, 358], -19.0, "6S"),
             find([771, 383, 801, 435], 168.0, "7S")]
    cards = merge(finds, np.stack([one_hot("6S", 1.0), one_hot("6S", 1.0), one_hot("7S", 0.91)]))
    assert sorted(c.id for c in cards) == ["6S", "7S"]
    # read unsurely there, it is still taken for the 6S's corner found again (a box round the pip beside it)
    (card,) = merge(finds, np.stack([one_hot("6S", 1.0), one_hot("6S", 1.0), one_hot("7S", 0.7)]))
    assert card.id == "6S" and len(card.indices) == 3

