"""Events: the entries of a playthrough log, and the error a damaged log raises.

An :class:`Event` is immutable: its sequence number (1, 2, ... with no gaps), the wall-clock time
it was written (seconds since the epoch), the snapshot time it came from (the camera's monotonic
``t``; None for the players' corrections), its kind, a JSON payload, and optionally the file name
of the JPEG frame that triggered it. The payload of each kind is described in ``docs/live.md``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

# every kind an event may have; the first event of a log is always "game"
KINDS = ("game", "action", "violation", "resolved", "question", "unrecognised", "correction", "overrule",
         "undo", "outcome")
# kinds that change the game's state when the log is replayed
STATE_CHANGES = ("action", "overrule", "undo")


class LogError(ValueError):
    """A log that cannot be read or replayed past some point.

    ``seq`` is the first bad event (None when the file itself is unreadable); ``kept`` holds the
    good events before it, so a caller can still show them or write them to a fresh log.
    """

    def __init__(self, message: str, seq: int | None = None, kept: tuple[Event, ...] = ()):
        super().__init__(message)
        self.seq = seq
        self.kept = tuple(kept)


@dataclass(frozen=True)
class Event:
    seq: int
    wall_time: float
    snapshot_t: float | None
    kind: str
    payload: dict
    frame: str | None = None  # a JPEG file name in the log's frames folder

    def to_json(self) -> dict:
        return {"seq": self.seq, "wall_time": self.wall_time, "snapshot_t": self.snapshot_t, "kind": self.kind,
                "payload": self.payload, "frame": self.frame}

    @classmethod
    def from_json(cls, data: Any, where: str = "an event") -> Event:
        """Check every field; a problem names ``where`` (say, "line 7") and the field."""
        if not isinstance(data, dict):
            raise ValueError(f"{where} is not a JSON object")
        missing = sorted({"seq", "wall_time", "kind", "payload"} - data.keys())
        if missing:
            raise ValueError(f"{where} lacks {', '.join(missing)}")
        return cls(_seq(data["seq"], where), _time(data["wall_time"], f"{where}: wall_time"),
                   None if data.get("snapshot_t") is None else _time(data["snapshot_t"], f"{where}: snapshot_t"),
                   _kind(data["kind"], where), _payload(data["payload"], where), _frame(data.get("frame"), where))


def encode_payload(payload: dict) -> str:
    """Compact JSON with sorted keys, refusing values JSON cannot hold (NaN, sets, objects)."""
    return json.dumps(payload, separators=(",", ":"), sort_keys=True, allow_nan=False)


def decode_payload(text: Any, where: str) -> dict:
    if not isinstance(text, str):
        raise ValueError(f"{where}: the payload is not text")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: the payload is not valid JSON ({exc.msg} at character {exc.pos})") from None
    return _payload(data, where)


def _seq(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{where}: seq is a whole number from 1, got {value!r}")
    return value


def _time(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} is a finite number of seconds, got {value!r}")
    return float(value)


def _kind(value: Any, where: str) -> str:
    if value not in KINDS:
        raise ValueError(f"{where}: kind {value!r} is not one of {', '.join(KINDS)}")
    return value


def _payload(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: the payload is a JSON object, got {type(value).__name__}")
    return value


def _frame(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.endswith(".jpg") or "/" in value or "\\" in value or value.startswith("."):
        raise ValueError(f"{where}: frame is a .jpg file name in the frames folder, got {value!r}")
    return value
