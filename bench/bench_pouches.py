"""Pouches of Destiny figures: checking one action, and random play-out speed (both editions)."""

from __future__ import annotations

import random
import time

from bench import benchmark, percentiles
from referee import games
from referee.games.pouches.actions import Discard, Move


def _positions(edition: str, count: int, seed: int = 7) -> list:
    """Positions met in seeded random play-outs, 2-5 players."""
    rng, states = random.Random(seed), []
    game_no = 0
    while len(states) < count:
        game = games.get("pouches", edition=edition, players=2 + game_no % 4)
        state = game.new_state()
        game_no += 1
        while not state.is_over() and state.round <= 12 and len(states) < count:
            legal = state.legal_actions()
            if state.phase in ("act", "overflow", "fdiscard"):
                states.append((state, legal))
            state = state.apply(rng.choice(legal))
    return states


def _check_times(edition: str) -> list[float]:
    """Seconds per check of single actions: every offered swoosh and discard (all destinations) and
    a sample of the rest, plus illegal variants."""
    samples = []
    for state, legal in _positions(edition, 150):
        chosen = [a for a in legal if isinstance(a, Discard) or (isinstance(a, Move) and ">" in a.path)]
        chosen += legal[:10]
        if state.to_move:
            chosen.append(Move(state.to_move, "7,7>7,8"))
        for action in chosen:
            started = time.perf_counter()
            state.check(action)
            samples.append(time.perf_counter() - started)
    return samples


@benchmark("pouches_check_19", "ms", "Pouches 1.9: check one action (swooshes, discards with all destinations, "
           "illegal ones), over positions from random play-outs")
def check_19() -> dict[str, float]:
    return {k: 1000 * v for k, v in percentiles(_check_times("1.9")).items()}


@benchmark("pouches_check_13", "ms", "Greedy Devils 1.3 (5x5 heap): check one action, as for 1.9")
def check_13() -> dict[str, float]:
    return {k: 1000 * v for k, v in percentiles(_check_times("1.3")).items()}


def _playout_rate(edition: str) -> float:
    rng, actions = random.Random(11), 0
    started = time.perf_counter()
    for game_no in range(40):
        game = games.get("pouches", edition=edition, players=2 + game_no % 4)
        state = game.new_state()
        while not state.is_over() and state.round <= 15:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - started)


@benchmark("pouches_playout_19", "actions/s", "Pouches 1.9: random play-out actions per second "
           "(legal_actions + check + apply), 2-5 players")
def playout_19() -> float:
    return _playout_rate("1.9")


@benchmark("pouches_playout_13", "actions/s", "Greedy Devils 1.3: random play-out actions per second")
def playout_13() -> float:
    return _playout_rate("1.3")


@benchmark("pouches_legal_19", "ms", "Pouches 1.9: list every legal action of a position (all swooshes and "
           "every discard destination)")
def legal_19() -> dict[str, float]:
    samples = []
    for state, _ in _positions("1.9", 300):
        started = time.perf_counter()
        state.legal_actions()
        samples.append(time.perf_counter() - started)
    return {k: 1000 * v for k, v in percentiles(samples).items()}
