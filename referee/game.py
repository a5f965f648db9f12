"""Games as data, and the state machine every game implements.

A :class:`GameType` describes a game the way OpenSpiel does: its editions, player counts, whether
turns are sequential or (sometimes) simultaneous, whether chance enters (always *observed*: the
table reports the revealed card or the die's face, the referee never draws), whether information
is perfect, and its options. A :class:`Game` is one configured match: type, edition, players and
option values. A :class:`State` is an immutable position with the python-chess vocabulary::

    state.legal_actions()      # what the player to move may do (chance: what the table may show)
    state.check(action)        # Verdict(legal, reasons) citing rule ids
    state.apply(action)        # a new State; raises IllegalAction when check says no
    state.outcome()            # None, or Outcome(winners, rule, text)
    state.view()               # what a camera sees: places -> visible contents
    state.interpret(after)     # readings of a change of view: candidate actions with verdicts
    state.to_json(), Game.state_from_json(data)

Subclasses implement ``_apply`` (called only for actions ``check`` accepted) and the abstract
methods; ``apply`` itself is final, so an action that ``check`` rejects can never be applied.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from referee.action import Action, ActionCodec
from referee.pyramids import colours_in
from referee.rules import RuleBook
from referee.verdict import IllegalAction, Reason, Verdict
from referee.view import View

CHANCE = "*table*"  # to_move at a chance node: the table (a reveal, a roll) decides


class Dynamics(Enum):
    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"  # some decisions are made at once by several players (a joint action)


class Information(Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class GameConfigError(ValueError):
    """A game asked for with a bad name, edition, player list or option: says what is allowed."""


@dataclass(frozen=True)
class Option:
    """A choice the players make before the game: a variant or a house ruling's alternative."""

    name: str
    help: str
    default: Any
    choices: tuple = ()  # allowed values; empty means any value of the default's type
    editions: tuple[str, ...] = ()  # editions the option belongs to; empty means all

    def validate(self, value: Any) -> Any:
        """The value as the option's type (strings from a command line are converted)."""
        if isinstance(value, str) and not isinstance(self.default, str):
            value = _from_text(value, type(self.default), self.name)
        if type(value) is not type(self.default) and not (isinstance(self.default, float) and isinstance(value, int)):
            raise GameConfigError(f"option {self.name!r} takes a {type(self.default).__name__}, got {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise GameConfigError(f"option {self.name!r} is one of {allowed}; got {value!r}")
        return value

    def describe(self) -> str:
        if self.choices:
            values = "|".join(map(_show, self.choices))
        else:
            values = "yes|no" if isinstance(self.default, bool) else type(self.default).__name__
        return f"{self.name}={values} (default {_show(self.default)}): {self.help}"


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    source: str  # the rule document in ../shared/rules


@dataclass(frozen=True)
class GameType:
    name: str
    title: str
    editions: tuple[Edition, ...]  # the first is the default
    min_players: int
    max_players: int
    dynamics: Dynamics
    information: Information
    pieces: str
    options: tuple[Option, ...] = ()
    chance: bool = True  # physical randomness (shuffles, reveals, rolls), observed from the table

    def __post_init__(self) -> None:
        editions = {e.name for e in self.editions}
        for option in self.options:
            if not set(option.editions) <= editions:
                raise ValueError(f"{self.name}: option {option.name!r} names unknown editions {option.editions}")
            option.validate(option.default)

    def edition(self, name: str | None) -> Edition:
        if name is None:
            return self.editions[0]
        for edition in self.editions:
            if edition.name == name:
                return edition
        raise GameConfigError(f"{self.title} has editions {', '.join(e.name for e in self.editions)}; not {name!r}")

    def options_for(self, edition: str) -> tuple[Option, ...]:
        return tuple(o for o in self.options if not o.editions or edition in o.editions)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winners (several share a win; none is a draw) and the deciding rule."""

    winners: tuple[str, ...]
    rule: str
    text: str

    @property
    def draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "rule": self.rule, "text": self.text}

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        return cls(tuple(data["winners"]), data["rule"], data["text"])


@dataclass(frozen=True)
class Reading:
    """One way to explain a change at the table: an action, and whether the rules allow it."""

    action: Action
    verdict: Verdict


@dataclass(frozen=True)
class Game:
    """One configured match. Build it with ``referee.games.get``."""

    type: GameType
    edition: str
    players: tuple[str, ...]
    option_values: tuple[tuple[str, Any], ...]
    state_class: type[State] | None = field(default=None, compare=False, repr=False)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.option_values)

    def option(self, name: str) -> Any:
        for key, value in self.option_values:
            if key == name:
                return value
        raise GameConfigError(f"{self.type.title} has no option {name!r}")

    @property
    def rules(self) -> RuleBook:
        return self._implementation().rulebook(self)

    @property
    def actions(self) -> ActionCodec:
        return ActionCodec(self._implementation().ACTIONS)

    def new_state(self, setup: Any = None) -> State:
        """The starting position; ``setup`` is what the table showed (deal, seats), where the game needs it."""
        return self._implementation().initial(self, setup)

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={_show(v)}" for k, v in self.option_values)
        return f"Game({self.type.name} {self.edition}, players={','.join(self.players)}, options: {options or 'none'})"

    def state_from_json(self, data: Any) -> State:
        return self._implementation().from_json(self, data)

    def to_json(self) -> dict:
        return {"game": self.type.name, "edition": self.edition, "players": list(self.players),
                "options": dict(self.option_values)}

    def _implementation(self) -> type[State]:
        if self.state_class is None:
            raise GameConfigError(f"{self.type.title} is described but Tableside cannot referee it yet")
        return self.state_class


class State(ABC):
    """An immutable game position. Subclasses are the rules of one game."""

    ACTIONS: ClassVar[tuple[type[Action], ...]] = ()

    def __init__(self, game: Game):
        self.game = game

    # -- what each game implements --
    @classmethod
    @abstractmethod
    def initial(cls, game: Game, setup: Any) -> State: ...

    @classmethod
    @abstractmethod
    def rulebook(cls, game: Game) -> RuleBook: ...

    @property
    @abstractmethod
    def to_move(self) -> str | None:
        """The player to act, :data:`CHANCE` when the table decides, or None when the game is over.
        At a simultaneous decision it names the first of the players acting together; the joint
        action carries everyone's choice."""

    @abstractmethod
    def legal_actions(self) -> Iterable[Action]:
        """Every legal action now (at a chance node, every outcome the table may show)."""

    @abstractmethod
    def check(self, action: Action) -> Verdict: ...

    @abstractmethod
    def _apply(self, action: Action) -> State:
        """The state after ``action``, which ``check`` has already accepted."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def view(self) -> View: ...

    @abstractmethod
    def to_json(self) -> dict:
        """The whole state as JSON-ready data (the game itself is stored by the caller)."""

    @classmethod
    @abstractmethod
    def from_json(cls, game: Game, data: Any) -> State: ...

    # -- the shared vocabulary --
    def apply(self, action: Action) -> State:
        verdict = self.check(action)
        if not verdict.legal:
            raise IllegalAction(action, verdict)
        return self._apply(action)

    def is_legal(self, action: Action) -> bool:
        return self.check(action).legal

    def is_over(self) -> bool:
        return self.outcome() is not None

    def is_spoken(self, action: Action) -> bool:
        """Whether the players must say ``action`` for the referee to know it, because the table
        cannot show it (a pass, a declaration; here: an action that leaves the table looking the
        same). Such actions are entered by hand (:meth:`referee.session.Session.enter`)."""
        return self._apply(action).view() == self.view()

    def pyramid_colours(self) -> frozenset[str]:
        """The colours the game's pyramids come in, for the camera to look for: by default those
        the view shows (a game whose pyramids may all be out of view says so itself)."""
        return colours_in(self.view())

    def reason(self, rule_id: str, text: str) -> Reason:
        """A reason citing one of this game's rules (an unknown id is a programming error)."""
        return self.rulebook(self.game).reason(rule_id, text)

    def interpret(self, after: View) -> tuple[Reading, ...]:
        """Actions that explain the table going from ``self.view()`` to ``after``.

        The default tries every legal action and keeps those whose result looks exactly like
        ``after``; games override it to read changes directly and to name illegal readings too.
        """
        readings = []
        for action in self.legal_actions():
            if self._apply(action).view() == after:
                readings.append(Reading(action, self.check(action)))
        return tuple(readings)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.game == other.game and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))


def _from_text(text: str, kind: type, name: str) -> Any:
    if kind is bool:
        lowered = text.lower()
        if lowered in ("yes", "true", "on", "1"):
            return True
        if lowered in ("no", "false", "off", "0"):
            return False
        raise GameConfigError(f"option {name!r} is yes or no, got {text!r}")
    try:
        return kind(text)
    except ValueError:
        raise GameConfigError(f"option {name!r} takes a {kind.__name__}, got {text!r}") from None


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def configure(game_type: GameType, edition: str | None, players: int | Iterable[str],
              options: Mapping[str, Any] | None, state_class: type[State] | None) -> Game:
    """Validate a request for a game and build the :class:`Game`."""
    chosen = game_type.edition(edition)
    if isinstance(players, int):
        players = tuple(f"p{i}" for i in range(1, players + 1))
    names = tuple(players)
    for name in names:
        if not isinstance(name, str) or not name or any(c.isspace() for c in name) or name == CHANCE:
            raise GameConfigError(f"player names are single words, got {name!r}")
    if len(set(names)) != len(names):
        raise GameConfigError(f"player names must differ, got {', '.join(names)}")
    if not game_type.min_players <= len(names) <= game_type.max_players:
        span = f"{game_type.min_players} to {game_type.max_players}"
        if game_type.min_players == game_type.max_players:
            span = str(game_type.min_players)
        raise GameConfigError(f"{game_type.title} is for {span} players, got {len(names)}")
    allowed = {o.name: o for o in game_type.options_for(chosen.name)}
    given = dict(options or {})
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise GameConfigError(f"{game_type.title} {chosen.name} has no option {', '.join(unknown)} (options: {known})")
    values = tuple((name, opt.validate(given[name]) if name in given else opt.default)
                   for name, opt in sorted(allowed.items()))
    return Game(game_type, chosen.name, names, values, state_class)
