"""Log events told in words, for ``tableside replay`` and the dashboard's history.

>>> from referee.log.events import Event
>>> describe(Event(4, 0.0, 12.5, "action", {"notation": "move ann 1,2", "source": "camera",
...     "verdict": {"legal": True, "reasons": []}}))
'accepted move ann 1,2 (seen by the camera): legal'
"""

from __future__ import annotations

from referee.log.events import Event

SOURCES = {"camera": "seen by the camera", "choice": "chosen by the players", "hand": "entered by hand",
           "relabel": "read after a relabel"}


def describe(event: Event) -> str:
    p = event.payload
    kind = event.kind
    if kind == "game":
        game = p.get("game", {})
        return (f"game {game.get('game')} {game.get('edition')} for {', '.join(p.get('players', []))}, "
                f"started {p.get('started')}")
    if kind == "action":
        return f"accepted {p.get('notation')} ({SOURCES.get(p.get('source'), p.get('source'))}): " + _verdict(p)
    if kind == "violation":
        return "VIOLATION, held until the table is put right or the players overrule: " + _readings(p)
    if kind == "question":
        return f"question to the players ({p.get('why')}): " + _readings(p, numbered=True)
    if kind == "unrecognised":
        places = ", ".join(c["place"] for c in p.get("changes", [])) or "nothing"
        return f"unrecognised change at {places}: no action explains it"
    if kind == "resolved":
        return f"event {p.get('of')} resolved: {p.get('how')}"
    if kind == "correction":
        what = p.get("what")
        if what == "relabel":
            return f"players relabel {p.get('sighting')} from {p.get('was')} to {p.get('label')}"
        if what == "choose":
            return f"players answer question {p.get('question')}: {p.get('notation')}"
        if what == "say":
            return f"players say {p.get('notation')}; it waits until the rules allow it: " + _verdict(p)
        if what == "unsay":
            return f"players take back {p.get('notation')} (said at event {p.get('said')})"
        if p.get("said") is not None:
            return f"players' move {p.get('notation')}, said at event {p.get('said')}, is played now"
        return f"players enter {p.get('notation')} by hand"
    if kind == "overrule":
        return f"players overrule and play {p.get('notation')} anyway: " + _verdict(p)
    if kind == "undo":
        why = f": {p['why']}" if p.get("why") else ""
        return f"undo {p.get('notation')} (event {p.get('undone')}){why}"
    if kind == "outcome":
        winners = ", ".join(p.get("winners", [])) or "nobody (a draw)"
        return f"GAME OVER: {winners} - {p.get('text')} [{p.get('rule')}]"
    return kind


def _verdict(payload: dict) -> str:
    verdict = payload.get("verdict") or {}
    head = "legal" if verdict.get("legal") else "illegal"
    reasons = "; ".join(f"{r.get('text')} [{r.get('rule')}]" for r in verdict.get("reasons", []))
    return head + (f" ({reasons})" if reasons else "")


def _readings(payload: dict, numbered: bool = False) -> str:
    parts = []
    for index, reading in enumerate(payload.get("readings", []), start=1):
        label = f"{index}) " if numbered else ""
        parts.append(f"{label}{reading.get('notation')}: {_verdict(reading)}")
    return " | ".join(parts) or "(no reading)"
