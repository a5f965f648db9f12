"""Carrying out actions: the state after an action ``check`` has accepted.

Effects work on a dict of the state's fields (lists and dicts copied from the immutable state)
and build a new state from it; the old state is never changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.pyramids import Pyramid
from referee.games.deck_town.actions import (Attack, Build, Deal, Discard, Draw, Fly, Grow, Hatch, Move, Remove,
                                             Reveal, Spawn)
from referee.games.deck_town.board import Cell, parse_cell
from referee.games.deck_town.cards import DRAW, FIRST_DEAL, HAND_LIMIT
from referee.games.deck_town.common import Piece
from referee.games.deck_town.ending import first_player, judge

if TYPE_CHECKING:  # the state mixes these effects in
    from referee.games.deck_town.state import DeckTownState


class Effects:
    """Mixin of DeckTownState: ``_apply``."""

    def _apply(self, action) -> DeckTownState:
        f = self._fields()
        _EFFECTS[type(action)](self, f, action)
        return type(self)(self.game, **freeze(f))

    def _mover(self, action) -> int:
        """Who plays ``action``: the player it names. Only an overruled action (``referee.log.force``)
        names someone other than the player to move; it is theirs all the same (ann's spawn out of turn
        puts ann's small down), and the turn then goes on as if the player to move had acted."""
        return self.players.index(action.player)

    def _fields(self) -> dict:
        return dict(colours=self.colours, phase=self.phase, turn=self.turn, hands=list(self.hands),
                    numbers=list(self.numbers), revealed=list(self.revealed), deck=self.deck,
                    discard=list(self.discard), board=dict(self.board), pieces=dict(self.pieces),
                    supply=[list(s) for s in self.supply], redeals=self.redeals, result=self.result)

    def _draw(self, f: dict, p: int, n: int) -> None:
        """Draw n cards for player p; when the deck runs out the table shuffles the discards into
        a new deck (the referee sees the pile go and only counts)."""
        for _ in range(n):
            if not f["deck"]:
                if not f["discard"]:
                    return
                f["deck"], f["discard"] = len(f["discard"]), []
            f["deck"] -= 1
            f["hands"][p] += 1

    def _redeal(self, f: dict) -> None:
        f.update(phase="deal", hands=[0] * len(self.players), numbers=[False] * len(self.players),
                 revealed=[None] * len(self.players), deck=sum(self._composition(self.game).values()),
                 discard=[], redeals=f["redeals"] + 1)

    def _effect_deal(self, f: dict, action: Deal) -> None:
        n = len(self.players)
        each = FIRST_DEAL if not any(self.hands) else 1
        for i in range(n):
            f["hands"][i] += each
        f["deck"] -= each * n
        f["numbers"] = list(action.numbers)
        if all(action.numbers):
            f["phase"] = "reveal"
        elif f["deck"] < n:
            self._redeal(f)  # house ruling: the deck cannot go round again, so deal afresh

    def _effect_reveal(self, f: dict, action: Reveal) -> None:
        first = first_player(action.cards)
        if first is None:
            self._redeal(f)
            return
        f["revealed"] = list(action.cards)
        f["hands"] = [h - 1 for h in f["hands"]]
        f.update(phase="hatch", turn=first)

    def _place(self, f: dict, cell: Cell, piece: Piece) -> None:
        f["pieces"][cell] = tuple(sorted(f["pieces"].get(cell, ()) + (piece,)))
        f["supply"][piece[0]][piece[1] - 1] -= 1

    def _take(self, f: dict, cell: Cell, piece: Piece) -> None:
        stack = list(f["pieces"].get(cell, ()))
        stack.remove(piece)
        if stack:
            f["pieces"][cell] = tuple(stack)
        else:
            f["pieces"].pop(cell, None)
        f["supply"][piece[0]][piece[1] - 1] += 1

    def _effect_hatch(self, f: dict, action: Hatch) -> None:
        p, cell = self._mover(action), parse_cell(action.at)
        if self.phase == "hatch":
            f["revealed"][p] = None
        else:
            f["hands"][p] -= 1
        f["board"][cell] = action.card
        self._place(f, cell, (p, 1))
        self._end_action(f)

    def _effect_draw(self, f: dict, action: Draw) -> None:
        p = self._mover(action)
        self._draw(f, p, DRAW)
        self._end_action(f)

    def _effect_grow(self, f: dict, action: Grow) -> None:
        p = self._mover(action)
        cell = parse_cell(action.at)
        self._take(f, cell, (p, action.size))
        self._place(f, cell, (p, action.size + 1))
        self._end_action(f)

    def _effect_spawn(self, f: dict, action: Spawn) -> None:
        p = self._mover(action)
        self._place(f, parse_cell(action.at), (p, 1))
        self._end_action(f)

    def _effect_build(self, f: dict, action: Build) -> None:
        p = self._mover(action)
        f["board"][parse_cell(action.at)] = action.card
        f["hands"][p] -= 1
        self._end_action(f)

    def _effect_move(self, f: dict, action: Move) -> None:
        p = self._mover(action)
        piece = (p, action.size)
        self._take(f, parse_cell(action.at), piece)
        self._place(f, parse_cell(action.to), piece)
        self._end_action(f)

    def _effect_fly(self, f: dict, action: Fly) -> None:
        p = self._mover(action)
        cell, to = parse_cell(action.at), parse_cell(action.to)
        f["hands"][p] -= 1
        f["discard"].append(action.ace)
        if action.evict is not None:
            pyramid = Pyramid.parse(action.evict)
            self._take(f, cell, (self.colour_owner(pyramid.colour), pyramid.pips))
        f["board"][to] = f["board"].pop(cell)
        if cell in f["pieces"]:
            f["pieces"][to] = f["pieces"].pop(cell)
        self._end_action(f)

    def _effect_remove(self, f: dict, action: Remove) -> None:
        p = self._mover(action)
        cell = parse_cell(action.at)
        f["hands"][p] -= 1
        f["discard"] += [action.ace, f["board"].pop(cell)]
        self._end_action(f)

    def _effect_attack(self, f: dict, action: Attack) -> None:
        p = self._mover(action)
        cell, pyramid = parse_cell(action.at), Pyramid.parse(action.target)
        victim = self.colour_owner(pyramid.colour)
        self._take(f, cell, (victim, pyramid.pips))
        f["hands"][p] -= len(action.spent)
        f["discard"] += list(action.spent)
        if action.replace:
            self._place(f, cell, (p, pyramid.pips))
        self._draw(f, p, action.draw)
        self._end_action(f)

    def _effect_discard(self, f: dict, action: Discard) -> None:
        p = self._mover(action)
        f["hands"][p] -= 1
        f["discard"].append(action.card)
        if f["hands"][p] <= HAND_LIMIT:
            self._next_turn(f)

    def _end_action(self, f: dict) -> None:
        """After a turn's action: the game may be won; else discard down to five, else pass the turn."""
        result = judge(self.game, self.players, f["board"], f["pieces"])
        if result is not None:
            f.update(result=result, phase="over")
        elif f["hands"][self.turn] > HAND_LIMIT:
            f["phase"] = "discard"
        else:
            self._next_turn(f)

    def _next_turn(self, f: dict) -> None:
        nxt = (self.turn + 1) % len(self.players)
        f["turn"] = nxt
        if f["revealed"][nxt] is not None:
            f["phase"] = "hatch"
        else:
            f["phase"] = "play"
            if self.game.option("draw-each-turn"):
                self._draw(f, nxt, 1)


def freeze(f: dict) -> dict:
    return dict(f, hands=tuple(f["hands"]), numbers=tuple(f["numbers"]), revealed=tuple(f["revealed"]),
                discard=tuple(f["discard"]), supply=tuple(tuple(s) for s in f["supply"]))


_EFFECTS = {Deal: Effects._effect_deal, Reveal: Effects._effect_reveal,
            Hatch: Effects._effect_hatch, Draw: Effects._effect_draw, Grow: Effects._effect_grow,
            Spawn: Effects._effect_spawn, Build: Effects._effect_build, Move: Effects._effect_move,
            Fly: Effects._effect_fly, Remove: Effects._effect_remove,
            Attack: Effects._effect_attack, Discard: Effects._effect_discard}
