"""Random play-outs that check the invariants every game must keep (after OpenSpiel's tests).

``random_playout(state, rng)`` plays random legal actions (at chance nodes, random outcomes the
table could show) until the game ends or ``max_actions`` is reached, checking at every step:

* the state survives a JSON round trip (through text) unchanged, and so does its view;
* every legal action is accepted by ``check``, and round-trips through notation and JSON;
* a finished game has no one to move and no legal actions; an unfinished one has some;
* ``apply`` refuses what ``check`` rejects (for the illegal actions the caller supplies);
* any extra invariant the game's tests pass in (cards conserved, pips conserved...).

A failure raises :class:`InvariantBroken` naming the step and the action history, so the
play-out can be replayed by hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable

from referee.action import Action
from referee.game import State
from referee.verdict import IllegalAction
from referee.view import View


class InvariantBroken(AssertionError):
    pass


def random_playout(state: State, rng: random.Random, max_actions: int = 500,
                   extra: Callable[[State], None] | None = None,
                   illegal: Callable[[State], Iterable[Action]] | None = None) -> list[Action]:
    """Play random legal actions from ``state``; returns the actions played."""
    history: list[Action] = []
    while True:
        try:
            legal = check_state(state, illegal(state) if illegal else ())
            if extra:
                extra(state)
        except AssertionError as exc:
            played = "; ".join(map(str, history)) or "none"
            raise InvariantBroken(f"after {len(history)} actions ({played}): {exc}") from exc
        if not legal or len(history) >= max_actions:
            return history
        action = rng.choice(legal)
        state = state.apply(action)
        history.append(action)


def check_state(state: State, illegal: Iterable[Action] = ()) -> list[Action]:
    """Check one state's invariants; returns its legal actions."""
    game = state.game
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    _expect(again == state, f"state changed in a JSON round trip:\n{state.to_json()}\n{again.to_json()}")
    view = state.view()
    _expect(View.from_json(json.loads(json.dumps(view.to_json()))) == view, "view changed in a JSON round trip")

    legal = list(state.legal_actions())
    codec = game.actions
    for action in legal:
        verdict = state.check(action)
        _expect(verdict.legal, f"legal_actions offered {action}, but check says {verdict}")
        _expect(codec.parse(str(action)) == action, f"notation {str(action)!r} does not parse back to {action!r}")
        _expect(codec.from_json(json.loads(json.dumps(action.to_json()))) == action,
                f"{action} changed in a JSON round trip")
    over = state.outcome() is not None
    _expect(over == (state.to_move is None), f"outcome {state.outcome()} but to_move is {state.to_move!r}")
    _expect(not over or not legal, f"the game is over but {len(legal)} actions are offered")
    _expect(over or legal, "the game is not over but no action is legal")

    for action in illegal:
        verdict = state.check(action)
        if verdict.legal:
            continue
        _expect(bool(verdict.reasons), f"illegal {action} has no reason")
        try:
            state.apply(action)
        except IllegalAction as exc:
            _expect(exc.verdict == verdict, f"apply and check disagree about {action}")
        except Exception as exc:
            raise AssertionError(f"apply accepted {action}, which check rejects, and failed: {exc!r}") from exc
        else:
            raise AssertionError(f"apply accepted {action}, which check rejects: {verdict}")
    return legal


def _expect(condition: object, message: str) -> None:
    if not condition:
        raise AssertionError(message)
