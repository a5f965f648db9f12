"""Actions: immutable values with a JSON form and a short notation that parses back.

A game's actions are frozen dataclasses deriving from :class:`Action`, each with a ``kind`` (the
first word of its notation and its JSON tag). Fields hold plain values: ``str``, ``int``, ``bool``,
``None`` or tuples of them. The notation is the kind followed by the fields in order, tuples
joined by commas, ``-`` for None and for an empty tuple::

    @dataclass(frozen=True)
    class Step(Action):
        kind = "step"
        player: str
        to: str
    str(Step("ann", "heap/1,2"))   ->  "step ann heap/1,2"

A game may override :meth:`Action.notation` and :meth:`Action.parse_words` for a nicer form, as
long as the two still round-trip. :class:`ActionCodec` turns text and JSON back into actions.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, ClassVar, Union


class ActionParseError(ValueError):
    """Text or JSON that is not an action of this game: says what was expected."""


@dataclasses.dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = ""

    # -- notation --
    def notation(self) -> str:
        words = [self.kind]
        for f in dataclasses.fields(self):
            words.append(_format(getattr(self, f.name)))
        return " ".join(words)

    def __str__(self) -> str:
        return self.notation()

    @classmethod
    def parse_words(cls, words: list[str]) -> Action:
        """Build the action from the words after the kind."""
        fields = dataclasses.fields(cls)
        if len(words) != len(fields):
            usage = " ".join([cls.kind] + [f"<{f.name}>" for f in fields])
            raise ActionParseError(f"'{cls.kind}' takes {len(fields)} argument(s): {usage}")
        hints = _hints(cls)
        return cls(**{f.name: _parse(word, hints[f.name], f.name) for f, word in zip(fields, words)})

    # -- JSON --
    def to_json(self) -> dict:
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = _to_json(value)
        return data

    @classmethod
    def from_fields(cls, data: dict) -> Action:
        names = {f.name for f in dataclasses.fields(cls)}
        missing, extra = names - data.keys(), data.keys() - names - {"kind"}
        if missing or extra:
            raise ActionParseError(f"'{cls.kind}' needs fields {sorted(names)}; missing {sorted(missing)}, "
                                   f"unexpected {sorted(extra)}")
        hints = _hints(cls)
        return cls(**{name: _from_json(data[name], hints[name], f"{cls.kind}.{name}") for name in names})


class ActionCodec:
    """Parses a game's actions from notation or JSON, knowing the game's action classes."""

    def __init__(self, action_types: typing.Iterable[type[Action]]):
        self.types: dict[str, type[Action]] = {}
        for action_type in action_types:
            if not action_type.kind or action_type.kind in self.types:
                raise ValueError(f"action kinds must be unique and non-empty, got {action_type.kind!r}")
            self.types[action_type.kind] = action_type

    def parse(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise ActionParseError("an empty action: write its kind first, e.g. " + self._kinds())
        action_type = self.types.get(words[0])
        if action_type is None:
            raise ActionParseError(f"unknown action {words[0]!r}; this game's actions are {self._kinds()}")
        return action_type.parse_words(words[1:])

    def from_json(self, data: Any) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise ActionParseError(f"an action is a JSON object with a 'kind', got {data!r}")
        action_type = self.types.get(data["kind"])
        if action_type is None:
            raise ActionParseError(f"unknown action kind {data['kind']!r}; this game's actions are {self._kinds()}")
        return action_type.from_fields(data)

    def _kinds(self) -> str:
        return ", ".join(sorted(self.types))


@functools.cache
def _hints(action_type: type) -> dict[str, Any]:
    """The field types of an action class (resolving them is slow, and they never change)."""
    return typing.get_type_hints(action_type)


def _format(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(_format(v) for v in value) if value else "-"
    text = str(value)
    if not text or any(c.isspace() for c in text) or text == "-":
        raise ValueError(f"{text!r} cannot appear in notation: values are single words")
    return text


def _parse(word: str, hint: Any, name: str) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if word == "-" and len(inner) < len(args):
            return None
        return _parse(word, inner[0], name)
    if origin is tuple:
        element = args[0]
        return () if word == "-" else tuple(_parse(w, element, name) for w in word.split(","))
    if hint is bool:
        if word not in ("yes", "no"):
            raise ActionParseError(f"{name} is yes or no, got {word!r}")
        return word == "yes"
    if hint is int:
        try:
            return int(word)
        except ValueError:
            raise ActionParseError(f"{name} is a whole number, got {word!r}") from None
    return word


def _to_json(value: Any) -> Any:
    return [_to_json(v) for v in value] if isinstance(value, tuple) else value


def _from_json(value: Any, hint: Any, name: str) -> Any:
    """Convert JSON lists back to tuples, checking every value against the field's type."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        return _from_json(value, next(a for a in args if a is not type(None)), name)
    if origin is tuple:
        if not isinstance(value, list):
            raise ActionParseError(f"{name} must be a list, got {value!r}")
        return tuple(_from_json(v, args[0], name) for v in value)
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ActionParseError(f"{name} must be a whole number, got {value!r}")
    if hint in (bool, str) and not isinstance(value, hint):
        raise ActionParseError(f"{name} must be {'true or false' if hint is bool else 'a string'}, got {value!r}")
    return value
