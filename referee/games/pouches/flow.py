"""Applying an action, then running the automatic steps up to the next decision.

A mixin of :class:`~referee.games.pouches.state.PouchesState`. ``_apply`` works on a fresh copy
(``_evolve``) and mutates only that copy: settling an action (the pouch limit), the win check (at
once in 1.9), the fight consultations (who is asked, in what order, at which locations), the end
of a turn and of a round (turn order, the 1.3 win, relaxation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.action import Action
from referee.games.pouches.actions import (Declare, Decline, Discard, Done, Enter, Fight, Move, Pick, Reveal,
                                           Show, Stay, Take, Weapons)
from referee.games.pouches.fight import decide
from referee.games.pouches.heap import UNKNOWN, Cell, cell_text, parse_cell, parse_path
from referee.games.pouches.limits import POUCH_LIMIT

if TYPE_CHECKING:
    from referee.games.pouches.state import PouchesState


class Flow:
    """``_apply`` and the automatic steps that follow an action or a fight."""

    def _apply(self, action: Action) -> PouchesState:
        new = self._evolve()
        kind = type(action)
        if kind is Reveal:
            new._reveal(action)
        elif kind is Enter:
            new.spots[action.player] = parse_cell(action.cell)
        elif kind is Declare:
            new.first, new.clockwise, new.declared = action.first, action.direction == "clockwise", True
        elif kind is Stay:
            new.phase, new.ctx = "acted", {"who": action.player, "path": ()}
        elif kind is Move:
            path = parse_path(action.path)
            new.spots[action.player] = path[-1]
            new.phase, new.ctx = "acted", {"who": action.player, "path": tuple(cell_text(c) for c in path)}
        elif kind is Pick:
            new._pick(action)
        elif kind is Done:
            new.phase, new.ctx = "acted", {"who": action.player, "path": ()}
        elif kind is Discard:
            new._discard(action)
        elif kind is Decline:
            new.ctx["used"] = self.ctx.get("used", ()) + (action.player,)
            new.ctx["ask"] = self.ctx["ask"][1:]
        elif kind is Fight:
            new.ctx["used"] = self.ctx.get("used", ()) + (action.player,)
            new.ctx["ask"] = self.ctx["ask"][1:]
            new.ctx["fight"] = (action.player, action.opponent)
            new.phase = "weapons"
        elif kind is Weapons:
            new._weapons(action)
        elif kind is Show:
            left = self.ctx["show"][1:]
            new.ctx = dict(self.ctx, show=left, shown=self.ctx["shown"] + (action.player,))
            if not left:
                new.result, new.phase = dict(self.ctx["win"]), "over"
        elif kind is Take:
            loser = list(self.pouches[self.ctx["loser"]])
            loser.remove(action.card)
            new.pouches[self.ctx["loser"]] = tuple(loser)
            new.pouches[action.player] = tuple(sorted(self.pouches[action.player] + (action.card,)))
            new.phase = "fought"
        return new._advance()

    def _reveal(self, action: Reveal) -> None:
        pending = list(self.pending)
        pending.remove(action.place)
        self.pending = tuple(pending)
        area, _, where = action.place.partition("/")
        if area == "heap":
            cell = parse_cell(where)
            self.heap[cell] = self.heap[cell][:-1] + (action.card,)
        else:
            pouch = list(self.pouches[where])
            pouch.remove(UNKNOWN)
            self.pouches[where] = tuple(sorted(pouch + [action.card]))

    def _pick(self, action: Pick) -> None:
        player, cell = action.player, parse_cell(action.cell)
        pile = self.heap[cell]
        if cell == self.spots[player]:
            card, rest = pile[-1], pile[:-1]
            if not rest:
                del self.heap[cell]
            else:
                self.heap[cell] = rest
                if rest[-1] == UNKNOWN:
                    self.pending += (f"heap/{action.cell}",)
        else:
            card = pile[-2]
            self.heap[cell] = pile[:-2] + pile[-1:]
            if card == UNKNOWN:
                self.pending += (f"pouch/{player}",)
        spade = any(c.endswith("S") for c in self.pouches[player]) if self.phase == "act" else False
        self.pouches[player] = tuple(sorted(self.pouches[player] + (card,)))
        if self.phase == "act" and spade:
            self.phase, self.ctx = "picked", {"who": player, "path": ()}
        else:
            self.phase, self.ctx = "acted", {"who": player, "path": (), "picked": True}

    def _discard(self, action: Discard) -> None:
        player, card = action.player, action.card
        if self.phase == "fdiscard":
            self.ctx["queue"] = self.ctx["queue"][1:]
        else:
            pouch = list(self.pouches[player])
            pouch.remove(card)
            self.pouches[player] = tuple(pouch)
        here = self.spots[player]
        if action.how == "drop":
            self.heap[here] = self.heap.get(here, ()) + (card,)
        elif action.how == "bury":
            self._bury(parse_cell(action.to), card)
        else:
            end = parse_path(action.to)[-1]
            if self._buried_on_landing(card, end):
                self._bury(parse_cell(action.under) if action.under else end, card)
            else:
                self.heap[end] = self.heap.get(end, ()) + (card,)
        if self.phase == "act":
            self.phase, self.ctx = "acted", {"who": player, "path": ()}
        # overflow stays until the pouch fits; fdiscard moves on when its queue empties (in _advance)

    def _bury(self, cell: Cell, card: str) -> None:
        pile = self.heap[cell]
        self.heap[cell] = pile[:-1] + (card,) + pile[-1:]

    def _weapons(self, action: Weapons) -> None:
        chosen = action.chosen()
        initiator, defender = self.ctx["fight"]
        before = {p: self.pouches[p] for p in (initiator, defender)}
        winner, loser, text = decide(initiator, chosen[initiator], before[initiator],
                                     defender, chosen[defender], before[defender])
        for player, card in chosen.items():
            pouch = list(self.pouches[player])
            pouch.remove(card)
            self.pouches[player] = tuple(pouch)
        first = defender if winner is None else loser
        second = initiator if first == defender else defender
        self.ctx["queue"] = ((first, chosen[first]), (second, chosen[second]))
        self.ctx["winner"], self.ctx["loser"], self.ctx["result"] = winner, loser, text
        self.phase = "fdiscard"

    def _advance(self) -> PouchesState:
        """Run the automatic steps (mutating this fresh copy) up to the next decision."""
        while self.result is None and not self.pending:
            phase = self.phase
            if phase == "enter":
                if all(s is not None for s in self.spots.values()):
                    self.phase = "act"
                    continue
                return self
            if phase == "picked":
                self.phase = "pick2"
                return self
            if phase == "acted":
                if len(self.pouches[self.ctx["who"]]) > POUCH_LIMIT:
                    self.phase, self.ctx = "overflow", dict(self.ctx, then="acted-settled")
                    return self
                self.phase = "acted-settled"
                continue
            if phase == "overflow":
                if len(self.pouches[self.ctx["who"]]) > POUCH_LIMIT:
                    return self
                self.phase = self.ctx["then"]
                continue
            if phase == "acted-settled":
                if self._win_at_once():
                    return self
                self.ctx = {"who": self.ctx["who"], "sites": self._sites(), "used": ()} | (
                    {"picked": True} if self.ctx.get("picked") else {})
                self.phase = "consult"
                self._next_site()
                continue
            if phase == "consult":
                if self._next_consultee():
                    return self
                self._end_turn()
                continue
            if phase == "fdiscard":
                if self.ctx["queue"]:
                    return self
                if self.ctx["winner"] is not None and self.pouches[self.ctx["loser"]]:
                    self.phase = "take"
                    return self
                self.phase = "fought"
                continue
            if phase == "fought":
                winner = self.ctx.get("winner")
                self.ctx = {k: v for k, v in self.ctx.items()
                            if k not in ("fight", "queue", "winner", "loser", "result")}
                if winner is not None and len(self.pouches[winner]) > POUCH_LIMIT:
                    self.phase, self.ctx = "overflow", dict(self.ctx, who_before=self.ctx.get("who"),
                                                            who=winner, then="fight-settled")
                    return self
                self.phase = "fight-settled"
                continue
            if phase == "fight-settled":
                if "who_before" in self.ctx:
                    self.ctx = dict(self.ctx, who=self.ctx["who_before"])
                    del self.ctx["who_before"]
                if self._win_at_once():
                    return self
                self.phase = "consult"
                continue
            return self
        return self

    def _win_at_once(self) -> bool:
        """1.9: the win is checked after every action and fight and ends the game at once."""
        if not self.rules.win_at_once:
            return False
        winners = [p for p in self.order if self.qualifies(p)]
        if not winners:
            return False
        strict = all(self.qualifies(p, relaxed=False) for p in winners)
        self._declare_winners(tuple(winners), "win/at-once" if strict else "advanced/relaxation")
        return True

    def _declare_winners(self, winners: tuple[str, ...], rule: str) -> None:
        height_relief, food_relief = self.relief
        need = f"{5 - food_relief} different foods" if food_relief else "all five foods A-5"
        top = "on the highest visible spot" if not height_relief else f"within {height_relief} of the highest spot"
        one = len(winners) == 1
        text = f"{' and '.join(winners)} {'has' if one else 'have'} {need} and stand{'s' if one else ''} {top}"
        if height_relief or food_relief:
            text += " (relaxation)"
        result = {"winners": list(winners), "rule": self.rules.rule(rule), "text": text}
        if self.private:
            # RULINGS.md: under Private Pouches the win stands once each winner's pouch is shown
            result["text"] += "; Private Pouches: the pouch was shown"
            self.ctx = {"show": tuple(winners), "shown": (), "win": result}
            self.phase = "show"
            return
        self.result = result
        self.phase = "over"

    def _sites(self) -> tuple:
        """The locations where fights may start after this action, each with who is there, in order."""
        who, order = self.ctx["who"], self.order
        sites = []
        if self.rules.fleeting_fights:
            for text in self.ctx.get("path", ())[:-1]:
                cell = parse_cell(text)
                others = [p for p in order if self.spots[p] == cell and p != who]
                if others:
                    sites.append((text, tuple(p for p in order if p in others or p == who)))
        here = self.spots[who]
        cells = sorted({s for s in self.spots.values() if s is not None},
                       key=lambda c: (c != here, c))
        for cell in cells:
            members = [p for p in order if self.spots[p] == cell]
            if len(members) >= 2:
                if not self.rules.fleeting_fights:
                    # 1.9: the marsupial who just arrived, else the one whose turn it is, then turn-wise
                    start = order.index(self.current)
                    members = sorted(members, key=lambda p: (order.index(p) - start) % len(order))
                sites.append((cell_text(cell), tuple(members)))
        return tuple(sites)

    def _next_site(self) -> None:
        sites = self.ctx["sites"]
        if sites:
            self.ctx["site"], self.ctx["ask"], self.ctx["sites"] = sites[0], sites[0][1], sites[1:]
        else:
            self.ctx["site"], self.ctx["ask"] = None, ()

    def _next_consultee(self) -> bool:
        """Point ``who`` at the next marsupial who may start a fight; False when no one is left."""
        while True:
            if self.ctx.get("site") is None:
                return False
            for index, player in enumerate(self.ctx["ask"]):
                used = player in self.ctx["used"] and not self.rules.fleeting_fights
                if not used and self._opponents(player):
                    self.ctx["ask"] = self.ctx["ask"][index:]
                    self.ctx["asking"] = player
                    return True
            self._next_site()

    def _end_turn(self) -> None:
        # remembered only to explain a second pick tried without a Spade
        self.ctx = {"picked": self.ctx["who"]} if self.ctx.get("picked") else {}
        self.turn += 1
        if self.turn < len(self.game.players):
            self.phase = "act"
            return
        if not self.rules.win_at_once:
            winners = tuple(p for p in self.order if self.qualifies(p))
            if winners:
                if len(winners) > 1 and self.game.option("simultaneous-win") == "first":
                    self._declare_winners(winners[:1], "win/simultaneous")
                else:
                    self._declare_winners(winners, "win/end-of-round" if len(winners) == 1 else "win/simultaneous")
                return
        if len(self.game.players) == 2 and self.game.edition == "1.9":
            self.first = next(p for p in self.game.players if p != self.first)
        self.round += 1
        self.turn, self.declared, self.phase = 0, False, "act"
        self._win_at_once()  # relaxation may ease the win as a round starts

