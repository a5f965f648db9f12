"""The rules of Pouches of Destiny 1.9 and Greedy Devils 1.3 as one immutable state machine.

A state is a *phase* plus what the table holds. Decisions wait on one player (or, for the weapons
of a fight, on both fighters at once: one joint action); ``pending`` reveals wait on the table,
which reports each card turned up (``to_move`` is CHANCE). Automatic steps (settling an action,
building the fight consultations, ending a turn or a round, checking the win) run inside ``_apply``
until the next decision::

    enter -> act -> [pick2] -> [overflow] -> consult <-> weapons -> fdiscard -> [take] -> [overflow]
                 \\_______________________________________________/ -> next turn / round

The referee never draws: a face-down card stays ``"?"`` until the table shows it, and every card of
the edition's deck is always in exactly one place (a pile, a pouch, a fighter's hand) or still
unseen under some pile.

This module holds the position itself (setup, what it says about heights, limits and the win, JSON);
the rules are mixed in from ``legal`` (listing actions), ``checks`` (verdicts) and ``flow`` (applying
an action and the automatic steps).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from referee.cards import standard_deck
from referee.game import CHANCE, Game, GameConfigError, Outcome, State
from referee.games.pouches import edition as ed
from referee.games.pouches.actions import ACTIONS, DIRECTIONS
from referee.games.pouches.checks import Checks
from referee.games.pouches.flow import Flow
from referee.games.pouches.heap import HEIGHT, UNKNOWN, BadCell, Cell, cell_text, height, is_beside, parse_cell
from referee.games.pouches.legal import LegalActions
from referee.rules import RuleBook
from referee.verdict import Reason
from referee.view import View

DECISIONS = ("enter", "act", "pick2", "overflow", "consult", "weapons", "fdiscard", "take", "show")
# steps the machine runs by itself; a state rests in one only while the table has a card to show
AUTOMATIC = ("picked", "acted", "acted-settled", "fought", "fight-settled")
_BOOKS: dict[str, RuleBook] = {}


def _plain(value: Any) -> Any:
    """JSON-ready copy: tuples become lists (states compare by their JSON)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    """The inverse of :func:`_plain` for context values: lists become tuples."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


class PouchesState(LegalActions, Checks, Flow, State):
    ACTIONS = ACTIONS

    def __init__(self, game: Game, *, heap: dict[Cell, tuple[str, ...]], spots: dict[str, Cell | None],
                 pouches: dict[str, tuple[str, ...]], removed: tuple[str, ...], round: int, first: str,
                 clockwise: bool, turn: int, declared: bool, phase: str, ctx: dict, pending: tuple[str, ...],
                 result: dict | None):
        super().__init__(game)
        self.heap, self.spots, self.pouches, self.removed = heap, spots, pouches, removed
        self.round, self.first, self.clockwise, self.turn, self.declared = round, first, clockwise, turn, declared
        self.phase, self.ctx, self.pending, self.result = phase, ctx, pending, result
        self.rules = ed.EDITIONS[game.edition]

    # ------------------------------------------------------------------ setup
    @classmethod
    def initial(cls, game: Game, setup: Any) -> PouchesState:
        """``setup`` (all keys optional): ``removed`` (1.9: the cards taken out), ``sizes`` (cell ->
        cards dealt there; default: dealt round the grid row by row), ``tops`` (cell -> face-up card,
        skipping the table's reveals), ``spots`` (player -> starting cell), ``first`` (the player
        picked to start) and ``direction`` (clockwise or anticlockwise)."""
        setup = dict(setup or {})
        unknown = sorted(set(setup) - {"removed", "sizes", "tops", "spots", "first", "direction"})
        if unknown:
            raise GameConfigError(f"unknown setup keys {unknown}: use removed, sizes, tops, spots, first, direction")
        rules, players = ed.EDITIONS[game.edition], game.players
        removed = tuple(setup.get("removed", ed.default_removed(game.edition, len(players))))
        problem = ed.removal_problem(game.edition, len(players), removed)
        if problem:
            raise GameConfigError(f"bad setup: {problem}")
        deck_size = 52 - len(removed)
        grid = [(c, r) for r in range(rules.side) for c in range(rules.side)]
        if "sizes" in setup:
            sizes = {_setup_cell(k): v for k, v in dict(setup["sizes"]).items()}
            if set(sizes) != set(grid) or not all(isinstance(v, int) and v >= 1 for v in sizes.values()):
                raise GameConfigError(f"bad setup: sizes must give every cell of the {rules.side}x{rules.side} "
                                      "grid at least one card")
            if sum(sizes.values()) != deck_size:
                raise GameConfigError(f"bad setup: the piles hold {sum(sizes.values())} cards, the deck {deck_size}")
        else:
            sizes = ed.deal_sizes(deck_size, rules.side)
        heap = {cell: (UNKNOWN,) * sizes[cell] for cell in grid}
        deck = set(standard_deck()) - set(removed)
        seen: set[str] = set()
        for key, card in dict(setup.get("tops", {})).items():
            cell = _setup_cell(key)
            if cell not in heap:
                raise GameConfigError(f"bad setup: {key} is not a cell of the starting heap")
            if card not in deck or card in seen:
                raise GameConfigError(f"bad setup: top {card!r} at {key} is not an unseen card of this deck")
            seen.add(card)
            heap[cell] = heap[cell][:-1] + (card,)
        pending = tuple(f"heap/{cell_text(c)}" for c in grid if heap[c][-1] == UNKNOWN)
        first = setup.get("first", players[0])
        if first not in players:
            raise GameConfigError(f"bad setup: first player {first!r} is not one of {', '.join(players)}")
        direction = setup.get("direction", "clockwise")
        if direction not in DIRECTIONS:
            raise GameConfigError(f"bad setup: direction is clockwise or anticlockwise, not {direction!r}")
        spots: dict[str, Cell | None] = {p: None for p in players}
        for player, key in dict(setup.get("spots", {})).items():
            if player not in spots:
                raise GameConfigError(f"bad setup: {player!r} is not a player")
            cell = _setup_cell(key)
            if not is_beside(heap, cell):
                raise GameConfigError(f"bad setup: {player} must start on bedrock beside the heap, not at {key}")
            spots[player] = cell
        state = cls(game, heap=heap, spots=spots, pouches={p: () for p in players}, removed=removed, round=1,
                    first=first, clockwise=direction == "clockwise", turn=0, declared=False,
                    phase="enter", ctx={}, pending=pending, result=None)
        return state._advance()

    @classmethod
    def rulebook(cls, game: Game) -> RuleBook:
        name = f"pouches-{game.edition}"
        if name not in _BOOKS:
            _BOOKS[name] = RuleBook.load(name)
        return _BOOKS[name]

    # ------------------------------------------------------------------ reading the state
    def r(self, name: str, text: str) -> Reason:
        """A reason citing this edition's rule ``name`` (``move/uphill`` -> ``pouches-1.9/move/uphill``)."""
        return self.reason(self.rules.rule(name), text)

    @property
    def order(self) -> tuple[str, ...]:
        """This round's turn order."""
        if self.game.edition == "1.3":
            return ed.greedy_devils_order(self.game.players, self.first, self.round)
        return ed.round_order(self.game.players, self.first, self.clockwise)

    @property
    def current(self) -> str:
        """The player whose turn it is."""
        return self.order[min(self.turn, len(self.game.players) - 1)]

    @property
    def to_move(self) -> str | None:
        if self.result is not None:
            return None
        if self.pending:
            return CHANCE
        phase = self.phase
        if phase == "enter":
            return next(p for p in self.order if self.spots[p] is None)
        if phase == "act":
            return self.current
        if phase in ("pick2", "overflow"):
            return self.ctx["who"]
        if phase == "consult":
            return self.ctx["asking"]
        if phase == "weapons":
            return self.ctx["fight"][0]
        if phase == "fdiscard":
            return self.ctx["queue"][0][0]
        if phase == "take":
            return CHANCE if self.private else self.ctx["winner"]
        if phase == "show":
            return CHANCE
        raise AssertionError(f"no decision in phase {phase}")

    @property
    def private(self) -> bool:
        return self.game.edition == "1.9" and self.game.option("private-pouches")

    @cached_property
    def deck(self) -> frozenset[str]:
        return frozenset(standard_deck()) - frozenset(self.removed)

    @cached_property
    def known(self) -> dict[str, str]:
        """Every card whose place the referee knows: card -> place."""
        places = {}
        for cell, pile in self.heap.items():
            for card in pile:
                if card != UNKNOWN:
                    places[card] = f"heap/{cell_text(cell)}"
        for player, pouch in self.pouches.items():
            for card in pouch:
                if card != UNKNOWN:
                    places[card] = f"pouch/{player}"
        for player, card in self.ctx.get("queue", ()):
            places[card] = f"weapon/{player}"
        return places

    @cached_property
    def unseen(self) -> frozenset[str]:
        """Cards somewhere face down that nobody has seen: each is one of the ``"?"`` cards."""
        return self.deck - frozenset(self.known)

    def height_at(self, cell: Cell) -> int:
        return height(self.heap, cell)

    def spot(self, player: str) -> Cell:
        return self.spots[player]

    def holds(self, player: str, suit: str) -> bool:
        return any(c.endswith(suit) for c in self.pouches[player])

    def uphill_limit(self, player: str) -> tuple[int, str]:
        """The largest uphill step for ``player`` now, and how it reads ("4 (5 with a Diamond)")."""
        plain, diamond = 4, 5
        note = ""
        if self.game.edition == "1.9":
            plain, diamond = (int(x) for x in self.game.option("steeper-hills").split("/"))
            if (plain, diamond) != (4, 5):
                note = " (Steeper Hills)"
        limit = diamond if self.holds(player, "D") else plain
        return limit, f"{plain} ({diamond} with a Diamond){note}"

    def occupants(self, cell: Cell) -> list[str]:
        return [p for p in self.game.players if self.spots[p] == cell]

    def qualifies(self, player: str, relaxed: bool = True) -> bool:
        """Five different foods (fewer under relaxation) and standing on the highest visible spot."""
        spot = self.spots[player]
        if spot is None or not self.heap:
            return False
        height_relief, food_relief = self.relief if relaxed else (0, 0)
        top = max(self.height_at(c) for c in self.heap)
        foods = {HEIGHT[c] for c in self.pouches[player] if c != UNKNOWN and HEIGHT[c] <= 5}
        return self.height_at(spot) >= max(top - height_relief, 0) and len(foods) >= max(5 - food_relief, 1)

    @property
    def relief(self) -> tuple[int, int]:
        if self.game.edition == "1.9" and self.game.option("relaxation"):
            return ed.relief(self.round)
        return 0, 0

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(tuple(self.result["winners"]), self.result["rule"], self.result["text"])

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        return {
            "heap": {cell_text(c): list(p) for c, p in sorted(self.heap.items())},
            "spots": {p: (cell_text(c) if c is not None else None) for p, c in self.spots.items()},
            "pouches": {p: list(v) for p, v in self.pouches.items()},
            "removed": list(self.removed), "round": self.round, "first": self.first,
            "direction": "clockwise" if self.clockwise else "anticlockwise", "turn": self.turn,
            "declared": self.declared, "phase": self.phase, "ctx": _plain(self.ctx),
            "pending": list(self.pending), "result": _plain(self.result),
        }

    @classmethod
    def from_json(cls, game: Game, data: Any) -> PouchesState:
        try:
            heap = {parse_cell(k): tuple(v) for k, v in data["heap"].items()}
            spots = {p: (parse_cell(c) if c is not None else None) for p, c in data["spots"].items()}
            state = cls(game, heap=heap, spots=spots,
                        pouches={p: tuple(v) for p, v in data["pouches"].items()},
                        removed=tuple(data["removed"]), round=int(data["round"]), first=data["first"],
                        clockwise=data["direction"] == "clockwise", turn=int(data["turn"]),
                        declared=bool(data["declared"]), phase=data["phase"], ctx=_frozen(data["ctx"]),
                        pending=tuple(data["pending"]), result=data["result"])
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"not a Pouches of Destiny state: {exc!r}") from None
        if set(spots) != set(game.players) or set(state.pouches) != set(game.players):
            raise ValueError("not a Pouches of Destiny state: the players differ from the game's")
        if state.phase not in DECISIONS + AUTOMATIC + ("over",):
            raise ValueError(f"not a Pouches of Destiny state: unknown phase {state.phase!r}")
        return state

    def _evolve(self, **changes: Any) -> PouchesState:
        fields = dict(heap=dict(self.heap), spots=dict(self.spots), pouches=dict(self.pouches),
                      removed=self.removed, round=self.round, first=self.first, clockwise=self.clockwise,
                      turn=self.turn, declared=self.declared, phase=self.phase, ctx=dict(self.ctx),
                      pending=self.pending, result=self.result)
        fields.update(changes)
        return type(self)(self.game, **fields)

    # ------------------------------------------------------------------ camera
    def view(self) -> View:
        from referee.games.pouches.reading import view_of
        return view_of(self)

    def interpret(self, after: View):
        from referee.games.pouches.reading import interpret
        return interpret(self, after)


def _setup_cell(key: Any) -> Cell:
    try:
        return parse_cell(key) if isinstance(key, str) else (int(key[0]), int(key[1]))
    except (BadCell, TypeError, ValueError, IndexError):
        raise GameConfigError(f"bad setup: {key!r} is not a cell (write column,row such as 1,2)") from None
