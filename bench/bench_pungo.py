"""Pungo referee figures: checking a whole observed turn (the camera's before and after) at 6 points."""

from __future__ import annotations

import random
import time

from bench import benchmark, per_call, percentiles
from referee import games
from referee.games.pungo.observe import explain
from referee.view import View

SAMPLES = 300


def _turn(state, rng):
    """Play one whole random turn (roll, then steps) from a roll-phase state."""
    while not state.is_over():
        state = state.apply(rng.choice(list(state.legal_actions())))
        if state.is_over() or state.phase == "roll":
            return state
    return state


def _six_point_turns(count: int = SAMPLES):
    """Seeded (before, view after) pairs of whole turns whose roll showed 6: the hardest case of the d6."""
    game = games.get("pungo", players=["ann", "bob"])
    rng, pairs = random.Random(6), []
    while len(pairs) < count:
        state = game.new_state()
        for _ in range(14):
            if state.is_over():
                break
            if state.phase == "roll":
                sixes = [a for a in state.legal_actions() if a.face == "6"]
                if sixes and len(pairs) < count:
                    after = _turn(state.apply(rng.choice(sixes)), rng)
                    pairs.append((state, after.view()))
            state = _turn(state, rng)
    return pairs


def _mutated(pairs, rng):
    """The same turns with one visible top pyramid moved to another cell."""
    out = []
    for state, view in pairs:
        data = {k: list(v) for k, v in view.items()}
        cells = [p for p in data if p.startswith("arena/")]
        source = rng.choice(cells)
        dest = "arena/" + state.config.arena.name(rng.randrange(state.config.arena.size))
        top = data[source].pop()
        if not data[source]:
            del data[source]
        data[dest] = data.get(dest, []) + [top]
        out.append((state, View(data)))
    return out


def _latencies(pairs) -> list[float]:
    times = []
    for state, view in pairs:
        started = time.perf_counter()
        explain(state, view)
        times.append(1000 * (time.perf_counter() - started))
    return times


@benchmark("pungo_observed_turn_6pts", "ms", "explain a real whole turn (roll showing 6, then 6 points of steps) "
           "from the view after it")
def observed_turn() -> dict[str, float]:
    return percentiles(_latencies(_six_point_turns()))


@benchmark("pungo_observed_reject_6pts", "ms", "refuse a 6-point turn's end position with one pyramid moved "
           "elsewhere (or explain it, when some legal turn reaches it)")
def observed_reject() -> dict[str, float]:
    return percentiles(_latencies(_mutated(_six_point_turns(), random.Random(7))))


@benchmark("pungo_legal_actions", "us", "legal steps of a mid-turn position with 6 points (memo warm)")
def legal_actions() -> float:
    state, _ = _six_point_turns(1)[0]
    moving = state.apply(next(a for a in state.legal_actions() if a.face == "6"))
    return 1e6 * per_call(lambda: moving.legal_actions())
