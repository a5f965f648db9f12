"""The whole-face stage: Decktet card outlines found, and cards named from their whole face.

Rendered tables with faces from ``fogus-spiel`` (art the net never learned from), on a white mat
and on a dark table, and the Deck Town demo's own drawn faces: each test would fail without the
stage (the corner-index stage reads few of these cards: their indices are a few pixels wide).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import whole_face
from vision.cards.classes import DECKTET, NONE
from vision.cards.recognise import CardRecogniser
from vision.synth.render import render
from vision.synth.scene import Camera, CardObject, PyramidObject, Scene, Surface

pytestmark = pytest.mark.skipif(whole_face.reader() is None, reason="whole_face.onnx not built (make models)")

CARDS = ("mountain", "pact", "battle", "sailor", "ace-moons", "author", "forest", "end")


def _table(surface: Surface, faces: str | None, pyramid_on: tuple[int, ...] = (), distance_mm: float = 700.0) -> tuple:
    """Eight Decktet cards lying apart in two rows, at various turns, seen from ``distance_mm`` at a tilt."""
    cards = [CardObject(card_id, 40.0 + 78 * (k % 4), 30.0 + 110 * (k // 4), angle=float((k * 23) % 50 - 25))
             for k, card_id in enumerate(CARDS)]
    pyramids = [PyramidObject("red2", cards[k].x + 8, cards[k].y + 20) for k in pyramid_on]
    scene = Scene(surface=surface, camera=Camera(target_mm=(157.0, 85.0), distance_mm=distance_mm, tilt_deg=25.0,
                                                 size=(1280, 720)),
                  cards=cards, pyramids=pyramids, faces=faces, seed=3)
    rendering = render(scene)
    outlines = {o.label: np.array(o.polygon, np.float32) for o in rendering.objects if o.kind == "card"}
    return rendering.image, outlines


def _fogus(shared) -> str:
    return str(shared / "data" / "decktet" / "art" / "fogus-spiel")


@pytest.mark.parametrize("surface", [Surface("light", (236, 238, 240), contrast=0.1), Surface("dark", (45, 40, 35))],
                         ids=["white mat", "dark table"])
def test_the_outline_finder_finds_decktet_cards_lying_apart(shared, surface):
    image, outlines = _table(surface, _fogus(shared))
    found = whole_face.find_outlines(image)
    outlined = [name for name, polygon in outlines.items()
                if any(whole_face._overlap(q, polygon) >= 0.5 for q in found)]
    assert len(outlined) >= 7, f"outlines found round {sorted(outlined)} only, of {sorted(outlines)}"


def test_cards_of_art_never_learned_from_are_named_from_their_whole_face(shared):
    # from 1.1 m a card is some 60 pixels wide, as on the Deck Town demo table: the index stage names 3 of 8
    image, outlines = _table(Surface("light", (236, 238, 240), contrast=0.1), _fogus(shared), distance_mm=1100.0)
    cards = CardRecogniser().recognise(image, deck="decktet")
    named = {c.id for c in cards if c.id is not None}
    assert len(named & set(CARDS)) >= 7, f"named {sorted(named)}"
    assert not named - set(CARDS) - {"back"}, f"named cards not on the table: {sorted(named - set(CARDS))}"
    for card in cards:  # each outline lies round its card
        if card.id in outlines:
            assert whole_face._overlap(np.array(card.polygon, np.float32), outlines[card.id]) >= 0.6, card.id


def test_a_card_with_a_pyramid_standing_on_it_is_named(shared):
    image, _ = _table(Surface("light", (236, 238, 240), contrast=0.1), _fogus(shared), pyramid_on=(0, 1, 5))
    named = {c.id for c in CardRecogniser().recognise(image, deck="decktet") if c.id is not None}
    assert {"mountain", "pact", "author"} <= named, f"named {sorted(named)}"  # (the index stage: not the author)
    assert named <= {*CARDS, "back"}, f"named cards not on the table: {sorted(named - set(CARDS))}"


def test_the_deck_town_demo_board_cards_are_named():
    from vision.synth.demo import DemoSource

    source = DemoSource("deck-town")
    source.seek(200)  # the four board cards dealt, pyramids on them, no hand in view
    image = source.read()
    assert not any(o.kind == "hand" for o in source.truth.objects)
    board = {o.label for o in source.truth.objects if o.kind == "card" and o.label in DECKTET and o.visible >= 0.9}
    named = {c.id for c in CardRecogniser().recognise(image, deck="decktet") if c.id is not None}
    assert board == {"battle", "mountain", "pact", "sailor"}
    # the index stage named only the Pact here; the Sailor, a pyramid over most of its art panel, is
    # still read as the Origin (the same suits and colours on our drawn faces)
    assert {"battle", "mountain", "pact"} <= named, f"board {sorted(board)}, named {sorted(named)}"


def test_a_standard_card_table_reads_as_before(monkeypatch):
    """The stage runs for the Decktet (and auto, where most cards named are Decktet cards) only: a
    standard-deck read is the index stage's alone, and so is an auto read of standard cards, though
    the index stage names an Ace of Knots among them here."""
    from vision.synth.random_scene import random_scene

    image = render(random_scene(7, deck="standard", cards=8)).image
    recogniser = CardRecogniser()
    with_stage = recogniser.recognise(image, deck="standard")
    monkeypatch.setattr(whole_face, "reader", lambda *a, **k: None)
    without = recogniser.recognise(image, deck="standard")
    assert [(c.id, c.polygon) for c in with_stage] == [(c.id, c.polygon) for c in without]

    def never(*a, **k):
        raise AssertionError("the whole-face stage ran on a table of standard cards")

    monkeypatch.setattr(whole_face, "reader", never)
    assert any(c.id for c in recogniser.recognise(image, deck="auto"))


def test_the_net_says_none_for_what_is_no_card():
    reader = whole_face.reader()
    plain = np.full((200, 300, 3), (60, 120, 40), np.uint8)
    reads = reader.read(plain, quads=[np.array([[50, 20], [150, 20], [150, 160], [50, 160]], np.float32)])
    assert reads[0].name == NONE


def test_the_excuse_which_prints_no_index_is_named_from_its_face():
    # the Excuse's corners are blank, as is the corner of any Decktet card whose index is hidden: on a Decktet
    # table the index stage names no Excuse (tests/vision/cards/test_decktet_tables.py), the whole face does
    cards = [CardObject("excuse", 60.0, 60.0, angle=8.0), CardObject("mountain", 170.0, 60.0, angle=-12.0),
             CardObject("consul", 120.0, 190.0, angle=5.0), CardObject("windfall", 128.0, 205.0, angle=-4.0)]
    scene = Scene(surface=Surface("light", (236, 238, 240), contrast=0.1),
                  camera=Camera(target_mm=(120.0, 120.0), distance_mm=650.0, tilt_deg=20.0, size=(1280, 720)),
                  cards=cards, seed=4)
    rendering = render(scene)
    named = [c for c in CardRecogniser().recognise(rendering.image, deck="decktet") if c.id == "excuse"]
    assert len(named) == 1 and named[0].whole_face, named
    excuse = next(np.array(o.polygon, np.float32) for o in rendering.objects if o.label == "excuse")
    assert whole_face._overlap(np.array(named[0].polygon, np.float32), excuse) >= 0.6


def test_a_card_named_from_its_face_is_not_replaced_by_a_covered_index_read_of_a_name_its_face_rules_out(shared):
    # rendered Decktet measuring table 41 (models.cards.measure.rendered_decktet, fogus-spiel faces): the Windfall,
    # named 0.84 from its whole face, where an index beside it read as a covered Huntress 0.97 laid the Huntress
    # out over it; the covered read took the Windfall's place though its face gave the Huntress nothing
    from models.cards.measure import measuring_scene

    scene = measuring_scene(900_041, "decktet", _fogus(shared), pyramids_on_cards=True)
    assert "windfall" in {o.id for o in scene.cards}
    named = {c.id for c in CardRecogniser().recognise(render(scene).image, deck="decktet")}
    assert "windfall" in named, sorted(map(str, named))
