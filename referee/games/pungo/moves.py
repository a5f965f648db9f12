"""Steps in the arena, their costs, freezing, and whether a number of points can be spent exactly.

A *step* moves a *unit* (the top ``count`` pyramids of a cell, as one piece) one square
orthogonally. Boards are tuples of cells, each a tuple of pyramid names bottom to top; the frozen
pyramids of the turn are positions ``cell * 16 + height`` (a frozen pyramid never moves again this
turn, so its position is stable). Everything here is plain tuples and ints: the observed-turn
search and the random play-outs call it hundreds of thousands of times.

With the d6 a step costs the pips of the unit (small 1, medium 2, large 3). With the pyramid die a
turn is one step of a unit whose bottom pyramid is a size the face shows (cost 1 of 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from referee.games.pungo.layout import DIRECTIONS, Arena, Board

Frozen = frozenset[int]
_CACHE_LIMIT = 200_000


class Step(NamedTuple):
    cell: int
    count: int
    direction: str
    dest: int
    cost: int


class Mover:
    """The movement rules for one arena and one die, with a memo of what can be spent from where."""

    def __init__(self, arena: Arena, pyramid_die: bool):
        self.arena = arena
        self.pyramid_die = pyramid_die
        self.neighbours = tuple(tuple((d, arena.neighbour(i, d)) for d in DIRECTIONS
                                      if arena.neighbour(i, d) is not None)
                                for i in range(arena.size))
        self._exact: dict = {}
        self._legal: dict = {}

    # -- single steps --
    def steps(self, board: Board, frozen: Frozen, remaining: int,
              allowed: frozenset[int] | None = None, onto_smaller: bool = False) -> Iterator[Step]:
        """Every step that obeys the movement rules and costs at most ``remaining`` (with
        ``onto_smaller``, also those landing on a smaller pyramid: what a player may do by mistake)."""
        pyramid_die = self.pyramid_die
        neighbours = self.neighbours
        for cell, stack in enumerate(board):
            if not stack:
                continue
            n = len(stack)
            cost = 0
            base = cell * 16
            for index in range(n - 1, -1, -1):
                if base + index in frozen:
                    break  # this unit and every larger one carries a frozen pyramid
                bottom = ord(stack[index][-1]) - 48
                if pyramid_die:
                    cost = 1
                    if allowed is not None and bottom not in allowed:
                        continue
                else:
                    cost += bottom
                if cost > remaining:
                    break
                count = n - index
                for direction, dest in neighbours[cell]:
                    target = board[dest]
                    if target and ord(target[-1][-1]) - 48 < bottom and not onto_smaller:
                        continue  # would land on a smaller pyramid
                    yield Step(cell, count, direction, dest, cost)

    @staticmethod
    def apply(board: Board, frozen: Frozen, step: Step) -> tuple[Board, Frozen]:
        """The board and frozen positions after ``step`` (which must be legal)."""
        stack = board[step.cell]
        split = len(stack) - step.count
        unit = stack[split:]
        target = board[step.dest]
        cells = list(board)
        cells[step.cell] = stack[:split]
        cells[step.dest] = target + unit
        if split == 0 or not target:  # started on the board, or landed on an empty square: frozen
            base = step.dest * 16 + len(target)
            frozen = frozen.union(range(base, base + step.count))
        return tuple(cells), frozen

    def legal_steps(self, board: Board, frozen: Frozen, remaining: int,
                    allowed: frozenset[int] | None = None) -> tuple[Step, ...]:
        """The steps after which the rest of the points can still be spent exactly (memoised)."""
        key = (board, frozen, remaining, allowed)
        known = self._legal.get(key)
        if known is None:
            known = tuple(step for step in self.steps(board, frozen, remaining, allowed)
                          if step.cost == remaining
                          or self.can_spend(*self.apply(board, frozen, step), remaining - step.cost, allowed))
            if len(self._legal) > _CACHE_LIMIT:
                self._legal.clear()
            self._legal[key] = known
        return known

    # -- spending --
    def can_spend(self, board: Board, frozen: Frozen, points: int, allowed: frozenset[int] | None = None) -> bool:
        """Whether some sequence of legal steps spends exactly ``points``."""
        if points == 0:
            return True
        key = (board, frozen, points, allowed)
        known = self._exact.get(key)
        if known is not None:
            return known
        result = False
        for step in self.steps(board, frozen, points, allowed):
            child, child_frozen = self.apply(board, frozen, step)
            if self.can_spend(child, child_frozen, points - step.cost, allowed):
                result = True
                break
        if len(self._exact) > _CACHE_LIMIT:
            self._exact.clear()
        self._exact[key] = result
        return result

    def largest_spendable(self, board: Board, frozen: Frozen, points: int,
                          allowed: frozenset[int] | None = None) -> int:
        """The most points, up to ``points``, that some sequence of legal steps spends exactly."""
        for amount in range(points, 0, -1):
            if self.can_spend(board, frozen, amount, allowed):
                return amount
        return 0
