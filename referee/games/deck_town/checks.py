"""Checking actions: every rule a Deck Town action must keep, each breach a Reason with its rule id.

Each ``_check_<kind>`` returns the reasons an action is illegal (none when it is legal); texts
name cards and cells the way players do ("the Sailor on 1,0") and say when a house ruling or a
variant decided the matter.
"""

from __future__ import annotations

from collections import Counter

from referee.decktet import ACE, CATALOGUE
from referee.pyramids import Pyramid
from referee.verdict import Reason, Verdict
from referee.games.deck_town.actions import (Attack, Build, Deal, Discard, Draw, Fly, Grow, Hatch, Move, Remove,
                                             Reveal, Spawn)
from referee.games.deck_town.board import BadCell, Cell, cell_name, is_connected, neighbours, parse_cell, touches
from referee.games.deck_town.cards import HAND_LIMIT, attack_pips, title
from referee.games.deck_town.common import R, SIZE_WORDS
from referee.games.deck_town.ending import first_player_text


class Checks:
    """Mixin of DeckTownState: ``check`` and the attack arithmetic."""

    def _expected(self) -> str:
        who = self.players[self.turn]
        return {"deal": "the table is dealing", "reveal": "everyone reveals a number card at once",
                "hatch": f"{who} hatches the revealed card", "play": f"it is {who}'s turn",
                "discard": f"{who} discards down to {HAND_LIMIT} cards", "over": "the game is over"}[self.phase]

    def _turn_reasons(self, action, phases: tuple[str, ...]) -> list[Reason]:
        if self.phase == "over":
            return [self.reason(R + "end/over", "the game is over: no more actions")]
        if self.phase not in phases:
            return [self.reason(R + "turn/order", f"{action.kind} is not expected now: {self._expected()}")]
        if action.player != self.players[self.turn]:
            if self.index(action.player) is None:
                return [self.reason(R + "turn/order", f"{action.player!r} is not playing "
                                    f"(players: {', '.join(self.players)})")]
            return [self.reason(R + "turn/order", f"{self._expected()}, not {action.player}'s")]
        return []

    # ------------------------------------------------------------------ reading the action's words
    def _cell(self, text: str, reasons: list[Reason], rule: str) -> Cell | None:
        try:
            return parse_cell(text)
        except BadCell as exc:
            reasons.append(self.reason(rule, str(exc)))
            return None

    def _card_reasons(self, p: int, cards: list[str], rule: str = R + "cards/in-hand") -> list[Reason]:
        """The cards must exist, be held (hand count) and have an unseen copy each."""
        reasons = []
        for card_id in cards:
            if card_id not in CATALOGUE:
                reasons.append(self.reason(rule, f"{card_id!r} is not a Decktet card id"))
        if reasons:
            return reasons
        if self.hands[p] < len(cards):
            held = self.hands[p]
            reasons.append(self.reason(rule, f"{self.players[p]} holds {held} card{'s' * (held != 1)}, "
                                             f"not enough to play {len(cards)}"))
        for card_id, wanted in Counter(cards).items():
            if self.unseen[card_id] < wanted:
                total = self._composition(self.game)[card_id]
                where = "is not in this deck" if not total else \
                    f"cannot be in a hand: all {total} cop{'ies' if total > 1 else 'y'} are already on the table"
                reasons.append(self.reason(rule, f"{title(card_id)} {where}"))
        return reasons


    # ------------------------------------------------------------------ attack arithmetic
    def forces(self, p: int, cell: Cell) -> int:
        """Pips of p's pyramids on ``cell`` and on the cards next to it (the attack's reach)."""
        return sum(s for c in (cell, *neighbours(cell)) for q, s in self.pieces.get(c, ()) if q == p)

    def defence(self, victim: int, cell: Cell) -> int:
        """Pips of the defender's pyramids on the attacked card."""
        return sum(s for q, s in self.pieces.get(cell, ()) if q == victim)

    def _superior(self, p: int, cell: Cell, victim: int) -> bool:
        return self.forces(p, cell) > self.defence(victim, cell)

    def _required(self, p: int, cell: Cell, victim: int, size: int) -> int:
        """Pips an attack must spend: the target's pips, or with the pip-difference variant the
        target's pips plus the defender's pips on the card minus the attacker's forces, at least 1."""
        if not self.game.option("attack-pip-difference"):
            return size
        return max(1, size + self.defence(victim, cell) - self.forces(p, cell))

    # ------------------------------------------------------------------ check
    def check(self, action) -> Verdict:
        handler = _CHECKS.get(type(action))
        if handler is None:
            return Verdict.illegal(self.reason(R + "turn/order", f"{action!r} is not a Deck Town action"))
        reasons = handler(self, action)
        if reasons:
            return Verdict.illegal(*reasons)
        if isinstance(action, Reveal):  # say who goes first, and why
            return Verdict.ok(self.reason(R + "setup/first-player", first_player_text(self.players, action.cards)))
        return Verdict.ok()

    def _check_deal(self, action: Deal) -> list[Reason]:
        if self.phase != "deal":
            rule = "end/over" if self.phase == "over" else "setup/deal"
            return [self.reason(R + rule, f"the opening deal is done: {self._expected()}")]
        if len(action.numbers) != len(self.players):
            return [self.reason(R + "setup/deal", f"the deal reports one yes/no per player "
                                f"({len(self.players)}), got {len(action.numbers)}")]
        if any(self.hands):
            pairs = enumerate(zip(self.numbers, action.numbers))
            lost = [self.players[i] for i, (had, has) in pairs if had and not has]
            if lost:
                return [self.reason(R + "setup/deal", f"{', '.join(lost)} already held a number card and "
                                    "dealing only adds cards")]
        return []

    def _check_reveal(self, action: Reveal) -> list[Reason]:
        if self.phase != "reveal":
            rule = "end/over" if self.phase == "over" else "setup/reveal"
            return [self.reason(R + rule, f"no reveal is due: {self._expected()}")]
        if len(action.cards) != len(self.players):
            return [self.reason(R + "setup/reveal", f"everyone reveals one number card at once: "
                                f"{len(self.players)} cards, got {len(action.cards)}")]
        reasons = []
        comp = self._composition(self.game)
        for player, card_id in zip(self.players, action.cards):
            if card_id not in CATALOGUE:
                reasons.append(self.reason(R + "cards/in-hand", f"{card_id!r} is not a Decktet card id"))
            elif not CATALOGUE[card_id].is_number:
                reasons.append(self.reason(R + "setup/reveal", f"{player} must reveal a number card (2-9), "
                                           f"not {title(card_id)}"))
        for card_id, k in Counter(action.cards).items():
            if card_id in CATALOGUE and comp[card_id] < k:
                reasons.append(self.reason(R + "cards/in-hand", f"the deck holds {comp[card_id]} of "
                                           f"{title(card_id)}, yet {k} were revealed"))
        return reasons

    def _check_hatch(self, action: Hatch) -> list[Reason]:
        reasons = self._turn_reasons(action, ("hatch", "play"))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "action/hatch")
        if self.phase == "hatch":
            if action.card != self.revealed[p]:
                reasons.append(self.reason(R + "setup/hatch-order", f"{action.player} revealed "
                                           f"{title(self.revealed[p])} and hatches that card"))
            if cell is not None and not self.board and cell != (0, 0):
                reasons.append(self.reason(R + "setup/hatch-order", "the first card is hatched on 0,0"))
        else:
            if self.on_board(p):
                reasons.append(self.reason(R + "action/hatch", f"only a player with no pyramids on the board "
                                           f"hatches; {action.player} has some"))
            reasons += self._card_reasons(p, [action.card])
            if action.card in CATALOGUE and not CATALOGUE[action.card].is_number:
                reasons.append(self.reason(R + "action/hatch",
                                           f"a hatch builds a number card, not {title(action.card)}"))
        if cell is not None and self.board:
            if cell in self.board:
                reasons.append(self.reason(R + "action/hatch", f"{self.describe_cell(cell)} is already there"))
            elif not touches(cell, self.board):
                reasons.append(self.reason(R + "action/hatch", f"a hatched card goes next to a board card "
                                           f"(house ruling: any card); {cell_name(cell)} touches none"))
        return reasons

    def _check_draw(self, action: Draw) -> list[Reason]:
        return self._turn_reasons(action, ("play",))

    def _own_pyramid(self, p: int, cell: Cell | None, size: int, rule: str, reasons: list[Reason]) -> None:
        if cell is None:
            return
        if cell not in self.board:
            reasons.append(self.reason(rule, f"there is no card on {cell_name(cell)}"))
        elif (p, size) not in self.pieces.get(cell, ()):
            what = SIZE_WORDS.get(size, f"{size}-pip")
            reasons.append(self.reason(rule, f"{self.players[p]} has no {what} pyramid on {self.describe_cell(cell)}"))

    def _check_grow(self, action: Grow) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "action/grow")
        self._own_pyramid(p, cell, action.size, R + "action/grow", reasons)
        if action.size >= 3:
            reasons.append(self.reason(R + "action/grow", "a three-pip pyramid is the largest: it cannot grow"))
        elif action.size >= 1 and not self.supply[p][action.size]:
            reasons.append(self.reason(R + "action/grow", f"{action.player} has no "
                                       f"{SIZE_WORDS[action.size + 1]} pyramid left in supply"))
        return reasons

    def _check_spawn(self, action: Spawn) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "action/spawn")
        if cell is not None and not self.occupies(p, cell):
            reasons.append(self.reason(R + "action/spawn", f"a spawn goes on a card you occupy; {action.player} "
                                       f"has no pyramid on {self.describe_cell(cell)}"))
        if not self.supply[p][0]:
            reasons.append(self.reason(R + "action/spawn", f"{action.player} has no one-pip pyramid left in supply"))
        return reasons

    def _check_build(self, action: Build) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "action/build")
        reasons += self._card_reasons(p, [action.card])
        if action.card in CATALOGUE and not CATALOGUE[action.card].is_number:
            reasons.append(self.reason(R + "action/build",
                                       f"only number cards (2-9) are built, not {title(action.card)}"))
        if cell is not None:
            if cell in self.board:
                reasons.append(self.reason(R + "action/build", f"{self.describe_cell(cell)} is already there"))
            elif not touches(cell, self.controlled(p)):
                reasons.append(self.reason(R + "action/build", f"a build must touch a card you control; "
                                           f"{cell_name(cell)} is not adjacent to any card {action.player} controls"))
        return reasons

    def _check_move(self, action: Move) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "action/move")
        to = self._cell(action.to, reasons, R + "action/move")
        self._own_pyramid(p, cell, action.size, R + "action/move", reasons)
        if cell is not None and to is not None:
            if to not in self.board:
                reasons.append(self.reason(R + "action/move", f"pyramids move onto cards; {cell_name(to)} is empty"))
            elif to not in neighbours(cell):
                reasons.append(self.reason(R + "action/move", f"a move goes one card orthogonally; {cell_name(to)} "
                                           f"is not next to {cell_name(cell)}"))
        return reasons

    def _ace_reasons(self, p: int, ace: str, rule: str) -> list[Reason]:
        reasons = self._card_reasons(p, [ace])
        if ace in CATALOGUE and CATALOGUE[ace].rank != ACE:
            reasons.append(self.reason(rule, f"flying costs an Ace, not {title(ace)}"))
        return reasons

    def _check_fly(self, action: Fly) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "fly/occupy")
        to = self._cell(action.to, reasons, R + "fly/landing")
        reasons += self._ace_reasons(p, action.ace, R + "fly/ace")
        if cell is None or to is None:
            return reasons
        if cell not in self.board:
            reasons.append(self.reason(R + "fly/occupy", f"there is no card on {cell_name(cell)} to fly"))
            return reasons
        if not self.occupies(p, cell):
            reasons.append(self.reason(R + "fly/occupy", f"you fly a card you occupy; {action.player} has no "
                                       f"pyramid on {self.describe_cell(cell)}"))
        rest = [c for c in self.board if c != cell]
        if not is_connected(rest):
            reasons.append(self.reason(R + "fly/connected", f"flying {self.describe_cell(cell)} away would split "
                                       "the board (a diagonal touch still counts)"))
        if to == cell:
            reasons.append(self.reason(R + "fly/landing", "a flown card lands on another position"))
        elif to in self.board:
            reasons.append(self.reason(R + "fly/landing", f"{self.describe_cell(to)} is already there"))
        elif not touches(to, rest):
            reasons.append(self.reason(R + "fly/landing", f"a flown card lands next to a board card (house ruling: "
                                       f"orthogonally); {cell_name(to)} touches none"))
        card = CATALOGUE[self.board[cell]]
        ace_ok = action.ace in CATALOGUE and CATALOGUE[action.ace].rank == ACE
        match = ace_ok and CATALOGUE[action.ace].shares_suit(card)
        rule = self.game.option("fly-suit-match")
        if ace_ok and not match:
            if rule == "always":
                reasons.append(self.reason(R + "fly/suit-match", f"variant fly-suit-match=always: {title(action.ace)} "
                                           f"shares no suit with {title(card.id)}"))
            elif rule == "uncontrolled" and not self.controls(p, cell):
                reasons.append(self.reason(R + "fly/suit-match", f"variant fly-suit-match=uncontrolled: "
                                           f"{action.player} does not control {title(card.id)}, so the Ace must "
                                           f"share a suit with it; {title(action.ace)} does not"))
        if action.evict is not None:
            reasons += self._eviction_reasons(p, cell, action.evict, match)
        return reasons

    def _eviction_reasons(self, p: int, cell: Cell, evict: str, match: bool) -> list[Reason]:
        rule = R + "fly/eviction"
        if not self.game.option("fly-eviction"):
            return [self.reason(rule, "the fly-eviction variant is not in play: no pyramid may be evicted")]
        if not match:
            return [self.reason(rule, "only a fly with an Ace that shares a suit with the card may evict")]
        try:
            pyramid = Pyramid.parse(evict)
        except ValueError as exc:
            return [self.reason(rule, str(exc))]
        owner = self.colour_owner(pyramid.colour)
        if owner == p:
            return [self.reason(rule, "an eviction throws off another player's pyramid, not your own")]
        if owner is None or (owner, pyramid.pips) not in self.pieces.get(cell, ()):
            return [self.reason(rule, f"there is no {evict} on {self.describe_cell(cell)} to evict")]
        return []

    def _check_remove(self, action: Remove) -> list[Reason]:
        rule = R + "fly/removal"
        if not self.game.option("fly-removal"):
            return [self.reason(rule, "the fly-removal variant is not in play: cards cannot be removed")]
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, rule)
        reasons += self._ace_reasons(p, action.ace, R + "fly/ace")
        if cell is None:
            return reasons
        if cell not in self.board:
            return reasons + [self.reason(rule, f"there is no card on {cell_name(cell)}")]
        if self.occupants.get(cell):
            reasons.append(self.reason(rule, f"only an unoccupied card can be removed; {self.describe_cell(cell)} "
                                       "has pyramids on it"))
        if action.ace in CATALOGUE and not CATALOGUE[action.ace].shares_suit(CATALOGUE[self.board[cell]]):
            reasons.append(self.reason(rule, f"a removal needs an Ace sharing a suit with the card; "
                                       f"{title(action.ace)} shares none with {title(self.board[cell])}"))
        rest = [c for c in self.board if c != cell]
        if not rest or not is_connected(rest):
            reasons.append(self.reason(R + "fly/connected", f"removing {self.describe_cell(cell)} would split "
                                       "or empty the board"))
        return reasons

    def _check_attack(self, action: Attack) -> list[Reason]:
        reasons = self._turn_reasons(action, ("play",))
        if reasons:
            return reasons
        p = self.turn
        cell = self._cell(action.at, reasons, R + "attack/reach")
        reasons += self._card_reasons(p, list(action.spent))
        if cell is None:
            return reasons
        try:
            pyramid = Pyramid.parse(action.target)
        except ValueError as exc:
            return reasons + [self.reason(R + "attack/target", str(exc))]
        victim = self.colour_owner(pyramid.colour)
        size = pyramid.pips
        if victim == p:
            return reasons + [self.reason(R + "attack/target", "you attack other players' pyramids, not your own")]
        if victim is None or (victim, size) not in self.pieces.get(cell, ()):
            return reasons + [self.reason(R + "attack/target", f"there is no {action.target} on "
                                          f"{self.describe_cell(cell)}")]
        if not self.occupies(p, cell) and not any(self.occupies(p, n) for n in neighbours(cell)):
            reasons.append(self.reason(R + "attack/reach", f"{action.player} has no pyramid on or next to "
                                       f"{self.describe_cell(cell)}"))
        if self.game.option("attack-superior-only") and not self._superior(p, cell, victim):
            reasons.append(self.reason(R + "attack/superior-only", f"variant attack-superior-only: "
                                       f"{action.player}'s forces ({self.forces(p, cell)} pip(s) on and next to the "
                                       f"card) do not exceed {self.players[victim]}'s {self.defence(victim, cell)}"))
        if not action.spent:
            return reasons + [self.reason(R + "attack/pips", "an attack spends at least one Crown, Court or Pawn")]
        known = [c for c in action.spent if c in CATALOGUE]
        if len(known) < len(action.spent):
            return reasons
        bad = [c for c in known if not attack_pips(c)]
        if bad:
            return reasons + [self.reason(R + "attack/pips", f"attacks are paid with Crowns (3), Courts (2) and "
                                          f"Pawns (1); {', '.join(map(title, bad))} pay nothing")]
        need = self._required(p, cell, victim, size)
        pips = [attack_pips(c) for c in known]
        total = sum(pips)
        why = ""
        if self.game.option("attack-pip-difference"):
            why = (f" (variant attack-pip-difference, house ruling: {size} + defender's {self.defence(victim, cell)}"
                   f" - attacker's {self.forces(p, cell)}, at least 1)")
        if total < need:
            reasons.append(self.reason(R + "attack/pips", f"{total} pip{'s' * (total != 1)} spent, {need} needed "
                                       f"to defeat {action.target}{why}"))
            if why:
                reasons.append(self.reason(R + "attack/pip-difference", f"the price of this attack is {need}{why}"))
        elif total - min(pips) >= need:
            idle = title(known[pips.index(min(pips))])
            reasons.append(self.reason(R + "attack/pips", f"house ruling: every spent card must be needed; "
                                       f"{need} pip{'s' * (need != 1)} are met without {idle}"))
        if action.replace:
            card = CATALOGUE[self.board[cell]]
            unmatched = [c for c in known if not CATALOGUE[c].shares_suit(card)]
            if unmatched:
                reasons.append(self.reason(R + "attack/replace", f"a replacement needs every spent card to share a "
                                           f"suit with {title(card.id)}; {', '.join(map(title, unmatched))} "
                                           f"share{'s' * (len(unmatched) == 1)} none"))
            if not self.supply[p][size - 1]:
                reasons.append(self.reason(R + "attack/replace", f"{action.player} has no {SIZE_WORDS[size]} "
                                           "pyramid in supply to put in its place"))
        if action.draw < 0 or (total >= need and action.draw > total - need):
            spare = max(0, total - need)
            reasons.append(self.reason(R + "attack/draw", f"one card may be drawn per unused pip: at most {spare}, "
                                       f"not {action.draw}"))
        return reasons

    def _check_discard(self, action: Discard) -> list[Reason]:
        reasons = self._turn_reasons(action, ("discard",))
        if reasons:
            if self.phase == "play" and action.player == self.players[self.turn]:
                return [self.reason(R + "turn/hand-limit", f"discarding comes at the end of the turn, down to "
                                    f"{HAND_LIMIT} cards; {action.player} has not acted yet")]
            return reasons
        return self._card_reasons(self.turn, [action.card])


_CHECKS = {Deal: Checks._check_deal, Reveal: Checks._check_reveal, Hatch: Checks._check_hatch,
           Draw: Checks._check_draw, Grow: Checks._check_grow, Spawn: Checks._check_spawn,
           Build: Checks._check_build, Move: Checks._check_move, Fly: Checks._check_fly,
           Remove: Checks._check_remove, Attack: Checks._check_attack,
           Discard: Checks._check_discard}
