"""Helpers for the Mongoose tests: a configured game, positions built from what the table shows,
and a simulated table that knows the hidden cards and feeds the referee what a camera would see."""

from __future__ import annotations

import random

import pytest

from referee.game import configure
from referee.games.mongoose import GAME_TYPE, STATE
from referee.games.mongoose.actions import Capture, Discard, Forfeit, Play, Reveal
from referee.games.mongoose.deck import DECK

PLAYERS = ("ann", "bob")


def make_game():
    # built from the module itself, so these tests do not depend on the other games' modules
    return configure(GAME_TYPE, None, list(PLAYERS), None, STATE)


@pytest.fixture
def game():
    return make_game()


def build_position(game, pool, ann=(), bob=(), discards=(), phase="play", turn=1, hands=(5, 5),
                   plays=(None, None), due=0):
    """A state built from what the table shows: ``position("2D 4D", ann="QH")``."""
    split = lambda cards: cards.split() if isinstance(cards, str) else list(cards)  # noqa: E731
    return game.state_from_json({
        "phase": phase, "turn": turn, "due": due, "pool": split(pool), "discards": split(discards),
        "collections": {"ann": split(ann), "bob": split(bob)}, "hands": {"ann": hands[0], "bob": hands[1]},
        "plays": {"ann": plays[0], "bob": plays[1]}, "forfeit": None})


class Table:
    """A simulated table: a shuffled deck and the real hands. It deals, plays, moves captures and
    discards like two (random) players would, and reports each step to the referee as an action;
    the referee only ever sees what the table shows."""

    def __init__(self, game, rng: random.Random, forfeit_chance: float = 0.0):
        self.rng, self.forfeit_chance = rng, forfeit_chance
        self.deck = sorted(DECK)
        rng.shuffle(self.deck)
        self.hands = [{self.deck.pop() for _ in range(5)} for _ in PLAYERS]
        self.state = game.new_state()

    def next_action(self):
        state, rng = self.state, self.rng
        if state.phase == "reveal":
            count = state.due if rng.random() < 0.5 else 1  # the camera sees them all at once, or one by one
            return Reveal(tuple(self.deck[-count:]))
        if state.endgame and rng.random() < self.forfeit_chance:
            return Forfeit(rng.choice(PLAYERS))
        if state.phase == "play":
            return Play(*(rng.choice(sorted(hand)) for hand in self.hands))
        if state.phase == "capture":
            return next(a for a in state.legal_actions() if isinstance(a, Capture))
        parts = [(), ()]
        pending = [seat for seat in (0, 1) if state.excess(seat)]
        for seat in pending if rng.random() < 0.5 else pending[:1]:
            parts[seat] = tuple(rng.sample(sorted(state.collections[seat]), state.excess(seat)))
        return Discard(*parts)

    def apply(self, action):
        """Play ``action`` at the table and at the referee; returns the referee's new state."""
        if isinstance(action, Reveal):
            del self.deck[-len(action.cards):]
        elif isinstance(action, Play):
            self.hands[0].discard(action.first)
            self.hands[1].discard(action.second)
        self.state = self.state.apply(action)
        while len(self.hands[0]) < self.state.hands[0]:  # a refill: one card face down to each hand
            for hand in self.hands:
                hand.add(self.deck.pop())
        return self.state

    def illegal(self):
        """Actions the table might wrongly show now, each of which the referee must refuse."""
        state, out = self.state, []
        shown = sorted(state.pool | state.collections[0] | state.collections[1] | state.discards)
        hidden = sorted(self.hands[0] | self.hands[1])
        if shown and hidden:
            out.append(Play(shown[0], hidden[0]))
        if state.phase == "play" and hidden:
            out.append(Reveal((hidden[0],)))  # out of order: the pool is full
        if shown:
            out.append(Reveal((shown[-1],)))
        if not state.endgame:
            out.append(Forfeit("ann"))
        if state.phase == "capture":
            right = next(a for a in state.legal_actions() if isinstance(a, Capture))
            out.append(Capture(right.second, right.first))
        if state.phase == "cleanup":
            seat = 0 if state.excess(0) else 1
            cards = sorted(state.collections[seat])
            too_many = tuple(cards[: state.excess(seat) + 1])
            out.append(Discard(too_many, ()) if seat == 0 else Discard((), too_many))
        return out

    def check_invariants(self):
        """What the table holds and what the referee knows agree, and no card is lost or doubled."""
        state = self.state
        hidden = set(self.deck) | self.hands[0] | self.hands[1]
        assert state.unseen == hidden, "the referee's unseen cards are the deck and the hands"
        assert state.hands == (len(self.hands[0]), len(self.hands[1]))
        places = [state.pool, state.collections[0], state.collections[1], state.discards, state.unseen,
                  {c for c in state.plays if c}]
        assert sum(map(len, places)) == 52 and set().union(*places) == DECK, "all 52 cards, each in one place"
        assert state.deck_count == len(self.deck) >= 0
        if state.phase in ("play", "reveal", "over") and state.forfeit is None:
            assert all(len(c) <= 7 for c in state.collections), "collections are within 7 after cleanup"


@pytest.fixture
def position(game):
    """Build a state from what the table shows: ``position("2D 4D 5S", ann="QH", bob="2C")``."""
    return lambda *args, **kwargs: build_position(game, *args, **kwargs)


@pytest.fixture
def table(game):
    """A simulated table for a seed: ``table(seed, forfeit_chance=0.05)``."""
    return lambda seed, forfeit_chance=0.0: Table(game, random.Random(seed), forfeit_chance)
