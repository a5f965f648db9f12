"""Where the two editions differ, in one place.

- deck: 1.9 removes three Kings and, by player count, Aces, 2s and a 3; 1.3 uses all 52 cards.
- heap: 1.9 deals 3x3 piles; 1.3 deals 5x5 piles.
- win: 1.9 checks at once after every action and fight; 1.3 when a round has finished.
- turns with 3+ players: 1.9 keeps a chosen first player and direction until the table declares
  anew; in 1.3 the start moves clockwise each round, and play within rounds goes clockwise, then
  anticlockwise once everyone has started a round, and so on.
- fights: 1.9 on arrival, not when swooshing past, asking the arriving marsupial (else the one to
  act) first; 1.3 wherever devils meet, however fleetingly, asking in the round's turn order.
- discards: 1.9 may bury a card, and buries one that would raise an occupant by more than 4; 1.3
  never buries.
- options: 1.9's Advanced Rules (private pouches, steeper hills, relaxation); 1.3's simultaneous win.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import standard_deck

# 1.9's removals after three Kings, by player count (rank -> how many go).
REMOVALS = {2: {"A": 3, "2": 2, "3": 1}, 3: {"A": 2, "2": 1}, 4: {"A": 1}, 5: {}}
# The cards removed when the table does not say which: suits dropped in this order, Spades kept longest.
_SUIT_ORDER = "CDHS"


@dataclass(frozen=True)
class Rules:
    """The edition-dependent facts the state machine consults."""

    edition: str
    side: int  # piles per side of the starting heap
    burying: bool
    win_at_once: bool  # 1.9: at once; 1.3: at the end of the round
    fleeting_fights: bool  # 1.3: passing through a location counts
    declare: bool  # the table may declare a new first player and direction

    def rule(self, name: str) -> str:
        return f"pouches-{self.edition}/{name}"


EDITIONS = {
    "1.9": Rules("1.9", 3, burying=True, win_at_once=True, fleeting_fights=False, declare=True),
    "1.3": Rules("1.3", 5, burying=False, win_at_once=False, fleeting_fights=True, declare=False),
}


def default_removed(edition: str, players: int) -> tuple[str, ...]:
    """The cards 1.9 takes out when the table does not name them (Clubs first, then Diamonds, ...)."""
    if edition != "1.9":
        return ()
    counts = {"K": 3} | REMOVALS[players]
    return tuple(rank + suit for rank, count in counts.items() for suit in _SUIT_ORDER[:count])


def removal_problem(edition: str, players: int, removed: tuple[str, ...]) -> str | None:
    """Why ``removed`` is not what the edition takes out for this many players (None if it is)."""
    deck = set(standard_deck())
    unknown = [c for c in removed if c not in deck]
    if unknown:
        return f"{', '.join(unknown)} are not standard card ids"
    if len(set(removed)) != len(removed):
        return "a card is removed twice"
    want = {"K": 3} | REMOVALS[players] if edition == "1.9" else {}
    got: dict[str, int] = {}
    for card in removed:
        got[card[0]] = got.get(card[0], 0) + 1
    if got != want:
        expect = ", ".join(f"{n} x {r}" for r, n in want.items()) or "nothing"
        return f"{edition} with {players} players removes {expect}; got {', '.join(removed) or 'nothing'}"
    return None


def deal_sizes(cards: int, side: int) -> dict[tuple[int, int], int]:
    """Pile sizes when the cards are dealt round the grid row by row (the default deal)."""
    cells = [(c, r) for r in range(side) for c in range(side)]
    return {cell: cards // len(cells) + (1 if i < cards % len(cells) else 0) for i, cell in enumerate(cells)}


def round_order(seats: tuple[str, ...], first: str, clockwise: bool) -> tuple[str, ...]:
    """Seats are listed clockwise; the round starts with ``first`` and goes the given way."""
    n, start = len(seats), seats.index(first)
    step = 1 if clockwise else -1
    return tuple(seats[(start + step * k) % n] for k in range(n))


def greedy_devils_order(seats: tuple[str, ...], first: str, round_number: int) -> tuple[str, ...]:
    """1.3: the start moves one seat clockwise each round; within a round play goes clockwise for the
    first cycle of starts, anticlockwise for the next, and so on.

    >>> greedy_devils_order(("a", "b", "c"), "a", 1), greedy_devils_order(("a", "b", "c"), "a", 4)
    (('a', 'b', 'c'), ('a', 'c', 'b'))
    """
    n = len(seats)
    starter = seats[(seats.index(first) + round_number - 1) % n]
    clockwise = ((round_number - 1) // n) % 2 == 0
    return round_order(seats, starter, clockwise)


def relief(round_number: int) -> tuple[int, int]:
    """Relaxation (1.9 Advanced Rules): (height relief, food relief) in force in this round.

    After 10 rounds without a winner the height drops by 1; 3 rounds later one food fewer is needed;
    3 rounds later the height drops again; and so on, alternating.

    >>> [relief(r) for r in (10, 11, 13, 14, 17, 20)]
    [(0, 0), (1, 0), (1, 0), (1, 1), (2, 1), (2, 2)]
    """
    if round_number <= 10:
        return 0, 0
    steps = 1 + (round_number - 11) // 3
    return (steps + 1) // 2, steps // 2
