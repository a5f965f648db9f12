"""Random full games, seeded: cards conserved, collections within 7, JSON round trips, and apply
never accepting what check rejects.

Two kinds of play-out. The core harness (``random_playout``) plays random legal actions and runs
the full ``check_state`` at every step, which checks each of the ~1,500 joint plays offered: a few
score of games. A simulated table (conftest ``Table``) holds a shuffled deck and the real hands and
feeds the referee what it would see, with light checks at every step: 2,000 games."""

import json
import random

from referee.games.mongoose.actions import Capture, Discard, Forfeit, Play, Reveal
from referee.games.mongoose.ranking import compare
from referee.playout import check_state, random_playout
from referee.verdict import IllegalAction


def _conserved(state):
    places = [state.pool, state.collections[0], state.collections[1], state.discards, state.unseen,
              {c for c in state.plays if c}]
    assert sum(map(len, places)) == 52 and len(set().union(*places)) == 52
    assert state.deck_count >= 0 and all(0 <= h <= 5 for h in state.hands)
    if state.phase in ("play", "reveal"):
        assert all(len(c) <= 7 for c in state.collections)


def _wrong_moves(state):
    """A few actions the referee must refuse here (check says no, so apply must raise)."""
    shown = sorted(state.pool | state.collections[0] | state.collections[1])
    out = [Forfeit("nobody"), Reveal(("XX",))]
    if shown:
        out += [Play(shown[0], shown[-1]), Reveal((shown[0],))]
    if state.phase == "capture":
        right = state.legal_actions()[0]
        out.append(Capture(right.second, right.first))
    if state.phase == "cleanup":
        out.append(Discard(tuple(sorted(state.collections[0])[:1]), tuple(sorted(state.collections[1])[:1])))
    return out


def test_random_playouts_with_the_full_core_checks(game):
    ended = 0
    for seed in range(20):
        history = random_playout(game.new_state(), random.Random(seed), extra=_conserved, illegal=_wrong_moves)
        final = game.new_state()
        for action in history:
            final = final.apply(action)
        assert final.is_over()
        ended += final.outcome().rule == "mongoose/end/forfeit"
    assert ended > 0  # forfeits are offered all through the endgame (the simulated table plays games out)


def test_two_thousand_games_at_a_simulated_table(game, table):
    """Every step: the referee's unseen cards are exactly the deck and hands of the table, all 52 cards
    are in one place each, collections are within 7 after cleanup, the state survives JSON, and the
    wrong moves the table might show are refused by check and by apply."""
    outcomes = {"mongoose/end/forfeit": 0, "mongoose/rank/categories": 0, "mongoose/rank/tiebreak": 0,
                "mongoose/end/draw": 0}
    for seed in range(2000):
        sim = table(seed, forfeit_chance=0.02)
        full = seed % 100 == 0  # now and then, the core's complete check at every step
        while sim.state.outcome() is None:
            state = sim.state
            if full:
                check_state(state, sim.illegal())
            else:
                for action in sim.illegal():
                    verdict = state.check(action)
                    assert not verdict.legal and verdict.reasons, f"seed {seed}: {action} accepted"
                    try:
                        state.apply(action)
                        raise AssertionError(f"seed {seed}: apply accepted {action}")
                    except IllegalAction as exc:
                        assert exc.verdict == verdict
            action = sim.next_action()
            assert state.check(action).legal, f"seed {seed}: the table's {action} refused: {state.check(action)}"
            sim.apply(action)
            sim.check_invariants()
            again = game.state_from_json(json.loads(json.dumps(sim.state.to_json())))
            assert again == sim.state and again.view() == sim.state.view()
        outcome = sim.state.outcome()
        outcomes[outcome.rule] += 1
        if outcome.rule != "mongoose/end/forfeit":
            assert sim.state.hands == (0, 0) and not sim.deck and sim.state.turn == 11
            better, _, _ = compare(*sim.state.collections)
            assert outcome.winners == {1: ("ann",), -1: ("bob",), 0: ()}[better]
    assert all(outcomes.values()), outcomes  # every way a game can end happened
