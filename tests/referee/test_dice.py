import pytest
from hypothesis import given, strategies as st

from referee.dice import DIRECTIONS, Die

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def test_24_orientations_with_opposites_summing_to_7():
    dice = Die.orientations()
    assert len(dice) == len(set(dice)) == 24
    for die in dice:
        faces = [die.top, die.bottom, die.north, die.south, die.east, die.west]
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    assert all(len(Die.orientations(top)) == 4 for top in range(1, 7))


def test_western_handedness():
    # With 1 up and 2 facing the player (south), 3 is on the player's right (east).
    assert Die(top=1, north=5, east=3)
    with pytest.raises(ValueError, match="counter-clockwise"):
        Die(top=1, north=5, east=4)


@given(st.sampled_from(Die.orientations()), st.sampled_from(DIRECTIONS))
def test_a_tumble_brings_up_a_side_face_never_the_same_or_opposite(die, direction):
    rolled = die.tumble(direction)
    assert rolled.top not in (die.top, die.bottom)
    assert rolled.top == die.face(OPPOSITE[direction])  # the face on the far side comes up
    assert rolled.bottom == die.face(direction)  # the face looking that way goes underneath
    assert rolled.tumble(OPPOSITE[direction]) == die  # rolling back undoes it


@given(st.sampled_from(Die.orientations()), st.sampled_from(DIRECTIONS))
def test_four_tumbles_one_way_come_full_circle(die, direction):
    rolled = die
    for _ in range(4):
        rolled = rolled.tumble(direction)
    assert rolled == die


def test_the_four_tumbles_reach_the_four_side_faces():
    die = Die(1, 3, 2)
    assert sorted(die.tumble(d).top for d in DIRECTIONS) == [2, 3, 4, 5]


@given(st.sampled_from(Die.orientations()))
def test_notation_round_trips(die):
    assert Die.parse(str(die)) == die


def test_bad_notation():
    with pytest.raises(ValueError, match="top, north, east"):
        Die.parse("17")
    with pytest.raises(ValueError, match="unknown direction"):
        Die(1, 3, 2).tumble("up")
