"""Listing the legal actions: every deal report, joint reveal, hatch, and turn action.

Hands are hidden, so any card with an unseen copy may be in the mover's hand: the lists offer
every such card (the deck's ids, counted), which is what makes them long on a big board.
"""

from __future__ import annotations

import itertools
from collections import Counter

from referee.decktet import ACE, CATALOGUE
from referee.games.deck_town.actions import (Attack, Build, Deal, Discard, Draw, Fly, Grow, Hatch, Move, Remove,
                                             Reveal, Spawn)
from referee.games.deck_town.board import Cell, cell_name, frontier, is_connected, neighbours, touches
from referee.games.deck_town.cards import attack_pips
from referee.games.deck_town.common import ATTACK_IDS, NUMBER_IDS


class Moves:
    """Mixin of DeckTownState: ``legal_actions``."""

    def legal_actions(self):
        if self.phase == "over":
            return []
        if self.phase == "deal":
            first = not any(self.hands)
            choices = [(True,) if (had and not first) else (False, True) for had in self.numbers]
            return [Deal(tuple(c)) for c in itertools.product(*choices)]
        if self.phase == "reveal":
            return self._reveals()
        p, name = self.turn, self.players[self.turn]
        if self.phase == "hatch":
            cells = [(0, 0)] if not self.board else sorted(frontier(self.board))
            return [Hatch(name, self.revealed[p], cell_name(c)) for c in cells]
        held = [c for c, k in sorted(self.unseen.items()) if k > 0]
        if self.phase == "discard":
            return [Discard(name, c) for c in held]
        actions = [Draw(name)]
        hand = self.hands[p]
        numbers = [c for c in held if CATALOGUE[c].is_number] if hand else []
        aces = [c for c in held if CATALOGUE[c].rank == ACE] if hand else []
        edge = frontier(self.board)
        mine = sorted(c for c, who in self.occupants.items() if p in who)
        if not mine and numbers and self.supply[p][0]:
            for cell in sorted(edge):
                actions += [Hatch(name, c, cell_name(cell)) for c in numbers]
        for cell in mine:
            sizes = sorted({s for q, s in self.pieces[cell] if q == p})
            actions += [Grow(name, cell_name(cell), s) for s in sizes if s < 3 and self.supply[p][s]]
            if self.supply[p][0]:
                actions.append(Spawn(name, cell_name(cell)))
            for s in sizes:
                actions += [Move(name, cell_name(cell), s, cell_name(n)) for n in neighbours(cell) if n in self.board]
        controlled = self.controlled(p)
        if numbers:
            for cell in sorted(edge):
                if touches(cell, controlled):
                    actions += [Build(name, c, cell_name(cell)) for c in numbers]
        if aces:
            actions += self._flights(p, name, mine, aces)
        actions += self._attacks(p, name)
        return actions

    def _reveals(self):
        """Every joint reveal: one number card each, no id more often than the deck holds it.
        (24 ** players of them: fine for two players, large beyond; it is a lazy generator.)"""
        comp = self._composition(self.game)
        numbers = [c for c in NUMBER_IDS if comp[c]]
        for cards in itertools.product(numbers, repeat=len(self.players)):
            if all(comp[c] >= k for c, k in Counter(cards).items()):
                yield Reveal(cards)

    def _flights(self, p: int, name: str, mine: list[Cell], aces: list[str]) -> list:
        actions = []
        rule = self.game.option("fly-suit-match")
        for cell in mine:
            rest = [c for c in self.board if c != cell]
            if not rest or not is_connected(rest):
                continue
            landings = sorted(frontier(rest) - {cell})
            flown = CATALOGUE[self.board[cell]]
            residents = sorted({(q, s) for q, s in self.pieces[cell] if q != p})
            for ace in aces:
                match = CATALOGUE[ace].shares_suit(flown)
                if not match and (rule == "always" or (rule == "uncontrolled" and not self.controls(p, cell))):
                    continue
                evictions = [None]
                if match and self.game.option("fly-eviction"):
                    evictions += [f"{self.colours[q]}{s}" for q, s in residents]
                for to in landings:
                    actions += [Fly(name, ace, cell_name(cell), cell_name(to), e) for e in evictions]
        if self.game.option("fly-removal"):
            for cell in sorted(self.board):
                if self.occupants.get(cell):
                    continue
                rest = [c for c in self.board if c != cell]
                if rest and is_connected(rest):
                    actions += [Remove(name, ace, cell_name(cell)) for ace in aces
                                if CATALOGUE[ace].shares_suit(CATALOGUE[self.board[cell]])]
        return actions

    def _attacks(self, p: int, name: str) -> list:
        actions = []
        hand = self.hands[p]
        if not hand:
            return actions
        reach = {c for c, who in self.occupants.items() if p in who}
        reach |= {n for c in list(reach) for n in neighbours(c)}
        cards = [(c, self.unseen[c]) for c in ATTACK_IDS if self.unseen[c] > 0]
        for cell in sorted(reach & set(self.pieces)):
            for victim, size in sorted({piece for piece in self.pieces[cell] if piece[0] != p}):
                if self.game.option("attack-superior-only") and not self._superior(p, cell, victim):
                    continue
                need = self._required(p, cell, victim, size)
                target = f"{self.colours[victim]}{size}"
                for spent in _spends(cards, need, hand):
                    total = sum(attack_pips(c) for c in spent)
                    replaces = [False]
                    if self.supply[p][size - 1] and all(CATALOGUE[c].shares_suit(CATALOGUE[self.board[cell]])
                                                        for c in spent):
                        replaces.append(True)
                    for replace in replaces:
                        actions += [Attack(name, cell_name(cell), target, spent, replace, d)
                                    for d in range(total - need + 1)]
        return actions


def _spends(cards: list[tuple[str, int]], need: int, hand: int):
    """Every way to pay ``need`` pips from the unseen attack cards with no card to spare (house
    ruling), using at most ``hand`` cards; ``cards`` is (id, copies) sorted by pips, largest first."""
    def grow(start: int, chosen: list[str], total: int):
        if total >= need:
            if total - min(attack_pips(c) for c in chosen) < need:
                yield tuple(chosen)
            return
        if len(chosen) == hand:
            return
        for i in range(start, len(cards)):
            card_id, copies = cards[i]
            if chosen.count(card_id) < copies:
                yield from grow(i, chosen + [card_id], total + attack_pips(card_id))
    yield from grow(0, [], 0)
