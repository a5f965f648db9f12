"""The referee core API, exercised through a small but complete game: Nim with an observed deal.

The table shows how many counters were put out (a chance event the camera reports); players then
take 1 to 3 counters in turn; whoever takes the last counter wins.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from referee import (CHANCE, Action, ActionParseError, Dynamics, Edition, GameConfigError, GameType,
                     IllegalAction, Information, Option, Outcome, Reading, Reason, RuleBook, State, UnknownRule,
                     Verdict, View)
from referee.games import Registry
from referee.playout import InvariantBroken, random_playout
from referee.rules import RuleBookError

RULES = RuleBook.from_toml("nim", '''
source = "nim.md"
[[rule]]
id = "nim/setup/deal"
section = "Setup"
statement = "The table starts with the counters put out, as many as the option allows."
[[rule]]
id = "nim/turn/order"
section = "Turns"
statement = "Players take turns in seat order."
[[rule]]
id = "nim/take/count"
section = "Turns"
statement = "A turn takes at least one counter and at most the allowed maximum."
ruling = "The text says 'a few'; we read it as the option max-take, 3 by default."
option = "max-take"
[[rule]]
id = "nim/end/last"
section = "End"
statement = "Whoever takes the last counter wins."
''')


@dataclass(frozen=True)
class Deal(Action):
    kind = "deal"
    counters: int


@dataclass(frozen=True)
class Take(Action):
    kind = "take"
    player: str
    count: int


class NimState(State):
    ACTIONS = (Deal, Take)

    def __init__(self, game, pile: int | None, turn: int, last_taker: str | None = None):
        super().__init__(game)
        self.pile, self.turn, self.last_taker = pile, turn, last_taker

    @classmethod
    def initial(cls, game, setup):
        return cls(game, None, 0)

    @classmethod
    def rulebook(cls, game):
        return RULES

    @property
    def to_move(self):
        if self.pile is None:
            return CHANCE
        return None if self.pile == 0 else self.game.players[self.turn]

    def legal_actions(self):
        if self.pile is None:
            return [Deal(n) for n in range(1, self.game.option("max-pile") + 1)]
        most = min(self.game.option("max-take"), self.pile)
        return [Take(self.to_move, n) for n in range(1, most + 1)] if self.pile else []

    def check(self, action):
        if self.pile is None:
            if isinstance(action, Deal) and 1 <= action.counters <= self.game.option("max-pile"):
                return Verdict.ok()
            return Verdict.illegal(self.reason("nim/setup/deal", "the game starts with the counters put out"))
        if not isinstance(action, Take):
            return Verdict.illegal(self.reason("nim/turn/order", f"it is {self.to_move}'s turn to take"))
        reasons = []
        if action.player != self.to_move:
            reasons.append(self.reason("nim/turn/order", f"it is {self.to_move}'s turn, not {action.player}'s"))
        most = self.game.option("max-take")
        if not 1 <= action.count <= min(most, self.pile):
            reasons.append(self.reason("nim/take/count", f"take 1 to {min(most, self.pile)} counters"))
        return Verdict.illegal(*reasons) if reasons else Verdict.ok(self.reason("nim/take/count", "a fair take"))

    def _apply(self, action):
        if isinstance(action, Deal):
            return type(self)(self.game, action.counters, 0)
        return type(self)(self.game, self.pile - action.count, (self.turn + 1) % len(self.game.players), action.player)

    def outcome(self):
        if self.pile == 0:
            return Outcome((self.last_taker,), "nim/end/last", f"{self.last_taker} took the last counter")
        return None

    def view(self):
        return View({"pile": ("counter",) * (self.pile or 0)})

    def to_json(self):
        return {"pile": self.pile, "turn": self.turn, "last_taker": self.last_taker}

    @classmethod
    def from_json(cls, game, data):
        return cls(game, data["pile"], data["turn"], data["last_taker"])


NIM = GameType(
    name="nim", title="Nim", editions=(Edition("1", "Nim", "nim.md"), Edition("misere", "Misere Nim", "nim.md")),
    min_players=2, max_players=4, dynamics=Dynamics.SEQUENTIAL, information=Information.PERFECT,
    pieces="counters", options=(Option("max-take", "most counters a turn may take", 3, choices=(2, 3, 4)),
                                Option("max-pile", "most counters dealt", 12),
                                Option("loud", "misere only: announce takes", False, editions=("misere",))))


@pytest.fixture
def registry():
    reg = Registry()
    reg.register(NIM, NimState)
    return reg


@pytest.fixture
def game(registry):
    return registry.get("nim", players=["ann", "bob"])


def test_games_are_configured_from_data(registry):
    game = registry.get("nim", edition="misere", players=3, options={"max-take": "4", "loud": "yes"})
    assert game.players == ("p1", "p2", "p3")
    assert game.options == {"max-take": 4, "max-pile": 12, "loud": True}
    assert registry.from_json(json.loads(json.dumps(game.to_json()))) == game
    assert "max-take=2|3|4 (default 3)" in NIM.options[0].describe()


@pytest.mark.parametrize("kwargs, message", [
    ({"name": "chess"}, "no game named 'chess'; Tableside knows nim"),
    ({"edition": "2"}, "editions 1, misere; not '2'"),
    ({"players": 5}, "for 2 to 4 players, got 5"),
    ({"players": ["ann", "ann"]}, "must differ"),
    ({"players": ["ann", "bo b"]}, "single words"),
    ({"options": {"max-take": 9}}, "one of 2, 3, 4"),
    ({"options": {"max-take": "many"}}, "takes a int"),
    ({"options": {"loud": True}}, "has no option loud"),
])
def test_bad_game_requests_say_what_is_allowed(registry, kwargs, message):
    request = {"name": "nim", "players": 2} | kwargs
    with pytest.raises(GameConfigError, match=message):
        registry.get(request.pop("name"), **request)


def test_a_game_is_played_with_check_apply_and_outcome(game):
    state = game.new_state()
    assert state.to_move == CHANCE
    state = state.apply(Deal(5))
    assert state.to_move == "ann" and state.outcome() is None
    state = state.apply(Take("ann", 3))
    assert state.view() == View({"pile": ("counter",) * 2})
    after = state.apply(Take("bob", 2))
    assert after.outcome() == Outcome(("bob",), "nim/end/last", "bob took the last counter")
    assert after.to_move is None and after.is_over() and list(after.legal_actions()) == []
    assert state.pile == 2  # apply returned a new state and left the old one alone


def test_illegal_actions_are_explained_and_refused(game):
    state = game.new_state().apply(Deal(5))
    verdict = state.check(Take("bob", 4))
    assert not verdict and verdict.rules == ("nim/turn/order", "nim/take/count")
    assert "it is ann's turn, not bob's" in str(verdict)
    with pytest.raises(IllegalAction) as raised:
        state.apply(Take("bob", 4))
    assert raised.value.verdict == verdict and "nim/take/count" in str(raised.value)


def test_rule_catalogue():
    rule = RULES["nim/take/count"]
    assert (rule.source, rule.section, rule.option) == ("nim.md", "Turns", "max-take")
    assert rule.ruling.startswith("The text says")
    with pytest.raises(UnknownRule, match="no rule has the id 'nim/take/more'"):
        RULES.reason("nim/take/more", "?")
    assert RULES.reason("nim/end/last", "done") == Reason("nim/end/last", "done")


@pytest.mark.parametrize("text, message", [
    ("[[rule]]\nid = 'x/y'\nsection = 's'\nstatement = 't'", "names no source document"),
    ("source='a'\n[[rule]]\nid = 'Bad Id'\nsection = 's'\nstatement = 't'", "lower-case words"),
    ("source='a'\n[[rule]]\nid = 'x/y'\nstatement = 't'", "non-empty 'section'"),
    ("source='a'\n[[rule]]\nid = 'x/y'\nsection = 's'\nstatement = 't'\nrulling = 'typo'", "unknown keys rulling"),
    ("source='a'\n" + "[[rule]]\nid = 'x/y'\nsection = 's'\nstatement = 't'\n" * 2, "appears twice"),
    ("source = ", "not valid TOML"),
])
def test_malformed_rule_books_are_refused(text, message):
    with pytest.raises(RuleBookError, match=message):
        RuleBook.from_toml("bad", text)


def test_an_illegal_verdict_must_cite_a_rule():
    with pytest.raises(ValueError, match="at least one rule"):
        Verdict.illegal()
    verdict = Verdict.illegal(Reason("nim/turn/order", "wait"))
    assert Verdict.from_json(json.loads(json.dumps(verdict.to_json()))) == verdict


def test_action_notation_and_json_round_trip(game):
    codec = game.actions
    take = Take("ann", 2)
    assert str(take) == "take ann 2" and codec.parse("take ann 2") == take
    assert codec.from_json(take.to_json()) == take and take.to_json() == {"kind": "take", "player": "ann", "count": 2}


@pytest.mark.parametrize("text, message", [
    ("", "an empty action"),
    ("grab ann 2", "unknown action 'grab'; this game's actions are deal, take"),
    ("take ann", r"'take' takes 2 argument\(s\): take <player> <count>"),
    ("take ann two", "count is a whole number"),
])
def test_unparseable_actions(game, text, message):
    with pytest.raises(ActionParseError, match=message):
        game.actions.parse(text)


@pytest.mark.parametrize("data, message", [
    ({"player": "ann"}, "with a 'kind'"),
    ({"kind": "take", "player": "ann"}, "missing \\['count'\\]"),
    ({"kind": "take", "player": "ann", "count": "2"}, "take.count must be a whole number"),
    ({"kind": "take", "player": 7, "count": 2}, "take.player must be a string"),
])
def test_malformed_action_json(game, data, message):
    with pytest.raises(ActionParseError, match=message):
        game.actions.from_json(data)


def test_states_round_trip_and_compare_by_value(game):
    state = game.new_state().apply(Deal(7)).apply(Take("ann", 1))
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and hash(again) == hash(state) and again is not state


def test_interpret_reads_a_change_of_view_as_actions(game):
    state = game.new_state().apply(Deal(6))
    readings = state.interpret(View({"pile": ("counter",) * 4}))
    assert readings == (Reading(Take("ann", 2), state.check(Take("ann", 2))),)
    assert state.interpret(View({"pile": ("counter",) * 1})) == ()  # taking 5 explains it, but is no legal reading


def test_view_diff_and_validation():
    before = View({"pool": ["4H", "9S"], "empty": []})
    assert "empty" not in before and before.get("nowhere") == ()
    change = before.diff(View({"pool": ("9S",)}))
    assert [(c.place, c.before, c.after) for c in change] == [("pool", ("4H", "9S"), ("9S",))]
    with pytest.raises(ValueError, match="bad place name"):
        View({"Pool Area": ("AS",)})
    with pytest.raises(ValueError, match="must be a list of strings"):
        View({"pool": "AS"})


def test_random_playouts_keep_the_invariants(game):
    for seed in range(30):
        history = random_playout(game.new_state(), random.Random(seed),
                                 illegal=lambda s: [Take("ann", 4), Take("bob", 0), Deal(99)])
        final = game.new_state()
        for action in history:
            final = final.apply(action)
        assert final.is_over()


class _Leaky(NimState):
    def legal_actions(self):  # offers a take the rules refuse
        return list(super().legal_actions()) + ([Take("nobody", 1)] if self.pile else [])


class _Stuck(NimState):
    def legal_actions(self):  # never lets anyone move
        return [] if self.pile else super().legal_actions()


class _Lax(NimState):
    def apply(self, action):  # skips the check: the harness must notice
        return self._apply(action)


@pytest.mark.parametrize("state_class, illegal, message", [
    (_Leaky, None, "legal_actions offered take nobody 1"),
    (_Stuck, None, "the game is not over but no action is legal"),
    (_Lax, lambda s: [Take("bob", 0)], "apply accepted take bob 0, which check rejects"),
])
def test_the_playout_harness_catches_a_broken_game(state_class, illegal, message):
    registry = Registry()
    registry.register(NIM, state_class)
    game = registry.get("nim", players=["ann", "bob"])
    with pytest.raises(InvariantBroken, match=message):
        random_playout(game.new_state(), random.Random(1), illegal=illegal)
