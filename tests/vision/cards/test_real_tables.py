"""Cards named wrongly on real webcam tables the models never learned from (the later half of
``cards_real/dev``, :func:`models.cards.real.measuring`), and what settles them physically: an index
printed in black ink names no heart or diamond (:mod:`vision.cards.ink`), a standard deck holds each
card once, and a fan's next index beside a card is a card of its own."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from models.cards import real
from vision.cards import grey, ink
from vision.cards.classes import CLASSES, INDEX
from vision.cards.recognise import CardRecogniser


@pytest.fixture(scope="module")
def recogniser() -> CardRecogniser:
    return CardRecogniser()


def _table(shared, stamp: str):
    name = f"tabletop-WIN_20240627_{stamp}_Pro.jpg"
    folder = shared / "data" / "cards_real" / "dev"
    (record,) = [r for r in real.measuring(folder) if r["image"].endswith(name)]  # (never learned from)
    image = cv2.imread(str(folder / record["image"]))
    assert image is not None, name
    return image, sorted(record["cards"])


def _named(recogniser, image) -> list[str]:
    return sorted(c.id for c in recogniser.recognise(image, deck="standard") if c.id not in (None, "back"))


def test_an_index_in_black_ink_shows_no_red_and_a_red_one_does():
    image = np.full((120, 200, 3), 235, np.uint8)
    cv2.putText(image, "7", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (25, 25, 25), 5)  # black ink
    cv2.putText(image, "7", (120, 80), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (60, 50, 170), 5)  # a webcam's washed red
    assert ink.shows_no_red(image, (10, 20, 80, 95))
    assert not ink.shows_no_red(image, (110, 20, 180, 95))
    assert not ink.shows_no_red(np.full((50, 50, 3), 235, np.uint8), (5, 5, 45, 45))  # no ink: not judged
    # a black index read as a 7 of diamonds: its red reads go to the 7's black suits, half each, so the
    # card is left in doubt between them (the ink does not tell a spade from a club)
    read = np.full((1, len(CLASSES)), 0.001, np.float32)
    read[0, INDEX["7D"]], read[0, INDEX["7H"]], read[0, INDEX["7S"]] = 0.9, 0.04, 0.02
    moved = ink.black_suits(read, image, [(10, 20, 80, 95)])
    assert moved[0, INDEX["7D"]] == 0 and moved[0, INDEX["7H"]] == 0
    assert moved[0, INDEX["7S"]] == pytest.approx(0.02 + 0.47) and moved[0, INDEX["7C"]] == pytest.approx(0.001 + 0.47)
    assert moved.sum() == pytest.approx(read.sum())
    assert np.array_equal(ink.black_suits(read, image, [(110, 20, 180, 95)]), read)  # red ink: as read


def test_the_ink_test_takes_its_percentile_and_darkest_channel_as_numpy_would():
    # (the fast forms the recogniser calls for every read must judge exactly as the plain numpy ones)
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 5, 6, 11, 100, 257):
        for _ in range(50):
            values = rng.integers(-40, 40, n).astype(np.int16)
            assert ink._percentile(values, ink.INK_PERCENTILE) == float(np.percentile(values, ink.INK_PERCENTILE))
    picture = rng.integers(0, 256, (30, 40, 3), np.uint8)
    assert np.array_equal(grey.darkest(picture), picture.min(axis=2))


def test_printed_black_text_on_a_face_is_named_no_heart(recogniser, shared):
    # 12_49_21: the "PLAYING CARDS" line on the AS's face, boxed as an index, was read QH 0.94 (no queen
    # of hearts lies on the table); its ink shows no red, and read as a black queen it names no card surely
    image, truth = _table(shared, "12_49_21")
    assert ink.shows_no_red(image, (350, 294, 372, 326))
    assert "QH" not in _named(recogniser, image) and "QH" not in truth


def test_a_fan_of_spades_is_named_card_for_card(recogniser, shared):
    # 12_54_48: the 7S's top-left index, its spade under the 6S, was read 7D 0.99 and the 6S's bottom-right
    # index 6D 0.95 (both in black ink: no diamonds); the 7S's bottom-right index, beside the 6S's, was then
    # taken for the 6S's corner found again, and is a card of its own
    image, truth = _table(shared, "12_54_48")
    assert _named(recogniser, image) == truth == ["4C", "5H", "6S", "7S", "TC"]


def test_a_card_whose_index_is_boxed_half_its_size_is_named_once(recogniser, shared):
    # 12_53_34: the KS's top-left index boxed round its rank alone placed the card far from where its
    # bottom-right corner placed it: the KS was named twice
    image, truth = _table(shared, "12_53_34")
    assert _named(recogniser, image) == truth


def test_a_name_read_on_two_cards_of_one_deck_is_kept_on_the_surer_alone(shared, capsys):
    # a standard deck holds each card once. 12_31_10: a second 4D (0.77) was read where none lies; 12_50_26:
    # the 6C read 6S 0.90 beside the real 6S (1.00), the 6C its runner-up. `tableside recognize` keeps each
    # name on the surest card and reports the rest unknown, that name first among their candidates;
    # `--copies 0` (no limit) shows what the recogniser read
    from webui.cli import main

    folder = shared / "data" / "cards_real" / "dev"
    images = [str(folder / r["image"]) for r in real.measuring(folder)
              if r["image"].endswith(("12_31_10_Pro.jpg", "12_50_26_Pro.jpg"))]
    assert len(images) == 2

    def read(*options):
        assert main(["recognize", "--json", "--deck", "standard", *options, *images]) == 0
        return [json.loads(line)["cards"] for line in capsys.readouterr().out.splitlines()]

    unlimited, once = read("--copies", "0"), read()
    for cards in unlimited:
        named = [c["id"] for c in cards if c["id"] not in (None, "back")]
        assert len(named) > len(set(named)), named  # the recogniser alone names a card twice
    for before, after in zip(unlimited, once):
        assert [c["polygon"] for c in after] == [c["polygon"] for c in before]  # no card lost
        named = [c["id"] for c in after if c["id"] not in (None, "back")]
        assert len(named) == len(set(named)), named
        for was, now in zip(before, after):
            if now["id"] != was["id"]:
                assert now["id"] is None and now["alternatives"][0][0] == was["id"]
                assert max(c["confidence"] for c in after if c["id"] == was["id"]) >= was["confidence"]
    assert main(["recognize", "--copies", "-1", images[0]]) == 2
    assert "--copies" in capsys.readouterr().err
