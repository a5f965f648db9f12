"""Teaching a deck (``vision/cards/decks.py``, ``tableside deck learn``): what a taught deck learns from
its teaching photos, and what it then reads on a table. The deck is the novel design of
``models/cards/novel.py`` (four-colour suits, script ranks), which the card models never saw; the
figure on whole tables is measured in ``test_card_recognition.py`` (``measure.learned_deck``)."""

from __future__ import annotations

import numpy as np
import pytest

from models.cards.measure import teaching_photo
from models.cards.novel import write_novel_deck
from vision.cards.decks import DeckError, LearnedDeck, learn
from vision.cards.recognise import CardRecogniser
from vision.synth.random_scene import random_scene
from vision.synth.render import render
from vision.synth.scene import CardObject, MatObject
from webui.cli import main

TAUGHT = ("AS", "2S", "3S", "4S", "5S", "6S")  # three of their teaching photos lie on a printed mat


@pytest.fixture(scope="module")
def recogniser() -> CardRecogniser:
    return CardRecogniser()


@pytest.fixture(scope="module")
def spades(recogniser, tmp_path_factory):
    faces = str(write_novel_deck(tmp_path_factory.mktemp("novel")))
    said = []
    deck = learn(recogniser, "spades", [(c, teaching_photo(c, k, faces)) for k, c in enumerate(TAUGHT)], said.append)
    return faces, deck, said


def _mat_table(seed: int, faces: str, cards: list[str]) -> np.ndarray:
    scene = random_scene(seed, size=(1280, 720), cards=0, pyramids=0, hands=0)
    scene.clutter, scene.dice, scene.tokens = [], [], []
    if scene.mat is None:
        scene.mat = MatObject("deck-town", "A3")
    scene.camera.distance_mm = float(np.random.default_rng(seed).uniform(400, 700))
    x, y = scene.camera.target_mm
    scene.cards = [CardObject(c, x + (j % 3 - 1) * 80, y + (j // 3 - 0.5) * 100, angle=float(j * 53 % 360))
                   for j, c in enumerate(cards)]
    scene.faces = faces
    return render(scene).image


def test_a_taught_deck_learns_from_its_photos_what_its_index_is_not(recogniser, spades):
    # Before session 12 a taught deck named every find the base classifier did not call 'none' by
    # its nearest card, and the base classifier takes a mat's printed markers for indices: these six
    # cards taught so named an AS on the empty mat 985002. The markers beside the card on a teaching
    # photo are now taught as no index of the deck (as are the card's pips and picture).
    faces, deck, said = spades
    assert any("photos read" in m for m in said) and any("fitting the head" in m for m in said), said
    assert deck.ids == TAUGHT
    for seed in (985_002, 985_004):
        named = [c.id for c in deck.recognise(recogniser, _mat_table(seed, faces, [])) if c.id not in (None, "back")]
        assert named == [], (seed, named)
    # and the cards themselves, on such a mat, are still named, and named right
    named = [c.id for c in deck.recognise(recogniser, _mat_table(985_001, faces, list(TAUGHT)))
             if c.id not in (None, "back")]
    assert set(named) <= set(TAUGHT) and len(set(named)) >= 4, named


def test_a_deck_taught_before_session_12_is_refused_with_a_clear_message(tmp_path, capsys):
    (tmp_path / "decks").mkdir()
    np.savez(tmp_path / "decks" / "house.npz", ids=np.array(["QH", "7S"]),
             prototypes=np.eye(2, 96, dtype=np.float32), photos=2)  # the format of session 11 and before
    with pytest.raises(DeckError, match="taught by an older Tableside.*teach it again"):
        LearnedDeck.load(tmp_path, "house")
    image = tmp_path / "x.png"
    import cv2

    cv2.imwrite(str(image), np.zeros((50, 50, 3), np.uint8))
    assert main(["recognize", "--deck", "house", "--instance", str(tmp_path), str(image)]) == 2
    assert "tableside deck learn house" in capsys.readouterr().err


def test_a_saved_deck_reads_as_the_deck_it_was(tmp_path, recogniser, spades):
    faces, deck, _ = spades
    deck.save(tmp_path)
    again = LearnedDeck.load(tmp_path, "spades")
    assert again.ids == deck.ids and again.photos == deck.photos
    assert np.array_equal(again.weights, deck.weights)
    assert again.classifier == recogniser.classifier_id


def test_a_deck_taught_with_another_classifier_is_refused_with_a_clear_message(tmp_path, recogniser, spades, capsys):
    import shutil

    _, deck, _ = spades
    deck.save(tmp_path)
    rebuilt = tmp_path / "models"  # the same models, the classifier rebuilt (here: one byte of it changed)
    shutil.copytree(recogniser.folder, rebuilt, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    onnx = bytearray((rebuilt / "classifier.onnx").read_bytes())
    onnx[-1] ^= 1
    (rebuilt / "classifier.onnx").write_bytes(bytes(onnx))
    other = CardRecogniser(rebuilt)
    with pytest.raises(DeckError, match="taught with another card classifier.*tableside deck learn spades"):
        LearnedDeck.load(tmp_path, "spades").recognise(other, np.zeros((50, 50, 3), np.uint8))
    LearnedDeck.load(tmp_path, "spades").recognise(recogniser, np.zeros((50, 50, 3), np.uint8))  # its own: read
