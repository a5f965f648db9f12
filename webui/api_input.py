"""Reading a JSON API request, refusing bad input with a 4xx message that says exactly what to fix.

    data = json_object()                       # 415 / 400 unless the body is a JSON object
    label = text_field(data, "label")          # 400 "label is required" / "label is text, got 3"
    index = int_field(data, "index", default=0)

Every refusal is an :class:`ApiError`; the blueprint turns it into ``{"error": message}`` with its
status. A body over ``MAX_CONTENT_LENGTH`` never gets this far: Flask answers 413.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

MAX_TEXT = 200  # characters in a name, a label or a notation: more is a mistake, not a move


class ApiError(Exception):
    """A request the API refuses: ``status`` (4xx) and a message naming the field and the fix."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def json_object(optional: bool = False) -> dict:
    """The request body as a JSON object (an empty object when ``optional`` and there is no body)."""
    raw = request.get_data(cache=True)  # 413 here when the body is too large
    if not raw.strip():
        if optional:
            return {}
        raise ApiError(400, "the request has no body: send a JSON object")
    if request.mimetype != "application/json":
        raise ApiError(415, f"send the body as JSON with Content-Type: application/json, not {request.mimetype or 'none'}")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise ApiError(400, f"the body is not valid JSON{where}: {getattr(exc, 'msg', exc)}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, got {_kind(data)}")
    return data


def text_field(data: dict, name: str, default: Any = ..., max_length: int = MAX_TEXT) -> str:
    value = data.get(name, default)
    if value is ...:
        raise ApiError(400, f"{name} is required")
    if value is None and default is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"{name} is text, got {_kind(value)}")
    if not value.strip():
        raise ApiError(400, f"{name} is empty")
    if len(value) > max_length:
        raise ApiError(400, f"{name} is too long ({len(value)} characters; at most {max_length})")
    return value.strip()


def int_field(data: dict, name: str, default: Any = ...) -> int:
    value = data.get(name, default)
    if value is ...:
        raise ApiError(400, f"{name} is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{name} is a whole number, got {_kind(value)}")
    return value


def bool_field(data: dict, name: str, default: bool = False) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ApiError(400, f"{name} is true or false, got {_kind(value)}")
    return value


def only_fields(data: dict, allowed: set[str]) -> None:
    """Refuse unknown fields: a misspelt field would otherwise be silently ignored."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ApiError(400, f"unknown field {', '.join(unknown)}; the fields are {', '.join(sorted(allowed))}")


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    for kind, word in names.items():
        if isinstance(value, kind):
            return f"{word} ({json.dumps(value)[:40]})"
    return f"a number ({value!r})"
