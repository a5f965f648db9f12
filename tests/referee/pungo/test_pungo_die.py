"""The movement die: real tumbling geometry against a physical model, orientation tracking, and the roll rules."""

from __future__ import annotations

from itertools import permutations

import pytest

from referee.dice import Die
from referee.games.pungo import rolling
from referee.games.pungo.actions import Roll, Show, Step
from referee.games.pungo.rolling import Cube


# --- an independent physical model: every face is a unit normal vector in the table frame ---
# x east, y north, z up. Rolling north the die pivots on its north bottom edge, so the top normal
# turns to point north: a rotation of -90 degrees about the east axis. And so on.
ROTATE = {
    "N": lambda v: (v[0], v[2], -v[1]),
    "S": lambda v: (v[0], -v[2], v[1]),
    "E": lambda v: (v[2], v[1], -v[0]),
    "W": lambda v: (-v[2], v[1], v[0]),
}
UP, NORTH, EAST = (0, 0, 1), (0, 1, 0), (1, 0, 0)


def normals(die: Die) -> dict[int, tuple[int, int, int]]:
    return {die.top: UP, die.bottom: (0, 0, -1), die.north: NORTH, die.south: (0, -1, 0),
            die.east: EAST, die.west: (-1, 0, 0)}


def read(faces: dict) -> tuple:
    by_normal = {v: f for f, v in faces.items()}
    return by_normal[UP], by_normal[NORTH], by_normal[EAST]


@pytest.mark.parametrize("direction", "NESW")
@pytest.mark.parametrize("die", Die.orientations(), ids=str)
def test_every_tumble_matches_the_physical_model(die, direction):
    """pungo/roll/geometry: for all 24 orientations and 4 directions, Die.tumble is a real rotation."""
    rotated = {face: ROTATE[direction](v) for face, v in normals(die).items()}
    assert read(rotated) == (die.tumble(direction).top, die.tumble(direction).north, die.tumble(direction).east)


def test_the_24_orientations_are_the_rotations_of_a_western_die():
    """Closing the Western reference (1 up, 2 facing the player, 3 east) under the rolls gives exactly Die's 24."""
    start = {1: UP, 6: (0, 0, -1), 2: (0, -1, 0), 5: NORTH, 3: EAST, 4: (-1, 0, 0)}
    seen, frontier = {read(start)}, [start]
    while frontier:
        faces = frontier.pop()
        for rotate in ROTATE.values():
            nxt = {f: rotate(v) for f, v in faces.items()}
            if read(nxt) not in seen:
                seen.add(read(nxt))
                frontier.append(nxt)
    assert seen == {(d.top, d.north, d.east) for d in Die.orientations()}


def test_the_face_on_the_far_side_comes_up_not_the_one_rolled_towards():
    """pungo/roll/geometry: RULINGS.md's wording (the face on the side rolled towards comes up) is not followed."""
    die = Die(1, 5, 3)
    assert die.tumble("N").top == die.south == 2
    assert die.tumble("N").top != die.north
    assert die.tumble("N").bottom == die.north


def test_the_flip_picture_is_only_an_illustration():
    """pungo/roll/geometry: 1, then 2 rolling north, then 3 rolling east happens under neither wording."""
    physics = [d for d in Die.orientations(1) if d.tumble("N").top == 2 and d.tumble("N").tumble("E").top == 3]
    # the wording 'the face on the side it rolled towards comes up' is a rigid roll the other way
    wording = [d for d in Die.orientations(1) if d.tumble("S").top == 2 and d.tumble("S").tumble("W").top == 3]
    assert physics == [] and wording == []


@pytest.mark.parametrize("direction", "NESW")
@pytest.mark.parametrize("faces", list(permutations(rolling.PYRAMID_FACES))[::37], ids=".".join)
def test_the_pyramid_die_tumbles_like_a_cube(faces, direction):
    """pungo/die/pyramid: the pyramid die's placements tumble with the same geometry (physical model)."""
    cube = Cube(faces)
    labelled = dict(zip(faces, (UP, NORTH, EAST, (0, 0, -1), (0, -1, 0), (-1, 0, 0))))
    rotated = {f: ROTATE[direction](v) for f, v in labelled.items()}
    by_normal = {v: f for f, v in rotated.items()}
    after = cube.tumble(direction)
    assert after.places == tuple(by_normal[v] for v in (UP, NORTH, EAST, (0, 0, -1), (0, -1, 0), (-1, 0, 0)))
    assert after.top != cube.top and Cube.parse(str(cube)) == cube


def test_setup_knows_only_the_top_face(pg):
    """pungo/setup/roll-grid: the 1 is up; 4 orientations (d6), 120 placements (pyramid die) remain possible."""
    assert rolling.start_orientations("d6") == frozenset(Die.orientations(1))
    assert len(rolling.start_orientations("pyramid")) == 120
    state = pg.make().new_state()
    assert state.view()["roll/r2c2"] == ("1",) and state.orientations == frozenset(Die.orientations(1))
    assert "roll/r2c3" in pg.make(**{"roll-grid": "3x4"}).new_state().view()


def _after_first_turn(game):
    state = game.new_state().apply(Step("ann", "r2c3", 1, "N"))
    assert state.phase == "roll" and state.mover == "bob"
    return state


def test_each_observed_roll_narrows_the_orientations(pg):
    """pungo/roll/geometry: the first roll north shows the old south face, which pins the orientation down."""
    state = _after_first_turn(pg.make())
    shown = {a.face for a in state.legal_actions() if a.direction == "N"}
    assert shown == {"2", "3", "4", "5"}  # any side face may have been south: the referee does not know
    rolled = state.apply(Roll("bob", "N", "2"))
    assert rolled.orientations == frozenset({Die(2, 1, 3)}) and rolled.face == "2"
    assert rolled.view()["roll/r1c2"] == ("2",)
    assert rolled.nominal == 2


def test_a_face_the_geometry_forbids_is_rejected(pg):
    """pungo/roll/geometry: a tumble never shows the old top or bottom; later rolls must fit the known orientation."""
    state = _after_first_turn(pg.make())
    for face in ("1", "6"):
        verdict = state.check(Roll("bob", "N", face))
        assert verdict.rules == ("pungo/roll/geometry",) and "2, 3, 4, 5" in str(verdict)
    known = state.apply(Roll("bob", "N", "2"))  # orientation now 213
    bob_done = known
    while bob_done.mover == "bob":
        bob_done = bob_done.apply(next(iter(bob_done.legal_actions())))
    assert [a.face for a in bob_done.legal_actions() if a.direction == "E"] == ["4"]
    verdict = bob_done.check(Roll("ann", "E", "3"))
    assert not verdict and "only 4, not '3'" in str(verdict)


def test_a_roll_is_one_tumble_onto_the_grid(pg):
    """pungo/roll/one-tumble: never off the grid, only N, E, S or W."""
    game = pg.make()
    state = pg.position(game, {"r2c1": "red1+red2+red3", "r2c2": "red2+red3", "r2c3": "red3+red1", "r2c4": "red1+red2"},
                     phase="roll", seat=1, face=2, die=["213"], square="r1c2", previous="r2c2")
    assert state.check(Roll("bob", "N", "5")).rules == ("pungo/roll/one-tumble",)
    assert "off the roll grid" in str(state.check(Roll("bob", "N", "5")))
    assert state.check(Roll("bob", "up", "5")).rules == ("pungo/roll/one-tumble",)
    assert {a.direction for a in state.legal_actions()} == {"E", "W"}


def test_the_die_may_not_roll_back_where_it_came_from(pg):
    """pungo/roll/no-return: from r1c2, having come from r2c2, south is refused."""
    game = pg.make()
    state = pg.position(game, {"r2c1": "red1+red2+red3", "r2c2": "red2+red3", "r2c3": "red3+red1", "r2c4": "red1+red2"},
                     phase="roll", seat=1, face=2, die=["213"], square="r1c2", previous="r2c2")
    verdict = state.check(Roll("bob", "S", "1"))
    assert verdict.rules == ("pungo/roll/no-return",) and "r2c2" in str(verdict)
    moved = state.apply(Roll("bob", "E", "4"))
    assert moved.config.grid.name(moved.previous) == "r1c2" and moved.config.grid.name(moved.square) == "r1c3"


def test_chaos_rolls_are_the_tables_to_show(pg):
    """pungo/roll/chaos: a chance node; any face is accepted; a controlled roll is refused."""
    game = pg.make(roll="chaos")
    state = _after_first_turn(game)
    assert state.to_move == "*table*"
    assert [a.face for a in state.legal_actions()] == ["1", "2", "3", "4", "5", "6"]
    assert state.check(Roll("bob", "N", "2")).rules == ("pungo/roll/chaos",)
    assert state.check(Show("7")).rules == ("pungo/roll/chaos",)
    thrown = state.apply(Show("1"))  # the same face again is fine: it was thrown, not tumbled
    assert thrown.view()["die"] == ("1",) and thrown.mover == "bob" and thrown.nominal == 1
    assert thrown.orientations == frozenset(Die.orientations(1))
