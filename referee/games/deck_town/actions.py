"""Deck Town's actions: the table's reports (deal), the joint opening reveal, and the turn actions.

Cells are written ``x,y``; pyramids by colour and pips (``blue2``); cards by their Decktet id.

    deal yes,no                     the table dealt a round; who now holds a number card (seat order)
    reveal mountain,sailor          every player's chosen number card, revealed at once (seat order)
    hatch ann mountain 0,0          build a card and put a one-pip pyramid on it
    draw ann                        draw three cards
    grow ann 0,1 1                  swap ann's one-pip pyramid on 0,1 for a two-pip one
    spawn ann 0,1                   add a one-pip pyramid to a card ann occupies
    build ann sailor 1,1            add a number card next to a card ann controls
    move ann 0,1 2 0,2              move ann's two-pip pyramid from 0,1 to 0,2
    fly ann ace-moons 0,1 5,0 -     spend an Ace to fly the card on 0,1 to 5,0 (last: evicted pyramid)
    remove ann ace-moons 0,1        (fly-removal variant) spend a matching Ace to take an empty card away
    attack ann 0,1 blue2 sea no 1   attack blue's two-pip pyramid on 0,1 spending the Sea; no
                                    replacement; draw one card for the unused pip
    discard ann sea                 one card discarded down to the hand limit at the end of the turn
"""

# no `from __future__ import annotations`: real annotations keep the codec's type lookups cheap
from dataclasses import dataclass

from referee.action import Action


@dataclass(frozen=True)
class Deal(Action):
    """Chance: a round was dealt (three each at first, then one each); the table reports, per player
    in seat order, whether they now hold at least one number card."""

    kind = "deal"
    numbers: tuple[bool, ...]


@dataclass(frozen=True)
class Reveal(Action):
    """The simultaneous reveal: every player's chosen number card, in seat order (one joint action)."""

    kind = "reveal"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Hatch(Action):
    kind = "hatch"
    player: str
    card: str
    at: str


@dataclass(frozen=True)
class Draw(Action):
    kind = "draw"
    player: str


@dataclass(frozen=True)
class Grow(Action):
    kind = "grow"
    player: str
    at: str
    size: int


@dataclass(frozen=True)
class Spawn(Action):
    kind = "spawn"
    player: str
    at: str


@dataclass(frozen=True)
class Build(Action):
    kind = "build"
    player: str
    card: str
    at: str


@dataclass(frozen=True)
class Move(Action):
    kind = "move"
    player: str
    at: str
    size: int
    to: str


@dataclass(frozen=True)
class Fly(Action):
    kind = "fly"
    player: str
    ace: str
    at: str
    to: str
    evict: str | None = None  # fly-eviction variant: one resident pyramid (``blue2``) falls off


@dataclass(frozen=True)
class Remove(Action):
    kind = "remove"
    player: str
    ace: str
    at: str


@dataclass(frozen=True)
class Attack(Action):
    kind = "attack"
    player: str
    at: str
    target: str  # the attacked pyramid, colour and pips: ``blue2``
    spent: tuple[str, ...]
    replace: bool = False  # put a pyramid of the same size from your supply in its place
    draw: int = 0  # cards drawn for unused pips


@dataclass(frozen=True)
class Discard(Action):
    kind = "discard"
    player: str
    card: str


ACTIONS = (Deal, Reveal, Hatch, Draw, Grow, Spawn, Build, Move, Fly, Remove, Attack, Discard)
TURN_ACTIONS = (Hatch, Draw, Grow, Spawn, Build, Move, Fly, Remove, Attack)
