"""The table reader on the demo's Mongoose table (``demo:mongoose``), camera frames with their noise:
the cards of a play, turned up beside the mat, are each read once, by their name.

The first play (AS and JD) once read as an AS taken for a face-down card (its one index found in a
box half again too large, named 0.86, its outline too large for a card) and a JD read as two cards
(its top-left index boxed a third too small and read 4D, and the pip beside it found as an index
too). The recogniser now reads an unsure index again with a smaller and a larger box, and takes a
find at a corner of a card seen by both corners for that corner found again.

The first refill (``reveal JC,TH,7S``) once read a JS for the JC (its top-left index only faintly
found, its bottom-right one read at a turn 35 degrees off, where a club looks like a spade) and a
second KD (the KS's bottom-right index read KD, its card's centre placed too far off to pair it with
the KS's top-left). The recogniser now reads a faint find lying across the card from a lone index at
the turn the line between them gives, and pairs two finds lying a card's index diagonal apart whose
reads allow each other's name."""

from __future__ import annotations

import collections
import math

import pytest

from calibration.mats import mat_of, zones_of
from referee import layouts
from vision.synth.demo import DemoSource
from vision.table_reader import TableReader

FRAMES_PER_SHOT = 25  # the demo holds each table 10 frames (no hand in view), then a hand reaches in for 15


@pytest.fixture(scope="module")
def demo():
    return DemoSource("mongoose")


@pytest.mark.parametrize("frame", [2 * FRAMES_PER_SHOT + 2, 2 * FRAMES_PER_SHOT + 7])
def test_the_first_play_beside_the_mat_is_read_as_its_two_cards_once_each(demo, frame):
    demo.seek(frame)
    image = demo.read()
    assert demo.truth.position == 2 and not demo.truth.snapshot.occluded  # the table after `play AS JD`
    reader = TableReader(mat_of(demo.demo.recorded.game), deck="standard")
    reader.read(image, 0.0)
    read = reader.read(image, 0.1).snapshot.cards
    truth = collections.Counter(c.card for c in demo.truth.snapshot.cards)
    assert {"AS", "JD"} <= set(truth)
    got = collections.Counter(c.card for c in read)
    assert got == truth, (got - truth, truth - got)
    # each lies in its player's play place beside the pool, within a few millimetres of the truth
    game = demo.demo.recorded.game
    layout = layouts.for_game(game, zones_of(mat_of(game)))
    for name, player in (("AS", "ann"), ("JD", "bob")):
        (seen,) = [c for c in read if c.card == name]
        (true,) = [c for c in demo.truth.snapshot.cards if c.card == name]
        assert seen.face_up and layout.place(seen.center_mm) == layout.place(true.center_mm) == f"play/{player}"
        assert math.dist(seen.center_mm, true.center_mm) < 8.0, (name, seen.center_mm, true.center_mm)


@pytest.mark.parametrize("frame", [4 * FRAMES_PER_SHOT + 2, 4 * FRAMES_PER_SHOT + 7])
def test_the_first_refill_is_read_card_for_card_with_the_jack_of_clubs_and_one_king_of_spades(demo, frame):
    demo.seek(frame)
    image = demo.read()
    assert demo.truth.position == 4 and not demo.truth.snapshot.occluded  # the table after `reveal JC,TH,7S`
    reader = TableReader(mat_of(demo.demo.recorded.game), deck="standard")
    reader.read(image, 0.0)
    read = reader.read(image, 0.1).snapshot.cards
    truth = collections.Counter(c.card for c in demo.truth.snapshot.cards)
    assert truth["JC"] == truth["KS"] == truth["KD"] == 1 and truth["JS"] == 1
    got = collections.Counter(c.card for c in read)
    assert got == truth, (got - truth, truth - got)
