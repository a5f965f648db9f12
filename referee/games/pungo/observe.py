"""Checking an observed turn: which legal roll and steps lead from the position before to the view after.

The camera sees the table whenever hands leave it: after a whole turn, or in the middle of one when
the player pauses. It never sees the steps in between, and sees only the outside of a nest.
:func:`explain` takes the fewest points that make the table look as seen: if some legal steps
costing fewer points than the turn has do, the turn is under way (a :class:`Part` of it); else it
searches the sequences of legal steps that spend exactly the turn's points (a whole :class:`Turn`).
A pause is never read as a whole turn whose extra steps went back and forth unseen: the next
player's roll shows that the turn is over, and its rest is then read as steps spending exactly the
points left; where the steps guessed at the pause cannot lead there (they froze a pyramid the real
turn did not), the whole turn is read again from its start (a :class:`Reread`). Where such a whole
turn would end the game at the pause, or the players are asked anyway (several parts alike, hiding
different pyramids in nests), the whole turns are offered beside the parts.

Both searches go depth first, with a memo of positions already tried and a lower bound on the points
still needed to make every cell look as seen, carrying the pyramids hidden in nests along. Several
sequences may look the same to the camera and differ only inside the nests: each distinct outcome
is one explanation. When nothing explains the view, a third search (A*, cheapest first, ignoring
the exact-spend rule) finds the cheapest sequence that would, so the reason can say what is wrong:
"7 points of movement needed, the die gave 5".
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import count

from referee.game import Reading
from referee.verdict import Reason
from referee.view import View

from referee.games.pungo.actions import Part, Reread, Turn
from referee.games.pungo.layout import SIZE_NAMES, Board, size, visible
from referee.games.pungo.moves import Frozen, Step

DIAGNOSIS_NODES = 300  # the cheapest-sequence search (only for the message) gives up after this many positions
DIAGNOSIS_EXTRA = 4  # and looks for sequences costing at most this many points more than the die gave


@dataclass(frozen=True)
class Explanation:
    """What explains a change: legal turns (one per distinct hidden outcome), or reasons none does.

    ``candidates`` are turns that would produce the view but break a rule (their verdicts say
    which); ``reasons`` say why no legal turn explains the view."""

    turns: tuple[Turn, ...]
    candidates: tuple[Turn, ...] = ()
    reasons: tuple[Reason, ...] = ()

    @property
    def explained(self) -> bool:
        return bool(self.turns)


def interpret(state, after: View) -> tuple[Reading, ...]:
    """Readings of the change from ``state.view()`` to ``after``: the legal turns, else the illegal candidates."""
    if state.phase == "over" or after == state.view():
        return ()
    found = explain(state, after)
    turns = found.turns or found.candidates
    return tuple(Reading(t, state.check(t)) for t in turns)


def explain(state, after: View, limit: int = 4) -> Explanation:
    """Explain ``after`` as one whole turn (or the rest of the turn under way) from ``state``."""
    cfg = state.config
    player = state.mover
    if state.phase == "over":
        return Explanation((), (), (state.reason("pungo/win/after-spending", "the game is over"),))
    goal, reasons = _goal(state, after)
    if reasons:
        return Explanation((), (), tuple(reasons))
    roll, reasons = _roll_seen(state, after)
    if reasons:
        return Explanation((), (Turn(player, roll, ()),) if roll else (), tuple(reasons))
    start = state
    if state.phase == "roll":
        if roll is None:
            return Explanation((), (), (state.reason("pungo/turn/order", "the die has not been rolled"),))
        start = state._apply_roll_text(roll)
        if start is None:  # an illegal roll: the turn's verdict says why
            candidate = Turn(player, roll, ())
            return Explanation((), (candidate,), state.check(candidate).reasons)
    if start.phase != "move" or start.seat != state.seat:
        moved = [c for c in range(cfg.arena.size) if visible(start.board[c]) != goal[c]]
        if moved:
            names = ", ".join(cfg.arena.name(c) for c in moved)
            return Explanation((), (), (state.reason("pungo/turn/decision", f"pyramids moved ({names}) after the "
                                                     "move phase ended: only the roll remains"),))
        turn = Turn(player, roll, ())
        return _verdicts(state, [turn])
    search = _Search(start, goal)
    over = state.phase == "move" and roll is not None and not cfg.decision
    if over:  # the next player has rolled: this turn is over, its rest spent where the table shows
        roll = None
    under_way: tuple[Part, ...] = ()
    if start.points == 0:
        paths = [()] if search.matches(start.board) else []
    elif over:
        ended = _turn_ended(state, goal, limit)
        if ended:
            return Explanation(ended)
        paths = []
    else:
        parts = [Part(player, roll, tuple(_texts(cfg, p))) for p in search.partial(limit)]
        under_way = tuple(p for p in parts if state.check(p).legal)
        paths = search.exact(limit)
    turns = []
    if paths:
        rolls = [roll, None] if cfg.chaos and cfg.decision and roll is not None else [roll]
        turns = [Turn(player, r, tuple(_texts(cfg, p))) for p in paths for r in rolls]
        if cfg.decision and roll is None:  # the points are spent, the roll is still to come
            turns += [Part(player, None, t.steps) for t in turns if t.steps]
    if under_way:
        # a pause; but where the players are asked anyway (the parts hide different pyramids in nests)
        # or the points spent back and forth unseen would end the game, the whole turns are offered too
        whole = [t for t in turns if state.check(t).legal]
        if len(under_way) == 1:
            whole = [t for t in whole if state.apply(t).is_over()]
        return Explanation(under_way + tuple(whole))
    if turns:
        return _verdicts(state, turns)
    if cfg.chaos and state.phase == "move" and roll is None:  # a throw showing the face already up is not seen
        ended = _turn_ended(state, goal, limit)
        if ended:
            return Explanation(ended)
    return _diagnose(state, start, search, player, roll)


def _turn_ended(state, goal, limit: int) -> tuple[Turn | Reread, ...]:
    """The turn under way is over (the next player has rolled, or in Chaos Pungo may have thrown
    the face already up and moved, which nothing else explains): its rest as legal steps spending
    exactly the points left, ending where the table shows, or failing that where the turn paused
    (the next player then made the other changes, read next). Where the steps guessed at the pause
    cannot lead there (they froze a pyramid the turn did not), the whole turn read again from its
    start."""
    cfg, player = state.config, state.mover
    paused = tuple(visible(stack) for stack in state.board)
    for target in dict.fromkeys((goal, paused)):
        readings = [Turn(player, None, tuple(_texts(cfg, p))) for p in _Search(state, target).exact(limit)]
        if not readings and state._turn_start is not None:
            readings = [Reread(player, tuple(_texts(cfg, p))) for p in _Search(state._turn_start, target).exact(limit)]
        legal = tuple(r for r in readings if state.check(r).legal)
        if legal:
            return legal
    return ()


def _verdicts(state, turns: list[Turn]) -> Explanation:
    legal = [t for t in turns if state.check(t).legal]
    if legal:
        return Explanation(tuple(legal))
    reasons = []
    for t in turns:
        reasons.extend(r for r in state.check(t).reasons if r not in reasons)
    return Explanation((), tuple(turns), tuple(reasons))


def _texts(cfg, path: tuple[Step, ...]) -> list[str]:
    return [f"{cfg.arena.name(s.cell)}:{s.count}:{s.direction}" for s in path]


def _goal(state, after: View) -> tuple[tuple[tuple[str, ...], ...], list[Reason]]:
    """The visible stack the view shows on every arena cell, and reasons the view cannot be a Pungo table."""
    cfg = state.config
    goal: list[tuple[str, ...]] = [()] * cfg.arena.size
    reasons = []
    for place, contents in after.items():
        if place.startswith("arena/"):
            try:
                cell = cfg.arena.index(place[len("arena/"):])
            except ValueError as exc:
                reasons.append(state.reason("pungo/setup/arena", str(exc)))
                continue
            goal[cell] = tuple(contents)
    seen: dict[str, int] = {}
    for stack in goal:
        for p in stack:
            seen[p] = seen.get(p, 0) + 1
    owned: dict[str, int] = {}
    for stack in state.board:
        for p in stack:
            owned[p] = owned.get(p, 0) + 1
    for name, n in sorted(seen.items()):
        if n > owned.get(name, 0):
            reasons.append(state.reason("pungo/setup/pyramids", f"the view shows {n} {name}, the game has "
                                        f"{owned.get(name, 0)}"))
    for s in (1, 2, 3):
        hidden = sum(n for p, n in owned.items() if size(p) == s) - sum(n for p, n in seen.items() if size(p) == s)
        if hidden > 0 and not any(size(p) >= s for p in seen):
            reasons.append(state.reason("pungo/setup/pyramids", f"{hidden} {SIZE_NAMES[s]} pyramid(s) are out of "
                                        "sight, "
                                        "but no pyramid that could cover them is seen"))
    for cell, stack in enumerate(goal):
        if any(size(a) <= size(b) for a, b in zip(stack, stack[1:])):
            reasons.append(state.reason("pungo/move/no-smaller", f"{cfg.arena.name(cell)} shows "
                                        f"{'+'.join(stack)}: a pyramid seen above one no bigger would cover it"))
    return tuple(goal), reasons


def _roll_seen(state, after: View) -> tuple[str | None, list[Reason]]:
    """The roll the die's place and face imply, as a Turn's roll text (None: the die did not move)."""
    cfg = state.config
    places = [p for p in after if p.startswith("roll/") or p == "die"]
    if len(places) != 1 or len(after[places[0]]) != 1:
        return None, [state.reason("pungo/setup/roll-grid", "the view must show the die once, on the roll grid "
                                   f"(or thrown, in Chaos Pungo); it shows {places or 'none'}")]
    place, face = places[0], after[places[0]][0]
    before = state.view()
    if cfg.chaos and state.phase == "roll":
        return face, []  # a throw may show the face that was already up
    if before.get(place) == (face,):
        return None, []
    if cfg.chaos and place == "die":
        return face, []
    if place == "die":
        return None, [state.reason("pungo/roll/one-tumble", "the die left the roll grid: a controlled roll "
                                   "tumbles it onto an adjacent square")]
    try:
        square = cfg.grid.index(place[len("roll/"):])
    except ValueError as exc:
        return None, [state.reason("pungo/roll/one-tumble", str(exc))]
    direction = cfg.grid.direction(state.square, square)
    if direction is None:
        return None, [state.reason("pungo/roll/one-tumble", f"the die went from {cfg.grid.name(state.square)} to "
                                   f"{cfg.grid.name(square)}: a controlled roll is one tumble to an adjacent square")]
    return f"{direction}:{face}", []


class _Search:
    """Sequences of steps from one move-phase state to a board that looks like ``goal``."""

    def __init__(self, start, goal):
        self.start = start
        self.goal = goal
        self.mover = start.config.mover
        self.allowed = start.allowed
        self._cell_bound: dict = {}

    def matches(self, board: Board) -> bool:
        goal = self.goal
        return all(visible(stack) == goal[i] for i, stack in enumerate(board))

    def cell_bound(self, cell: int, stack: tuple[str, ...]) -> int:
        """Points some step touching ``cell`` must cost before it looks as seen (0 if it already does).

        A wrong-looking cell needs a unit to arrive (whose top is the top seen there, so costing at
        least that size) or to leave (costing at least the size of the top now there)."""
        key = (cell, stack)
        b = self._cell_bound.get(key)
        if b is None:
            want = self.goal[cell]
            if visible(stack) == want:
                b = 0
            elif self.mover.pyramid_die:
                b = 1
            else:
                options = []
                if want:
                    options.append(size(want[-1]) if not stack or stack[-1] != want[-1] else 1)
                if stack:
                    options.append(size(stack[-1]))
                b = min(options)
            self._cell_bound[key] = b
        return b

    def bound_sum(self, board: Board) -> int:
        """Twice (at least) the points still needed: each step's cost counts for at most two cells."""
        return sum(self.cell_bound(i, stack) for i, stack in enumerate(board))

    def child_sum(self, total: int, board: Board, child: Board, step: Step) -> int:
        """:meth:`bound_sum` of ``child`` from its parent's, touching only the two cells the step changed."""
        cb, c, d = self.cell_bound, step.cell, step.dest
        return total - cb(c, board[c]) - cb(d, board[d]) + cb(c, child[c]) + cb(d, child[d])

    def exact(self, limit: int) -> list[tuple[Step, ...]]:
        """Paths spending exactly the turn's remaining points, one per distinct final board (up to ``limit``)."""
        mover, allowed = self.mover, self.allowed
        return self._paths(self.start.remaining, limit, lambda board, frozen, left: mover.steps(board, frozen, left,
                                                                                                  allowed), whole=True)

    def partial(self, limit: int) -> list[tuple[Step, ...]]:
        """Paths of legal steps after which the board looks as seen, spending the fewest points that do,
        fewer than the turn's remaining points; one per distinct board and frozen set (up to ``limit``)."""
        mover, allowed, points = self.mover, self.allowed, self.start.remaining
        for budget in range(points):
            def steps(board, frozen, left, budget=budget):  # each keeps the turn's rest spendable
                return (s for s in mover.legal_steps(board, frozen, points - budget + left, allowed) if s.cost <= left)
            found = self._paths(budget, limit, steps, whole=False)
            if found:
                return found
        return []

    def _paths(self, budget: int, limit: int, steps, whole: bool) -> list[tuple[Step, ...]]:
        """Depth first, the paths of ``steps(board, frozen, points left)`` costing exactly ``budget``
        after which the board looks as seen: one per final board, or, for a part of a turn (not
        ``whole``), per board and frozen set, since what may still move matters."""
        found: dict = {}
        seen: set = set()
        path: list[Step] = []

        def walk(board: Board, frozen: Frozen, left: int, total: int) -> bool:
            if left == 0:
                end = board if whole else (board, frozen)
                if total == 0 and end not in found:
                    found[end] = tuple(path)
                    return len(found) >= limit
                return False
            key = (board, frozen, left)
            if key in seen or total > 2 * left:
                return False
            seen.add(key)
            for step in steps(board, frozen, left):
                child, child_frozen = self.mover.apply(board, frozen, step)
                path.append(step)
                done = walk(child, child_frozen, left - step.cost, self.child_sum(total, board, child, step))
                path.pop()
                if done:
                    return True
            return False

        start = self.start
        walk(start.board, start.frozen, budget, self.bound_sum(start.board))
        return list(found.values())

    def cheapest(self, cap: int, onto_smaller: bool = False) -> tuple[int, tuple[Step, ...]] | None:
        """The cheapest path (at most ``cap`` points) to a matching board, ignoring the exact-spend rule
        (and with ``onto_smaller`` the rule that a pyramid lands on none smaller)."""
        mover, allowed = self.mover, self.allowed
        start = (self.start.board, self.start.frozen)
        tie = count()
        total = self.bound_sum(start[0])
        heap = [((total + 1) // 2, 0, next(tie), start[0], start[1], total, ())]  # ties: deepest first
        best = {start: 0}
        expanded = 0
        while heap and expanded < DIAGNOSIS_NODES:
            _, negative, _, board, frozen, total, path = heapq.heappop(heap)
            cost = -negative
            if total == 0:
                return cost, path
            if best.get((board, frozen), cost) < cost:
                continue
            expanded += 1
            for step in mover.steps(board, frozen, cap - cost, allowed, onto_smaller):
                child, child_frozen = mover.apply(board, frozen, step)
                c = cost + step.cost
                key = (child, child_frozen)
                if c < best.get(key, cap + 1):
                    best[key] = c
                    child_total = self.child_sum(total, board, child, step)
                    estimate = c + (child_total + 1) // 2
                    if estimate <= cap:
                        heapq.heappush(heap, (estimate, -c, next(tie), child, child_frozen, child_total,
                                              path + (step,)))
        return None


def _diagnose(state, start, search: _Search, player: str, roll: str | None) -> Explanation:
    """No legal turn explains the view: find the cheapest sequence that would, and say what it breaks."""
    cfg = state.config
    if start.points == 0:
        reason = start._pass_due()
        text = f"{reason.text}, but the pyramids moved"
        return Explanation((), (), (state.reason("pungo/move/pass", text),))
    if cfg.die == "pyramid":
        cap = 3
    else:
        cap = start.nominal + DIAGNOSIS_EXTRA
    found, onto_smaller = search.cheapest(cap), False
    if found is None:  # a pyramid put down on a smaller one covers it: the camera sees the larger alone
        found, onto_smaller = search.cheapest(cap, onto_smaller=True), True
    if found is None:
        changed = [cfg.arena.name(c) for c in range(cfg.arena.size) if visible(start.board[c]) != search.goal[c]]
        text = (f"no sequence of legal steps (up to {cap} points) turns the position before into the one seen "
                f"(cells that changed: {', '.join(changed) or 'none'})")
        if cfg.die == "pyramid":
            text = f"no single legal step of an allowed size explains the change (cells: {', '.join(changed)})"
        return Explanation((), (), (state.reason("pungo/observe/turn", text),))
    cost, path = found
    texts = tuple(_texts(cfg, path))
    # a pause after a pyramid went onto a smaller one: as a part of the turn, so the reason is that rule
    # (as a whole turn it would be the points left unspent)
    paused = onto_smaller and cost < start.remaining and roll is None and state.phase == "move"
    candidate = Part(player, None, texts) if paused else Turn(player, roll, texts)
    reasons = state.check(candidate).reasons
    if state.check(candidate).legal:  # cannot happen: the exact search would have found it
        reasons = (state.reason("pungo/observe/turn", "the position is reached, but not as a whole turn"),)
    return Explanation((), (candidate,), tuple(reasons))
