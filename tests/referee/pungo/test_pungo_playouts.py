"""Random play-outs, seeded: 1,000 games per variant keep Pungo's invariants.

Random play rarely ends a game, so each play-out stops after ``PLAYOUT_TURNS`` turns (about 45
actions); the invariants are checked at every action all the same. One game in 40 runs under the full
``referee.playout`` harness (JSON round trips, notation, every legal action re-checked, illegal
actions refused by ``apply``); the rest use light checks: nine pyramids conserved, no pyramid ever
landing on a smaller one, an illegal action per step refused by both ``check`` and ``apply``, and a
JSON round trip of the final state. Random play seldom wins inside the turn cap; the wins are
tested in the scenarios and the recorded playthroughs.
"""

from __future__ import annotations

import json
import random

from referee import IllegalAction
from referee.games.pungo.actions import Pass, Roll, Step
from referee.playout import random_playout

GAMES = 1000
PLAYOUT_TURNS = 12
FULL_EVERY = 40


def _illegal(state, rng):
    """Actions the rules refuse here: out of turn, too many pyramids, a pass with points to spend."""
    other = "bob" if state.mover == "ann" else "ann"
    cells = [state.config.arena.name(i) for i, s in enumerate(state.board) if s]
    cell = rng.choice(cells)
    out = [Step(other, cell, 1, "N"), Step(state.mover, cell, 10, "S"), Roll(other, "N", "3")]
    if state.phase == "move" and state.points:
        out.append(Pass(state.mover))
    return out


def _invariants(reference, landed_on_smaller):
    """Nine pyramids conserved, and nothing landed on a smaller pyramid since the previous state."""
    previous = []

    def check(state):
        assert sorted(p for s in state.board for p in s) == reference, "the nine pyramids changed"
        if previous:
            assert landed_on_smaller(previous[-1], state) == [], "a pyramid landed on a smaller one"
        previous[:] = [state]
    return check


def test_random_playouts_keep_the_invariants(pg, variant):
    game = pg.make(**pg.VARIANTS[variant])
    start = game.new_state()
    nine = sorted(p for s in start.board for p in s)
    assert len(nine) == 9
    for seed in range(GAMES):
        rng = random.Random(seed)
        if seed % FULL_EVERY == 0:
            bad_rng = random.Random(-seed)
            history = random_playout(start, rng, max_actions=PLAYOUT_TURNS * 4,
                                     extra=_invariants(nine, pg.landed_on_smaller),
                                     illegal=lambda s: _illegal(s, bad_rng) if s.to_move else ())
            assert history
            continue
        state, turns = start, 0
        while not state.is_over() and turns < PLAYOUT_TURNS:
            seat = state.seat
            legal = list(state.legal_actions())
            assert legal, "an unfinished game offers no action"
            bad = rng.choice(_illegal(state, rng))
            verdict = state.check(bad)
            assert not verdict and verdict.reasons
            try:
                state.apply(bad)
            except IllegalAction as exc:
                assert exc.verdict == verdict
            else:
                raise AssertionError(f"apply accepted {bad}")
            action = rng.choice(legal)
            after = state.apply(action)
            if isinstance(action, Step):
                assert pg.landed_on_smaller(state, after) == [], f"{action} landed on a smaller pyramid"
            assert sorted(p for s in after.board for p in s) == nine
            turns += after.seat != seat
            state = after
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state


def test_the_landing_invariant_notices_a_large_on_a_small(pg):
    """The play-outs' landing check is real: a large put on a perched small is reported."""
    game = pg.make()
    before = pg.position(game, {"r2c1": "red1+red2+red3", "r2c2": "red2+red3", "r2c3": "red3+red1",
                                "r2c4": "red1+red2"}, 3)
    after = pg.position(game, {"r2c1": "red1+red2+red3", "r2c2": "red2", "r2c3": "red3+red1+red3",
                               "r2c4": "red1+red2"}, 3)
    assert pg.landed_on_smaller(before, after) == ["r2c3"]
    assert pg.landed_on_smaller(before, before) == []
