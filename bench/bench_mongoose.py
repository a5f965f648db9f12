"""Mongoose referee figures: checking one whole turn as the table shows it, and full play-outs.

A small simulated table (a shuffled deck and the real hands, random plays and discards) feeds the
referee the actions a camera would report; the referee never sees the hands.
"""

from __future__ import annotations

import random
import time

from bench import benchmark, percentiles
from referee.game import configure
from referee.games.mongoose import GAME_TYPE, STATE
from referee.games.mongoose.actions import Discard, Play, Reveal
from referee.games.mongoose.deck import DECK

GAME = configure(GAME_TYPE, None, ["ann", "bob"], None, STATE)


def _game(rng: random.Random) -> list[tuple]:
    """Play one game at a simulated table; returns each turn as (state before, the turn's actions)."""
    deck = sorted(DECK)
    rng.shuffle(deck)
    hands = [{deck.pop() for _ in range(5)} for _ in range(2)]
    state = GAME.new_state().apply(Reveal(tuple(deck[-12:])))
    del deck[-12:]
    turns = []
    while state.outcome() is None:
        start, actions = state, []
        play = Play(*(rng.choice(sorted(hand)) for hand in hands))
        hands[0].discard(play.first), hands[1].discard(play.second)
        actions.append(play)
        state = state.apply(play)
        actions.append(state.legal_actions()[0])  # the capture the rules make
        state = state.apply(actions[-1])
        if state.phase == "cleanup":
            parts = [tuple(rng.sample(sorted(state.collections[s]), state.excess(s))) for s in (0, 1)]
            actions.append(Discard(*parts))
            state = state.apply(actions[-1])
        if state.phase == "reveal":
            for hand in hands:
                hand.add(deck.pop())
            actions.append(Reveal(tuple(deck[-3:])))
            del deck[-3:]
            state = state.apply(actions[-1])
        turns.append((start, actions))
    return turns


@benchmark("mongoose_check_turn", "us", "check one whole turn as the table shows it: the joint play, the "
           "captures, the discards and the refill, each checked then applied (latency over 2,000 turns)")
def check_turn() -> dict[str, float]:
    rng = random.Random(7)
    turns = [turn for _ in range(200) for turn in _game(rng)][:2000]
    samples = []
    for start, actions in turns:
        began = time.perf_counter()
        state = start
        for action in actions:
            state.check(action)
            state = state._apply(action)  # what apply does once check has said yes
        samples.append((time.perf_counter() - began) * 1e6)
    return percentiles(samples)


@benchmark("mongoose_playouts", "games/s", "full games at a simulated table, every action checked and applied "
           "by the referee (deal, 11 turns, outcome)")
def playouts() -> float:
    rng = random.Random(11)
    began, games = time.perf_counter(), 0
    while time.perf_counter() - began < 2.0:
        _game(rng)
        games += 1
    return games / (time.perf_counter() - began)
