"""Mongoose's actions, in the order a turn uses them.

Two-sided actions list the first player's part, then the second's (the game's seat order); ``-``
is an empty part. Notation, as a playthrough file writes it::

    reveal 2D,4D,5D,6D,5S,9S,4C,KC,4H,5H,TH,KH   the table shows pool cards (chance)
    play 2H AS                                    both plays revealed together (joint action)
    capture 2H,4H,4C 5S,AS,2D                     what each collection receives (played card included)
    discard 4C -                                  cleanup: the first player discards 4C
    forfeit bob                                   bob gives up (endgame only)
"""

# Annotations stay real types (no `from __future__ import annotations`): the codec reads them with
# typing.get_type_hints on every parse, and string annotations would be compiled each time.
from dataclasses import dataclass

from referee.action import Action


@dataclass(frozen=True)
class Reveal(Action):
    """The table turns pool cards face up (the deal, a refill): observed, never drawn by the referee.

    ``legal_actions`` offers one card at a time; the table may show several at once, which is the
    same as showing them one by one."""

    kind = "reveal"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Play(Action):
    """Both players' cards, played face down and turned over together: one joint action."""

    kind = "play"
    first: str
    second: str


@dataclass(frozen=True)
class Capture(Action):
    """The cards each player takes into their collection this turn, played card included."""

    kind = "capture"
    first: tuple[str, ...]
    second: tuple[str, ...]


@dataclass(frozen=True)
class Discard(Action):
    """Cleanup: cards each player puts on the discard pile to get back to 7.

    Either part may be empty: the players may discard one after the other, in any order, or
    together. ``legal_actions`` offers one player's discard at a time."""

    kind = "discard"
    first: tuple[str, ...]
    second: tuple[str, ...]


@dataclass(frozen=True)
class Forfeit(Action):
    """A player gives up the game (allowed during the endgame only)."""

    kind = "forfeit"
    player: str


ACTIONS = (Reveal, Play, Capture, Discard, Forfeit)
