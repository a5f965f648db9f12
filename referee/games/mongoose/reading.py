"""Reading a change at the table as the Mongoose action it shows, legal or not.

The camera sees the pool, each collection, each revealed play and the discard pile (hands and the
deck are out of sight). Every card that changed place between two views says what happened:

* cards appearing in the pool from out of sight       -> ``reveal`` (the deal or a refill)
* a card appearing in each play place                 -> ``play`` (both turned over together)
* cards arriving in collections (from pool or play)   -> ``capture``
* cards going from collections to the discard pile    -> ``discard``

A reading is offered even when the rules forbid it, with the verdict that says why ("4H went to
ann, but ... votes in two directions cancel, so it stays in the pool"). A change that mixes kinds,
or moves cards no action moves (a card from the pool to the discards, a play revealed on one side
only), is read as nothing: an empty tuple. So is a change showing a thing outside the deck (a card
vision could not name, ``?``, or a joker): it explains no move.
"""

from __future__ import annotations

from referee.game import Reading
from referee.view import View

from referee.games.mongoose.actions import Capture, Discard, Play, Reveal
from referee.games.mongoose.deck import DECK, arranged


def interpret(state, after: View) -> tuple[Reading, ...]:
    action = read(state, after)
    return () if action is None else (Reading(action, state.check(action)),)


def read(state, after: View):
    """The one action that explains the change from ``state.view()`` to ``after``, or None."""
    before = state.view()
    was, now = _places(before), _places(after)
    if was is None or now is None:
        return None
    moved = {card: (was.get(card), now.get(card)) for card in set(was) | set(now) if was.get(card) != now.get(card)}
    if not moved or not set(moved) <= DECK:
        return None
    names = state.names
    kinds = {(_kind(a), _kind(b)) for a, b in moved.values()}

    if kinds == {(None, "pool")}:
        return Reveal(arranged(moved))
    if all(to == "play" for _, to in kinds):
        plays = [after.get(f"play/{name}") for name in names]
        if all(len(p) == 1 for p in plays):
            return Play(plays[0][0], plays[1][0])
        return None
    if all(to == "collection" for _, to in kinds):
        gained = [arranged(c for c, (_, b) in moved.items() if b == f"collection/{name}") for name in names]
        return Capture(*gained)
    if kinds == {("collection", "discards")}:
        lost = [arranged(c for c, (a, _) in moved.items() if a == f"collection/{name}") for name in names]
        return Discard(*lost)
    return None


def _places(view: View) -> dict[str, str] | None:
    """card -> the place showing it; None when a card shows in two places (no reading makes sense)."""
    found: dict[str, str] = {}
    for place, cards in view.items():
        for card in cards:
            if card in found:
                return None
            found[card] = place
    return found


def _kind(place: str | None) -> str | None:
    return None if place is None else place.split("/")[0]
