"""The live referee: table snapshots in; accepted moves, violations, questions and log events out.

A session holds the game, its current state, the game's layout and the playthrough log. For each
stable snapshot, :meth:`Session.observe` does what DESIGN.md's "From snapshots to moves" says:

1. the layout reads the snapshot as the game's places (a :class:`~referee.layouts.SeenView`);
2. if that is the view the current state expects, nothing happened;
3. otherwise the state interprets each view the snapshot allows (the most likely first, then each
   uncertain place read its other ways) as candidate actions, each with its verdict;
4. then:

   * exactly one legal reading -> it is applied and logged (``action``);
   * several legal readings -> the players are asked (``question``), :meth:`choose` answers;
   * only illegal readings -> a ``violation`` citing the rules, held until the table is put back
     (``resolved``) or the players :meth:`overrule`;
   * nothing explains the change -> ``unrecognised``.

Low-confidence recognition is never the basis of a violation: a legal reading that an uncertain
place's other reading allows is preferred, and when every reading is illegal but the change rests
on an uncertain place, the players are asked instead. When no reading at all is legal, an uncertain
place is also read as the state expects it (a doubtful sighting may be nothing: a shadow taken for
a token), so one doubtful find cannot hide a move. Nor is a violation flagged on a *glance*
(``snapshot.glance``: the live pipeline's first look at a table just settled, which it follows with a
second look a moment later): a legal move is played from a glance, but only a second look that still
shows the illegal table raises the violation. One look can miss a piece just put down or find a card
in a court card's pip (a Pungo trial's pyramid stepped onto a cell; the Mongoose demo's 4S in the KC's
picture corner); the next look rarely repeats it. What the players' answer to a question (or a move
they enter, a violation they overrule) leaves of a table only glanced at waits for the second look
too. Chance nodes need nothing special: the table's reveal is read like any move (``interpret``
returns the chance action).

One snapshot may show several moves in a row (a pick and the card it uncovered; two players'
moves that a slow camera saw only once both were made): after a move is accepted, the same view is
read again from the new state, with what the layout offers from that state, up to :data:`MAX_CHAIN`
moves. When no single move explains the table, :mod:`referee.runs` names the moves that could have
come first; one is accepted, several make a question. When still nothing legal explains it, the last
move the camera read, a player's, is read again from the state before it: a look may have settled
before that move was finished (an attack read before its replacing pyramid was set down), and the
one move of its kind by its player that explains the table replaces it (an ``undo`` with its
``why``, then the ``action``).

Players correct the referee through methods that are events too: :meth:`relabel` a sighting,
:meth:`choose` an answer, :meth:`enter` an action the camera cannot see, :meth:`overrule` a
violation, :meth:`undo` the last move. Every method returns the events it logged.

A move the players say may come before the camera has seen the move it follows (a pass announced
while the referee still waits for the table to settle). Entered with ``wait``, a move the rules
refuse for now is *said*: it waits (a ``correction`` event ``say``), and is played the moment the
rules allow it, between the camera's moves if need be (one look showing the move before it and the
move after it reads as the three in order, where it would otherwise flag the move after it).
:meth:`unsay` takes a waiting move back. The log keeps the moves waiting across a restart.

The log alone rebuilds the session (:meth:`Session.resume`); a held violation or question is not
restored, because the next snapshot raises it again.
"""

from __future__ import annotations

import dataclasses
import datetime
import threading
from dataclasses import dataclass
from typing import Any, Callable

from referee.action import Action
from referee.game import Game, Reading, State
from referee.layouts import Layout, SeenView
from referee.log import Event, LogError, PlaythroughLog, force, replay
from referee.pyramids import Pyramid
from referee.runs import first_moves
from referee.snapshot import TableSnapshot
from referee.verdict import IllegalAction, Verdict
from referee.view import View

MAX_CHAIN = 8  # moves one snapshot may show before the rest is left for the next
RELABEL_RADIUS_MM = 20.0  # a relabel sticks to a sighting while it stays this close to where it was


class SessionError(ValueError):
    """A correction that does not fit the moment (no question to answer, nothing to undo)."""


@dataclass(frozen=True)
class Candidate:
    """A reading of the table and the view it was read from."""

    reading: Reading
    view: View


@dataclass(frozen=True)
class Said:
    """A move the players entered that waits for the rules to allow it (``seq``: its ``say`` event)."""

    seq: int
    action: Action
    verdict: Verdict  # why the rules refused it when it was said


@dataclass(frozen=True)
class Pending:
    """What the session waits on: a held violation, an open question or an unrecognised change."""

    kind: str  # "violation", "question" or "unrecognised"
    event: Event
    seen: SeenView | None  # what the table showed (None for an action entered by hand)
    candidates: tuple[Candidate, ...]
    glance: bool = False  # ``seen`` only glanced at so far: what an answer leaves of it waits for a second look


@dataclass(frozen=True)
class _Relabel:
    group: str  # "cards", "pyramids", "dice", "tokens"
    center: tuple[float, float]
    was: str
    label: str


class Session:
    """One refereed game at the table. Safe to call from the pipeline and the dashboard at once."""

    def __init__(self, game: Game, state: State, layout: Layout, log: PlaythroughLog, setup: Any = None):
        self.game, self.layout, self.log = game, layout, log
        self._lock = threading.RLock()
        self._pending: Pending | None = None
        self._snapshot: TableSnapshot | None = None
        self._relabels: list[_Relabel] = []
        self._misread: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # place -> (camera's, state's)
        self._reread: frozenset[str] = frozenset()  # places of the look being judged taken as the state has
        # them: a doubt, so no violation is flagged on that look, only asked
        self._said: list[Said] = []
        self._seen_last: tuple[int, Action] | None = None  # the last move, where the camera read it: (seq, action)
        events = log.events()
        if not events:
            started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
            log.append("game", {"game": game.to_json(), "players": list(game.players), "started": started,
                                "setup": setup, "state": state.to_json()})
            self.state, self._history, self._outcome_logged = state, [], False
            self._note_outcome(_Writer(log, None, None))
            return
        replayed = replay(events)
        if replayed.game != game or replayed.state != state:
            raise SessionError(f"{log.path} holds another game or position: resume it with Session.resume")
        self.state, self._history = replayed.state, list(replayed.history)
        self._outcome_logged = replayed.outcome_logged
        self._said = _still_said(game, events)
        self._note_outcome(_Writer(log, None, None))  # a crash may have come between a move and its outcome

    # -- starting and resuming --
    @classmethod
    def start(cls, game: Game, layout: Layout, path, setup: Any = None) -> Session:
        """A new game logged at ``path`` (a new file), starting from ``game.new_state(setup)``."""
        state = game.new_state(setup)
        return cls(game, state, layout, PlaythroughLog.create(path), setup)

    @classmethod
    def resume(cls, path, layout: Layout | Callable[[Game], Layout]) -> Session:
        """The game logged at ``path``, at the state its events reach. ``layout`` may be a function
        of the game, since the game is known only once the log is read. A damaged log raises
        :class:`LogError` naming the bad event (``referee.log.recover`` keeps the good part)."""
        log = PlaythroughLog.open(path)
        try:
            replayed = replay(log.events())
        except LogError:
            log.close()
            raise
        if not hasattr(layout, "read"):
            layout = layout(replayed.game)
        return cls(replayed.game, replayed.state, layout, log)

    # -- what the dashboard shows --
    def held(self):
        """A context in which the session changes nothing: to read its state, problem and log
        together while the camera may be refereeing."""
        return self._lock

    def use_layout(self, layout: Layout) -> None:
        """Read the table through ``layout`` from the next snapshot on (the mat in view turned out
        to be printed on another paper, so its places lie elsewhere)."""
        with self._lock:
            self.layout = layout

    @property
    def pending(self) -> Pending | None:
        return self._pending

    @property
    def last_snapshot(self) -> TableSnapshot | None:
        """The table as last read, with the players' relabels: the sightings ``relabel`` names."""
        return self._snapshot

    @property
    def said(self) -> tuple[Said, ...]:
        """The moves the players said that wait for the rules to allow them, oldest first."""
        return tuple(self._said)

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves that made the current state, in notation, oldest first."""
        return tuple(notation for _, _, notation in self._history)

    # -- the camera --
    def observe(self, snapshot: TableSnapshot, frame: bytes | None = None) -> list[Event]:
        """Referee one stable snapshot; ``frame`` (JPEG bytes) is kept with the events it causes."""
        with self._lock:
            if snapshot.occluded:  # a hand over the table: not a moment to read
                return []
            snapshot = self._with_relabels(snapshot)
            self._snapshot = snapshot
            seen = self.layout.read(snapshot, self.state)
            corrected, self._reread = self._as_misread_before(seen)
            try:
                events, waits = self._judge(corrected, _Writer(self.log, snapshot.t, frame), "camera", snapshot.glance)
            finally:
                self._reread = frozenset()
            if self._pending is None and not waits:  # (a look that waits is not one the referee settled on)
                self._remember_misreads(seen.view)
            return events

    def _as_misread_before(self, seen: SeenView) -> tuple[SeenView, frozenset[str]]:
        """``seen`` with each place the camera reads as it did when the referee last settled on
        something else there (an uncertain place's other reading, a layout's offer) taken as the
        state has it, the camera's reading kept as an uncertain alternative; and those places. The
        same piece seen the same way is the same misreading: a hatched small read as a medium at every
        look would otherwise be a grow at the next (Deck Town trial 5). A look so corrected is not
        sure enough for a violation: the players are asked instead (Pouches trial 12)."""
        expected = self.state.view()
        again = {place: taken for place, (read, taken) in self._misread.items()
                 if seen.view.get(place, ()) == read and expected.get(place, ()) == taken}
        if not again:
            return seen, frozenset()
        uncertain = dict(seen.uncertain)
        for place in again:
            options = tuple(o for o in uncertain.get(place, ()) if o != again[place])
            uncertain[place] = (seen.view.get(place, ()), *options)
        return SeenView(View({**seen.view, **again}), uncertain, seen.unplaced), frozenset(again)

    def _remember_misreads(self, read: View) -> None:
        """With nothing held, every place where the camera's reading differs from the state is one the
        referee settled otherwise: remember both, for :meth:`_as_misread_before` at the next look."""
        expected = self.state.view()
        self._misread = {place: (read.get(place, ()), expected.get(place, ())) for place in set(read) | set(expected)
                         if read.get(place, ()) != expected.get(place, ())}

    # -- the players --
    def relabel(self, sighting: str, label: str) -> list[Event]:
        """Correct one sighting of the last snapshot (``"cards/3"``, ``"dice/0"``, ``"tokens/1"``,
        ``"pyramids/2"``: the list and the index in it) and read the table again. The correction
        sticks to that sighting in later snapshots while it stays where it was."""
        with self._lock:
            if self._snapshot is None:
                raise SessionError("there is no snapshot to correct yet")
            group, index, found = _sighting(self._snapshot, sighting)
            was = _label_of(group, found)
            corrected = _relabelled(group, found, label)
            self._relabels = [r for r in self._relabels
                              if not (r.group == group and _near(r.center, _center(found)))]
            self._relabels.append(_Relabel(group, _center(found), was, label))
            items = list(getattr(self._snapshot, group))
            items[index] = corrected
            self._snapshot = dataclasses.replace(self._snapshot, **{group: tuple(items)})
            write = _Writer(self.log, self._snapshot.t, None)
            write("correction", {"what": "relabel", "sighting": sighting, "was": was, "label": label})
            self._drop_pending(write, "the players relabelled a sighting")  # read afresh from here
            seen = self.layout.read(self._snapshot, self.state)
            return self._judge(seen, write, "relabel", self._snapshot.glance)[0]

    def choose(self, index: int) -> list[Event]:
        """Answer the open question with its reading number ``index`` (0 is the first offered)."""
        with self._lock:
            pending = self._pending
            if pending is None or pending.kind != "question":
                raise SessionError("there is no open question to answer")
            if not 0 <= index < len(pending.candidates):
                raise SessionError(f"the question offers readings 0 to {len(pending.candidates) - 1}, not {index}")
            candidate = pending.candidates[index]
            write = _Writer(self.log, None, None)
            write("correction", {"what": "choose", "question": pending.event.seq, "index": index,
                                 **_reading_json(candidate.reading)})
            self._pending = None
            if not candidate.reading.verdict.legal:  # the players confirm what happened: a violation
                self._hold("violation", (candidate,), pending.seen, write)
                return write.events
            self._accept(candidate.reading, "choice", write)
            if pending.seen is not None:
                self._judge(_settled(self._seen_again(pending.seen), candidate.view), write, "camera", pending.glance)
            return write.events

    def enter(self, action: Action, overrule: bool = False, wait: bool = False) -> list[Event]:
        """Play an action the camera cannot see (a secret weapon choice, a card drawn into a hand).
        A table held as a violation, question or unrecognised change is read again after it: the
        move it waited for may have been this one (a pass announced after the next player moved).
        An action the rules refuse raises :class:`IllegalAction` and changes nothing, unless
        ``overrule`` says the players accept it anyway (:class:`SessionError` when even then the
        game cannot play it), or ``wait`` says to hold it until the rules allow it (:attr:`said`;
        behind moves said earlier that still wait, any move waits)."""
        with self._lock:
            verdict = self.state.check(action)
            if wait and not overrule and (self._said or not verdict.legal):
                write = _Writer(self.log, None, None)
                event = write("correction", {"what": "say", **_reading_json(Reading(action, verdict))})
                self._said.append(Said(event.seq, action, verdict))
                return write.events
            if not verdict.legal and not overrule:
                raise IllegalAction(action, verdict)
            if not verdict.legal:
                try:
                    force(self.state, action)  # refuse before logging anything if it cannot be played
                except ValueError as exc:
                    raise SessionError(str(exc)) from None
            write = _Writer(self.log, None, None)
            reading = Reading(action, verdict)
            write("correction", {"what": "enter", **_reading_json(reading)})
            pending = self._pending
            self._drop_pending(write, "the players entered a move by hand")
            if verdict.legal:
                self._accept(reading, "hand", write)
            else:
                self._force(reading, None, write)
            if pending is not None and pending.seen is not None:  # the table it held may read now
                self._judge(self._seen_again(pending.seen), write, "camera", pending.glance)
            else:
                self._take_said(write)
            return write.events

    def unsay(self, seq: int) -> list[Event]:
        """Take back a said move that still waits (``seq``: its ``say`` event)."""
        with self._lock:
            said = next((s for s in self._said if s.seq == seq), None)
            if said is None:
                waiting = ", ".join(str(s.seq) for s in self._said) or "none"
                raise SessionError(f"no said move {seq} waits (waiting: {waiting})")
            self._said.remove(said)
            write = _Writer(self.log, None, None)
            write("correction", {"what": "unsay", "said": seq, "notation": str(said.action)})
            self._take_said(write)  # the moves said after it may be playable now
            return write.events

    def overrule(self, index: int = 0) -> list[Event]:
        """The players accept the held violation's reading ``index`` although the rules refuse it."""
        with self._lock:
            pending = self._pending
            if pending is None or pending.kind != "violation":
                raise SessionError("there is no violation to overrule")
            if not 0 <= index < len(pending.candidates):
                raise SessionError(f"the violation has readings 0 to {len(pending.candidates) - 1}, not {index}")
            candidate = pending.candidates[index]
            write = _Writer(self.log, None, None)
            self._pending = None
            try:
                self._force(candidate.reading, pending.event.seq, write)
            except ValueError as exc:
                self._pending = pending
                raise SessionError(str(exc)) from None
            if pending.seen is not None:
                self._judge(_settled(self._seen_again(pending.seen), candidate.view), write, "camera", pending.glance)
            return write.events

    def undo(self) -> list[Event]:
        """Take back the last move (a camera move, a choice, a hand entry or an overrule)."""
        with self._lock:
            if not self._history:
                raise SessionError("there is no move to undo")
            seq, before, notation = self._history.pop()
            write = _Writer(self.log, None, None)
            self._drop_pending(write, "a move was undone")
            write("undo", {"undone": seq, "notation": notation})
            self.state, self._outcome_logged = before, False
            self._note_outcome(write)
            return write.events

    def _seen_again(self, seen: SeenView) -> SeenView:
        """The table a held problem was raised on (``seen``), read again from the current state:
        the layout's doubts depend on it (a pile top hidden under tokens is read as the state
        has it)."""
        if self._snapshot is None:
            return seen
        again = self.layout.read(self._snapshot, self.state)
        return again if again.view == seen.view else seen

    # -- deciding --
    def _judge(self, seen: SeenView, write: _Writer, source: str, glance: bool = False) -> tuple[list[Event], bool]:
        """Decide on ``seen`` (moves in a row, up to :data:`MAX_CHAIN`): the events, and whether a violation
        waits for a second look (``glance``: the table only glanced at)."""
        for _ in range(MAX_CHAIN):
            self._take_said(write)
            expected = self.state.view()
            if self._pending is not None and self._pending.seen is not None and self._pending.seen.view == seen.view:
                if not glance:  # a second look at the table held: what an answer leaves of it may be flagged
                    self._pending = dataclasses.replace(self._pending, glance=False)
                break  # raised already: the table has not changed since
            kind, candidates, why = self._decide(seen, expected)
            if kind == "violation" and glance:
                return write.events, True
            if kind == "nothing":
                self._drop_pending(write, "the table was put right" if self._pending and
                                   self._pending.kind == "violation" else "the table is back as it was")
                break
            self._drop_pending(write, "the table changed")
            if kind == "revision":
                self._revise(candidates[0].reading, write)
            elif kind != "action":
                self._hold(kind, candidates, seen, write, why, glance)
                break
            else:
                self._accept(candidates[0].reading, source, write)
            seen = self._offered_now(_settled(seen, candidates[0].view))
        return write.events, False

    def _offered_now(self, seen: SeenView) -> SeenView:
        """``seen`` once a move was accepted from it, with what the layout offers from the new state at the
        places it reads as before: its other readings depend on whose turn it is (Deck Town trial 1: ann's
        draw, then bob's move, whose source card's art was read as the small he moved, in one look; the card
        offered without it only once it was bob's move)."""
        if self._snapshot is None:
            return seen
        fresh = self.layout.read(self._snapshot, self.state)
        uncertain = dict(seen.uncertain)
        for place, options in fresh.uncertain.items():
            known = uncertain.get(place, ())
            new = tuple(o for o in options if o != seen.view.get(place) and o not in known)
            if new and fresh.view.get(place) == seen.view.get(place):
                uncertain[place] = (*known, *new)
        return SeenView(seen.view, uncertain, seen.unplaced)

    def _decide(self, seen: SeenView, expected: View) -> tuple[str, tuple[Candidate, ...], str]:
        """What the table shows: "nothing" new, an "action", a "question", a "violation" or an
        "unrecognised" change, with the candidate readings behind it; or a "revision": the last move
        the camera read, read otherwise (:meth:`_revision`)."""
        if seen.view == expected:
            return "nothing", (), ""
        legal: list[Candidate] = []
        results: list[State] = []  # the state each legal candidate leads to
        illegal: list[tuple[int, Candidate]] = []
        maybe_unchanged = False  # an uncertain place's other reading is just what the state expects

        def read(views, first: int = 0) -> None:
            nonlocal maybe_unchanged
            for number, view in enumerate(views, start=first):
                if view == expected:
                    if first == 0:  # vision's own other reading says so, not our guess at a doubtful place
                        maybe_unchanged = True
                    continue
                for reading in self.state.interpret(view):
                    candidate = Candidate(reading, view)
                    if reading.verdict.legal:
                        # readings that end in the same state are one answer (a card dropped where a throw
                        # would also land it): the players need not choose between them
                        if all(c.reading.action != reading.action for c in legal):
                            result = self.state.apply(reading.action)
                            if result not in results:
                                legal.append(candidate)
                                results.append(result)
                    elif all(c.reading.action != reading.action for _, c in illegal):
                        illegal.append((number, candidate))

        read(seen.alternatives())
        if not legal and not maybe_unchanged:
            # a doubtful sighting may be no thing at all (a shadow read as a token): with nothing
            # legal read, try the doubtful places as the state expects them (readings that are
            # never the main one, so at worst a question)
            read(_as_expected_where_unsure(seen, expected), first=1)
        if not legal and not maybe_unchanged:
            read(seen.pairs(), first=1)  # two places misread at once
        if not legal and not maybe_unchanged:
            firsts, complete = self._first_of_several(seen)
            if len(firsts) == 1 and complete:
                return "action", firsts, ""
            if firsts:
                return "question", firsts, ("several moves seen at once, and which came first can be read more than one way"
                                            if complete else "several moves seen at once, too many to be sure which came first")
        if not legal and not maybe_unchanged:
            revised = self._revision(seen)
            if revised is not None:
                return "revision", (revised,), ""
        if len(legal) == 1:
            return "action", tuple(legal), ""
        if legal:
            return "question", tuple(legal), "several legal readings"
        if maybe_unchanged:  # the camera's doubt allows the table we expect: trust what we know
            return "nothing", (), ""
        if not illegal:
            return "unrecognised", (), "no action explains the change"
        unsure = any(change.place in seen.uncertain for change in expected.diff(seen.view)) or bool(self._reread)
        on_main = tuple(c for number, c in illegal if number == 0)
        if unsure or not on_main:  # never flag a violation on a reading the camera is not sure of
            return "question", tuple(c for _, c in illegal), "unsure recognition, and every reading is illegal"
        return "violation", on_main, "the rules refuse the move"

    def _revision(self, seen: SeenView) -> Candidate | None:
        """The last move, where the camera read it, read again from ``seen``: where no legal move explains
        the table from the current state, the one legal move of the same kind by the same player from the
        state before it that does, the table differing from the current state only where that move
        changed it. A look can settle before a move is finished (Deck Town trial 14: an attack's
        replacing small set down just after the table was still, so the attack was read without it, and
        the small alone could be no move). Only a player's move (an action naming its player): what chance
        turns up is what was seen (Mongoose trials 11-13 and 19: a card turned up, lost at the next look,
        read again as the card turned up after it). None where there is no such move, or several."""
        if self._seen_last is None or not self._history or self._history[-1][0] != self._seen_last[0]:
            return None
        _, before, _ = self._history[-1]
        last = self._seen_last[1]
        if getattr(last, "player", None) is None:
            return None
        moved = {change.place for change in before.view().diff(self.state.view())}
        if any(change.place not in moved for change in self.state.view().diff(seen.view)):
            return None
        found: list[Candidate] = []
        results: list[State] = []
        for view in seen.alternatives():
            for reading in before.interpret(view):
                action = reading.action
                if (reading.verdict.legal and action != last and type(action) is type(last)
                        and action.player == last.player):
                    result = before.apply(action)
                    if result not in results:
                        found.append(Candidate(reading, view))
                        results.append(result)
        return found[0] if len(found) == 1 else None

    def _revise(self, reading: Reading, write: _Writer) -> None:
        """Take back the last move and play ``reading`` instead (:meth:`_revision`)."""
        seq, before, notation = self._history.pop()
        write("undo", {"undone": seq, "notation": notation, "why": "the next look showed the move otherwise"})
        self.state, self._outcome_logged = before, False
        self._accept(reading, "camera", write)

    def _first_of_several(self, seen: SeenView) -> tuple[tuple[Candidate, ...], bool]:
        """The moves that could have come first of several seen at once, and whether the search
        was complete (:func:`referee.runs.first_moves`)."""
        firsts, complete = first_moves(self.state, seen.alternatives(), seen.pairs())
        return tuple(Candidate(Reading(f.action, self.state.check(f.action)), f.view) for f in firsts), complete

    def _take_said(self, write: _Writer) -> None:
        """Play the said moves that the rules allow now, oldest first."""
        while self._said and self.state.check(self._said[0].action).legal:
            said = self._said.pop(0)
            reading = Reading(said.action, self.state.check(said.action))
            write("correction", {"what": "enter", "said": said.seq, **_reading_json(reading)})
            self._accept(reading, "hand", write)

    def _accept(self, reading: Reading, source: str, write: _Writer) -> None:
        before = self.state
        self.state = before.apply(reading.action)
        event = write("action", {**_reading_json(reading), "source": source})
        self._history.append((event.seq, before, str(reading.action)))
        self._seen_last = (event.seq, reading.action) if source == "camera" else None
        self._note_outcome(write)

    def _force(self, reading: Reading, violation: int | None, write: _Writer) -> None:
        before = self.state
        self.state = force(before, reading.action)  # ValueError when the rules engine cannot play it
        event = write("overrule", {**_reading_json(reading), "violation": violation})
        self._history.append((event.seq, before, str(reading.action)))
        self._note_outcome(write)

    def _hold(self, kind: str, candidates: tuple[Candidate, ...], seen: SeenView | None, write: _Writer,
              why: str = "", glance: bool = False) -> None:
        payload: dict[str, Any] = {"readings": [_reading_json(c.reading) for c in candidates]}
        if seen is not None:
            payload["seen"] = seen.view.to_json()
            payload["changes"] = [{"place": c.place, "before": list(c.before), "after": list(c.after)}
                                  for c in self.state.view().diff(seen.view)]
            payload["uncertain"] = {place: [list(o) for o in options] for place, options in seen.uncertain.items()}
            payload["unplaced"] = list(seen.unplaced)
        if kind == "question":
            payload["why"] = why
        self._pending = Pending(kind, write(kind, payload), seen, candidates, glance)

    def _drop_pending(self, write: _Writer, how: str) -> None:
        if self._pending is not None:
            write("resolved", {"of": self._pending.event.seq, "kind": self._pending.kind, "how": how})
            self._pending = None

    def _note_outcome(self, write: _Writer) -> None:
        """Log the outcome once, the first time the state has one."""
        outcome = self.state.outcome()
        if outcome is not None and not self._outcome_logged:
            write("outcome", outcome.to_json())
            self._outcome_logged = True

    # -- relabels that stick --
    def _with_relabels(self, snapshot: TableSnapshot) -> TableSnapshot:
        if not self._relabels:
            return snapshot
        changes = {}
        for group in ("cards", "pyramids", "dice", "tokens"):
            items = list(getattr(snapshot, group))
            for i, item in enumerate(items):
                for r in self._relabels:
                    if r.group == group and _near(r.center, _center(item)) and _label_of(group, item) == r.was:
                        items[i] = _relabelled(group, item, r.label)
            changes[group] = tuple(items)
        return dataclasses.replace(snapshot, **changes)


class _Writer:
    """Appends events for one call, keeping the snapshot time and sharing one frame among them."""

    def __init__(self, log: PlaythroughLog, snapshot_t: float | None, frame: bytes | None):
        self.log, self.snapshot_t, self.frame = log, snapshot_t, frame
        self.events: list[Event] = []

    def __call__(self, kind: str, payload: dict) -> Event:
        event = self.log.append(kind, payload, self.snapshot_t, self.frame)
        if event.frame is not None:
            self.frame = event.frame  # stored once; later events name the same file
        self.events.append(event)
        return event


def _reading_json(reading: Reading) -> dict:
    return {"action": reading.action.to_json(), "notation": str(reading.action),
            "verdict": reading.verdict.to_json()}


def _still_said(game: Game, events) -> list[Said]:
    """The said moves of a log that still wait: said, and neither played nor taken back since."""
    from referee.log.replay import action_of

    said: dict[int, Said] = {}
    for event in events:
        if event.kind != "correction":
            continue
        what = event.payload.get("what")
        if what == "say":
            said[event.seq] = Said(event.seq, action_of(game, event.payload),
                                   Verdict.from_json(event.payload.get("verdict")))
        elif what in ("enter", "unsay") and event.payload.get("said") in said:
            del said[event.payload["said"]]
    return list(said.values())


def _as_expected_where_unsure(seen: SeenView, expected: View):
    """The views where a place the camera is unsure of shows what ``expected`` has there instead
    (one place at a time, then all of them), for readings of the rest of the table."""
    unsure = [place for place in seen.uncertain if seen.view.get(place) != expected.get(place)]
    for place in unsure:
        yield View({**seen.view, place: expected.get(place)})
    if len(unsure) > 1:
        yield View({**seen.view, **{place: expected.get(place) for place in unsure}})


def _settled(seen: SeenView, chosen: View) -> SeenView:
    """The table as read once a reading of ``chosen`` was accepted: the places that made the
    difference are no longer in doubt."""
    if chosen == seen.view:
        return seen
    doubt = {p: o for p, o in seen.uncertain.items() if chosen.get(p) == seen.view.get(p)}
    return SeenView(chosen, doubt, seen.unplaced)


# -- sightings by name --
_GROUPS = ("cards", "pyramids", "dice", "tokens")


def _sighting(snapshot: TableSnapshot, name: str):
    group, _, number = name.partition("/")
    if group not in _GROUPS or not number.isdigit():
        raise SessionError(f"name a sighting as <kind>/<index> with kind one of {', '.join(_GROUPS)}, got {name!r}")
    items = getattr(snapshot, group)
    index = int(number)
    if index >= len(items):
        raise SessionError(f"the last snapshot has {len(items)} {group}; there is no {name}")
    return group, index, items[index]


def _label_of(group: str, item) -> str:
    if group == "cards":
        return item.card or "?"
    if group == "pyramids":
        return "+".join(str(p) for p in item.stack)
    if group == "dice":
        return str(item.face)
    return item.label


def _relabelled(group: str, item, label: str):
    """The sighting read as ``label``, for certain (confidence 1, no alternatives)."""
    try:
        if group == "cards":
            return dataclasses.replace(item, card=label, face_up=label != "back", confidence=1.0, alternatives=())
        if group == "pyramids":
            stack = tuple(Pyramid.parse(p) for p in label.split("+"))
            return dataclasses.replace(item, stack=stack, confidence=1.0, alternatives=())
        if group == "dice":
            return dataclasses.replace(item, face=int(label), confidence=1.0, alternatives=())
        return dataclasses.replace(item, label=label, confidence=1.0, alternatives=())
    except ValueError as exc:
        raise SessionError(f"cannot relabel a {group[:-1]} as {label!r}: {exc}") from None


def _center(item) -> tuple[float, float]:
    return item.center_mm


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= RELABEL_RADIUS_MM ** 2


__all__ = ["Candidate", "MAX_CHAIN", "Pending", "Session", "SessionError"]
