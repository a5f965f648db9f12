"""Helpers for the Pungo tests: configured games, hand-built positions, and turn-by-turn play."""

from __future__ import annotations

import random

import pytest

from referee import games
from referee.dice import Die
from referee.games.pungo import rolling
from referee.games.pungo.layout import size

PLAYERS = ("ann", "bob")

# The variants of the rules text, each played 1,000 times; "rulings" is the house rulings' other choices.
VARIANTS = {
    "standard": {},
    "averaging": {"points": "averaging"},
    "decision": {"order": "decision"},
    "chaos": {"roll": "chaos"},
    "pyramid-die": {"die": "pyramid"},
    "three-colours": {"colours": 3},
    "rulings": {"arena": "4x3", "roll-grid": "3x4", "unspendable": "pass"},
}


def make(**options):
    return games.get("pungo", players=list(PLAYERS), options=options)


@pytest.fixture
def game():
    return make()


def position(game, board: dict[str, str], points: int | None = None, *, seat: int = 0, phase: str = "move",
             face: int | str = 1, die: list[str] | None = None, nominal: int | None = None, spent: int = 0,
             frozen: tuple[str, ...] = (), square: str | None = "r2c2", previous: str | None = None):
    """A state built from its parts (through JSON, as a saved game would be)."""
    if die is None:
        if game.option("die") == "d6":
            die = [str(d) for d in Die.orientations(int(face))]
        else:
            die = [str(c) for c in rolling.showing("pyramid", str(face))]
    data = {"board": board, "frozen": list(frozen), "seat": seat, "phase": phase, "die": die, "square": square,
            "previous": previous, "points": points or 0, "nominal": nominal if nominal is not None else (points or 0),
            "spent": spent, "outcome": None}
    return game.state_from_json(data)


def pyramids(state) -> list[str]:
    return sorted(p for stack in state.board for p in stack)


def play_turn(state, rng: random.Random):
    """Play one whole turn of random legal actions; returns the state after it."""
    seat, decision = state.seat, state.config.decision
    while not state.is_over():
        state = state.apply(rng.choice(list(state.legal_actions())))
        if state.is_over():
            break
        if decision and state.phase == "move" and state.seat != seat:
            break
        if not decision and state.phase == "roll":
            break
    return state


def turn_start(state) -> bool:
    """Whether a whole turn starts here (what the camera compares: before and after a turn)."""
    if state.config.decision:
        return state.phase == "move" and state.spent == 0
    return state.phase == "roll" or (state.phase == "move" and state.spent == 0 and state._is_first_turn())


def landed_on_smaller(before, after) -> list[str]:
    """Cells where a pyramid now stands directly on a smaller one that was not under it before."""
    bad = []
    for cell, (old, new) in enumerate(zip(before.board, after.board)):
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        if 0 < keep < len(new) and size(new[keep]) > size(new[keep - 1]):
            bad.append(before.config.arena.name(cell))
    return bad


class Helpers:
    """The helpers above, handed to tests as the ``pg`` fixture (test modules cannot import conftest)."""

    PLAYERS = PLAYERS
    VARIANTS = VARIANTS
    make = staticmethod(make)
    position = staticmethod(position)
    pyramids = staticmethod(pyramids)
    play_turn = staticmethod(play_turn)
    turn_start = staticmethod(turn_start)
    landed_on_smaller = staticmethod(landed_on_smaller)


@pytest.fixture(scope="session")
def pg():
    return Helpers


def pytest_generate_tests(metafunc):
    if "variant" in metafunc.fixturenames:
        metafunc.parametrize("variant", list(VARIANTS))
