"""Event sourcing: the game and its state rebuilt from a log's events alone.

The ``game`` event holds the configured game and the starting state; ``action`` events are
replayed through ``State.apply`` (so the rules check them again), ``overrule`` events apply an
action the players accepted against the rules, and ``undo`` steps back one state change. Every
other kind records a decision and leaves the state as it was.

An event that cannot be replayed (an unknown game, an action the rules refuse, an undo with
nothing to undo) raises :class:`LogError` naming it, with the good events before it in ``kept``;
:func:`replay` with ``partial=True`` returns the state those good events reach instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee import games
from referee.action import ActionParseError
from referee.game import Game, GameConfigError, State
from referee.log.events import Event, LogError
from referee.verdict import IllegalAction


@dataclass(frozen=True)
class Replayed:
    """What a log's events add up to."""

    game: Game
    state: State
    history: tuple[tuple[int, State, str], ...]  # (seq of a state change, the state before it, its notation)
    events: tuple[Event, ...]
    outcome_logged: bool  # the current state's outcome has its event already
    problem: LogError | None = None  # set by a partial replay that stopped early


def replay(events: tuple[Event, ...] | list[Event], partial: bool = False) -> Replayed:
    events = tuple(events)
    if not events or events[0].kind != "game":
        raise LogError("a playthrough log starts with its game event" + (
            f"; event {events[0].seq} is a {events[0].kind}" if events else ", and this one is empty"),
            events[0].seq if events else None)
    try:
        game, state = _start(events[0])
    except ValueError as exc:
        raise LogError(f"event {events[0].seq} (game): {exc}", events[0].seq) from None
    history: list[tuple[int, State, str]] = []
    outcome_logged = False
    for index, event in enumerate(events[1:], start=1):
        try:
            if event.kind == "game":
                raise ValueError("a second game event: one log holds one game")
            if event.kind == "action":
                before, state = state, _apply(game, state, event.payload)
                history.append((event.seq, before, _notation(game, event.payload)))
                outcome_logged = False
            elif event.kind == "overrule":
                before, state = state, _force(game, state, event.payload)
                history.append((event.seq, before, _notation(game, event.payload)))
                outcome_logged = False
            elif event.kind == "undo":
                if not history:
                    raise ValueError("an undo with no move to undo")
                state = history.pop()[1]
                outcome_logged = False
            elif event.kind == "outcome":
                outcome_logged = True
        except ValueError as exc:
            error = LogError(f"event {event.seq} ({event.kind}): {exc}", event.seq, events[:index])
            if not partial:
                raise error from None
            return Replayed(game, state, tuple(history), events[:index], outcome_logged, error)
    return Replayed(game, state, tuple(history), events, outcome_logged)


def _start(event: Event) -> tuple[Game, State]:
    data = event.payload
    if "game" not in data or "state" not in data:
        raise ValueError("the game event needs 'game' and 'state'")
    try:
        game = games.from_json(data["game"])
        return game, game.state_from_json(data["state"])
    except (GameConfigError, KeyError, TypeError) as exc:
        raise ValueError(f"cannot set up the game: {exc}") from None


def action_of(game: Game, payload: dict):
    """The action an event's payload names (its JSON form, which carries every field)."""
    try:
        return game.actions.from_json(payload.get("action"))
    except ActionParseError as exc:
        raise ValueError(str(exc)) from None


def _notation(game: Game, payload: dict) -> str:
    return str(action_of(game, payload))


def _apply(game: Game, state: State, payload: dict) -> State:
    action = action_of(game, payload)
    try:
        return state.apply(action)
    except IllegalAction as exc:
        raise ValueError(f"the rules refuse {action}: {'; '.join(map(str, exc.verdict.reasons))}") from None


def _force(game: Game, state: State, payload: dict) -> State:
    return force(state, action_of(game, payload))


def force(state: State, action) -> State:
    """The state after an action the players accept even though the rules refuse it.

    Legal actions go through ``apply`` as usual; an illegal one goes to the game's ``_apply``
    directly. When even that cannot play it (the rules engine has no way to represent the result),
    the overrule is refused with a ValueError saying so.
    """
    if state.check(action).legal:
        return state.apply(action)
    try:
        after = state._apply(action)
    except Exception as exc:  # a game's _apply assumes legality; any failure means it cannot be played
        raise ValueError(f"{action} cannot be played even by agreement: {type(exc).__name__}: {exc}") from None
    if not isinstance(after, State):  # some engines answer an unplayable action with nothing
        raise ValueError(f"{action} cannot be played even by agreement: the rules engine has no result for it")
    return after
