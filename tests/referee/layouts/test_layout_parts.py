"""The layouts' shared parts: the lattice fit and its anchoring, readouts, zones and seats."""

import math
import random

import pytest
from layout_staging import stage_pouches, walk

from referee import games, layouts
from referee.layouts import grid, seats, zones
from referee.layouts.pouches import PouchesLayout
from referee.layouts.readout import Readout
from referee.snapshot import Alternative, CardSighting, TableSnapshot


def _turned_grid(rng, angle_deg, pitch=(72.0, 97.0), cells=None):
    a = math.radians(angle_deg)
    cells = cells or [(c, r) for c in range(4) for r in range(3)]
    out = []
    for c, r in cells:
        u, v = c * pitch[0] + rng.uniform(-10, 10), r * pitch[1] + rng.uniform(-14, 14)
        out.append(((500 + u * math.cos(a) - v * math.sin(a), 300 + u * math.sin(a) + v * math.cos(a)),
                    angle_deg + rng.uniform(-13, 13)))
    return cells, out


@pytest.mark.parametrize("angle", [-20.0, -3.0, 0.0, 7.0, 44.0])
def test_the_fit_finds_a_turned_grid_and_its_pitch(angle):
    rng = random.Random(int(angle) + 50)
    cells, cards = _turned_grid(rng, angle)
    lattice = grid.fit(cards, (63, 88))
    found = [lattice.cell(p) for p, _ in cards]
    shift = (cells[0][0] - found[0][0], cells[0][1] - found[0][1])
    assert [(c + shift[0], r + shift[1]) for c, r in found] == cells
    assert lattice.pitch[0] == pytest.approx(72, rel=0.05) and lattice.pitch[1] == pytest.approx(97, rel=0.05)


def test_a_card_laid_beside_the_grid_gets_the_next_cell_of_the_states_grid():
    rng = random.Random(4)
    known = [(c, r) for c in range(-1, 2) for r in range(5, 8)]  # the state's cells: columns -1..1, rows 5..7
    cells, cards = _turned_grid(rng, 5.0, cells=[(c, r) for c in range(3) for r in range(3)] + [(3, 1)])
    lattice = grid.fit(cards, (63, 88))
    lattice = lattice.anchor(known, cells=[lattice.cell(p) for p, _ in cards])
    assert lattice.cell(cards[-1][0]) == (2, 6) and lattice.cell(cards[0][0]) == (-1, 5)


def test_anchoring_prefers_the_shift_that_puts_the_expected_cards_on_their_cells():
    lattice = grid.Lattice((0.0, 0.0), (70.0, 0.0), (0.0, 95.0))
    known = {(0, 0), (1, 0)}
    # one card seen: on (0, 0) or on (1, 0) alike by position; its identity settles it
    assert lattice.anchor(known, {(0, 0): "9H"}, {(0, 0): "2C", (1, 0): "9H"}).cell((0.0, 0.0)) == (1, 0)


def test_a_threshold_outside_0_1_is_refused_and_the_layouts_threshold_is_configurable():
    with pytest.raises(ValueError, match="threshold"):
        Readout(1.5)
    game = games.get("pouches", edition="1.9", players=2)
    before, after = walk(game.new_state(), random.Random(2), 12)[-1]
    snapshot, _ = stage_pouches(after, random.Random(3), frame=before.heap)
    first = next(c for c in snapshot.cards if c.face_up)
    unsure = CardSighting(first.card, True, first.center_mm, first.corners_mm, first.angle_deg, 0.45,
                          (Alternative("8S", 0.3),))
    table = TableSnapshot(1.0, tuple(unsure if c is first else c for c in snapshot.cards), tokens=snapshot.tokens)
    assert layouts.for_game(game).read(table, before).uncertain
    assert PouchesLayout(game, threshold=0.4).read(table, before).uncertain == {}


def test_zones_are_checked_and_the_nearest_within_the_margin_wins():
    with pytest.raises(ValueError, match="positive size"):
        zones.check({"pool": (0, 0, -5, 10)}, ["pool"], "Mongoose")
    rects = {"a": (0, 0, 10, 10), "b": (30, 0, 10, 10)}
    assert zones.nearest_zone(rects, (12, 5)) == "a" and zones.nearest_zone(rects, (27, 5)) == "b"
    assert zones.nearest_zone(rects, (5, 80)) is None


def test_seats_go_clockwise_from_the_camera_side():
    assert [round(b) for b in seats.bearings(4)] == [270, 0, 90, 180]
    assert seats.nearest(seats.bearings(4), 350.0) == 1 and seats.shared_bearing(3) == 210.0


@pytest.mark.parametrize("name", ["pouches", "mongoose", "deck-town", "pungo"])
def test_every_refereed_game_has_a_layout(name):
    game = games.get(name, players=2) if name != "mongoose" else games.get(name, players=["ann", "bob"])
    assert callable(layouts.for_game(game).read)
