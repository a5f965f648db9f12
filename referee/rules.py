"""The rule catalogue: every rule the referee enforces, in the project's own words.

A :class:`Rule` has a stable id (``pouches-1.9/move/uphill``), a statement paraphrasing the rule,
the source document and section it comes from, and, where the text leaves a question open, the
house ruling the referee follows (``ruling``) and the game option that lets players choose
otherwise (``option``). Verdicts cite rules by id through :meth:`RuleBook.reason`, which refuses
an id the book does not hold, so a verdict can never cite a rule that does not exist.

Each game's rules are data: ``referee/rulebooks/<book>.toml``::

    source = "pungo.md"                       # default source document for the book
    [[rule]]
    id = "pungo/move/cost"
    section = "Pyramid movement"
    statement = "Moving one square costs 1 point for a small, 2 for a medium, 3 for a large."
    ruling = "..."                            # optional
    option = "..."                            # optional
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources

from referee.verdict import Reason

RULE_ID = re.compile(r"[a-z0-9][a-z0-9.-]*(/[a-z0-9][a-z0-9.-]*)+")


class UnknownRule(KeyError):
    """A rule id that no rule book holds."""

    def __str__(self) -> str:
        return f"no rule has the id {self.args[0]!r}"


class RuleBookError(ValueError):
    """A rule book file that is malformed: says which file, which rule and what is wrong."""


@dataclass(frozen=True)
class Rule:
    id: str
    statement: str
    source: str
    section: str
    ruling: str | None = None
    option: str | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "statement": self.statement, "source": self.source, "section": self.section,
                "ruling": self.ruling, "option": self.option}


class RuleBook:
    """The rules of one game (or edition), looked up by id."""

    def __init__(self, name: str, rules: list[Rule]):
        self.name = name
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise RuleBookError(f"rule book {name!r}: rule id {rule.id!r} appears twice")
            self._rules[rule.id] = rule

    @classmethod
    def load(cls, name: str) -> RuleBook:
        """Load ``referee/rulebooks/<name>.toml``."""
        path = resources.files("referee") / "rulebooks" / f"{name}.toml"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RuleBookError(f"no rule book named {name!r} (looked for {path})") from None
        return cls.from_toml(name, text)

    @classmethod
    def from_toml(cls, name: str, text: str) -> RuleBook:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RuleBookError(f"rule book {name!r} is not valid TOML: {exc}") from None
        default_source = data.get("source")
        rules = []
        for index, entry in enumerate(data.get("rule", []), start=1):
            where = f"rule book {name!r}, rule #{index} ({entry.get('id', 'no id')})"
            unknown = set(entry) - {"id", "statement", "source", "section", "ruling", "option"}
            if unknown:
                raise RuleBookError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
            for key in ("id", "statement", "section"):
                if not isinstance(entry.get(key), str) or not entry[key].strip():
                    raise RuleBookError(f"{where}: needs a non-empty {key!r}")
            if not RULE_ID.fullmatch(entry["id"]):
                raise RuleBookError(f"{where}: id must be lower-case words joined by '/', like 'pungo/move/cost'")
            source = entry.get("source", default_source)
            if not source:
                raise RuleBookError(f"{where}: names no source document")
            rules.append(Rule(entry["id"], " ".join(entry["statement"].split()), source, entry["section"],
                              _clean(entry.get("ruling")), entry.get("option")))
        return cls(name, rules)

    def __getitem__(self, rule_id: str) -> Rule:
        try:
            return self._rules[rule_id]
        except KeyError:
            raise UnknownRule(rule_id) from None

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def __iter__(self):
        return iter(self._rules.values())

    def __len__(self) -> int:
        return len(self._rules)

    def reason(self, rule_id: str, text: str) -> Reason:
        """A :class:`Reason` citing ``rule_id``, which must be in this book."""
        self[rule_id]
        return Reason(rule_id, text)


def _clean(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None
