"""Capture resolution: which pool cards the two revealed plays send to which collection, and why.

Each play casts two votes (house ruling, RULINGS.md): a *pull* of the lowest pool card of the
played suit towards the player, and a *push* of the lowest pool card of the other suit of the same
colour towards the opponent. A suit whose lowest card gets votes for both players moves nowhere;
votes that agree move the card once. Only a suit's lowest card can move, and at most once a turn.
The played cards themselves always go to their players.

Seats are 0 and 1 (the game's players in order). The worked example of the rules, "you play hearts
and your opponent plays spades":

>>> pool = ["2D", "4D", "5D", "6D", "5S", "9S", "4C", "KC", "4H", "5H", "TH", "KH"]
>>> sorted(resolve(pool, ("2H", "AS")).moves.items())
[('2D', 1), ('4C', 0), ('4H', 0), ('5S', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.games.mongoose.deck import SUIT_SINGULAR, partner, suit, value

PULL, PUSH = "pull", "push"


@dataclass(frozen=True)
class Vote:
    """One play's vote for where the lowest pool card of ``suit`` goes."""

    suit: str
    to: int  # the seat the card would go to
    by: int  # the seat whose play cast the vote
    kind: str  # PULL or PUSH
    played: str  # the card that cast it


@dataclass(frozen=True)
class Resolution:
    """Everything one turn's capture does, with the votes that explain it."""

    plays: tuple[str, str]
    lowest: dict[str, str]  # suit -> its lowest card in the pool (suits with pool cards only)
    votes: dict[str, tuple[Vote, ...]]  # suit -> the votes cast on it
    moves: dict[str, int]  # pool card -> the seat it goes to

    def captured(self, seat: int) -> frozenset[str]:
        """All the cards the seat captures this turn: its own play and the pool cards sent to it."""
        return frozenset([self.plays[seat]] + [c for c, to in self.moves.items() if to == seat])

    def fate(self, card: str, names: Sequence[str]) -> tuple[str, str]:
        """(rule id, words) saying why a pool card moves where it does, or stays put."""
        s = suit(card)
        lowest = self.lowest.get(s)
        if lowest != card:
            return ("mongoose/capture/lowest",
                    f"only the lowest {SUIT_SINGULAR[s]} in the pool ({lowest}) can move")
        votes = self.votes.get(s, ())
        said = " and ".join(_vote_words(v, names) for v in votes)
        if not votes:
            return ("mongoose/capture/pull",
                    f"no one played a {SUIT_SINGULAR[s]} or a {SUIT_SINGULAR[partner(s)]}, so it is neither "
                    f"pulled nor pushed and stays in the pool")
        if card not in self.moves:
            return ("mongoose/capture/cancel",
                    f"{said}: votes in two directions cancel, so it stays in the pool")
        rule = "mongoose/capture/pull" if any(v.kind == PULL for v in votes) else "mongoose/capture/push"
        return rule, said


def resolve(pool: Iterable[str], plays: tuple[str, str]) -> Resolution:
    """Resolve the capture of a turn from the pool as it was when both plays were revealed."""
    lowest: dict[str, str] = {}
    for card in pool:
        s = suit(card)
        if s not in lowest or value(card) < value(lowest[s]):
            lowest[s] = card
    votes: dict[str, list[Vote]] = {}
    for seat, played in enumerate(plays):
        s = suit(played)
        votes.setdefault(s, []).append(Vote(s, seat, seat, PULL, played))
        votes.setdefault(partner(s), []).append(Vote(partner(s), 1 - seat, seat, PUSH, played))
    moves = {}
    for s, cast in votes.items():
        directions = {v.to for v in cast}
        if s in lowest and len(directions) == 1:
            moves[lowest[s]] = directions.pop()
    return Resolution(tuple(plays), lowest, {s: tuple(v) for s, v in votes.items()}, moves)


def _vote_words(vote: Vote, names: Sequence[str]) -> str:
    verb = "pulled" if vote.kind == PULL else "pushed"
    return f"{names[vote.by]}'s {vote.played} {verb} the lowest {SUIT_SINGULAR[vote.suit]} to {names[vote.to]}"
