"""Verdicts: whether an action is legal, and the rules that say so.

>>> v = Verdict.illegal(Reason("pungo/move/no-smaller", "a medium may not land on a small"))
>>> bool(v), v.rules
(False, ('pungo/move/no-smaller',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reason:
    """One rule applied to one action: the rule's id and what it says about this case."""

    rule: str
    text: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "text": self.text}

    @classmethod
    def from_json(cls, data: Any) -> Reason:
        if not (isinstance(data, dict) and isinstance(data.get("rule"), str) and isinstance(data.get("text"), str)):
            raise ValueError(f"a reason is {{'rule': id, 'text': words}}, got {data!r}")
        return cls(data["rule"], data["text"])

    def __str__(self) -> str:
        return f"{self.text} [{self.rule}]"


@dataclass(frozen=True)
class Verdict:
    """``legal`` plus the reasons. An illegal verdict always has at least one reason."""

    legal: bool
    reasons: tuple[Reason, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "reasons", tuple(self.reasons))
        if not self.legal and not self.reasons:
            raise ValueError("an illegal verdict must cite at least one rule")

    @classmethod
    def ok(cls, *reasons: Reason) -> Verdict:
        return cls(True, reasons)

    @classmethod
    def illegal(cls, *reasons: Reason) -> Verdict:
        return cls(False, reasons)

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(r.rule for r in self.reasons)

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        head = "legal" if self.legal else "illegal"
        return head + "".join(f"; {r}" for r in self.reasons)

    def to_json(self) -> dict:
        return {"legal": self.legal, "reasons": [r.to_json() for r in self.reasons]}

    @classmethod
    def from_json(cls, data: Any) -> Verdict:
        if not (isinstance(data, dict) and isinstance(data.get("legal"), bool)):
            raise ValueError(f"a verdict is {{'legal': bool, 'reasons': [...]}}, got {data!r}")
        return cls(data["legal"], tuple(Reason.from_json(r) for r in data.get("reasons", [])))


class IllegalAction(ValueError):
    """Raised by ``State.apply`` for an action its ``check`` rejects; carries the verdict."""

    def __init__(self, action: Any, verdict: Verdict):
        self.action = action
        self.verdict = verdict
        reasons = "; ".join(str(r) for r in verdict.reasons)
        super().__init__(f"illegal action {action}: {reasons}")
