"""Checking one action: a verdict citing the edition's rule ids, in words a player understands.

A mixin of :class:`~referee.games.pouches.state.PouchesState`. Checks never enumerate the legal
actions: a swoosh or a thrown card's slide is followed step by step, so a check stays well under a
millisecond.
"""

from __future__ import annotations

from referee.action import Action
from referee.games.pouches.actions import (ACTIONS, DIRECTIONS, Declare, Decline, Discard, Done, Enter, Fight,
                                           Move, Pick, Reveal, Show, Stay, Take, Weapons)
from referee.games.pouches.fight import decide
from referee.games.pouches.heap import (HEIGHT, BadCell, cell_text, corner_cut, is_beside, is_diagonal, is_nesw,
                                        on_or_beside, parse_cell, parse_path)
from referee.games.pouches.limits import DROP_LIMIT, POUCH_LIMIT
from referee.verdict import Reason, Verdict


class Checks:
    """``check``: whether an action is legal now, and the rules that say so."""

    def check(self, action: Action) -> Verdict:
        if self.result is not None:
            return Verdict.illegal(self.r(self.result["rule"].split("/", 1)[1], "the game is over"))
        if not isinstance(action, ACTIONS):
            return Verdict.illegal(self.r("turn/actions", f"{action!r} is not an action of this game"))
        if self.pending:
            if isinstance(action, Reveal):
                return self._check_reveal(action)
            return Verdict.illegal(self.r("setup/reveal", f"the table must first show the card turned up at "
                                                          f"{self.pending[0]}"))
        if isinstance(action, Reveal):
            return Verdict.illegal(self.r("setup/reveal", "no card is waiting to be revealed"))
        if isinstance(action, Declare):
            return self._check_declare(action)
        mover = self.to_move
        player = getattr(action, "player", None)
        if isinstance(action, Weapons):  # a joint action: it stands for the fighters (or, out of place, no one)
            player = mover if mover in self.game.players else self.game.players[0]
        if player not in self.game.players:
            return Verdict.illegal(self.r("turn/order", f"{player!r} is not playing"))
        phase = self.phase
        if phase == "show":
            if not isinstance(action, Show):
                return Verdict.illegal(self._waiting_reason(f"{action.kind} is not allowed now"))
            return self._check_show(action)
        if phase == "take" and self.private and isinstance(action, Take):
            return self._check_take(action)
        if (phase == "consult" and isinstance(action, Fight) and not self.rules.fleeting_fights
                and player in self.ctx.get("used", ())):
            return Verdict.illegal(self.r("fight/once", f"{player} has already had a chance to start a fight "
                                                        "this turn"))
        if player != mover:
            if isinstance(action, Pick) and player in (self.ctx.get("picked"), self.ctx.get("who")) and (
                    self.ctx.get("picked")):
                return Verdict.illegal(self.r("pick/spade", f"{player} has picked: a second pick needs a Spade "
                                                            "held before the action"))
            reasons = [self._waiting_reason(f"it is {mover}'s decision, not {player}'s")]
            if phase == "act" and self.turn == 0:
                rule = "turn/two-players" if len(self.game.players) == 2 else "turn/rotation"
                reasons.append(self.r(rule, f"round {self.round} begins with {mover}"))
            return Verdict.illegal(*reasons)
        handler = {
            "enter": {Enter: self._check_enter},
            "act": {Move: self._check_move, Stay: self._check_stay, Pick: self._check_pick,
                    Discard: self._check_discard},
            "pick2": {Pick: self._check_second_pick, Done: lambda a: Verdict.ok()},
            "overflow": {Discard: self._check_discard},
            "consult": {Fight: self._check_fight, Decline: lambda a: Verdict.ok()},
            "weapons": {Weapons: self._check_weapons},
            "fdiscard": {Discard: self._check_discard},
            "take": {Take: self._check_take},
        }[phase].get(type(action))
        if handler is None:
            return Verdict.illegal(self._waiting_reason(f"{action.kind} is not allowed now"))
        return handler(action)

    def _waiting_reason(self, text: str) -> Reason:
        """Why an action is out of place: names what the table is waiting for, and its rule."""
        phase, mover = self.phase, self.to_move
        if phase == "enter":
            return self.r("setup/start", f"{text}: {mover} chooses a starting spot beside the heap")
        if phase == "pick2":
            return self.r("pick/spade", f"{text}: {mover} may pick a second card (a Spade) or be done")
        if phase == "overflow":
            return self.r("pouch/limit", f"{text}: {mover} must first discard down to {POUCH_LIMIT} cards")
        if phase == "consult":
            return self.r("fight/order", f"{text}: {mover} is asked whether to start a fight")
        if phase == "weapons":
            return self.r("fight/weapons", f"{text}: the fighters reveal their weapons")
        if phase == "fdiscard":
            return self.r("fight/discard-order", f"{text}: {mover} discards the weapon played")
        if phase == "take":
            return self.r("fight/spoils", f"{text}: {mover} takes a card from the loser's pouch")
        if phase == "show":
            return self.r("advanced/private-pouches", f"{text}: the table shows {self.ctx['show'][0]}'s pouch "
                                                      "to confirm the win")
        return self.r("turn/order", f"{text}: it is {mover}'s turn")

    def _check_reveal(self, action: Reveal) -> Verdict:
        if action.place not in self.pending:
            return Verdict.illegal(self.r("setup/reveal", f"no card is turned up at {action.place}; the table "
                                                          f"is waiting for {', '.join(self.pending)}"))
        return self._card_unseen(action.card, "setup/reveal")

    def _card_unseen(self, card: str, rule: str) -> Verdict:
        if card not in HEIGHT:
            return Verdict.illegal(self.r(rule, f"{card!r} is not a card id (rank then suit, like 7C)"))
        if card not in self.deck:
            return Verdict.illegal(self.r(rule, f"{card} was removed from the deck before the deal"))
        if card not in self.unseen:
            return Verdict.illegal(self.r(rule, f"{card} cannot be turned up: it is at {self.known[card]}"))
        return Verdict.ok()

    def _check_enter(self, action: Enter) -> Verdict:
        try:
            cell = parse_cell(action.cell)
        except BadCell as exc:
            return Verdict.illegal(self.r("setup/start", str(exc)))
        if not is_beside(self.heap, cell):
            where = "on the heap" if cell in self.heap else "not beside the heap"
            return Verdict.illegal(self.r("setup/start", f"{action.cell} is {where}: start on bedrock beside it"))
        return Verdict.ok()

    def _check_declare(self, action: Declare) -> Verdict:
        if not self.rules.declare:
            return Verdict.illegal(self.r("turn/rotation", "the order rotates as the rules say; no declaring"))
        if len(self.game.players) < 3:
            return Verdict.illegal(self.r("turn/two-players", "with two players the first player alternates"))
        if not self._may_declare():
            return Verdict.illegal(self.r("turn/declare", "a new start and direction are declared only at the "
                                                          "start of a round, before anyone acts"))
        if action.first not in self.game.players or action.direction not in DIRECTIONS:
            return Verdict.illegal(self.r("turn/declare", f"declare one of {', '.join(self.game.players)} and "
                                                          "clockwise or anticlockwise"))
        return Verdict.ok(self.r("turn/declare", "the table may pick a new first player and direction"))

    def _check_stay(self, action: Stay) -> Verdict:
        return Verdict.ok(self.r("move/stay", "staying put (doing nothing) is always allowed"))

    def _check_move(self, action: Move) -> Verdict:
        try:
            path = parse_path(action.path)
        except BadCell as exc:
            return Verdict.illegal(self.r("move/step", str(exc)))
        heap, here = self.heap, self.spots[action.player]
        first = path[0]
        if len(path) == 1 and is_diagonal(here, first):
            if here in heap or first in heap:
                return Verdict.illegal(self.r("move/diagonal", "diagonal steps are only from bedrock beside the "
                                                               "heap to bedrock beside the heap"))
            if not is_beside(heap, first) or not corner_cut(heap, here, first):
                return Verdict.illegal(self.r("move/diagonal", f"a diagonal step to {cell_text(first)} must cut "
                                                               "across the corner of a heap card, staying beside it"))
            return Verdict.ok(self.r("move/diagonal", "a diagonal step round the heap's corner"))
        if not is_nesw(here, first):
            return Verdict.illegal(self.r("move/step", f"{cell_text(first)} is not a neighbouring spot (N, E, S "
                                                       f"or W) of {cell_text(here)}"))
        if not on_or_beside(heap, first):
            return Verdict.illegal(self.r("move/beside", f"{cell_text(first)} is neither on nor beside the heap"))
        low, high = self.height_at(here), self.height_at(first)
        if len(path) == 1:
            if high > low:
                limit, text = self.uphill_limit(action.player)
                if high - low > limit:
                    reasons = [self.r("move/uphill", f"uphill step of {high - low} is more than {text}")]
                    if "Steeper" in text:
                        reasons.append(self.r("advanced/steeper-hills", f"Steeper Hills allow {text[:-18]}"))
                    return Verdict.illegal(*reasons)
                return Verdict.ok(self.r("move/uphill", f"uphill step of {high - low}"))
            if high == low:
                return Verdict.ok(self.r("move/step", "a step along to the same height"))
            return Verdict.ok(self.r("move/swoosh", "a swoosh of one step downhill"))
        previous, h_prev = here, low
        for cell in path:
            if not is_nesw(previous, cell):
                return Verdict.illegal(self.r("move/swoosh", f"a swoosh goes NESW step by step: {cell_text(cell)} "
                                                             f"does not neighbour {cell_text(previous)}"))
            h = self.height_at(cell)
            if h >= h_prev:
                return Verdict.illegal(self.r("move/swoosh", f"a swoosh follows ever lower cards: "
                                                             f"{cell_text(cell)} ({h}) is not lower than "
                                                             f"{cell_text(previous)} ({h_prev})"))
            previous, h_prev = cell, h
        return Verdict.ok(self.r("move/swoosh", "a swoosh along ever lower cards"))

    def _check_pick(self, action: Pick) -> Verdict:
        try:
            cell = parse_cell(action.cell)
        except BadCell as exc:
            return Verdict.illegal(self.r("pick/own", str(exc)))
        here = self.spots[action.player]
        if cell == here:
            if here not in self.heap:
                return Verdict.illegal(self.r("pick/own", "you stand on bedrock: there is no card to pick here"))
            return Verdict.ok(self.r("pick/own", "picking the card you stand on"))
        if not is_nesw(here, cell):
            return Verdict.illegal(self.r("pick/dig", f"{action.cell} is neither your spot nor a NESW neighbour"))
        if cell not in self.heap or self.height_at(cell) <= self.height_at(here):
            return Verdict.illegal(self.r("pick/dig", f"dig only beneath a higher neighbour: {action.cell} "
                                                      f"({self.height_at(cell)}) is not higher than your spot "
                                                      f"({self.height_at(here)})"))
        if len(self.heap[cell]) < 2:
            return Verdict.illegal(self.r("pick/dig-depth", f"the pile at {action.cell} is a single card: nothing "
                                                            "lies beneath it to dig (house ruling)"))
        return Verdict.ok(self.r("pick/dig", "digging beneath a higher neighbour"))

    def _check_second_pick(self, action: Pick) -> Verdict:
        verdict = self._check_pick(action)
        if verdict:
            return Verdict.ok(self.r("pick/spade", "a second pick: a Spade was held before the action"),
                              *verdict.reasons)
        return verdict

    def _check_discard(self, action: Discard) -> Verdict:
        player, card = action.player, action.card
        if self.phase == "fdiscard":
            weapon = self.ctx["queue"][0][1]
            if card != weapon:
                return Verdict.illegal(self.r("fight/discard-order", f"{player} must now discard the weapon "
                                                                     f"played, {weapon}"))
        elif card not in self.pouches[player]:
            return Verdict.illegal(self.r("discard/card", f"{card} is not in {player}'s pouch"))
        heap, here = self.heap, self.spots[player]
        low, value = self.height_at(here), HEIGHT[card]
        if action.how == "drop":
            if action.to or action.under:
                return Verdict.illegal(self.r("discard/drop", "a drop goes onto your own spot: name no cell"))
            if value - low > DROP_LIMIT:
                return Verdict.illegal(self.r("discard/drop", f"dropping {card} here would raise you by "
                                                              f"{value - low}, more than {DROP_LIMIT}"))
            if here not in heap:
                return Verdict.ok(self.r("discard/bedrock", "a card dropped on bedrock starts a new pile"))
            return Verdict.ok(self.r("discard/drop", "dropped onto your own spot"))
        if action.how == "bury":
            if not self.rules.burying:
                return Verdict.illegal(self.r("discard/ways", "Greedy Devils 1.3 has no burying: a discard is "
                                                              "thrown, slid or dropped"))
            try:
                cell = parse_cell(action.to)
            except BadCell as exc:
                return Verdict.illegal(self.r("discard/bury", str(exc)))
            if action.under or not is_nesw(here, cell) or cell not in heap or self.height_at(cell) <= low:
                return Verdict.illegal(self.r("discard/bury", f"bury only beneath a higher NESW neighbour; "
                                                              f"{action.to} is not one"))
            return Verdict.ok(self.r("discard/bury", "buried beneath a higher neighbour"))
        if action.how != "throw":
            return Verdict.illegal(self.r("discard/ways", f"a discard is drop, throw or bury, not {action.how!r}"))
        try:
            path = parse_path(action.to)
            under = parse_cell(action.under) if action.under else None
        except BadCell as exc:
            return Verdict.illegal(self.r("discard/throw", str(exc)))
        start = path[0]
        if not is_nesw(here, start):
            return Verdict.illegal(self.r("discard/throw", f"a card is thrown to a NESW neighbour; "
                                                           f"{cell_text(start)} is not one"))
        if not on_or_beside(heap, start):
            return Verdict.illegal(self.r("discard/throw", f"{cell_text(start)} is neither on nor beside the heap "
                                                           "(house ruling: thrown as far as a MOVE)"))
        previous = start
        for cell in path[1:]:
            if not is_nesw(previous, cell) or self.height_at(cell) >= self.height_at(previous):
                return Verdict.illegal(self.r("discard/slide", f"a thrown card slides on only to a lower NESW "
                                                               f"neighbour; {cell_text(cell)} is not one after "
                                                               f"{cell_text(previous)}"))
            previous = cell
        end = path[-1]
        if self._buried_on_landing(card, end):
            raise_by = value - self.height_at(end)
            if end in heap:
                if under is not None:
                    return Verdict.illegal(self.r("discard/occupied", f"{card} is buried beneath {cell_text(end)} "
                                                                      "itself: name no other pile"))
                return Verdict.ok(self.r("discard/occupied", f"{card} would raise a marsupial by {raise_by}: "
                                                             f"it is buried beneath {cell_text(end)}"))
            options = self._beside_piles(end)
            if under not in options:
                names = ", ".join(cell_text(c) for c in options)
                return Verdict.illegal(self.r("discard/occupied", f"{card} would raise a marsupial on bedrock at "
                                                                  f"{cell_text(end)} by {raise_by}: bury it under "
                                                                  f"a neighbouring pile ({names}) (house ruling)"))
            return Verdict.ok(self.r("discard/occupied", f"{card} is buried beneath {cell_text(under)}"))
        if under is not None:
            rule = "discard/occupied" if self.rules.burying else "discard/ways"
            return Verdict.illegal(self.r(rule, f"{card} lands on top at {cell_text(end)}; it is not buried"))
        if end not in heap:
            return Verdict.ok(self.r("discard/bedrock", "a card thrown onto bedrock starts a new pile"))
        return Verdict.ok(self.r("discard/throw", "thrown to a neighbour"))

    def _check_fight(self, action: Fight) -> Verdict:
        used = self.ctx.get("used", ())
        if not self.rules.fleeting_fights and action.player in used:
            return Verdict.illegal(self.r("fight/once", f"{action.player} has already had a chance to start a "
                                                        "fight this turn"))
        if action.opponent not in self.ctx["site"][1] or action.opponent == action.player:
            return Verdict.illegal(self.r("fight/when", f"{action.opponent} is not on the same location"))
        if not self.pouches[action.player] or not self.pouches[action.opponent]:
            return Verdict.illegal(self.r("fight/needs-cards", "both fighters need a card in their pouch to "
                                                               "fight (house ruling)"))
        return Verdict.ok(self.r("fight/when", f"{action.player} and {action.opponent} share a location"))

    def _check_weapons(self, action: Weapons) -> Verdict:
        try:
            chosen = action.chosen()
        except ValueError as exc:
            return Verdict.illegal(self.r("fight/weapons", str(exc)))
        fighters = set(self.ctx["fight"])
        if set(chosen) != fighters or len(action.choices) != 2:
            return Verdict.illegal(self.r("fight/weapons", f"both fighters, {' and '.join(self.ctx['fight'])}, "
                                                           "reveal one weapon each"))
        for player, card in chosen.items():
            if card not in self.pouches[player]:
                return Verdict.illegal(self.r("fight/weapons", f"{card} is not in {player}'s pouch"))
        a, b = self.ctx["fight"]
        text = decide(a, chosen[a], self.pouches[a], b, chosen[b], self.pouches[b])[2]
        return Verdict.ok(self.r("fight/weapons", "weapons revealed together"), self.r("fight/score", text))

    def _check_show(self, action: Show) -> Verdict:
        due = self.ctx["show"][0]
        if action.player != due:
            return Verdict.illegal(self.r("advanced/private-pouches", f"the table must show {due}'s pouch, "
                                                                      f"not {action.player}'s"))
        followed = tuple(sorted(self.pouches[due]))
        shown = tuple(sorted(action.cards))
        if shown != followed:
            return Verdict.illegal(self.r(
                "advanced/private-pouches", f"the pouch shown ({', '.join(shown) or 'empty'}) is not the one the "
                                            f"referee followed ({', '.join(followed)}); the win stands only when "
                                            "they agree (house ruling)"))
        return Verdict.ok(self.r("advanced/private-pouches", f"{due}'s pouch is shown: the win stands"))

    def _check_take(self, action: Take) -> Verdict:
        winner, loser = self.ctx["winner"], self.ctx["loser"]
        if action.player != winner:
            return Verdict.illegal(self.r("fight/spoils", f"only the winner, {winner}, takes a card"))
        if action.card not in self.pouches[loser]:
            reasons = [self.r("fight/spoils", f"{action.card} is not in {loser}'s pouch")]
            if self.private:
                reasons.append(self.r("advanced/private-pouches", "the card taken is drawn at random from the "
                                                                  "loser's pouch"))
            return Verdict.illegal(*reasons)
        if self.private:
            return Verdict.ok(self.r("advanced/private-pouches", "the winner drew this card at random"))
        return Verdict.ok(self.r("fight/spoils", "the winner's choice from the loser's pouch"))

