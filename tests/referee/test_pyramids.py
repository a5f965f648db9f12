import pytest
from hypothesis import given, strategies as st

from referee.pyramids import STANDARD_COLOURS, Pyramid, Size, Stack

pyramids = st.builds(Pyramid, st.sampled_from(sorted(STANDARD_COLOURS)), st.sampled_from(list(Size)))
stacks = st.lists(pyramids, max_size=6).map(lambda ps: Stack(tuple(ps)))


def test_real_dimensions():
    assert (Size.SMALL.base_mm, Size.SMALL.height_mm) == (14.3, 25.4)
    assert (Size.MEDIUM.base_mm, Size.MEDIUM.height_mm) == (19.8, 34.9)
    assert (Size.LARGE.base_mm, Size.LARGE.height_mm) == (25.4, 44.5)
    assert [s.pips for s in (Pyramid("red", 1), Pyramid("red", 2), Pyramid("red", 3))] == [1, 2, 3]


@given(stacks)
def test_stack_notation_round_trips(stack):
    assert Stack.parse(str(stack)) == stack


@given(stacks)
def test_visible_and_hidden_split_the_stack(stack):
    visible, hidden = stack.visible(), stack.hidden()
    assert sorted(visible + hidden) == sorted(stack.pyramids)
    if stack:
        assert visible[-1] == stack.top  # the top is always seen
        # what is seen, bottom to top, gets strictly smaller (each sits on the tip of the one below)
        assert all(a.size > b.size for a, b in zip(visible, visible[1:]))


def test_nests_and_trees():
    nest = Stack.parse("green1+green2+green3")
    assert nest.visible() == (Pyramid("green", Size.LARGE),) and len(nest.hidden()) == 2
    tree = Stack.parse("red3+blue1")
    assert tree.visible() == tree.pyramids and tree.pips == 4
    below, unit = Stack.parse("red3+blue2+green1").split(1)
    assert (str(below), str(unit)) == ("red3", "blue2+green1")
    assert Stack.parse("") == Stack() and not Stack()


def test_custom_colours_are_words():
    assert Pyramid.parse("sea-green2") == Pyramid("sea-green", Size.MEDIUM)
    with pytest.raises(ValueError, match="colour then pips"):
        Pyramid.parse("red4")
    with pytest.raises(ValueError, match="lower-case word"):
        Pyramid("Red", Size.SMALL)


def test_the_colours_a_view_shows_are_those_of_its_stacks_and_nothing_else():
    from referee.pyramids import colours_in

    from referee.view import View

    view = View({"arena/r1c1": ["red3+blue1"], "supply/ann": ["yellow2", "green1+green2+green3"],
                 "pool": ["7H", "back", "mountain"], "tokens/0,1": ["ann"]})
    assert colours_in(view) == {"red", "blue", "yellow", "green"}
    assert colours_in(View({"pool": ["7H"], "tokens/0,1": ["ann"]})) == frozenset()
