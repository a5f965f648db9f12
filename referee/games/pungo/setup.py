"""The table's setup: the four stacks of the setup picture, checked against what the players put out.

The picture's middle line holds, bottom to top: small+medium+large (a nest), medium+large,
large+small (perched), small+medium. One-colour games default to red pyramids; three-colour games
need the table to say which colour is where (a default is provided).

>>> setup_stacks(Arena.of("3x4"), 1, None)
('red1+red2+red3', 'red2+red3', 'red3+red1', 'red1+red2')
"""

from __future__ import annotations

from typing import Any

from referee.game import GameConfigError
from referee.pyramids import Pyramid, Stack

from referee.games.pungo.layout import DEFAULT_THREE, SETUP_SIZES, SIZE_NAMES, Arena

ONE_COLOUR_SETUP = ("red1+red2+red3", "red2+red3", "red3+red1", "red1+red2")


def parse_stack(text: str) -> tuple[Pyramid, ...]:
    if not isinstance(text, str):
        raise ValueError(f"a stack is written like 'red1+red3', got {text!r}")
    return Stack.parse(text).pyramids


def setup_stacks(arena: Arena, colours: int, setup: Any) -> tuple[str, ...]:
    """The four setup stacks: the default, or what the table showed (a list of four stacks in setup order,
    or a mapping of setup cells to stacks)."""
    if setup is None:
        return ONE_COLOUR_SETUP if colours == 1 else DEFAULT_THREE
    cells = [arena.name(c) for c in arena.setup_cells()]
    if isinstance(setup, dict):
        unknown = sorted(set(setup) - set(cells))
        if unknown:
            raise GameConfigError(f"bad setup: the four setup cells are {', '.join(cells)}; not {', '.join(unknown)}")
        setup = [setup.get(c, "") for c in cells]
    if not isinstance(setup, (list, tuple)) or len(setup) != 4 or not all(isinstance(s, str) for s in setup):
        raise GameConfigError("bad setup: give the four setup stacks (bottom to top, like 'red1+red2+red3') "
                              f"for {', '.join(cells)}")
    stacks = []
    for cell, text, sizes in zip(cells, setup, SETUP_SIZES):
        try:
            stack = parse_stack(text)
        except ValueError as exc:
            raise GameConfigError(f"bad setup at {cell}: {exc}") from None
        if tuple(int(p.size) for p in stack) != sizes:
            want = "+".join(SIZE_NAMES[s] for s in sizes)
            raise GameConfigError(f"bad setup at {cell}: the setup picture has {want} (bottom to top) there, "
                                  f"not {text!r}")
        stacks.append(stack)
    by_colour: dict[str, list[int]] = {}
    for stack in stacks:
        for p in stack:
            by_colour.setdefault(p.colour, []).append(int(p.size))
    if colours == 1 and len(by_colour) != 1:
        raise GameConfigError(f"bad setup: one-colour Pungo uses nine pyramids of one colour, got "
                              f"{', '.join(sorted(by_colour))}")
    if colours == 3 and (len(by_colour) != 3 or any(sorted(v) != [1, 2, 3] for v in by_colour.values())):
        got = ", ".join(f"{c} {sorted(v)}" for c, v in sorted(by_colour.items()))
        raise GameConfigError("bad setup: three-colour Pungo uses three colours, each with one small, one medium "
                              f"and one large; got {got}")
    return tuple("+".join(str(p) for p in s) for s in stacks)
