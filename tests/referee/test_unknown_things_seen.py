"""A view holding a thing vision could not name (``?``), or one from outside the game (a joker, a
pyramid of nine pips), is read without a crash by every game, and no legal move is made of it.

Found in a seeded Mongoose trial (bench.trials, seed 7): a card read as unknown on the pool raised
a KeyError inside Mongoose's reading and stopped the demo runner; Deck Town raised a ValueError the
same way on its board."""

from __future__ import annotations

import pytest

from referee.playthrough import replay
from referee.view import View
from vision.synth.demo import DEMO_GAMES, demo_playthrough

STRANGE = ("?", "joker", "red9", "blob+red1")


@pytest.mark.parametrize("game", DEMO_GAMES)
def test_every_game_reads_a_view_with_an_unknown_thing_without_a_crash_and_makes_no_move_of_it(game):
    states = replay(demo_playthrough(game)).states
    tried = 0
    for state in states[::4]:
        view = state.view()
        for place in sorted(set(view) | {"pool", "play/ann", "discard", "heap/0,0", "arena/r1c1"}):
            for thing in STRANGE:
                seen = View({**view, place: (*view.get(place), thing)})
                readings = state.interpret(seen)
                tried += 1
                assert all(thing not in str(r.action) for r in readings if r.verdict.legal), (place, thing, readings)
    assert tried > 100
