"""The Pungo layout reads staged tables back as the state's own view, on the real mats' zones."""

import random

import pytest
from layout_staging import stage_pungo, walk

from calibration.mats import mat_layout
from referee import games, layouts
from referee.layouts.pungo import a4_zones
from referee.snapshot import Alternative, DieSighting, PyramidSighting, TableSnapshot

VARIANTS = {"standard": {}, "averaging": {"points": "averaging"}, "decision": {"order": "decision"},
            "chaos": {"roll": "chaos"}, "pyramid-die": {"die": "pyramid"}, "three-colours": {"colours": 3},
            "rulings": {"arena": "4x3", "roll-grid": "3x4", "unspendable": "pass"}}


def make(options):
    return games.get("pungo", players=["ann", "bob"], options=options)


def mat_zones(game, paper):
    options = {"arena": game.option("arena"), "roll-grid": game.option("roll-grid")}
    return {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in mat_layout("pungo", paper, options).zones}


@pytest.mark.parametrize("variant", ["standard", "rulings"])
def test_the_default_zones_are_the_a4_mats(variant):
    game = make(VARIANTS[variant])
    assert a4_zones(game.option("arena"), game.option("roll-grid")) == mat_zones(game, "A4")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_position_reads_back_as_the_states_view(variant):
    game = make(VARIANTS[variant])
    zones = mat_zones(game, "A3" if variant == "rulings" else "A4")
    layout = layouts.for_game(game, zones)
    rng = random.Random(3)
    pairs = [pair for seed in range(2) for pair in walk(game.new_state(), random.Random(seed), 30)]
    places = set()
    for before, after in pairs:
        seen = layout.read(stage_pungo(after, rng, zones), before)
        assert seen.view == after.view(), seen.view.diff(after.view())
        assert seen.uncertain == {} and seen.unplaced == ()
        places |= {p.split("/")[0] for p in after.view()}
    assert len(pairs) >= 40
    assert places == ({"arena", "roll", "die"} if variant == "chaos" else {"arena", "roll"})


def test_a_doubtful_die_and_a_lost_pyramid():
    game = make({})
    state = game.new_state()
    zones = a4_zones("3x4", "3x3")
    snapshot = stage_pungo(state, random.Random(1), zones)
    die = snapshot.dice[0]
    unsure = DieSighting(die.face, die.center_mm, 0.4, (Alternative("6", 0.3), Alternative("2", 0.2)))
    lost = PyramidSighting(snapshot.pyramids[0].stack, (600.0, 600.0), 0.9)
    seen = layouts.for_game(game).read(TableSnapshot(1.0, pyramids=snapshot.pyramids + (lost,), dice=(unsure,)), state)
    assert seen.view == state.view()
    assert seen.uncertain == {"roll/r2c2": (("6",), ("2",))}
    assert len(seen.unplaced) == 1 and "off the arena" in seen.unplaced[0]


def test_the_pyramid_die_reports_its_faces_in_order():
    game = make({"die": "pyramid"})
    zones = a4_zones("3x4", "3x3")
    x, y, w, h = zones["roll/r1c3"]
    seen = layouts.for_game(game).read(TableSnapshot(1.0, dice=(DieSighting(5, (x + w / 2, y + h / 2), 0.9),)), None)
    assert dict(seen.view) == {"roll/r1c3": ("13",)}


def test_two_stacks_seen_on_one_cell_leave_their_order_uncertain():
    game = make({})
    x, y, w, h = a4_zones("3x4", "3x3")["arena/r1c1"]
    pair = (PyramidSighting.from_json({"stack": ["red3"], "center_mm": [x + 8, y + 8], "confidence": 0.9}),
            PyramidSighting.from_json({"stack": ["blue1"], "center_mm": [x + 20, y + 20], "confidence": 0.9}))
    seen = layouts.for_game(game).read(TableSnapshot(1.0, pyramids=pair), None)
    assert seen.view["arena/r1c1"] == ("red3", "blue1") and seen.uncertain == {"arena/r1c1": (("blue1", "red3"),)}
