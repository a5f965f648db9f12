"""Listing every legal action of a position: the steps, swooshes, picks and every discard destination.

A mixin of :class:`~referee.games.pouches.state.PouchesState`; the checks (``checks``) accept every
action listed here, which the random play-outs verify.
"""

from __future__ import annotations

from referee.action import Action
from referee.games.pouches.actions import (DIRECTIONS, Declare, Decline, Discard, Done, Enter, Fight, Move, Pick,
                                           Reveal, Show, Stay, Take, Weapons)
from referee.games.pouches.heap import (DIAGONALS, HEIGHT, NESW, Cell, add, cell_text, corner_cut, is_beside,
                                        lower_paths, on_or_beside, path_text)
from referee.games.pouches.limits import DROP_LIMIT


class LegalActions:
    """What the player to move (or the table) may do now."""

    def legal_actions(self) -> list[Action]:
        if self.result is not None:
            return []
        if self.pending:
            place = self.pending[0]
            return [Reveal(place, card) for card in sorted(self.unseen)]
        mover, phase = self.to_move, self.phase
        if phase == "enter":
            cells = sorted({add(c, d) for c in self.heap for d in NESW + DIAGONALS} - set(self.heap))
            return [Enter(mover, cell_text(c)) for c in cells if is_beside(self.heap, c)]
        if phase == "act":
            actions: list[Action] = [Stay(mover)]
            actions += self._moves(mover)
            actions += self._picks(mover)
            for card in sorted(set(self.pouches[mover])):
                actions += self._discards(mover, card)
            if self._may_declare():
                actions += [Declare(p, d) for p in self.game.players for d in DIRECTIONS
                            if (p, d == "clockwise") != (self.first, self.clockwise)]
            return actions
        if phase == "pick2":
            return [Done(mover)] + self._picks(mover)
        if phase == "overflow":
            return [a for card in sorted(set(self.pouches[mover])) for a in self._discards(mover, card)]
        if phase == "consult":
            return [Fight(mover, q) for q in self._opponents(mover)] + [Decline(mover)]
        if phase == "weapons":
            a, b = self.ctx["fight"]
            return [Weapons((f"{a}:{x}", f"{b}:{y}")) for x in sorted(set(self.pouches[a]))
                    for y in sorted(set(self.pouches[b]))]
        if phase == "fdiscard":
            player, card = self.ctx["queue"][0]
            return self._discards(player, card)
        if phase == "take":
            return [Take(self.ctx["winner"], c) for c in sorted(set(self.pouches[self.ctx["loser"]]))]
        if phase == "show":
            player = self.ctx["show"][0]
            return [Show(player, tuple(sorted(self.pouches[player])))]
        return []

    def _moves(self, player: str) -> list[Action]:
        heap, here = self.heap, self.spots[player]
        low = self.height_at(here)
        limit, _ = self.uphill_limit(player)
        moves = []
        for d in NESW:
            cell = add(here, d)
            if on_or_beside(heap, cell) and self.height_at(cell) - low <= limit:
                moves.append(Move(player, cell_text(cell)))
        if here not in heap:
            for d in DIAGONALS:
                cell = add(here, d)
                if is_beside(heap, cell) and corner_cut(heap, here, cell):
                    moves.append(Move(player, cell_text(cell)))
        moves += [Move(player, path_text(p)) for p in lower_paths(heap, here) if len(p) >= 2]
        return moves

    def _picks(self, player: str) -> list[Action]:
        here = self.spots[player]
        low = self.height_at(here)
        picks = [Pick(player, cell_text(here))] if here in self.heap else []
        for d in NESW:
            cell = add(here, d)
            if len(self.heap.get(cell, ())) >= 2 and self.height_at(cell) > low:
                picks.append(Pick(player, cell_text(cell)))
        return picks

    def _discards(self, player: str, card: str) -> list[Action]:
        heap, here = self.heap, self.spots[player]
        low, value = self.height_at(here), HEIGHT[card]
        out: list[Action] = []
        if value - low <= DROP_LIMIT:
            out.append(Discard(player, card, "drop"))
        if self.rules.burying:
            out += [Discard(player, card, "bury", cell_text(add(here, d))) for d in NESW
                    if add(here, d) in heap and self.height_at(add(here, d)) > low]
        for d in NESW:
            start = add(here, d)
            if not on_or_beside(heap, start):
                continue
            for path in [(start,)] + [(start,) + rest for rest in lower_paths(heap, start)]:
                text, end = path_text(path), path[-1]
                if self._buried_on_landing(card, end) and end not in heap:
                    out += [Discard(player, card, "throw", text, cell_text(u)) for u in self._beside_piles(end)]
                else:
                    out.append(Discard(player, card, "throw", text))
        return out

    def _buried_on_landing(self, card: str, end: Cell) -> bool:
        """1.9: a thrown card that would raise a marsupial where it lands by more than 4 is buried."""
        return (self.rules.burying and HEIGHT[card] - self.height_at(end) > DROP_LIMIT
                and any(s == end for s in self.spots.values()))

    def _beside_piles(self, cell: Cell) -> list[Cell]:
        """Piles a card landing on an occupied bedrock spot may be buried beneath: NESW ones, else diagonal."""
        nesw = [add(cell, d) for d in NESW if add(cell, d) in self.heap]
        return nesw or [add(cell, d) for d in DIAGONALS if add(cell, d) in self.heap]

    def _opponents(self, player: str) -> list[str]:
        if not self.pouches[player]:
            return []
        members = self.ctx["site"][1]
        return [q for q in members if q != player and self.pouches[q]]

    def _may_declare(self) -> bool:
        return (self.rules.declare and len(self.game.players) >= 3 and self.phase == "act" and self.turn == 0
                and not self.declared)

