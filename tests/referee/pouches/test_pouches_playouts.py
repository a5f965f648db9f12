"""Random play-outs: at least 500 seeded games per edition across 2-5 players, checking invariants.

Every game checks, after every action: every card of the deck is in exactly one place (or is one of
the unseen face-down cards), pouches hold at most 5 cards once an action has completed, the game ends
or reaches the round cap, and a finished game names the rule that decided it. The first games of each
batch (24 per edition) also run referee.playout.check_state at every step (JSON round trips of states, views and
actions, notation round trips, check accepting every offered action, apply refusing what check
rejects); the rest round-trip the state through JSON every few steps and check a few illegal actions.
"""

import json
import random
from collections import Counter

import pytest

from referee import IllegalAction, games
from referee.games.pouches.actions import Discard, Fight, Move, Pick, Reveal, Stay
from referee.games.pouches.heap import HEIGHT, UNKNOWN, parse_cell
from referee.playout import check_state

GAMES_PER_EDITION = 500
FULLY_CHECKED = 48  # of which the even seeds (random players) run check_state at every step
ROUND_CAP = 14
EAGER_ROUND_CAP = 30  # eager players (with relaxation in 1.9) sometimes win before this


def eager(state, legal, rng):
    """A player who wants to win: picks while short of foods, climbs with most foods, sheds spare cards.
    Still only ever plays offered (legal) actions; a third of the time it plays at random."""
    me = state.to_move
    if state.phase == "overflow" or (state.phase in ("act", "pick2") and rng.random() < 0.7):
        pouch = state.pouches.get(me, ())
        foods = {HEIGHT[c] for c in pouch if HEIGHT[c] <= 5}
        spare = [a for a in legal if isinstance(a, Discard) and a.player == me
                 and (HEIGHT[a.card] > 5 or sum(HEIGHT[c] == HEIGHT[a.card] for c in pouch) > 1)]
        if state.phase == "overflow":
            return rng.choice(spare or legal)
        picks = [a for a in legal if isinstance(a, Pick)]
        if picks and len(foods) < 5 and rng.random() < 0.6:
            return rng.choice(picks)
        if len(foods) >= 4:
            here = state.height_at(state.spots[me])
            ups = [a for a in legal if isinstance(a, Move) and ">" not in a.path
                   and state.height_at(parse_cell(a.path)) > here]
            if ups:
                return max(ups, key=lambda a: state.height_at(parse_cell(a.path)))
        if spare and rng.random() < 0.3:
            return rng.choice(spare)
    return rng.choice(legal)


def conserved(state):
    """Every card exactly once: known cards in one place each, the unseen ones matching the '?' cards."""
    places = [c for pile in state.heap.values() for c in pile]
    places += [c for pouch in state.pouches.values() for c in pouch]
    places += [card for _, card in state.ctx.get("queue", ())]
    counts = Counter(places)
    hidden = counts.pop(UNKNOWN, 0)
    assert all(n == 1 for n in counts.values()), [c for c, n in counts.items() if n > 1]
    assert set(counts) | state.unseen == state.deck and not set(counts) & state.unseen
    assert hidden == len(state.unseen), (hidden, len(state.unseen))


def pouches_fit(state):
    """Over 5 only while the action that overfilled the pouch is still going (its discards pending)."""
    for player, pouch in state.pouches.items():
        if len(pouch) > 5:
            assert state.phase in ("overflow", "pick2", "picked", "acted") and state.ctx.get("who") == player, \
                (player, pouch, state.phase)


def illegal_tries(state):
    """Actions a careless table might attempt; check and apply must agree on each."""
    someone = state.game.players[0]
    spot = state.spots.get(someone)
    tries = [Stay(someone), Move(someone, "9,9"), Pick(someone, "9,9"), Fight(someone, someone),
             Discard(someone, "KS", "drop")]
    if state.pending:
        known = next(iter(state.known), None)
        if known:
            tries.append(Reveal(state.pending[0], known))
    if spot is not None:
        tries.append(Move(someone, f"{spot[0] + 2},{spot[1]}"))
    return tries


def play(game, seed, full, keen=False):
    rng = random.Random(seed)
    cap = EAGER_ROUND_CAP if keen else ROUND_CAP
    state = game.new_state()
    actions = 0
    rulebook = game.rules
    while not state.is_over() and state.round <= cap:
        if full:
            legal = check_state(state, illegal_tries(state))
        else:
            legal = state.legal_actions()
            if actions % 7 == 0:
                assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
                for action in illegal_tries(state):
                    if not state.check(action).legal:
                        with pytest.raises(IllegalAction):
                            state.apply(action)
        conserved(state)
        pouches_fit(state)
        action = eager(state, legal, rng) if keen else rng.choice(legal)
        state = state.apply(action)
        actions += 1
    conserved(state)
    if state.is_over():
        outcome = state.outcome()
        assert outcome.rule in rulebook and outcome.winners and outcome.text
        assert all(state.qualifies(w) for w in outcome.winners)
        if full:
            check_state(state)
    return state, actions


@pytest.mark.parametrize("edition", ["1.9", "1.3"])
def test_random_playouts_keep_every_invariant(edition):
    finished = Counter()
    total = 0
    options_19 = [{}, {"relaxation": True}, {"steeper-hills": "3/4", "relaxation": True},
                  {"private-pouches": True, "steeper-hills": "2/3"}]
    for seed in range(GAMES_PER_EDITION):
        players = 2 + seed % 4
        options = options_19[(seed // 4) % 4] if edition == "1.9" else {
            "simultaneous-win": ("share", "first")[seed % 2]}
        game = games.get("pouches", edition=edition, players=players, options=options)
        keen = seed % 2 == 1
        state, actions = play(game, seed, full=seed < FULLY_CHECKED and not keen, keen=keen)
        total += actions
        assert state.is_over() or state.round > (EAGER_ROUND_CAP if keen else ROUND_CAP)
        finished[state.is_over()] += 1
    assert finished[False] + finished[True] == GAMES_PER_EDITION and total > GAMES_PER_EDITION * 20
    if edition == "1.9":
        assert finished[True] > 0  # eager players with relaxation do win: the outcome path is exercised
