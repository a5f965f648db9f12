"""Scenario tests: every Pungo rule and house ruling, legal and illegal, named by rule id."""

from __future__ import annotations

import json

import pytest

from referee import GameConfigError, IllegalAction
from referee.dice import Die
from referee.games.pungo.actions import Pass, Roll, Step, Turn

SETUP = {"r2c1": "red1+red2+red3", "r2c2": "red2+red3", "r2c3": "red3+red1", "r2c4": "red1+red2"}
NESTS = {"r2c1": "red1+red2+red3", "r2c2": "red1+red2+red3", "r2c3": "red1+red2+red3"}  # only larges show


# --- setup ---

def test_the_setup_picture(pg):
    """pungo/setup/pyramids: middle row as drawn; the nest shows only its large, the perched small shows."""
    state = pg.make().new_state()
    view = state.view()
    assert view["arena/r2c1"] == ("red3",) and view["arena/r2c2"] == ("red3",)
    assert view["arena/r2c3"] == ("red3", "red1") and view["arena/r2c4"] == ("red2",)
    assert state.board[4] == ("red1", "red2", "red3")  # the referee remembers what the nest hides
    assert pg.pyramids(state) == sorted(["red1"] * 3 + ["red2"] * 3 + ["red3"] * 3)


def test_arena_and_home_rows(pg):
    """pungo/setup/arena: 3 rows of 4 by default, row 1 is the first player's; 4x3 puts the stacks in column 2."""
    state = pg.make().new_state()
    assert state.config.arena.rows == 3 and [state.config.arena.name(c) for c in state.config.arena.home_row(0)] \
        == ["r1c1", "r1c2", "r1c3", "r1c4"]
    tall = pg.make(arena="4x3").new_state()
    assert sorted(p for p in tall.view() if p.startswith("arena/")) == ["arena/r1c2", "arena/r2c2", "arena/r3c2",
                                                                        "arena/r4c2"]
    assert [tall.config.arena.name(c) for c in tall.config.arena.home_row(1)] == ["r4c1", "r4c2", "r4c3"]
    verdict = state.check(Step("ann", "r9c9", 1, "N"))
    assert verdict.rules == ("pungo/setup/arena",) and "not a cell" in str(verdict)


@pytest.mark.parametrize("setup, message", [
    (["red1+red2+red3", "red2+red3", "red3+red1"], "give the four setup stacks"),
    (["red1+red2+red3", "red3+red2", "red3+red1", "red1+red2"], "medium\\+large"),
    (["red1+red2+red3", "red2+red3", "red3+red1", "blue1+blue2"], "one colour"),
    (["red1+red2+red9", "red2+red3", "red3+red1", "red1+red2"], "bad setup at r2c1"),
    ({"r1c1": "red1"}, "the four setup cells are r2c1, r2c2, r2c3, r2c4"),
])
def test_bad_setups_are_refused_with_a_reason(pg, setup, message):
    """pungo/setup/pyramids: the table's setup must match the picture."""
    with pytest.raises(GameConfigError, match=message):
        pg.make().new_state(setup)


def test_three_colour_setup(pg):
    """pungo/setup/pyramids: three colours, each one small, one medium, one large."""
    game = pg.make(colours=3)
    state = game.new_state({"r2c1": "blue1+green2+red3", "r2c2": "blue2+green3", "r2c3": "blue3+green1",
                            "r2c4": "red1+red2"})
    assert state.view()["arena/r2c1"] == ("red3",)
    with pytest.raises(GameConfigError, match="each with one small"):
        game.new_state(["red1+red2+red3", "red2+green3", "blue3+green1", "blue1+blue2"])


# --- turn order ---

def test_first_turn_is_one_point_without_a_roll(pg):
    """pungo/turn/first: ann moves first with the 1 showing; only a small can move; no roll before it."""
    state = pg.make().new_state()
    assert state.mover == "ann" and state.phase == "move" and state.nominal == state.points == 1
    assert {(a.cell, a.count) for a in state.legal_actions()} == {("r2c3", 1)}
    verdict = state.check(Roll("ann", "N", "2"))
    assert verdict.rules == ("pungo/turn/first",)


def test_players_alternate_roll_then_move(pg):
    """pungo/turn/order: after ann's turn bob rolls, then moves; out-of-turn actions are refused."""
    state = pg.make().new_state()
    assert state.check(Step("bob", "r2c3", 1, "N")).rules == ("pungo/turn/order",)
    state = state.apply(Step("ann", "r2c3", 1, "N"))
    assert (state.mover, state.phase) == ("bob", "roll")
    verdict = state.check(Step("bob", "r2c4", 1, "N"))
    assert verdict.rules == ("pungo/turn/order",) and "roll, then move" in str(verdict)
    with pytest.raises(IllegalAction):
        state.apply(Roll("ann", "N", "2"))
    state = state.apply(Roll("bob", "W", "3"))
    assert (state.mover, state.phase, state.nominal) == ("bob", "move", 3)


def test_decision_pungo_moves_then_rolls_for_the_opponent(pg):
    """pungo/turn/decision: ann moves, then ann rolls, and the face is bob's points."""
    state = pg.make(order="decision").new_state()
    state = state.apply(Step("ann", "r2c3", 1, "N"))
    assert (state.mover, state.phase) == ("ann", "roll")
    assert state.check(Step("ann", "r2c4", 1, "N")).rules == ("pungo/turn/order",)
    state = state.apply(Roll("ann", "E", "4"))
    assert (state.mover, state.phase, state.nominal) == ("bob", "move", 4)
    # a bundled turn must end with the roll (unless it wins)
    moved = pg.make(order="decision").new_state()
    verdict = moved.check(Turn("ann", None, ("r2c3:1:N",)))
    assert verdict.rules == ("pungo/turn/decision",) and "after moving" in str(verdict)
    assert moved.check(Turn("ann", "E:4", ("r2c3:1:N",))).legal
    rolling_only = moved.apply(Step("ann", "r2c3", 1, "N"))
    assert rolling_only.check(Turn("ann", "E:4", ())).legal
    verdict = rolling_only.check(Turn("ann", "E:4", ("r2c4:1:N",)))
    assert verdict.rules == ("pungo/turn/decision",) and "only the roll remains" in str(verdict)


# --- points ---

def _roll_to(pg, game, face_wanted: int):
    """A roll-phase position whose die, tumbled south, shows ``face_wanted``."""
    die = next(d for d in Die.orientations() if d.north == face_wanted)
    state = pg.position(game, SETUP, phase="roll", seat=1, die=[str(die)], face=die.top)
    return state.apply(Roll("bob", "S", str(face_wanted)))


@pytest.mark.parametrize("face, regular, averaging", [(1, 1, 3), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 5),
                                                      (6, 6, 4)])
def test_points_per_face(pg, face, regular, averaging):
    """The face's value, or the Averaging table; the roll's verdict says which rule gave the points."""
    assert _roll_to(pg, pg.make(), face).nominal == regular
    assert _roll_to(pg, pg.make(points="averaging"), face).nominal == averaging
    die = next(d for d in Die.orientations() if d.north == face)
    for options, rule, points in (({}, "pungo/points/regular", regular),
                                  ({"points": "averaging"}, "pungo/points/averaging", averaging)):
        state = pg.position(pg.make(**options), SETUP, phase="roll", seat=1, die=[str(die)], face=die.top)
        verdict = state.check(Roll("bob", "S", str(face)))
        assert verdict.rules == ("pungo/roll/geometry", rule) and f"gives {points} points" in str(verdict)


# --- movement ---

def test_steps_cost_the_pips_of_the_unit(pg):
    """pungo/move/cost: a large costs 3, medium+large 5; no more than the points left."""
    state = pg.position(pg.make(), SETUP, 2)
    verdict = state.check(Step("ann", "r2c2", 1, "N"))
    assert verdict.rules == ("pungo/move/cost",) and "costs 3" in str(verdict) and "only 2 of the 2" in str(verdict)
    five = pg.position(pg.make(), SETUP, 5)
    after = five.apply(Step("ann", "r2c2", 2, "N"))
    assert after.board[1] == ("red2", "red3") and (after.mover, after.phase) == ("bob", "roll")


def test_a_unit_is_the_top_part_of_a_stack(pg):
    """pungo/move/unit: 1 to all of a stack's pyramids, counted from the top, hidden ones too."""
    state = pg.position(pg.make(), SETUP, 6)
    assert state.check(Step("ann", "r2c1", 4, "N")).rules == ("pungo/move/unit",)
    assert "r1c1 is empty" in str(state.check(Step("ann", "r1c1", 1, "N")))
    assert state.check(Step("ann", "r2c1", 3, "N")).legal  # the whole nest: 6 points


def test_steps_are_orthogonal_and_stay_in_the_arena(pg):
    """pungo/move/orthogonal: N, E, S, W; never off the arena."""
    state = pg.position(pg.make(), SETUP, 3)
    assert "off the arena" in str(state.check(Step("ann", "r2c1", 1, "W")))
    assert state.check(Step("ann", "r2c1", 1, "NE")).rules == ("pungo/move/orthogonal",)


def test_no_landing_on_a_smaller_pyramid(pg):
    """pungo/move/no-smaller: a large may not land on the perched small; on a large it nests and hides."""
    state = pg.position(pg.make(), SETUP, 3)
    verdict = state.check(Step("ann", "r2c2", 1, "E"))
    assert verdict.rules == ("pungo/move/no-smaller",) and "large may not land on the small" in str(verdict)
    nested = state.apply(Step("ann", "r2c2", 1, "W"))
    assert nested.view()["arena/r2c1"] == ("red3",) and nested.board[4] == ("red1", "red2", "red3", "red3")


def test_freezing(pg):
    """pungo/move/frozen: a unit that started on the board, or landed on an empty square, moves no more."""
    state = pg.position(pg.make(), SETUP, 6)
    # the whole r2c4 stack (small+medium, from the board) lands on the perched small: frozen anyway
    moved = state.apply(Step("ann", "r2c4", 2, "W"))
    verdict = moved.check(Step("ann", "r2c3", 2, "N"))
    assert verdict.rules == ("pungo/move/frozen",)
    assert moved.check(Step("ann", "r2c3", 4, "N")).rules[0] == "pungo/move/frozen"  # not carried either
    # a small hopping from pyramid to pyramid keeps moving; landing on an empty square freezes it
    hop = pg.position(pg.make(), SETUP, 3).apply(Step("ann", "r2c3", 1, "W"))
    hop = hop.apply(Step("ann", "r2c2", 1, "W"))
    assert hop.board[4][-1] == "red1" and hop.remaining == 1
    landed = pg.position(pg.make(), SETUP, 3).apply(Step("ann", "r2c3", 1, "N"))
    assert landed.check(Step("ann", "r1c3", 1, "E")).rules == ("pungo/move/frozen",)


def test_every_point_must_be_spent(pg):
    """pungo/move/spend-all: a step that leaves points no step can spend is refused."""
    state = pg.position(pg.make(), SETUP, 2)
    verdict = state.check(Step("ann", "r2c3", 1, "N"))  # the only free small freezes; 1 point would be stranded
    assert verdict.rules == ("pungo/move/spend-all",) and "all 2 points must be spent" in str(verdict)
    assert state.check(Step("ann", "r2c4", 1, "N")).legal


def test_the_largest_spendable_amount_when_not_all_can_be(pg):
    """pungo/move/spend-all: with only larges showing, 4 points cannot be spent; the ruling spends 3."""
    state = pg.position(pg.make(), NESTS, phase="roll", seat=1, die=["213"], face=2, square="r1c2",
                        previous="r2c2")
    state = state.apply(Roll("bob", "E", "4"))
    assert (state.nominal, state.points) == (4, 3)
    verdict = state.check(Pass("bob"))
    assert verdict.rules == ("pungo/move/pass",)
    wrong = state.apply(Step("bob", "r2c1", 1, "N"))
    assert wrong.phase == "roll" and wrong.mover == "ann"  # 3 spent: the turn is over
    assert "house ruling" in state._spend_text()


def test_passing_only_when_nothing_can_be_spent(pg):
    """pungo/move/pass: passing is refused while points can be spent; with nothing spendable the turn passes."""
    assert pg.make().new_state().check(Pass("ann")).rules == ("pungo/move/pass",)
    stuck = pg.position(pg.make(), NESTS, phase="roll", seat=1, die=["213"], face=2, square="r1c2",
                        previous="r2c2").apply(Roll("bob", "W", "3"))
    assert stuck.points == 3  # a large can move
    stuck = pg.position(pg.make(), NESTS, 1, seat=1)
    state = stuck._begin_move(1)
    assert state.points == 0 and list(state.legal_actions()) == [Pass("bob")]
    assert state.apply(Pass("bob")).mover == "ann"
    # with unspendable=pass a turn whose points cannot all be spent passes
    game = pg.make(unspendable="pass")
    passing = pg.position(game, NESTS, phase="roll", seat=1, die=["213"], face=2, square="r1c2", previous="r2c2")
    passing = passing.apply(Roll("bob", "E", "4"))
    assert passing.points == 0 and "unspendable=pass" in str(passing.check(Pass("bob")))


def test_pyramid_die_names_the_sizes_and_gives_one_step(pg):
    """pungo/die/pyramid: face 13 lets a small or a large move, one step; a medium may not."""
    game = pg.make(die="pyramid")
    state = pg.position(game, SETUP, 1, face="13")
    assert state.allowed == {1, 3}
    verdict = state.check(Step("ann", "r2c4", 1, "N"))
    assert verdict.rules == ("pungo/die/pyramid",) and "small or large" in str(verdict)
    bottoms = {state.board[state.config.arena.index(a.cell)][-a.count][-1] for a in state.legal_actions()}
    assert bottoms == {"1", "3"}
    after = state.apply(Step("ann", "r2c3", 2, "N"))  # the large, carrying the perched small
    assert after.board[2] == ("red3", "red1") and (after.mover, after.phase) == ("bob", "roll")
    start = game.new_state()
    assert start.face == "1" and {a.cell for a in start.legal_actions()} == {"r2c1", "r2c3", "r2c4"}  # small bottoms


def test_pyramid_die_unit_bottom_decides(pg):
    """pungo/die/pyramid: the unit's bottom pyramid must be a size shown; what rides on it comes along."""
    game = pg.make(die="pyramid")
    state = pg.position(game, SETUP, 1, face="2")
    assert state.check(Step("ann", "r2c2", 2, "N")).legal  # medium carrying the large
    assert state.check(Step("ann", "r2c2", 1, "N")).rules == ("pungo/die/pyramid",)
    after = state.apply(Step("ann", "r2c2", 2, "N"))
    assert (after.mover, after.phase) == ("bob", "roll")


# --- winning ---

SYMMETRIC_SOON = {"r1c1": "red3", "r1c2": "red2", "r1c3": "red2", "r2c4": "red3", "r3c2": "red3", "r3c3": "red2",
                  "r3c4": "red1+red1+red1"}


def test_a_symmetric_home_row_wins(pg):
    """pungo/win/symmetry: every cell occupied, column 1 = column 4 and 2 = 3 (sizes bottom to top)."""
    state = pg.position(pg.make(), SYMMETRIC_SOON, 3)
    won = state.apply(Step("ann", "r2c4", 1, "N"))
    assert won.outcome().winners == ("ann",) and won.outcome().rule == "pungo/win/symmetry"
    assert won.to_move is None and list(won.legal_actions()) == []
    assert won.check(Step("bob", "r3c3", 1, "N")).rules == ("pungo/win/after-spending",)


def test_wins_are_checked_only_when_the_points_are_spent(pg):
    """pungo/win/after-spending: symmetric half-way through the turn is not a win; only the mover can win."""
    state = pg.position(pg.make(), SYMMETRIC_SOON, 4)
    half = state.apply(Step("ann", "r2c4", 1, "N"))
    assert half.outcome() is None and half.remaining == 1
    done = half.apply(Step("ann", "r3c4", 1, "N"))
    assert done.outcome().rule == "pungo/win/symmetry"
    # bob completing ann's row does not make ann (or bob) win
    bobs = pg.position(pg.make(), SYMMETRIC_SOON, 3, seat=1)
    after = bobs.apply(Step("bob", "r2c4", 1, "N"))
    assert after.outcome() is None and after.mover == "ann"


def test_sizes_must_match_bottom_to_top(pg):
    """pungo/win/symmetry: a large with a small on it does not mirror a bare large."""
    board = dict(SYMMETRIC_SOON, r1c1="red3+red1", r3c4="red1+red1")
    assert pg.position(pg.make(), board, 3).apply(Step("ann", "r2c4", 1, "N")).outcome() is None


def test_three_colours_must_match_colours_too(pg):
    """pungo/win/three-colours: same sizes in other colours are not symmetric."""
    game = pg.make(colours=3)
    board = {"r1c1": "red3", "r1c2": "red2", "r1c3": "green2", "r2c4": "green3", "r3c2": "blue3", "r3c3": "blue2",
             "r3c4": "red1+green1+blue1"}
    assert pg.position(game, board, 3).apply(Step("ann", "r2c4", 1, "N")).outcome() is None
    real = {"r1c1": "green3", "r1c2": "blue2", "r1c3": "blue2", "r2c4": "green3", "r3c2": "red3", "r3c3": "red2",
            "r3c4": "red1+green1+blue1"}
    won = pg.position(game, real, 3).apply(Step("ann", "r2c4", 1, "N"))
    assert won.outcome().rule == "pungo/win/three-colours"


def test_all_nine_in_the_opponents_row_wins(pg):
    """pungo/win/all-nine: ann puts the last small into bob's home row."""
    board = {"r3c1": "red3+red2", "r3c2": "red3+red2+red1", "r3c3": "red3+red2+red1", "r2c1": "red1"}
    won = pg.position(pg.make(), board, 1).apply(Step("ann", "r2c1", 1, "S"))
    assert won.outcome().winners == ("ann",) and won.outcome().rule == "pungo/win/all-nine"


# --- the whole-turn action and JSON ---

def test_a_bundled_turn_is_checked_part_by_part(pg):
    """pungo/turn/order: a turn action carries the roll and the steps; the points must add up."""
    state = pg.make().new_state().apply(Step("ann", "r2c3", 1, "N"))
    assert state.check(Turn("bob", "W:3", ("r2c4:1:W",))).rules == ("pungo/move/spend-all",)  # 2 of 3 points
    good = Turn("bob", "W:3", ("r2c2:1:W",))
    assert state.check(good).legal and state.apply(good).mover == "ann"
    verdict = state.check(Turn("bob", "W:3", ("r2c2:2:N",)))
    assert verdict.rules == ("pungo/move/cost",) and "5 points of movement needed, the die gave 3" in str(verdict)
    assert state.check(Turn("bob", None, ("r2c2:1:W",))).rules == ("pungo/turn/order",)
    assert state.check(Turn("bob", "W:3", ())).rules == ("pungo/move/spend-all",)


def test_states_and_actions_round_trip(pg):
    """pungo/setup/pyramids: JSON keeps the hidden contents and the die's possible orientations."""
    game = pg.make()
    state = game.new_state().apply(Step("ann", "r2c3", 1, "N"))
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.board == state.board and again.orientations == state.orientations
    for text in ("turn bob W:3 r2c2:1:W", "roll bob N 4", "step ann r2c1 3 N", "pass ann", "show 5"):
        assert str(game.actions.parse(text)) == text


@pytest.mark.parametrize("change, message", [
    ({"board": {"r2c1": "red1"}}, "must hold nine pyramids"),
    ({"phase": "dance"}, "phase is roll, move or over"),
    ({"die": ["123", "145"]}, "no die has top 1, north 2, east 3"),
    ({"die": []}, "all show the same top face"),
    ({"points": "5"}, "points must be a whole number"),
    ({"square": "r7c7"}, "not a cell of a 3x3 grid"),
    ({"extra": 1}, "unexpected \\['extra'\\]"),
])
def test_malformed_state_json_is_refused(pg, change, message):
    data = pg.make().new_state().to_json() | change
    with pytest.raises(ValueError, match=message):
        pg.make().state_from_json(data)
