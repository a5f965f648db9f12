"""Helpers for the Pouches of Destiny tests: build any position directly, and read rule ids.

``position(rule_or_edition, heap={"1,1": "3C 9H"}, at={"ann": "1,1"}, pouches={"ann": "AS 2D"})``
builds a state where ann is to act; piles are written bottom to top, ``?`` for an unseen card.
"""

from __future__ import annotations

import pytest

from referee import games
from referee.games.pouches import edition as ed


def edition_of(rule_or_edition: str) -> str:
    """``"pouches-1.9/move/uphill"`` -> ``"1.9"``; an edition passes through."""
    return rule_or_edition.split("/")[0].split("-")[-1]


def make_game(edition: str = "1.9", players=("ann", "bob"), **options):
    return games.get("pouches", edition=edition_of(edition), players=players, options=options)


def cards(text: str | list | tuple) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def position(edition: str = "1.9", heap: dict | None = None, at: dict | None = None, pouches: dict | None = None,
             players=("ann", "bob"), options: dict | None = None, phase: str = "act", ctx: dict | None = None,
             round: int = 1, turn: int = 0, first: str | None = None, direction: str = "clockwise",
             removed=None, pending=()):
    game = make_game(edition, players, **(options or {}))
    players = game.players
    data = {
        "heap": {cell: cards(pile) for cell, pile in (heap or {}).items()},
        "spots": {p: (at or {}).get(p) for p in players},
        "pouches": {p: sorted(cards((pouches or {}).get(p, ""))) for p in players},
        "removed": list(removed if removed is not None else ed.default_removed(game.edition, len(players))),
        "round": round, "first": first or players[0], "direction": direction, "turn": turn,
        "declared": False, "phase": phase, "ctx": ctx or {}, "pending": list(pending), "result": None,
    }
    return game.state_from_json(data)


def cites(verdict, rule: str) -> bool:
    return rule in verdict.rules


@pytest.fixture
def build():
    """``build(rule_or_edition, heap=..., at=..., pouches=...)``: a position, see :func:`position`."""
    return position


@pytest.fixture
def new_game():
    """``new_game(edition, players, **options)``: a configured game."""
    return make_game
