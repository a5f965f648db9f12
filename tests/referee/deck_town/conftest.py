"""Helpers for Deck Town tests: games, and positions written compactly.

``position(game, {"0,0": "mountain red1 blue2", "1,0": "sailor"}, hands=(4, 3))`` builds a
play-phase state with those cards and pyramids; supplies and the deck count follow from what is
on the table, so every position conserves cards and pyramids.
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee import games
from referee.games.deck_town.board import parse_cell
from referee.games.deck_town.cards import composition
from referee.games.deck_town.common import DEFAULT_COLOURS
from referee.games.deck_town.state import DeckTownState
from referee.pyramids import Pyramid


def make_game(players=("ann", "bob"), **options):
    return games.get("deck-town", players=list(players), options={k.replace("_", "-"): v for k, v in options.items()})


def position(game, board: dict[str, str], *, turn: int = 0, hands=None, discard=(), phase: str = "play",
             revealed=None) -> DeckTownState:
    n = len(game.players)
    colours = DEFAULT_COLOURS[:n]
    cards, pieces, supply = {}, {}, [[3, 3, 3] for _ in range(n)]
    for name, text in board.items():
        card, *stack = text.split()
        cell = parse_cell(name)
        cards[cell] = card
        parsed = []
        for word in stack:
            pyramid = Pyramid.parse(word)
            p = colours.index(pyramid.colour)
            parsed.append((p, pyramid.pips))
            supply[p][pyramid.pips - 1] -= 1
        if parsed:
            pieces[cell] = tuple(sorted(parsed))
    hands = tuple(hands) if hands is not None else (4,) * n
    revealed = tuple(revealed) if revealed is not None else (None,) * n
    comp = composition(game.option("deck"), game.option("fly-removal"))
    seen = Counter(cards.values()) + Counter(discard) + Counter(c for c in revealed if c)
    assert not seen - comp, f"more copies than the deck holds: {seen - comp}"
    deck = sum(comp.values()) - sum(seen.values()) - sum(hands)
    assert deck >= 0 and all(min(s) >= 0 for s in supply)
    return DeckTownState(game, colours=colours, phase=phase, turn=turn, hands=hands, numbers=(True,) * n,
                         revealed=revealed, deck=deck, discard=tuple(discard), board=cards, pieces=pieces,
                         supply=tuple(tuple(s) for s in supply))


@pytest.fixture
def two():
    """A two-player game: ann (red) and bob (yellow)."""
    return make_game()


@pytest.fixture
def covers():
    """``covers("deck-town-1.1/terms/occupy")``: the test exercises that rule, which must be in the book."""
    book = DeckTownState.rulebook(None)

    def named(*rule_ids: str) -> None:
        for rule_id in rule_ids:
            assert rule_id in book, f"{rule_id} is not in the rule book"
    return named


@pytest.fixture(name="make_game")
def make_game_fixture():
    return make_game


@pytest.fixture(name="position")
def position_fixture():
    return position
