"""The actions of Pouches of Destiny and Greedy Devils, with a notation players can read.

Cells are ``c,r``; a path of cells is joined by ``>``::

    reveal heap/1,2 7C          the table shows the card turned up (or dug up: reveal pouch/ann 7C)
    enter ann -1,0              ann puts her token beside the heap at the start
    order bob anticlockwise     the table declares a new first player and direction (1.9, 3+ players)
    move ann 1,2                one step (NESW, or diagonally round a corner on bedrock)
    move ann 1,2>1,3>1,4        a swoosh along ever lower cells
    stay ann                    stay where you are / do nothing
    pick ann 1,2                pick your own top card, or dig beneath a higher neighbour's top
    done ann                    no second pick (with a Spade)
    discard ann 7C drop         onto your own spot
    discard ann 7C bury 2,2     beneath a higher neighbour's top card (1.9)
    discard ann 7C throw 2,2>2,3            thrown to a neighbour, sliding on
    discard ann 7C throw 3,3 under 2,3      lands on an occupied bedrock spot too high: buried beside
    fight ann bob / decline ann             initiate a fight, or let the chance go
    weapons ann:KS,bob:7H                   the weapons revealed together (one joint action)
    take ann 4H                             the winner's spoils from the loser's pouch

>>> from referee.action import ActionCodec
>>> codec = ActionCodec(ACTIONS)
>>> str(codec.parse("discard ann 7C throw 3,3 under 2,3"))
'discard ann 7C throw 3,3 under 2,3'
>>> codec.parse("discard ann 7C drop").to_json()
{'kind': 'discard', 'player': 'ann', 'card': '7C', 'how': 'drop', 'to': '', 'under': ''}
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.action import Action, ActionParseError

DIRECTIONS = ("clockwise", "anticlockwise")
DISCARD_WAYS = ("drop", "throw", "bury")


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the table shows the card at ``place`` (a pile's new top, or a card dug into a pouch)."""

    kind = "reveal"
    place: str
    card: str


@dataclass(frozen=True)
class Enter(Action):
    kind = "enter"
    player: str
    cell: str


@dataclass(frozen=True)
class Declare(Action):
    """At the start of a round the table may name a new first player and direction (1.9)."""

    kind = "order"
    first: str
    direction: str


@dataclass(frozen=True)
class Move(Action):
    kind = "move"
    player: str
    path: str


@dataclass(frozen=True)
class Stay(Action):
    kind = "stay"
    player: str


@dataclass(frozen=True)
class Pick(Action):
    kind = "pick"
    player: str
    cell: str


@dataclass(frozen=True)
class Done(Action):
    """Decline the second pick a Spade allows."""

    kind = "done"
    player: str


@dataclass(frozen=True)
class Discard(Action):
    """``how`` is drop (own spot), throw (``to`` is the path) or bury (``to`` is the higher neighbour).
    ``under`` names the pile a thrown card is buried beneath when it lands on an occupied bedrock spot."""

    kind = "discard"
    player: str
    card: str
    how: str
    to: str = ""
    under: str = ""

    def notation(self) -> str:
        words = ["discard", self.player, self.card, self.how]
        if self.to:
            words.append(self.to)
        if self.under:
            words += ["under", self.under]
        return " ".join(words)

    @classmethod
    def parse_words(cls, words: list[str]) -> Discard:
        usage = "discard <player> <card> drop | bury <cell> | throw <path> [under <cell>]"
        if len(words) < 3:
            raise ActionParseError(f"'discard' needs a player, a card and a way: {usage}")
        player, card, how, rest = words[0], words[1], words[2], words[3:]
        if how == "drop" and not rest:
            return cls(player, card, how)
        if how == "bury" and len(rest) == 1:
            return cls(player, card, how, rest[0])
        if how == "throw" and len(rest) == 1:
            return cls(player, card, how, rest[0])
        if how == "throw" and len(rest) == 3 and rest[1] == "under":
            return cls(player, card, how, rest[0], rest[2])
        raise ActionParseError(f"cannot read discard {' '.join(words)!r}: {usage}")


@dataclass(frozen=True)
class Fight(Action):
    kind = "fight"
    player: str
    opponent: str


@dataclass(frozen=True)
class Decline(Action):
    kind = "decline"
    player: str


@dataclass(frozen=True)
class Weapons(Action):
    """The two secretly chosen weapons, revealed together: ``("ann:KS", "bob:7H")``."""

    kind = "weapons"
    choices: tuple[str, ...]

    def chosen(self) -> dict[str, str]:
        out = {}
        for entry in self.choices:
            player, sep, card = entry.partition(":")
            if not sep or not player or not card:
                raise ValueError(f"{entry!r} is not player:card")
            out[player] = card
        return out


@dataclass(frozen=True)
class Take(Action):
    kind = "take"
    player: str
    card: str


@dataclass(frozen=True)
class Show(Action):
    """Private Pouches: the table shows a winner's pouch; the win stands once it is the pouch the
    referee followed (``show ann 2H,3D,4C,5S,AS``)."""

    kind = "show"
    player: str
    cards: tuple[str, ...]


ACTIONS = (Reveal, Enter, Declare, Move, Stay, Pick, Done, Discard, Fight, Decline, Weapons, Take, Show)
