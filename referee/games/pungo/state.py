"""The rules of Pungo: setup, the controlled roll, movement with exact points, and the two wins.

A turn runs in phases. ``roll``: the mover tumbles the die one square on the roll grid (Chaos
Pungo: the table shows a random face); ``move``: the mover makes steps until the turn's points are
spent. Decision Pungo swaps the two, and the roll then sets the opponent's points. The first
player's first turn uses the 1 the die shows, with no roll.

The points a turn must spend are fixed when its move phase begins: the die's points if some
sequence of steps spends them exactly, otherwise (house ruling, option ``unspendable``) the most
that can be spent, or nothing (the turn passes). Every step must keep the rest spendable, so a turn
can never get stuck half-way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.action import Action, ActionParseError
from referee.game import CHANCE, Game, Outcome, State
from referee.rules import RuleBook
from referee.verdict import Reason, Verdict
from referee.view import View

from referee.games.pungo import rolling
from referee.games.pungo.actions import ACTIONS, Part, Pass, Reread, Roll, Show, Step, Turn
from referee.games.pungo.layout import (DIRECTIONS, SIZE_NAMES, Arena, Board, Grid, roll_grid, setup_board, size,
                                        visible)
from referee.games.pungo.moves import Frozen, Mover
from referee.games.pungo.moves import Step as Move
from referee.games.pungo.setup import parse_stack, setup_stacks



@dataclass(frozen=True)
class Config:
    """Everything about a configured game that the rules consult, worked out once per game."""

    arena: Arena
    grid: Grid
    start_square: int
    die: str  # "d6" or "pyramid"
    table: str  # "regular" or "averaging"
    decision: bool
    chaos: bool
    colours: int
    unspendable: str
    mover: Mover


@cache
def config(game: Game) -> Config:
    arena = Arena.of(game.option("arena"))
    grid, start = roll_grid(game.option("roll-grid"))
    die = game.option("die")
    return Config(arena, grid, start, die, game.option("points"), game.option("order") == "decision",
                  game.option("roll") == "chaos", game.option("colours"), game.option("unspendable"),
                  _mover(arena, die == "pyramid"))


@cache
def _mover(arena: Arena, pyramid_die: bool) -> Mover:
    return Mover(arena, pyramid_die)


class PungoState(State):
    ACTIONS = ACTIONS

    def __init__(self, game: Game, board: Board, frozen: Frozen, seat: int, phase: str, orientations: frozenset,
                 square: int | None, previous: int | None, points: int, nominal: int, spent: int,
                 outcome: Outcome | None = None):
        super().__init__(game)
        self.board = board
        self.frozen = frozen
        self.seat = seat  # whose turn it is (0: home row 1, 1: the last row)
        self.phase = phase  # "roll", "move" or "over"
        self.orientations = orientations  # die orientations consistent with everything seen
        self.square = square  # the die's cell on the roll grid (None in Chaos Pungo once thrown)
        self.previous = previous  # the cell the die was on before that: it may not roll back there
        self.points = points  # what this turn must spend (after the unspendable ruling)
        self.nominal = nominal  # what the die gave
        self.spent = spent
        self._outcome = outcome
        self.config = config(game)
        self._turn_start: PungoState | None = None  # the move phase before its first step (not saved)

    # -- setup --
    @classmethod
    def initial(cls, game: Game, setup: Any = None) -> PungoState:
        cfg = config(game)
        stacks = setup_stacks(cfg.arena, cfg.colours, setup)
        board = setup_board(cfg.arena, stacks)
        start = cls(game, board, frozenset(), 0, "move", rolling.start_orientations(cfg.die), cfg.start_square,
                    None, 0, 0, 0)
        return start._begin_move(0, first=True)

    @classmethod
    def rulebook(cls, game: Game) -> RuleBook:
        return _rulebook()

    # -- derived facts --
    @property
    def face(self) -> str:
        return rolling.top(next(iter(self.orientations)))

    @property
    def mover(self) -> str:
        return self.game.players[self.seat]

    @property
    def allowed(self) -> frozenset[int] | None:
        """Sizes that may move this turn (pyramid die), or None (any)."""
        return rolling.sizes(self.face) if self.config.die == "pyramid" else None

    @property
    def remaining(self) -> int:
        return self.points - self.spent

    @property
    def to_move(self) -> str | None:
        if self.phase == "over":
            return None
        if self.phase == "roll" and self.config.chaos:
            return CHANCE
        return self.mover

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _replace(self, **changes) -> PungoState:
        fields = dict(board=self.board, frozen=self.frozen, seat=self.seat, phase=self.phase,
                      orientations=self.orientations, square=self.square, previous=self.previous,
                      points=self.points, nominal=self.nominal, spent=self.spent, outcome=self._outcome)
        fields.update(changes)
        state = PungoState(self.game, **fields)
        if state.phase == "move" and state.seat == self.seat and state.spent:  # a turn under way
            state._turn_start = self._turn_start if self.spent else self
        return state

    def _begin_move(self, seat: int, first: bool = False) -> PungoState:
        """Start ``seat``'s move phase: fix the points the turn must spend."""
        cfg = self.config
        face = self.face
        if cfg.die == "pyramid":
            nominal = 1  # one step of a size the face shows
        else:
            nominal = 1 if first else rolling.points(face, cfg.table)
        allowed = rolling.sizes(face) if cfg.die == "pyramid" else None
        if cfg.mover.can_spend(self.board, frozenset(), nominal, allowed):
            points = nominal
        elif cfg.unspendable == "largest":
            points = cfg.mover.largest_spendable(self.board, frozenset(), nominal, allowed)
        else:
            points = 0
        return self._replace(seat=seat, phase="move", frozen=frozenset(), points=points, nominal=nominal, spent=0)

    def _end_move(self) -> PungoState:
        """The mover has spent the points: a win now, else the roll (Decision) or the next turn."""
        won = self._win()
        if won is not None:
            return self._replace(phase="over", frozen=frozenset(), outcome=won)
        if self.config.decision:
            return self._replace(phase="roll", frozen=frozenset())
        return self._replace(phase="roll", seat=1 - self.seat, frozen=frozenset(), points=0, nominal=0, spent=0)

    # -- wins --
    def _win(self) -> Outcome | None:
        cfg, board, seat = self.config, self.board, self.seat
        name = self.mover
        row = cfg.arena.home_row(seat)
        if all(board[c] for c in row):
            def key(cell: int) -> tuple:
                return board[cell] if cfg.colours == 3 else tuple(size(p) for p in board[cell])
            if all(key(row[a]) == key(row[b]) for a, b in cfg.arena.mirror_pairs()):
                rule = "pungo/win/three-colours" if cfg.colours == 3 else "pungo/win/symmetry"
                what = "sizes and colours" if cfg.colours == 3 else "sizes"
                return Outcome((name,), rule, f"{name}'s home row is symmetric ({what}, every cell occupied) "
                                               "after spending the points")
        other = cfg.arena.home_row(1 - seat)
        if sum(len(board[c]) for c in other) == 9:
            opponent = self.game.players[1 - seat]
            return Outcome((name,), "pungo/win/all-nine", f"all nine pyramids stand in {opponent}'s home row "
                                                         f"after {name} spent the points")
        return None

    # -- legal actions --
    def legal_actions(self) -> list[Action]:
        """The single actions legal now: rolls (or, in Chaos Pungo, the faces the table may show), steps
        that keep the rest of the points spendable, or the pass. A bundled ``turn`` is accepted by
        ``check`` and ``apply`` too, but not listed: it is a sequence of these."""
        if self.phase == "over":
            return []
        cfg = self.config
        if self.phase == "roll":
            if cfg.chaos:
                return [Show(f) for f in rolling.faces(cfg.die)]
            out = []
            for direction in DIRECTIONS:
                dest = cfg.grid.neighbour(self.square, direction)
                if dest is None or dest == self.previous:
                    continue
                for face in sorted(rolling.rolled(self.orientations, direction)):
                    out.append(Roll(self.mover, direction, face))
            return out
        if self.points == 0:
            return [Pass(self.mover)]
        names, player = cfg.arena.names, self.mover
        return [Step(player, names[s.cell], s.count, s.direction)
                for s in cfg.mover.legal_steps(self.board, self.frozen, self.remaining, self.allowed)]

    # -- checking --
    def check(self, action: Action) -> Verdict:
        if self.phase == "over":
            return Verdict.illegal(self.reason("pungo/win/after-spending", "the game is over: "
                                               + self._outcome.text))
        if isinstance(action, Turn):
            return self._check_turn(action)
        if isinstance(action, Reread):
            return self._play_reread(action)[1]
        if isinstance(action, Show):
            return self._check_show(action)
        player = getattr(action, "player", None)
        if player != self.mover:
            return Verdict.illegal(self.reason("pungo/turn/order", f"it is {self.mover}'s turn, not {player}'s"))
        if isinstance(action, Roll):
            return self._check_roll(action)
        if isinstance(action, (Step, Pass)) and self.phase != "move":
            order = "move, then roll (Decision Pungo)" if self.config.decision else "roll, then move"
            return Verdict.illegal(self.reason("pungo/turn/order", f"{self.mover} must roll the die now ({order})"))
        if isinstance(action, Step):
            return self._check_step(action)
        if isinstance(action, Pass):
            return self._check_pass()
        return Verdict.illegal(self.reason("pungo/turn/order", f"{action} is not a Pungo action"))

    def _check_roll(self, roll: Roll) -> Verdict:
        cfg = self.config
        if self.phase != "roll":
            if self.spent == 0 and self.nominal and self._is_first_turn():
                text = f"the first turn uses the 1 showing, without a roll; {self.mover} moves now"
                return Verdict.illegal(self.reason("pungo/turn/first", text))
            order = "move, then roll (Decision Pungo)" if cfg.decision else "roll, then move"
            return Verdict.illegal(self.reason("pungo/turn/order",
                                               f"{self.mover} must move now ({order}); {self.remaining} points remain"))
        if cfg.chaos:
            return Verdict.illegal(self.reason("pungo/roll/chaos", "in Chaos Pungo the die is thrown, not tumbled: "
                                               "the table shows the face"))
        if roll.direction not in DIRECTIONS:
            return Verdict.illegal(self.reason("pungo/roll/one-tumble",
                                               f"the die tumbles N, E, S or W, not {roll.direction!r}"))
        dest = cfg.grid.neighbour(self.square, roll.direction)
        here = cfg.grid.name(self.square)
        if dest is None:
            return Verdict.illegal(self.reason("pungo/roll/one-tumble",
                                               f"the die on {here} cannot tumble {roll.direction}: off the roll grid"))
        if dest == self.previous:
            return Verdict.illegal(self.reason("pungo/roll/no-return",
                                               f"the die may not roll back onto {cfg.grid.name(dest)}, "
                                               "where it came from"))
        possible = rolling.rolled(self.orientations, roll.direction)
        if roll.face not in possible:
            shown = ", ".join(sorted(possible))
            text = (f"tumbling {roll.direction} from the orientations seen so far can show only {shown}, not "
                    f"{roll.face!r} (house ruling: real die geometry, the face on the far side comes up)")
            return Verdict.illegal(self.reason("pungo/roll/geometry", text))
        return Verdict.ok(self.reason("pungo/roll/geometry", f"tumbling {roll.direction} can show {roll.face}"),
                          self._points_reason(roll.face))

    def _points_reason(self, face: str) -> Reason:
        """What the face shown is worth, citing the rule of the die in use."""
        cfg = self.config
        if cfg.die == "pyramid":
            sizes = " or ".join(SIZE_NAMES[s] for s in sorted(rolling.sizes(face)))
            return self.reason("pungo/die/pyramid", f"face {face}: one step of a unit whose bottom is a {sizes}")
        rule = "pungo/points/averaging" if cfg.table == "averaging" else "pungo/points/regular"
        return self.reason(rule, f"face {face} gives {rolling.points(face, cfg.table)} points")

    def _check_show(self, show: Show) -> Verdict:
        if self.phase != "roll" or not self.config.chaos:
            who = self.mover
            return Verdict.illegal(self.reason("pungo/turn/order", f"no random roll is due: it is {who}'s "
                                               f"{'move' if self.phase == 'move' else 'controlled roll'}"))
        if show.face not in rolling.faces(self.config.die):
            return Verdict.illegal(self.reason("pungo/roll/chaos", f"the die has faces "
                                               f"{', '.join(rolling.faces(self.config.die))}; not {show.face!r}"))
        return Verdict.ok(self.reason("pungo/roll/chaos", f"the table shows {show.face}"),
                          self._points_reason(show.face))

    def _is_first_turn(self) -> bool:
        return self.seat == 0 and self.orientations == rolling.start_orientations(self.config.die) \
            and self.square == self.config.start_square and self.previous is None

    def _resolve(self, step: Step) -> tuple[Any, list[Reason]]:
        """The step as a movement and the reasons it breaks a movement rule; the movement is None only
        when it cannot be made at all (no such square or unit), so an overruled step is still played."""
        cfg = self.config
        try:
            cell = cfg.arena.index(step.cell)
        except ValueError as exc:
            return None, [self.reason("pungo/setup/arena", str(exc))]
        stack = self.board[cell]
        if not 1 <= step.count <= len(stack):
            text = (f"{step.cell} is empty" if not stack else
                    f"{step.cell} holds {len(stack)} pyramid(s); a step moves 1 to {len(stack)} of them from the top")
            return None, [self.reason("pungo/move/unit", text)]
        if step.direction not in DIRECTIONS:
            return None, [self.reason("pungo/move/orthogonal", f"steps go N, E, S or W, not {step.direction!r}")]
        dest = cfg.arena.neighbour(cell, step.direction)
        if dest is None:
            return None, [self.reason("pungo/move/orthogonal",
                                      f"{step.cell} has no square to the {step.direction}: off the arena")]
        unit = stack[len(stack) - step.count:]
        split = len(stack) - step.count
        reasons = []
        if any(cell * 16 + h in self.frozen for h in range(split, len(stack))):
            reasons.append(self.reason("pungo/move/frozen", f"{'+'.join(unit)} on {step.cell} is frozen this turn "
                                       "(house ruling: it started on the board, or landed on an empty square)"))
        bottom = size(unit[0])
        if cfg.die == "pyramid" and bottom not in self.allowed:
            shown = " or ".join(SIZE_NAMES[s] for s in sorted(self.allowed))
            reasons.append(self.reason("pungo/die/pyramid", f"the pyramid die shows {shown}; the unit's bottom "
                                       f"pyramid is a {SIZE_NAMES[bottom]} (house ruling: one step of a unit "
                                       "whose bottom is a size shown)"))
        target = self.board[dest]
        if target and size(target[-1]) < bottom:
            reasons.append(self.reason("pungo/move/no-smaller", f"a {SIZE_NAMES[bottom]} may not land on the "
                                       f"{SIZE_NAMES[size(target[-1])]} on {cfg.arena.name(dest)}"))
        cost = 1 if cfg.die == "pyramid" else sum(size(p) for p in unit)
        if cost > self.remaining:
            parts = " + ".join(f"{SIZE_NAMES[size(p)]} {size(p)}" for p in unit)
            what = f"the unit costs {cost} ({parts})" if cfg.die == "d6" else "the turn's one step is taken"
            reasons.append(self.reason("pungo/move/cost", f"{what} but only {self.remaining} of the "
                                       f"{self.points} points remain"))
        return Move(cell, step.count, step.direction, dest, cost), reasons

    def _check_step(self, step: Step) -> Verdict:
        if self.points == 0:
            return Verdict.illegal(self._pass_due())
        move, reasons = self._resolve(step)
        if reasons:
            return Verdict.illegal(*reasons)
        cfg = self.config
        child, frozen = cfg.mover.apply(self.board, self.frozen, move)
        left = self.remaining - move.cost
        if not cfg.mover.can_spend(child, frozen, left, self.allowed):
            text = (f"after this step {left} point(s) would remain and no legal steps spend exactly {left}; "
                    f"{self._spend_text()}")
            return Verdict.illegal(self.reason("pungo/move/spend-all", text))
        return Verdict.ok(self.reason("pungo/move/cost", f"costs {move.cost}; {left} of {self.points} left"))

    def _spend_text(self) -> str:
        if self.points == self.nominal:
            return f"all {self.points} points must be spent"
        return (f"the die gave {self.nominal} but at most {self.points} can be spent, so exactly {self.points} "
                "must be (house ruling: spend the largest number that can be spent)")

    def _pass_due(self) -> Reason:
        if self.config.unspendable == "pass" and self.nominal:
            text = (f"no way spends all {self.nominal} points, so the turn passes (house ruling, option "
                    "unspendable=pass)")
        else:
            text = "no pyramid can move with these points, so the turn passes"
        return self.reason("pungo/move/pass", text)

    def _check_pass(self) -> Verdict:
        if self.points == 0:
            return Verdict.ok(self._pass_due())
        return Verdict.illegal(self.reason("pungo/move/pass", f"{self.remaining} points can still be spent; "
                                           f"{self._spend_text()}"))

    # -- a whole observed turn --
    def _check_turn(self, turn: Turn) -> Verdict:
        return self._play_turn(turn)[1]

    def _play_turn(self, turn: Turn) -> tuple[PungoState | None, Verdict]:
        """Play a bundled turn (or the :class:`Part` of one) action by action; the state after it and the verdict."""
        if isinstance(turn, Part):
            return self._play_part(turn)
        steps, refused = self._turn_steps(turn)
        if refused is not None:
            return None, refused
        state, reasons = self, []

        def do(action: Action) -> bool:
            nonlocal state
            verdict = state.check(action)
            if not verdict.legal:
                reasons.extend(verdict.reasons)
                return False
            state = state._apply(action)
            return True

        decision = self.config.decision
        if state.phase == "roll" and not decision:
            if not self._roll_part(turn, do, reasons):
                return None, Verdict.illegal(*reasons)
        if state.phase != "move" and steps:
            return None, Verdict.illegal(self.reason("pungo/turn/decision", "only the roll remains of this turn; "
                                                     "no pyramid may move now"))
        if state.phase == "move":
            if state.points == 0 and not steps:
                do(Pass(turn.player))
            elif not steps:
                stopped = ("no pyramid moved, but " if state.spent == 0 else
                           f"the turn stops with {state.remaining} point(s) unspent; ")
                return None, Verdict.illegal(state.reason("pungo/move/spend-all", stopped + state._spend_text()))
            else:
                short = state._total_cost_reason(steps)
                if short is not None:
                    return None, Verdict.illegal(short)
                for step in steps:
                    if not do(step):
                        return None, Verdict.illegal(*reasons)
                if state.phase == "move":
                    return None, Verdict.illegal(state.reason(
                        "pungo/move/spend-all", f"the turn stops with {state.remaining} point(s) unspent; "
                        + state._spend_text()))
        if state.phase == "roll" and state.seat == self.seat and decision:
            if not self._roll_part(turn, do, reasons, after_move=True):
                return None, Verdict.illegal(*reasons)
        elif turn.roll is not None and self.phase == "move":
            if state.phase == "over":
                return None, Verdict.illegal(self.reason("pungo/win/after-spending", "the game ended when the points "
                                                         "were spent; no roll follows"))
            why = ("the first turn uses the 1 showing, without a roll" if self._is_first_turn()
                   else "the roll comes before moving, and was already made")
            return None, Verdict.illegal(self.reason("pungo/turn/first" if self._is_first_turn()
                                                     else "pungo/turn/order", why))
        return state, Verdict.ok(self.reason("pungo/turn/order", f"{turn.player}'s turn is explained"))

    def _turn_steps(self, turn: Turn) -> tuple[tuple[Step, ...], Verdict | None]:
        """A bundled turn's steps, or the verdict refusing it: not the mover's, or a step unreadable."""
        if turn.player != self.mover:
            return (), Verdict.illegal(self.reason("pungo/turn/order", f"it is {self.mover}'s turn, not {turn.player}'s"))
        try:
            return turn.step_actions(), None
        except ActionParseError as exc:
            return (), Verdict.illegal(self.reason("pungo/move/unit", str(exc)))

    def _play_part(self, part: Part) -> tuple[PungoState | None, Verdict]:
        """The part of a turn seen so far: legal when every action in it is, and the same player is still
        to act after it (points left to spend; Decision Pungo: or the roll to make)."""
        steps, refused = self._turn_steps(part)
        if refused is not None:
            return None, refused
        actions: list[Action] = list(steps)
        if part.roll is not None:
            if self.phase != "roll" or self.config.decision:
                when = "after the steps (Decision Pungo)" if self.config.decision else "before the steps"
                return None, Verdict.illegal(self.reason("pungo/turn/order", f"a part of a turn holds its roll only "
                                                         f"when the roll comes first; here it comes {when}"))
            actions.insert(0, self._roll_action(part.roll))
        if not actions:
            return None, Verdict.illegal(self.reason("pungo/turn/order", "a part of a turn holds a roll or a step"))
        state = self
        for action in actions:
            verdict = state.check(action)
            if not verdict.legal:
                return None, verdict
            state = state._apply(action)
        if state.phase == "over" or state.seat != self.seat or (state.phase == "roll" and not self.config.decision):
            return None, Verdict.illegal(self.reason("pungo/turn/order", f"{part.player}'s turn ends here: it is "
                                                     "a whole turn, not a part of one"))
        left = (f"{state.remaining} of {state.points} point(s) left to spend" if state.phase == "move"
                else "the roll still to make")
        return state, Verdict.ok(self.reason("pungo/move/cost", f"{part.player}'s turn goes on: {left}"))

    def _play_reread(self, reread: Reread) -> tuple[PungoState | None, Verdict]:
        """The turn under way played again from its first step as ``reread``'s whole turn."""
        start = self._turn_start
        if start is None or self.phase != "move":
            return None, Verdict.illegal(self.reason("pungo/turn/order", "no turn under way is known from its "
                                                     "start, so none can be read again"))
        return start._play_turn(Turn(reread.player, None, reread.steps))

    def _roll_part(self, turn: Turn, do, reasons: list, after_move: bool = False) -> bool:
        text = turn.roll
        if text is None:
            when = "after moving (Decision Pungo)" if after_move else "before moving"
            rule = "pungo/turn/decision" if after_move else "pungo/turn/order"
            reasons.append(self.reason(rule, f"{turn.player} must roll the die {when}"))
            return False
        return do(self._roll_action(text))

    def _total_cost_reason(self, steps: tuple[Step, ...]) -> Reason | None:
        """Compare what the steps cost in all with the points (before checking them one by one)."""
        if self.config.die == "pyramid":
            if len(steps) > 1:
                return self.reason("pungo/die/pyramid", f"{len(steps)} steps, but the pyramid die allows one step")
            return None
        board, total = list(self.board), 0
        for step in steps:
            try:
                cell, dest = self.config.arena.index(step.cell), None
                dest = self.config.arena.neighbour(cell, step.direction) if step.direction in DIRECTIONS else None
            except ValueError:
                return None
            stack = board[cell]
            if dest is None or not 1 <= step.count <= len(stack):
                return None
            unit = stack[len(stack) - step.count:]
            total += sum(size(p) for p in unit)
            board[cell], board[dest] = stack[:len(stack) - step.count], board[dest] + unit
        if total > self.remaining:
            left = f", {self.spent} of them spent already" if self.spent else ""
            return self.reason("pungo/move/cost", f"{total} points of movement needed, the die gave {self.nominal}"
                               + (f" (at most {self.points} can be spent)" if self.points != self.nominal else "")
                               + left)
        if total < self.remaining:
            return self.reason("pungo/move/spend-all", f"the steps spend {total} point(s); {self._spend_text()}")
        return None

    # -- applying --
    def _apply(self, action: Action) -> PungoState:
        if isinstance(action, Turn):
            return self._play_turn(action)[0] or self._played_anyway(action)
        if isinstance(action, Reread):
            return self._play_reread(action)[0]
        if isinstance(action, Roll):
            dest = self.config.grid.neighbour(self.square, action.direction)
            orientations = rolling.rolled(self.orientations, action.direction)[action.face]
            moved = self._replace(orientations=orientations, square=dest, previous=self.square)
            return moved._after_roll()
        if isinstance(action, Show):
            return self._replace(orientations=rolling.showing(self.config.die, action.face),
                                 square=None, previous=None)._after_roll()
        if isinstance(action, Pass):
            return self._end_move()
        after = self._moved(self._resolve(action)[0])
        return after._end_move() if after.remaining <= 0 else after

    def _moved(self, move) -> PungoState:
        """The state after ``move`` (a movement :meth:`_resolve` made), its cost spent; the turn goes on."""
        board, frozen = self.config.mover.apply(self.board, self.frozen, move)
        return self._replace(board=board, frozen=frozen, spent=self.spent + move.cost)

    def _played_anyway(self, turn: Turn) -> PungoState | None:
        """A turn (or part of one) the rules refuse and the players accept (``referee.log.force``): its
        roll and steps as the table shows them, whatever they cost or wherever they land; a whole turn
        then ends. None when it cannot be played at all (not the mover's, a square or unit not there)."""
        steps, refused = self._turn_steps(turn)
        if refused is not None:
            return None
        state, decision = self, self.config.decision
        if turn.roll is not None and state.phase == "roll" and not decision:
            state = state._apply(state._roll_action(turn.roll))
        for step in steps:
            move = state._resolve(step)[0]
            if move is None:
                return None
            state = state._moved(move)
        if isinstance(turn, Part) and state.remaining > 0:
            return state
        state = state._end_move()
        if turn.roll is not None and decision and state.phase == "roll":
            state = state._apply(state._roll_action(turn.roll))
        return state

    def _roll_action(self, text: str) -> Action:
        """A roll written as in a Turn (``N:4``; Chaos Pungo: ``4``) as the mover's action."""
        if self.config.chaos:
            return Show(text)
        direction, _, face = text.partition(":")
        return Roll(self.mover, direction, face)

    def _apply_roll_text(self, text: str) -> PungoState | None:
        """The state after a roll written as in a Turn (``N:4``, Chaos ``4``), or None if it is illegal."""
        action = self._roll_action(text)
        return self._apply(action) if self.check(action).legal else None

    def _after_roll(self) -> PungoState:
        return self._begin_move(1 - self.seat if self.config.decision else self.seat)

    # -- camera level --
    def view(self) -> View:
        cfg = self.config
        places = {f"arena/{cfg.arena.name(i)}": visible(stack) for i, stack in enumerate(self.board) if stack}
        if self.square is None:
            places["die"] = (self.face,)
        else:
            places[f"roll/{cfg.grid.name(self.square)}"] = (self.face,)
        return View(places)

    def interpret(self, after: View):
        from referee.games.pungo.observe import interpret
        return interpret(self, after)

    # -- JSON --
    def to_json(self) -> dict:
        cfg = self.config
        return {
            "board": {cfg.arena.name(i): "+".join(s) for i, s in enumerate(self.board) if s},
            "frozen": sorted(f"{cfg.arena.name(p // 16)}:{p % 16}" for p in self.frozen),
            "seat": self.seat, "phase": self.phase,
            "die": sorted(rolling.orientation_to_json(o) for o in self.orientations),
            "square": None if self.square is None else cfg.grid.name(self.square),
            "previous": None if self.previous is None else cfg.grid.name(self.previous),
            "points": self.points, "nominal": self.nominal, "spent": self.spent,
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }

    @classmethod
    def from_json(cls, game: Game, data: Any) -> PungoState:
        cfg = config(game)
        if not isinstance(data, dict):
            raise ValueError(f"a Pungo state is a JSON object, got {type(data).__name__}")
        expected = {"board", "frozen", "seat", "phase", "die", "square", "previous", "points", "nominal", "spent",
                    "outcome"}
        if set(data) != expected:
            raise ValueError(f"a Pungo state has the fields {sorted(expected)}; missing "
                             f"{sorted(expected - set(data))}, unexpected {sorted(set(data) - expected)}")
        try:
            cells: list[tuple[str, ...]] = [()] * cfg.arena.size
            for name, text in data["board"].items():
                cells[cfg.arena.index(name)] = tuple(str(p) for p in parse_stack(text))
            frozen = set()
            for text in data["frozen"]:
                name, _, height = text.partition(":")
                frozen.add(cfg.arena.index(name) * 16 + int(height))
            orientations = frozenset(rolling.orientation_from_json(cfg.die, t) for t in data["die"])
            if not orientations or len({rolling.top(o) for o in orientations}) != 1:
                raise ValueError("the die's orientations must all show the same top face")
            square = None if data["square"] is None else cfg.grid.index(data["square"])
            previous = None if data["previous"] is None else cfg.grid.index(data["previous"])
            outcome = None if data["outcome"] is None else Outcome.from_json(data["outcome"])
        except (AttributeError, TypeError, KeyError) as exc:
            raise ValueError(f"malformed Pungo state: {exc!r}") from None
        if data["phase"] not in ("roll", "move", "over") or data["seat"] not in (0, 1):
            raise ValueError(f"phase is roll, move or over and seat 0 or 1; got {data['phase']!r}, {data['seat']!r}")
        if sum(len(c) for c in cells) != 9:
            raise ValueError(f"the arena must hold nine pyramids, the state has {sum(len(c) for c in cells)}")
        for key in ("points", "nominal", "spent"):
            if isinstance(data[key], bool) or not isinstance(data[key], int):
                raise ValueError(f"{key} must be a whole number, got {data[key]!r}")
        return cls(game, tuple(cells), frozenset(frozen), data["seat"], data["phase"], orientations, square,
                   previous, data["points"], data["nominal"], data["spent"], outcome)


@cache
def _rulebook() -> RuleBook:
    return RuleBook.load("pungo")
