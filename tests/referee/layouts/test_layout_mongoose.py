"""The Mongoose layout reads staged tables back as the state's own view, on the real mats' zones."""

import math
import random

import pytest
from layout_staging import card, stage_mongoose, walk

from calibration.mats import mat_layout
from referee import games, layouts
from referee.log import PlaythroughLog
from referee.session import Session
from referee.layouts.mongoose import A4_ZONES
from referee.snapshot import Alternative, CardSighting, TableSnapshot


def mat_zones(paper):
    return {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in mat_layout("mongoose", paper).zones}


@pytest.fixture(scope="module")
def game():
    return games.get("mongoose", players=["ann", "bob"])


@pytest.fixture(scope="module")
def pairs(game):
    return [pair for seed in range(8) for pair in walk(game.new_state(), random.Random(seed), 60)]


def test_the_default_zones_are_the_a4_mats():
    assert A4_ZONES == mat_zones("A4")


@pytest.mark.parametrize("paper", ["A4", "A3", "letter"])
def test_every_position_reads_back_as_the_states_view(game, pairs, paper):
    zones = mat_zones(paper)
    layout = layouts.for_game(game, zones)
    rng = random.Random(5)
    plays = 0
    for before, after in pairs:
        seen = layout.read(stage_mongoose(after, rng, zones), before)
        assert seen.view == after.view(), seen.view.diff(after.view())
        assert seen.unplaced == ()
        pool = after.view()["pool"]
        if len(pool) <= 15:  # one layer: every card sure
            assert seen.uncertain == {}
        else:  # overlapping: a card lying over most of a surer one may be nothing
            assert set(seen.uncertain) <= {"pool"} and all(
                len(option) == len(pool) - 1 and set(option) < set(pool) for option in seen.uncertain.get("pool", ()))
        plays += "play/ann" in after.view()
    assert len(pairs) >= 300 and plays >= 50


def test_seat_zero_collects_at_the_top_of_the_mat(game):
    state = game.new_state()
    snapshot = TableSnapshot(0.0, (card("4H", (100.0, -50.0)), card("9S", (100.0, 250.0)), card("2C", (300.0, 40.0)),
                                   card("KD", (300.0, 140.0)), card("5S", (-40.0, 90.0)), card("back", (-40.0, 20.0))))
    seen = layouts.for_game(game).read(snapshot, state)
    assert dict(seen.view) == {"collection/ann": ("4H",), "collection/bob": ("9S",), "play/ann": ("2C",),
                               "play/bob": ("KD",), "discards": ("5S",)}


def test_doubtful_and_lost_cards(game, pairs):
    before, after = pairs[20]
    snapshot = stage_mongoose(after, random.Random(2), A4_ZONES)
    first = next(c for c in snapshot.cards if c.face_up and c.card in after.view()["pool"])
    unsure = CardSighting(first.card, True, first.center_mm, first.corners_mm, 0.0, 0.3, (Alternative("AS", 0.2),))
    cards = tuple(unsure if c is first else c for c in snapshot.cards) + (card("7D", (900.0, 90.0)),)
    seen = layouts.for_game(game).read(TableSnapshot(1.0, cards), before)
    pool = list(after.view()["pool"])
    assert seen.view == after.view()
    changed = set(seen.uncertain["pool"][0])
    assert list(seen.uncertain) == ["pool"] and changed == set(pool) - {first.card} | {"AS"}
    assert len(seen.unplaced) == 1 and seen.unplaced[0].startswith("card 7D")


def test_zones_missing_a_place_are_refused_by_name(game):
    with pytest.raises(ValueError, match="collection/bottom"):
        layouts.for_game(game, {"pool": (0, 0, 10, 10), "collection/top": (0, -20, 10, 10)})


def _dealing(game, revealed):
    """(state, after): the deal with ``revealed`` pool cards turned up, and the state after the next."""
    state, rng = game.new_state(), random.Random(7)
    for _ in range(revealed + 1):
        before, state = state, state.apply(rng.choice(list(state.legal_actions())))
    return before, state


@pytest.mark.parametrize("apart_mm, expected", [(15.0, ("action", None)), (None, ("violation", "mongoose/setup/deal"))],
                         ids=["over-a-card", "apart"])
def test_a_card_read_on_a_pool_card_may_be_nothing_so_the_deal_is_followed(game, tmp_path, apart_mm, expected):
    # a trial's JD had its bottom corner read KD 0.92 beside it: two cards where the deal turns one up
    before, after = _dealing(game, 11)  # the last card of the deal
    assert "KD" not in after.view()["pool"]
    table = stage_mongoose(after, random.Random(4), A4_ZONES)
    pool = [c for c in table.cards if c.face_up]
    if apart_mm is not None:
        at = (pool[0].center_mm[0] + apart_mm, pool[0].center_mm[1] + 8.0)
    else:  # a card truly turned up on a spot of its own: the deal turned up two, and that is flagged
        x, y, w, h = A4_ZONES["pool"]
        at = max(((x + i, y + j) for i in range(0, int(w), 5) for j in range(0, int(h), 5)),
                 key=lambda p: min(math.dist(p, c.center_mm) for c in pool))
    phantom = card("KD", at, confidence=0.92, alternatives=(("QD", 0.05),))
    session = Session(game, before, layouts.for_game(game), PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(TableSnapshot(1.0, table.cards + (phantom,)))
    kind, rule = expected
    assert [e.kind for e in events] == [kind], [e.payload for e in events]
    if kind == "action":
        assert session.state == after
    else:
        assert [r["rule"] for r in events[0].payload["readings"][0]["verdict"]["reasons"]] == [rule]
