"""Random play-outs: 500 seeded games over 2-5 players and all variants, keeping the invariants.

Every game is capped at ``TURN_CAP`` actions after the opening (random play rarely completes a
poker block; the cap keeps the folder fast). The first ``FULL_GAMES`` games run the complete
``referee.playout`` checks at every step (every legal action re-checked, notation and JSON round
trips, apply refusing illegal actions); the rest play random actions, a kind at a time, with the
game's own invariants at every step and the JSON and apply-versus-check checks every few steps.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from referee import IllegalAction
from referee.games.deck_town.actions import Attack, Build, Draw, Fly, Move, Reveal
from referee.games.deck_town.board import is_connected
from referee.games.deck_town.cards import composition
from referee.games.deck_town.common import NUMBER_IDS
from referee.playout import check_state, random_playout

GAMES = 500
FULL_GAMES = 30
TURN_CAP = 100  # actions after the opening, light games
FULL_CAP = 40  # actions after the opening, fully checked games
VARIANTS = [{}, {"deck": "single-extended"}, {"deck": "double-extended", "attack-superior-only": True},
            {"draw-each-turn": True, "ending": "turtle-butt"}, {"fly-suit-match": "always", "fly-eviction": True},
            {"fly-suit-match": "uncontrolled", "fly-removal": True, "ending": "bharg-set"},
            {"attack-pip-difference": True}]


def invariants(state) -> None:
    """Cards and pyramids are conserved; the board is connected; pyramids stand on cards."""
    comp = composition(state.game.option("deck"), state.game.option("fly-removal"))
    seen = Counter(state.board.values()) + Counter(state.discard) + Counter(c for c in state.revealed if c)
    assert not seen - comp, f"more copies seen than the deck holds: {seen - comp}"
    assert sum(comp.values()) == state.deck + sum(state.hands) + sum(seen.values()), "cards not conserved"
    assert min(state.hands) >= 0 and state.deck >= 0
    for p in range(len(state.players)):
        on_board = Counter(s for stack in state.pieces.values() for q, s in stack if q == p)
        assert all(state.supply[p][s - 1] + on_board[s] == 3 for s in (1, 2, 3)), "pyramids not conserved"
    assert set(state.pieces) <= set(state.board), "a pyramid stands off the board"
    assert is_connected(state.board), "the board came apart"
    if state.phase == "play":
        assert state.hands[state.turn] <= 5 + state.game.option("draw-each-turn")


def illegal_samples(state):
    """Actions that are usually illegal here; check_state makes sure apply refuses what check rejects."""
    name = state.players[state.turn]
    other = state.players[(state.turn + 1) % len(state.players)]
    return [Draw(other), Build(name, "mountain", "99,99"), Move(name, "0,0", 3, "5,5"),
            Fly(name, "ace-moons", "0,0", "0,0"), Attack(name, "0,0", "red3", ("harvest", "sea"), True, 5)]


def opening(game, rng, full: bool):
    """Deal and reveal with random table outcomes; returns the state ready for the first hatch."""
    state = game.new_state()
    while state.phase in ("deal", "reveal"):
        if state.phase == "deal":
            legal = check_state(state, illegal_samples(state)) if full else state.legal_actions()
            state = state.apply(rng.choice(legal))
        else:
            if full and len(game.players) == 2:
                check_state(state)  # every one of the 576 joint reveals
            cards = tuple(rng.choice(NUMBER_IDS) for _ in game.players)
            verdict = state.check(Reveal(cards))
            if verdict.legal:
                state = state.apply(Reveal(cards))
            else:  # three of one card: the joint reveal is refused, never applied
                try:
                    state.apply(Reveal(cards))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"apply accepted {cards}")
        invariants(state)
    return state


def light_playout(state, rng, cap: int) -> int:
    steps = 0
    while steps < cap:
        legal = state.legal_actions()
        if not legal:
            assert state.is_over()
            break
        by_kind: dict[str, list] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        action = rng.choice(by_kind[rng.choice(sorted(by_kind))])
        if steps % 10 == 0:
            assert state.check(action).legal
            again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert again == state and again.view() == state.view()
            assert state.game.actions.parse(str(action)) == action
            for bad in illegal_samples(state):
                if not state.check(bad).legal:
                    try:
                        state.apply(bad)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"apply accepted {bad}")
        state = state.apply(action)
        invariants(state)
        steps += 1
    return steps


def test_five_hundred_random_games_keep_the_invariants(make_game):
    outcomes, kinds = Counter(), Counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        players = [f"p{i}" for i in range(2 + seed % 4)]
        game = make_game(players, **{k.replace("-", "_"): v for k, v in VARIANTS[seed % len(VARIANTS)].items()})
        full = seed < FULL_GAMES
        state = opening(game, rng, full)
        if full:
            history = random_playout(state, rng, max_actions=FULL_CAP, extra=invariants, illegal=illegal_samples)
            kinds.update(a.kind for a in history)
        else:
            light_playout(state, rng, TURN_CAP)
        outcomes["played"] += 1
    assert outcomes["played"] == GAMES
    assert {"hatch", "draw", "build", "move", "grow", "spawn"} <= set(kinds)


def test_some_random_games_are_won(make_game):
    """Biased random play (build and move more) reaches the end: the outcome names a poker-block rule."""
    ended = 0
    for seed in range(30):
        rng = random.Random(1000 + seed)
        game = make_game(("ann", "bob"), deck="single-extended")
        state = opening(game, rng, False)
        for _ in range(400):
            legal = state.legal_actions()
            if not legal:
                break
            preferred = [a for a in legal if a.kind in ("build", "move", "spawn", "hatch", "discard")]
            state = state.apply(rng.choice(preferred or legal))
            invariants(state)
        if state.is_over():
            ended += 1
            assert state.outcome().rule in ("deck-town-1.1/end/poker-block", "deck-town-1.1/end/tie")
    assert ended >= 1
