"""Deck Town referee figures: checking one action (with the poker-block test it triggers) on a
crowded 40-card board, the block search alone, and random play-out speed."""

from __future__ import annotations

import random
import time

from bench import benchmark, percentiles
from referee import games
from referee.games.deck_town.actions import Reveal
from referee.games.deck_town.blocks import winning_blocks
from referee.games.deck_town.common import NUMBER_IDS
from referee.games.deck_town.ending import judge
from referee.games.deck_town.state import DeckTownState
from referee.decktet import myrmex_deck, CATALOGUE


def crowded_board(seed: int = 7) -> DeckTownState:
    """Forty number cards in an 8 x 5 rectangle; three players' 27 pyramids spread over it, red
    holding a wide area alone so the block search has many candidates (yet no winning block)."""
    game = games.get("deck-town", players=["ann", "bob", "cat"])
    rng = random.Random(seed)
    while True:
        numbers = [c for c in myrmex_deck() if CATALOGUE[c].is_number]
        rng.shuffle(numbers)
        board = {(x, y): numbers.pop() for y in range(5) for x in range(8)}
        cells = sorted(board)
        pieces: dict = {}
        supply = []
        for p in range(3):
            for size in (1, 2, 3):
                for _ in range(3):
                    cell = rng.choice(cells[:16]) if p == 0 else rng.choice(cells)
                    pieces[cell] = tuple(sorted(pieces.get(cell, ()) + ((p, size),)))
            supply.append((0, 0, 0))
        if judge(game, game.players, board, pieces) is None:
            break
    return DeckTownState(game, colours=("red", "yellow", "green"), phase="play", turn=0, hands=(5, 5, 5),
                         numbers=(True,) * 3, revealed=(None,) * 3, deck=72 - 40 - 15, discard=(),
                         board=board, pieces=pieces, supply=tuple(supply))


@benchmark("deck_town_check_action", "us", "check + apply one legal action on a 40-card, 3-player board "
           "(apply runs the poker-block test for every player)")
def check_action() -> dict:
    state = crowded_board()
    actions = list(state.legal_actions())
    rng = random.Random(1)
    samples = []
    for _ in range(3000):
        action = rng.choice(actions)
        started = time.perf_counter()
        state.apply(action)
        samples.append((time.perf_counter() - started) * 1e6)
    return percentiles(samples)


@benchmark("deck_town_block_search", "us", "poker-block search for the three players of a 40-card board")
def block_search() -> dict:
    state = crowded_board()
    samples = []
    for _ in range(2000):
        started = time.perf_counter()
        for p in range(3):
            list(winning_blocks(state.board, state.controlled(p)))
        samples.append((time.perf_counter() - started) * 1e6)
    return percentiles(samples)


@benchmark("deck_town_legal_actions", "ms", "list every legal action on the 40-card board")
def legal_actions() -> dict:
    state = crowded_board()
    samples = []
    for _ in range(50):
        fresh = DeckTownState.from_json(state.game, state.to_json())  # no cached knowledge
        started = time.perf_counter()
        list(fresh.legal_actions())
        samples.append((time.perf_counter() - started) * 1e3)
    return percentiles(samples)


@benchmark("deck_town_playout_speed", "actions/s", "random play-out actions per second (2-5 players, "
           "legal actions listed and one applied per step)")
def playout_speed() -> float:
    actions, started = 0, time.perf_counter()
    for seed in range(40):
        rng = random.Random(seed)
        game = games.get("deck-town", players=2 + seed % 4)
        state = game.new_state()
        while state.phase in ("deal", "reveal"):
            if state.phase == "deal":
                state = state.apply(rng.choice(state.legal_actions()))
            else:
                reveal = Reveal(tuple(rng.choice(NUMBER_IDS) for _ in game.players))
                if state.check(reveal).legal:
                    state = state.apply(reveal)
            actions += 1
        for _ in range(100):
            legal = state.legal_actions()
            if not legal:
                break
            state = state.apply(rng.choice(legal))
            actions += 1
    return actions / (time.perf_counter() - started)
