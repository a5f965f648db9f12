"""Several moves seen in one look: which move came first.

A slow camera, or quick players, may see the table only after several moves: bob's step and then
ann's pick; cat's pick, the card it uncovered, and cat's next pick from the same pile. When no
single move explains the table, :func:`first_moves` names the moves that could have come first;
the session accepts one and reads the same table again from the state it leads to.

The search is cautious, in this order:

1. a legal move whose every change the table shows as the move left it, after which the rest
   of the change reads as a legal move of its own (two moves on different places);
2. failing that, the first move of a *run* of up to :data:`RUN_MOVES` legal moves that ends in
   the table, later moves free to change the same places again. Only a run that breaks no rule
   is believed: a longer story needs more evidence than a shorter one;
3. failing that, a move and one more as in 1, the table read with two of its doubtful places put
   right at once (a look that missed a move reads the places both moves changed, so two misreads
   are likelier: Deck Town trial 1 was lost so, the pile's covered card and the next hatch's small
   both misread);
4. failing that, a move as in 1 after which the rest reads only as an illegal move, so that the
   violation raised next cites the rule that move broke, not the turn order.

Runs that end in the same state are one answer: the table cannot say, and the game does not
care, in which order three cards were turned up, or (both captured and discarded in the same look)
which of two played cards was whose.

The run search is pruned by what the table shows, so that a reveal's forty outcomes and a
player's hundreds of choices do not multiply:

* a move that brings something onto the table (a card turned up, or played from a hand) is tried
  only when that thing still shows somewhere at the end;
* a move that only moves things about the table is tried only where the table shows a change
  (or the run has made one), and, when the player chose it, only when it puts each thing where
  the table shows it; a forced move (a capture, the only move there is) is followed wherever it
  leads. So a card moved twice by choice in one look is missed;
* of a reveal's outcomes, and of more than :data:`RUN_CHOICES` choices, only moves naming nothing
  the table does not show are tried, plus the moves the game reads from the table.

It visits at most :data:`RUN_STATES` positions, in at most :data:`RUN_SECONDS` of this thread's CPU time; a search cut
short says so, and the session then asks rather than accepts.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from referee.action import Action
from referee.game import CHANCE, State
from referee.view import View

RUN_VIEWS = 4  # readings of the table (the likeliest first) searched
PAIR_VIEWS = 48  # readings with two doubtful places put right at once, tried last for a move and one more
RUN_MOVES = 8  # the longest run of moves searched for in one look (a card turned up counts as one)
RUN_STATES = 15000  # positions the run search may visit, so a busy table cannot stall the referee
RUN_SECONDS = 1.0  # and the CPU time it may take (a Pouches position costs eight times a Mongoose one); this
# thread's own, so a machine busy with other work finds what an idle one does
RUN_CHOICES = 400  # a player with more legal moves than this is searched through fewer (see _Runs._next)


@dataclass(frozen=True)
class First:
    """A move that could have come first, and the reading of the table that says so."""

    action: Action
    view: View  # the reading of the table the rest was read from


def first_moves(state: State, views: Iterable[View], pairs: Iterable[View] = ()) -> tuple[tuple[First, ...], bool]:
    """The moves from ``state`` that could have come first of several, the table being read as
    one of the first :data:`RUN_VIEWS` of ``views`` (the likeliest first), one per state they lead
    to (none when none could); and whether the search was complete (False when it ran out of
    positions or time, so a move found may not be the only one). ``pairs``: readings with two
    doubtful places put right at once (the first :data:`PAIR_VIEWS`), tried for a move and one more
    where no reading of ``views`` tells any legal story."""
    views = list(itertools.islice(views, RUN_VIEWS))
    then_legal, then_illegal = _move_and_one_more(state, views)
    if then_legal:
        return tuple(then_legal.values()), True
    runs = _Runs(state, views)
    firsts = runs.firsts()
    if firsts:
        return firsts, runs.complete
    then_legal, _ = _move_and_one_more(state, list(itertools.islice(pairs, PAIR_VIEWS)))
    # (a run search cut short may have missed a likelier story: then what the pairs tell is asked)
    return tuple((then_legal or then_illegal).values()), runs.complete


def _move_and_one_more(state: State, views: list[View]) -> tuple[dict[State, First], dict[State, First]]:
    """The legal moves whose every change one of ``views`` shows as the move left it, by the state they lead
    to: those after which the rest of the change reads as a legal move, and those after which it reads only as
    an illegal one."""
    expected = state.view()
    then_legal: dict[State, First] = {}
    then_illegal: dict[State, First] = {}
    for action in state.legal_actions():
        result = state._apply(action)
        shown = result.view()
        changed = [change.place for change in expected.diff(shown)]
        if not changed:  # a move the camera cannot see (a pass) is entered by the players
            continue
        for view in views:
            if any(view.get(place) != shown.get(place) for place in changed):
                continue
            readings = result.interpret(view)
            if any(r.verdict.legal for r in readings):
                then_legal.setdefault(result, First(action, view))
                break
            if readings:
                then_illegal.setdefault(result, First(action, view))
    return then_legal, then_illegal


class _Runs:
    """The search for legal runs of moves from one state that end in the table."""

    def __init__(self, start: State, views: list[View]):
        self.start, self.views = start, views
        expected = start.view()
        self.changed = {change.place for view in views for change in expected.diff(view)}
        self.visible = {item for view in views for contents in view.values() for item in contents}
        self.budget, self.deadline = RUN_STATES, time.thread_time() + RUN_SECONDS
        self.known: dict[tuple[State, int], tuple[View, State] | None] = {}  # _end's answers so far

    def where(self, place: str) -> set[str]:
        """What the table shows at ``place``, read any of its ways."""
        return {item for view in self.views for item in view.get(place)}

    @property
    def complete(self) -> bool:
        return self.budget > 0

    def firsts(self) -> tuple[First, ...]:
        """One first move per state the runs end in: the order of moves that end alike (three
        cards turned up one by one) is not the players' to answer."""
        found: dict[State, First] = {}
        for action, result in self._next(self.start):
            end = self._end(result, RUN_MOVES - 1)
            if end is not None:
                found.setdefault(end[1], First(action, end[0]))
        return tuple(found.values())

    def _end(self, state: State, moves_left: int) -> tuple[View, State] | None:
        """The reading of the table that some legal run of at most ``moves_left`` more moves from
        ``state`` leaves the table exactly as, and the state it ends in; None when there is none."""
        shown = state.view()
        for view in self.views:
            if view == shown:
                return view, state
        if moves_left == 0:
            return None
        key = (state, moves_left)
        if key not in self.known:
            end = None
            for _, result in self._next(state):
                end = self._end(result, moves_left - 1)
                if end is not None:
                    break
            if end is None and not self.complete:
                return None  # cut short: not known
            self.known[key] = end  # other roads here (three cards turned up in another order) reuse it
        return self.known[key]

    def _next(self, state: State) -> Iterator[tuple[Action, State]]:
        """The legal moves from ``state`` that the table could show as part of a run, with the
        states they lead to, until the budget is spent."""
        before = state.view()
        on_table = {item for contents in before.values() for item in contents}
        still_open = self.changed | {change.place for view in self.views for change in before.diff(view)}
        moves = []
        for action in self._choices(state, before, on_table):
            if self.budget <= 0 or time.thread_time() > self.deadline:
                self.budget = 0  # spent: the search is cut short
                break
            self.budget -= 1
            result = state._apply(action)
            diff = before.diff(result.view())
            if diff:  # a move the camera cannot see (a pass) is never guessed
                moves.append((action, result, diff))
        forced = len(moves) == 1
        for action, result, diff in moves:
            # what a move turns up or plays from a hand must still show somewhere at the end; a
            # move that only moves things on the table, unless forced (a capture), moves them only
            # where the table shows a change (or the run made one) and to where the table shows
            # them, so a card moved twice by choice in one look is missed
            brought = {item for change in diff for item in change.after if item not in on_table}
            shown = brought <= self.visible and (forced or bool(brought) or all(
                change.place in still_open and
                all(item in self.where(change.place) for item in change.after if item not in change.before)
                for change in diff))
            if shown:
                yield action, result

    def _choices(self, state: State, before: View, on_table: set[str]) -> list[Action]:
        """The moves worth trying from ``state``: every legal one, except that of a reveal's many
        outcomes, or a player's too many choices (two hidden cards to play from forty), only those
        naming nothing but what the table shows and where; and where even those are too many, only
        the moves the game reads from the table."""
        actions = list(state.legal_actions())
        chance, many = state.to_move == CHANCE, len(actions) > RUN_CHOICES
        if chance or many:
            shows = on_table | self.visible | set(before) | {place for view in self.views for place in view}
            actions = [action for action in actions if _names(action) <= shows]
        if many and not chance:
            read = [r.action for view in self.views for r in state.interpret(view) if r.verdict.legal]
            actions = read + (actions if len(actions) <= RUN_CHOICES else [])
        return list(dict.fromkeys(actions))


def _names(action: Action) -> set[str]:
    """Every string among an action's fields (a tuple's items one by one)."""
    names = set()
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                names.add(item)
    return names
