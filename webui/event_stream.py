"""Game events for the browser: the public event shape, and a hub that fans events out to listeners.

A session logs events with the log's kinds (``referee.log.KINDS``). The dashboard speaks of a
*move* where the log says ``action``; every other kind keeps its log name. :data:`PUBLIC_KINDS`
is the one mapping, documented in ``docs/api.md``. One kind is not logged: ``camera``, the news
of a game's camera (lost, back, calibrated), which :meth:`EventHub.announce` passes on unnumbered.

:class:`EventHub` is a publish/subscribe point for the server-sent events at ``/events``: each
listener gets its own queue, so a slow browser never holds up the referee.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field

from referee.log import Event, describe

# log kind -> the kind the dashboard and /events use
PUBLIC_KINDS = {"game": "start", "action": "move", "violation": "violation", "question": "question",
                "unrecognised": "unrecognised", "resolved": "resolved", "correction": "correction",
                "overrule": "overrule", "undo": "undo", "outcome": "outcome"}
LISTENER_BACKLOG = 1000  # events a listener may fall behind by before it is dropped


def public_event(game_id: str, event: Event) -> dict:
    """One event as the API and /events give it: its public kind, the log's fields, and in words."""
    return {"game": game_id, "seq": event.seq, "kind": PUBLIC_KINDS[event.kind], "log_kind": event.kind,
            "wall_time": event.wall_time, "snapshot_t": event.snapshot_t, "payload": event.payload,
            "frame": f"/api/games/{game_id}/frames/{event.frame}" if event.frame else None,
            "text": describe(event)}


@dataclass
class Listener:
    """One /events connection: the game it follows (None for all) and its queue of public events."""

    game_id: str | None
    events: queue.Queue = field(default_factory=lambda: queue.Queue(LISTENER_BACKLOG))
    dropped: bool = False  # fell too far behind; the stream ends and the browser reconnects


class EventHub:
    """Where live games publish their events and /events connections pick them up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def subscribe(self, game_id: str | None = None) -> Listener:
        listener = Listener(game_id)
        with self._lock:
            self._listeners.append(listener)
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def publish(self, game_id: str, events: list[Event]) -> None:
        if not events:
            return
        public = [public_event(game_id, e) for e in events]
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            if listener.game_id not in (None, game_id):
                continue
            for item in public:
                try:
                    listener.events.put_nowait(item)
                except queue.Full:
                    listener.dropped = True  # never block the referee for a stalled browser
                    break

    def announce(self, game_id: str, item: dict) -> None:
        """Pass on news that is not a logged event (a ``camera`` status change): it has no
        ``seq``, is not kept in the log, and a reconnecting browser gets the current state instead."""
        with self._lock:
            listeners = [listener for listener in self._listeners if listener.game_id in (None, game_id)]
        for listener in listeners:
            try:
                listener.events.put_nowait(item)
            except queue.Full:
                listener.dropped = True

    @property
    def listener_count(self) -> int:
        with self._lock:
            return len(self._listeners)
