"""The Mongoose referee: a turn is a joint play, a capture, a cleanup and (while the deck lasts) a refill.

What the referee knows is what the table shows. Hands are dealt face down, so it tracks only their
sizes; every card it has not seen anywhere (the deck and both hands) is *unseen*, and a revealed
play must be an unseen card: a card already in the pool, a collection or the discards cannot be in
anyone's hand. The nodes of the game, in order::

    reveal   (chance)  the table turns pool cards face up: 12 at the deal, 3 at each refill
    play     (joint)   both plays revealed together: ``play 2H AS``
    capture  (joint)   the players move the captures; the referee checks them against the votes
    cleanup  (either)  whoever holds more than 7 discards down to 7, in any order
    -> turns 1 to 6 end with a refill: one card face down to each hand (unseen, only counted),
       then a reveal of 3; turns 7 to 11 are the endgame, with no refills, and either player
       may forfeit; the game ends when both hands are played out.

The capture is a node of its own (rather than part of the play) because the players, not the
referee, move the cards: the camera sees the plays turned over first, then the cards going to the
collections, and the referee checks both. Cleanup follows as its own node because the discards are
the players' choices, made after they see what they captured.
"""

from __future__ import annotations

from itertools import combinations

from referee.game import CHANCE, GameConfigError, Outcome, State
from referee.rules import RuleBook
from referee.verdict import Reason, Verdict
from referee.view import View

from referee.games.mongoose import reading
from referee.games.mongoose.actions import ACTIONS, Capture, Discard, Forfeit, Play, Reveal
from referee.games.mongoose.capture import resolve
from referee.games.mongoose.deck import DECK, arranged, bad_card_text
from referee.games.mongoose.ranking import LONE_THREE, compare

HAND, POOL, REFILL, LIMIT = 5, 12, 3, 7
REFILL_TURNS, LAST_TURN = 6, 11  # turns 1-6 end with a refill; 7-11 are the endgame
PHASES = ("reveal", "play", "capture", "cleanup", "over")

_BOOK: RuleBook | None = None


class MongooseState(State):
    """One moment of a Mongoose game, as the referee knows it. Immutable."""

    ACTIONS = ACTIONS

    def __init__(self, game, phase: str, turn: int, due: int, pool: frozenset, collections: tuple,
                 discards: frozenset, hands: tuple, plays: tuple = (None, None), forfeit: int | None = None):
        super().__init__(game)
        self.phase, self.turn, self.due = phase, turn, due
        self.pool, self.collections, self.discards = pool, collections, discards
        self.hands, self.plays, self.forfeit = hands, plays, forfeit
        self._unseen: frozenset | None = None
        self._resolved = None

    # -- setting up --
    @classmethod
    def initial(cls, game, setup=None):
        """Hands of 5 are dealt face down. With no setup the 12 pool cards are still to be revealed
        (chance actions); ``{"pool": [12 card ids]}`` starts with the pool the table shows."""
        empty = (frozenset(), frozenset())
        if setup is None:
            return cls(game, "reveal", 1, POOL, frozenset(), empty, frozenset(), (HAND, HAND))
        if not isinstance(setup, dict) or set(setup) != {"pool"}:
            raise GameConfigError(f"a Mongoose setup is {{'pool': [12 card ids]}} or nothing, got {setup!r}")
        pool = setup["pool"]
        if isinstance(pool, str) or not hasattr(pool, "__iter__"):
            raise GameConfigError(f"the setup's pool is a list of card ids, got {pool!r}")
        pool = list(pool)
        for card in pool:
            if bad_card_text(card):
                raise GameConfigError("bad setup: " + bad_card_text(card))
        if len(set(pool)) != len(pool):
            raise GameConfigError(f"bad setup: the pool shows a card twice: {', '.join(pool)}")
        if len(pool) != POOL:
            raise GameConfigError(f"bad setup: the pool starts with {POOL} cards, got {len(pool)}")
        return cls(game, "play", 1, 0, frozenset(pool), empty, frozenset(), (HAND, HAND))

    @classmethod
    def rulebook(cls, game=None) -> RuleBook:
        global _BOOK
        if _BOOK is None:
            _BOOK = RuleBook.load("mongoose")
        return _BOOK

    # -- what the referee knows --
    @property
    def names(self) -> tuple[str, str]:
        return self.game.players

    @property
    def unseen(self) -> frozenset[str]:
        """Cards the table has not shown: the deck and both hands."""
        if self._unseen is None:
            seen = self.pool | self.collections[0] | self.collections[1] | self.discards
            self._unseen = DECK - seen - {c for c in self.plays if c}
        return self._unseen

    @property
    def deck_count(self) -> int:
        return len(self.unseen) - sum(self.hands)

    @property
    def endgame(self) -> bool:
        return self.turn > REFILL_TURNS and self.phase != "over"

    def excess(self, seat: int) -> int:
        return max(0, len(self.collections[seat]) - LIMIT)

    def where(self, card: str) -> str | None:
        """Where the table shows a card, in words; None while it is unseen."""
        if card in self.pool:
            return "is in the pool"
        for seat in (0, 1):
            if card in self.collections[seat]:
                return f"is in {self.names[seat]}'s collection"
            if card == self.plays[seat]:
                return f"is {self.names[seat]}'s play this turn"
        if card in self.discards:
            return "was discarded"
        return None

    # -- the state machine --
    @property
    def to_move(self):
        if self.phase == "over":
            return None
        if self.phase == "reveal":
            return CHANCE
        if self.phase == "cleanup":
            return self.names[0] if self.excess(0) else self.names[1]
        return self.names[0]

    def legal_actions(self):
        if self.phase == "over":
            return []
        if self.phase == "reveal":
            return [Reveal((card,)) for card in arranged(self.unseen)]
        actions: list = []
        if self.phase == "play":
            cards = arranged(self.unseen)
            actions = [Play(a, b) for a in cards for b in cards if a != b]
        elif self.phase == "capture":
            actions = [self._capture()]
        elif self.phase == "cleanup":
            for seat in (0, 1):
                for cards in combinations(arranged(self.collections[seat]), self.excess(seat)):
                    if cards:
                        actions.append(Discard(cards, ()) if seat == 0 else Discard((), cards))
        if self.endgame:
            actions += [Forfeit(name) for name in self.names]
        return actions

    def check(self, action) -> Verdict:
        if isinstance(action, Forfeit):
            return self._check_forfeit(action)
        if self.phase == "over":
            return Verdict.illegal(self.reason("mongoose/end/endgame", "the game is over"))
        wanted = {"reveal": Reveal, "play": Play, "capture": Capture, "cleanup": Discard}[self.phase]
        if not isinstance(action, wanted):
            return Verdict.illegal(self.reason("mongoose/turn/order", self._waiting_for()))
        return getattr(self, "_check_" + self.phase)(action)

    def _apply(self, action):
        if isinstance(action, Forfeit):
            return self._with(phase="over", forfeit=self.names.index(action.player))
        if isinstance(action, Reveal):
            due = self.due - len(action.cards)
            return self._with(pool=self.pool | set(action.cards), due=due, phase="reveal" if due else "play")
        if isinstance(action, Play):
            hands = (self.hands[0] - 1, self.hands[1] - 1)
            return self._with(plays=(action.first, action.second), hands=hands, phase="capture")
        if isinstance(action, Capture):
            moved = set(self._resolution().moves) | set(action.first) | set(action.second)  # the same, unless overruled
            collections = (self.collections[0] | set(action.first), self.collections[1] | set(action.second))
            state = self._with(pool=self.pool - moved, collections=collections, plays=(None, None),
                               phase="cleanup")
        else:
            collections = (self.collections[0] - set(action.first), self.collections[1] - set(action.second))
            state = self._with(collections=collections, discards=self.discards | set(action.first + action.second))
        return state if state.excess(0) or state.excess(1) else state._end_turn()

    def _end_turn(self) -> MongooseState:
        if self.turn <= REFILL_TURNS:  # one card face down to each hand (only counted), then 3 to the pool
            return self._with(phase="reveal", due=REFILL, hands=(self.hands[0] + 1, self.hands[1] + 1),
                              turn=self.turn + 1)
        if self.hands == (0, 0):
            return self._with(phase="over")
        return self._with(phase="play", turn=self.turn + 1)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        if self.forfeit is not None:
            loser, winner = self.names[self.forfeit], self.names[1 - self.forfeit]
            return Outcome((winner,), "mongoose/end/forfeit", f"{loser} forfeited in the endgame: {winner} wins")
        better, a, b = compare(*self.collections)
        if better == 0:
            return Outcome((), "mongoose/end/draw", f"a draw: {a} ties {b}")
        winner, won, lost = (0, a, b) if better > 0 else (1, b, a)
        rule = "mongoose/rank/categories" if won.category != lost.category else "mongoose/rank/tiebreak"
        text = f"{self.names[winner]} wins: {won} beats {lost}"
        if rule == "mongoose/rank/categories" and LONE_THREE in (won.name, lost.name):
            text += " (house ruling: a lone three ranks below three and a pair, above two pairs)"
        return Outcome((self.names[winner],), rule, text)

    # -- checks, one per node --
    def _check_reveal(self, action: Reveal) -> Verdict:
        reasons = self._bad_cards(action.cards)
        if not action.cards or len(action.cards) > self.due:
            what = "the deal" if self.turn == 1 else "the refill"
            reasons.append(self.reason("mongoose/refill/deal" if self.turn > 1 else "mongoose/setup/deal",
                                       f"{what} puts {self.due} more card(s) into the pool, not {len(action.cards)}"))
        for card in action.cards:
            if card in DECK and card not in self.unseen:
                reasons.append(self.reason("mongoose/setup/deck", f"{card} {self.where(card)}, so it cannot be "
                                           "turned up from the deck"))
        return Verdict.illegal(*reasons) if reasons else Verdict.ok()

    def _check_play(self, action: Play) -> Verdict:
        reasons = self._bad_cards((action.first, action.second))
        if reasons:
            return Verdict.illegal(*reasons)
        for seat, card in enumerate((action.first, action.second)):
            if card not in self.unseen:
                reasons.append(self.reason("mongoose/play/from-hand", f"{card} {self.where(card)}, so it cannot "
                                           f"be in {self.names[seat]}'s hand"))
        if action.first == action.second:
            reasons.append(self.reason("mongoose/play/simultaneous", f"both plays show {action.first}; "
                                       "a card cannot be in both hands"))
        return Verdict.illegal(*reasons) if reasons else Verdict.ok(
            self.reason("mongoose/play/simultaneous", "both plays revealed together"))

    def _check_capture(self, action: Capture) -> Verdict:
        given = (action.first, action.second)
        reasons = self._bad_cards(action.first + action.second)
        if reasons:
            return Verdict.illegal(*reasons)
        res = self._resolution()
        names = self.names
        for seat in (0, 1):
            for card in given[seat]:
                owner = self.plays.index(card) if card in self.plays else None
                if owner is not None:
                    if owner != seat:
                        reasons.append(self.reason("mongoose/capture/played", f"{card} is {names[owner]}'s play: "
                                                   f"it goes to {names[owner]}'s collection, not {names[seat]}'s"))
                elif card not in self.pool:
                    reasons.append(self.reason("mongoose/capture/lowest", f"{card} went to {names[seat]}, but "
                                               f"it {self.where(card) or 'was never shown'}: only pool cards "
                                               "and the plays are captured"))
                elif res.moves.get(card) != seat:
                    rule, why = res.fate(card, names)
                    if card in res.moves:
                        text = f"{card} went to {names[seat]}, but it goes to {names[1 - seat]}: {why}"
                    else:
                        text = f"{card} went to {names[seat]}, but {why}"
                    reasons.append(self.reason(rule, text + _ruled(rule)))
        for seat in (0, 1):
            if self.plays[seat] not in given[seat] and self.plays[seat] not in given[1 - seat]:
                reasons.append(self.reason("mongoose/capture/played", f"{self.plays[seat]}, {names[seat]}'s play, "
                                           f"is always captured: it goes to {names[seat]}'s collection"))
            for card, to in res.moves.items():
                if to == seat and card not in given[0] + given[1]:
                    rule, why = res.fate(card, names)
                    reasons.append(self.reason(rule, f"{card} should have gone to {names[seat]}: {why}"))
        if len(set(given[0] + given[1])) != len(given[0]) + len(given[1]):
            reasons.append(self.reason("mongoose/capture/lowest", "a card cannot be captured twice"))
        return Verdict.illegal(*reasons) if reasons else Verdict.ok()

    def _check_cleanup(self, action: Discard) -> Verdict:
        given = (action.first, action.second)
        reasons = self._bad_cards(action.first + action.second)
        if reasons:
            return Verdict.illegal(*reasons)
        if not action.first and not action.second:
            return Verdict.illegal(self.reason("mongoose/cleanup/limit", "a discard names at least one card"))
        for seat, cards in enumerate(given):
            name, have, excess = self.names[seat], len(self.collections[seat]), self.excess(seat)
            for card in cards:
                if card not in self.collections[seat]:
                    where = self.where(card) or "is not on the table"
                    reasons.append(self.reason("mongoose/cleanup/discard-pile",
                                               f"{name} can discard only from their collection, and {card} {where}"))
            if len(set(cards)) != len(cards):
                reasons.append(self.reason("mongoose/cleanup/limit", f"{name} names a card twice"))
            if cards and len(cards) != excess:
                if excess:
                    text = f"{name} has {have} cards and must discard exactly {excess}, not {len(cards)}"
                else:
                    text = f"{name} has {have} cards, within the limit of {LIMIT}: nothing to discard"
                reasons.append(self.reason("mongoose/cleanup/limit",
                                           text + " (house ruling: discard only down to 7)"))
        return Verdict.illegal(*reasons) if reasons else Verdict.ok()

    def _check_forfeit(self, action: Forfeit) -> Verdict:
        if action.player not in self.names:
            return Verdict.illegal(self.reason("mongoose/end/forfeit", f"{action.player} is not playing; the "
                                               f"players are {' and '.join(self.names)}"))
        if self.phase == "over":
            return Verdict.illegal(self.reason("mongoose/end/endgame", "the game is over"))
        if not self.endgame:
            return Verdict.illegal(self.reason("mongoose/end/forfeit", f"a player may forfeit only in the endgame "
                                               f"(turns 7 to 11); this is turn {self.turn}"))
        return Verdict.ok(self.reason("mongoose/end/forfeit", f"{action.player} gives up"))

    def _bad_cards(self, cards) -> list[Reason]:
        return [self.reason("mongoose/setup/deck", bad_card_text(c)) for c in cards if bad_card_text(c)]

    def _waiting_for(self) -> str:
        if self.phase == "reveal":
            what = "deal" if self.turn == 1 else "refill"
            return f"the table is still revealing the {what}: {self.due} more pool card(s) first"
        if self.phase == "play":
            return f"turn {self.turn} starts with both players revealing a play"
        if self.phase == "capture":
            return f"the plays {self.plays[0]} and {self.plays[1]} are revealed: the captures come next"
        owing = [f"{self.names[s]} must discard {self.excess(s)}" for s in (0, 1) if self.excess(s)]
        return "cleanup comes first: " + " and ".join(owing)

    # -- capture --
    def _resolution(self):
        if self._resolved is None:  # computed once per state: the capture node checks against it
            self._resolved = resolve(self.pool, self.plays)
        return self._resolved

    def _capture(self) -> Capture:
        res = self._resolution()
        return Capture(arranged(res.captured(0)), arranged(res.captured(1)))

    # -- the camera's view --
    def view(self) -> View:
        places = {"pool": arranged(self.pool), "discards": arranged(self.discards)}
        for seat, name in enumerate(self.names):
            places[f"collection/{name}"] = arranged(self.collections[seat])
            if self.plays[seat]:
                places[f"play/{name}"] = (self.plays[seat],)
        return View(places)

    def interpret(self, after: View):
        return reading.interpret(self, after)

    # -- JSON --
    def to_json(self) -> dict:
        names = self.names
        return {"phase": self.phase, "turn": self.turn, "due": self.due, "pool": list(arranged(self.pool)),
                "collections": {names[s]: list(arranged(self.collections[s])) for s in (0, 1)},
                "discards": list(arranged(self.discards)), "hands": {names[s]: self.hands[s] for s in (0, 1)},
                "plays": {names[s]: self.plays[s] for s in (0, 1)},
                "forfeit": None if self.forfeit is None else names[self.forfeit]}

    @classmethod
    def from_json(cls, game, data):
        return _load(cls, game, data)

    def _with(self, **changes) -> MongooseState:
        fields = dict(phase=self.phase, turn=self.turn, due=self.due, pool=self.pool, collections=self.collections,
                      discards=self.discards, hands=self.hands, plays=self.plays, forfeit=self.forfeit)
        fields.update(changes)
        return type(self)(self.game, **fields)


def _ruled(rule: str) -> str:
    return " (house ruling on votes)" if rule == "mongoose/capture/cancel" else ""


def _load(cls, game, data) -> MongooseState:
    """Rebuild a state from ``to_json``, refusing malformed data with a message naming the field."""
    def fail(message):
        raise ValueError(f"not a Mongoose state: {message}")

    keys = {"phase", "turn", "due", "pool", "collections", "discards", "hands", "plays", "forfeit"}
    if not isinstance(data, dict) or set(data) != keys:
        fail(f"expected an object with {sorted(keys)}, got {data!r}"[:300])
    names = game.players
    if data["phase"] not in PHASES:
        fail(f"phase is one of {', '.join(PHASES)}, got {data['phase']!r}")
    for key, low, top in (("turn", 1, LAST_TURN), ("due", 0, POOL)):
        if not isinstance(data[key], int) or isinstance(data[key], bool) or not low <= data[key] <= top:
            fail(f"{key} is a whole number from {low} to {top}, got {data[key]!r}")
    if (data["due"] > 0) != (data["phase"] == "reveal"):
        fail(f"pool cards are due (due > 0) exactly in the reveal phase, got due {data['due']} in {data['phase']}")
    for key in ("collections", "hands", "plays"):
        if not isinstance(data[key], dict) or set(data[key]) != set(names):
            fail(f"{key} maps each player ({', '.join(names)}) to a value, got {data[key]!r}")
    places = {"pool": data["pool"], "discards": data["discards"]}
    places.update({f"collection of {n}": data["collections"][n] for n in names})
    places.update({f"play of {n}": [data["plays"][n]] for n in names if data["plays"][n] is not None})
    seen: dict[str, str] = {}
    for place, cards in places.items():
        if not isinstance(cards, list):
            fail(f"the {place} is a list of card ids, got {cards!r}")
        for card in cards:
            if bad_card_text(card):
                fail(f"the {place}: {bad_card_text(card)}")
            if card in seen:
                fail(f"{card} is both in the {seen[card]} and the {place}")
            seen[card] = place
    if any(data["plays"][n] is not None for n in names) and data["phase"] not in ("capture", "over"):
        fail(f"plays are shown only between the reveal and the captures, not in the {data['phase']} phase")
    hands = tuple(data["hands"][n] for n in names)
    if not all(isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= HAND for h in hands):
        fail(f"hand sizes are whole numbers from 0 to {HAND}, got {data['hands']!r}")
    if data["forfeit"] is not None and data["forfeit"] not in names:
        fail(f"forfeit names a player or is null, got {data['forfeit']!r}")
    state = cls(game, data["phase"], data["turn"], data["due"], frozenset(data["pool"]),
                tuple(frozenset(data["collections"][n]) for n in names), frozenset(data["discards"]), hands,
                tuple(data["plays"][n] for n in names),
                None if data["forfeit"] is None else names.index(data["forfeit"]))
    if state.deck_count < 0:
        fail(f"the hands hold {sum(hands)} cards but only {len(state.unseen)} are unseen")
    return state
