"""The observed-turn checker: the camera sees a whole turn or a part of one, and the referee explains it or says
why it cannot."""

from __future__ import annotations

import random

from referee.dice import Die
from referee.games.pungo.actions import Part, Reread, Roll, Step, Turn
from referee.games.pungo.observe import explain
from referee.games.pungo.rolling import faces
from referee.view import View

SETUP = {"r2c1": "red1+red2+red3", "r2c2": "red2+red3", "r2c3": "red3+red1", "r2c4": "red1+red2"}
TURNS_PER_GAME = 12


def _bobs_turn(pg, game=None):
    """Bob to roll after ann's first turn (the small perched on r2c3 went north)."""
    return (game or pg.make()).new_state().apply(Step("ann", "r2c3", 1, "N"))


def _seen(view: View, **places) -> View:
    data = dict(view.to_json())
    for place, contents in places.items():
        place = place.replace("_", "/")
        if contents:
            data[place] = list(contents)
        else:
            data.pop(place, None)
    return View(data)


def test_a_turn_that_lifts_a_nest_is_explained_and_the_hidden_pyramids_carried(pg):
    """pungo/observe/turn: bob rolls W (3) and lifts the large off the nest onto r2c2's large."""
    state = _bobs_turn(pg)
    after = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r2c1=["red2"])
    found = explain(state, after)
    assert found.explained and found.turns == (Turn("bob", "W:3", ("r2c1:1:E",)),)
    result = state.apply(found.turns[0])
    assert result.view() == after
    assert result.board[4] == ("red1", "red2") and result.board[5] == ("red2", "red3", "red3")
    readings = state.interpret(after)
    assert [r.action for r in readings] == [found.turns[0]] and readings[0].verdict.legal


def test_seven_points_needed_but_the_die_gave_five(pg):
    """pungo/move/cost: the medium+large (5) went north and the medium (2) too: 7 points, 5 given."""
    die = next(d for d in Die.orientations() if d.east == 5)  # tumbling west shows 5
    state = pg.position(pg.make(), SETUP, phase="roll", seat=1, die=[str(die)], face=die.top)
    seen = _seen(state.view(), roll_r2c2=None, roll_r2c1=["5"],
                 arena_r2c2=None, arena_r1c2=["red3"], arena_r2c4=["red1"], arena_r1c4=["red2"])
    found = explain(state, seen)
    assert not found.explained
    assert [r.rule for r in found.reasons] == ["pungo/move/cost"]
    assert "7 points of movement needed, the die gave 5" in found.reasons[0].text
    readings = state.interpret(seen)
    assert readings and not readings[0].verdict.legal and readings[0].verdict.rules == ("pungo/move/cost",)


def test_a_pause_before_the_points_are_spent_is_a_turn_under_way(pg):
    """pungo/move/spend-all: the medium went north with 3 points to spend; the camera sees a pause,
    not a turn, and the rest of the turn (or the next roll) decides."""
    state = _bobs_turn(pg)
    seen = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r2c4=["red1"], arena_r1c4=["red2"])
    found = explain(state, seen)
    assert found.turns == (Part("bob", "W:3", ("r2c4:1:N",)),)
    mid = state.apply(found.turns[0])
    assert (mid.phase, mid.mover, mid.remaining) == ("move", "bob", 1) and mid.view() == seen
    # the small perched on r1c3 steps onto the medium: the whole turn is spent
    rest = _seen(seen, arena_r1c3=None, arena_r1c4=["red2", "red1"])
    assert [r.action for r in mid.interpret(rest) if r.verdict.legal] == [Turn("bob", None, ("r1c3:1:E",))]
    assert mid.apply(Turn("bob", None, ("r1c3:1:E",))).mover == "ann"


def test_the_next_roll_before_the_points_are_spent_is_refused(pg):
    """pungo/move/spend-all: ann rolls while bob still has a point to spend and nothing else moved."""
    state = _bobs_turn(pg)
    seen = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r2c4=["red1"], arena_r1c4=["red2"])
    mid = state.apply(Part("bob", "W:3", ("r2c4:1:N",)))
    rolled = _seen(seen, roll_r2c1=None, roll_r3c1=["2"])
    found = explain(mid, rolled)
    assert not found.explained and [r.rule for r in found.reasons] == ["pungo/move/spend-all"]
    assert "1 point(s) unspent" in found.reasons[0].text
    assert all(not r.verdict.legal for r in mid.interpret(rolled))


def test_a_part_of_a_turn_must_leave_the_turn_going_on(pg):
    """pungo/turn/order: a part that spends every point is a whole turn; a part's roll comes first."""
    state = _bobs_turn(pg)
    whole = Part("bob", "W:3", ("r2c4:1:N", "r1c3:1:E"))
    assert state.check(whole).rules == ("pungo/turn/order",) and "whole turn" in str(state.check(whole))
    assert state.check(Turn("bob", "W:3", ("r2c4:1:N", "r1c3:1:E"))).legal
    mid = state.apply(Part("bob", "W:3", ()))
    assert mid.check(Part("bob", "W:3", ("r2c4:1:N",))).rules == ("pungo/turn/order",)
    assert mid.check(Part("bob", None, ("r2c4:1:N",))).legal
    assert str(Part("bob", "W:3", ())) == "part bob W:3 -"
    assert pg.make().actions.parse("part bob W:3 r2c4:1:N") == Part("bob", "W:3", ("r2c4:1:N",))
    # a turn is read again from its start only while one is under way and known from its start
    assert state.check(Reread("bob", ("r2c4:1:N", "r1c3:1:E"))).rules == ("pungo/turn/order",)
    stepped = mid.apply(Part("bob", None, ("r2c4:1:N",)))
    assert stepped.check(Reread("bob", ("r2c4:1:N", "r1c3:1:E"))).legal
    assert stepped.apply(Reread("bob", ("r2c4:1:N", "r1c3:1:E"))).mover == "ann"  # the whole turn, over
    loaded = type(mid).from_json(mid.game, stepped.to_json())
    assert loaded.check(Reread("bob", ("r2c4:1:N", "r1c3:1:E"))).rules == ("pungo/turn/order",)  # not saved


def test_a_turn_read_as_a_pause_is_read_again_from_its_start_when_its_guess_leads_nowhere(pg):
    """pungo/move/spend-all: the steps guessed at a pause froze a pyramid the real turn did not; once
    the next roll is seen, the whole turn is read again from its start, and lands where it did (the
    Averaging table's points give such turns in random play)."""
    rereads = 0
    for rng, state, after in _random_turns(pg, pg.make(points="averaging")):
        found = explain(state, after.view())
        if not after.is_over() and all(isinstance(t, Part) for t in found.turns):
            rolled = after.apply(rng.choice(after.legal_actions()))
            for part in found.turns:
                ended = explain(state.apply(part), rolled.view()).turns
                if any(isinstance(t, Reread) for t in ended):
                    rereads += 1
                    assert any(state.apply(part).apply(t).board == after.board for t in ended), ended
    assert rereads >= 1


def _random_turns(pg, game, seeds: int = 30):
    """(rng, state, state after) for every whole turn of ``seeds`` random play-outs of ``game``."""
    for seed in range(seeds):
        rng, state = random.Random(seed), game.new_state()
        for _ in range(TURNS_PER_GAME):
            if state.is_over():
                break
            after = pg.play_turn(state, rng)
            yield rng, state, after
            state = after


def test_an_impossible_die_is_refused(pg):
    """pungo/roll/one-tumble and pungo/roll/geometry read from the die's place and face."""
    state = _bobs_turn(pg)
    far = _seen(state.view(), roll_r2c2=None, roll_r3c3=["3"])
    assert [r.rule for r in explain(state, far).reasons] == ["pungo/roll/one-tumble"]
    wrong_face = _seen(state.view(), roll_r2c2=None, roll_r2c1=["1"])
    found = explain(state, wrong_face)
    assert not found.explained and [r.rule for r in found.reasons] == ["pungo/roll/geometry"]
    assert state.interpret(state.view()) == ()  # nothing changed: nothing to read


def test_views_that_are_no_pungo_table_are_refused(pg):
    """The die must be on the roll grid, the cells in the arena, the pyramids no more than there are."""
    state = _bobs_turn(pg)
    no_die = _seen(state.view(), roll_r2c2=None)
    assert [r.rule for r in explain(state, no_die).reasons] == ["pungo/setup/roll-grid"]
    outside = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r5c5=["red1"])
    assert "pungo/setup/arena" in [r.rule for r in explain(state, outside).reasons]


def test_a_change_no_sequence_of_steps_reaches_says_so(pg):
    """pungo/observe/turn: with 3 points the large on r2c2 cannot travel three squares to r3c4."""
    state = _bobs_turn(pg)
    seen = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r2c2=["red2"], arena_r3c4=["red3"])
    found = explain(state, seen)
    assert not found.explained and [r.rule for r in found.reasons] == ["pungo/observe/turn"]
    assert "no sequence of legal steps" in found.reasons[0].text and state.interpret(seen) == ()


def test_a_view_with_an_extra_pyramid_is_refused(pg):
    """pungo/setup/pyramids: the camera cannot see more pyramids than the game has."""
    state = _bobs_turn(pg)
    seen = _seen(state.view(), roll_r2c2=None, roll_r2c1=["3"], arena_r3c1=["red3"])
    assert "pungo/setup/pyramids" in [r.rule for r in explain(state, seen).reasons]


def _reachable_arenas(start, roll):
    """Oracle: every arena view a whole turn can end in, or (but in Decision Pungo, whose roll ends
    the turn) a part of it pause in, by walking the legal actions one by one."""
    state = start
    if roll is not None and state.phase == "roll":
        state = state.apply(roll)
    seat, ends, seen = state.seat, set(), set()
    pauses = not state.config.decision

    def walk(s):
        key = (s.board, s.frozen, s.spent)
        if key in seen:
            return
        seen.add(key)
        arena = tuple(sorted((p, c) for p, c in s.view().items() if p.startswith("arena/")))
        if s.phase != "move" or s.seat != seat:
            ends.add(arena)
            return
        if pauses:
            ends.add(arena)
        for action in s.legal_actions():
            walk(s.apply(action))

    walk(state)
    return ends


def _mutations(view: View, rng: random.Random, arena) -> list[View]:
    """Changed end positions: a top pyramid moved elsewhere, removed, two cells swapped, the die's face changed."""
    data = view.to_json()
    cells = [p for p in data if p.startswith("arena/")]
    out = []
    source, dest = rng.choice(cells), "arena/" + arena.name(rng.randrange(arena.size))
    moved = {k: list(v) for k, v in data.items()}
    top = moved[source].pop()
    if not moved[source]:
        del moved[source]
    moved[dest] = moved.get(dest, []) + [top]
    out.append(moved)
    removed = {k: list(v) for k, v in data.items()}
    removed[source] = removed[source][:-1]
    out.append(removed)
    a, b = rng.sample(range(arena.size), 2)
    swapped = {k: list(v) for k, v in data.items() if k not in (f"arena/{arena.name(a)}", f"arena/{arena.name(b)}")}
    for x, y in ((a, b), (b, a)):
        if data.get(f"arena/{arena.name(x)}"):
            swapped[f"arena/{arena.name(y)}"] = data[f"arena/{arena.name(x)}"]
    out.append(swapped)
    return [View(m) for m in out if View(m) != view]


def _ended(part_state, after, rng):
    """The states a turn read as under way ends in, once the next player's roll is seen (a Chaos
    throw showing the face already up is not seen: the next player's steps would show it)."""
    seen = [a for a in after.legal_actions() if after.apply(a).view() != after.view()]
    rolled = after.apply(rng.choice(seen))
    found = explain(part_state, rolled.view())
    assert found.explained, f"{part_state.to_json()} -> {rolled.view()}: {found.reasons}"
    return [part_state.apply(t) for t in found.turns]


def test_every_turn_of_random_playouts_is_explained(pg, variant):
    """pungo/observe/turn: each real turn (roll and steps) is explained from the view after it; a
    random turn that spent points back and forth looks like a pause, and the next roll ends it."""
    turns = paused = 0
    for rng, state, after in _random_turns(pg, pg.make(**pg.VARIANTS[variant])):
        seen = after.view()
        found = explain(state, seen)
        assert found.explained, f"{state.to_json()} -> {seen}: {found.reasons}"
        results = [state.apply(t) for t in found.turns]
        assert all(r.view() == seen for r in results)
        if after.is_over():
            assert any(r.is_over() for r in results)  # a win is never missed as a pause
        elif all(isinstance(t, Part) for t in found.turns):
            paused += 1
            results = [end for r in results for end in _ended(r, after, rng)]
        assert any(r.board == after.board for r in results) or len(found.turns) == 4
        turns += 1
    assert turns > 200 and paused < turns / 2


def test_mutated_end_positions_are_rejected_with_a_reason(pg, variant):
    """pungo/observe/turn: an end position no legal turn (or part of one) reaches is refused with reasons; a
    reachable one is not.

    The oracle walks every legal sequence of single steps (through ``legal_actions``), independently of
    the checker's search."""
    game = pg.make(**pg.VARIANTS[variant])
    rejected = accepted = 0
    for seed in range(8):
        rng, state = random.Random(1000 + seed), game.new_state()
        for _ in range(6):
            if state.is_over():
                break
            after = pg.play_turn(state, rng)
            roll = None
            if state.phase == "roll":  # the roll the table showed, read back from the die's place and face
                die = [(p, c) for p, c in after.view().items() if p.startswith("roll/") or p == "die"]
                roll = next(a for a in state.legal_actions()
                            if [(p, c) for p, c in state.apply(a).view().items()
                                if p.startswith("roll/") or p == "die"] == die)
            reachable = _reachable_arenas(state, roll)
            for mutated in _mutations(after.view(), rng, state.config.arena):
                arena = tuple(sorted((p, c) for p, c in mutated.items() if p.startswith("arena/")))
                found = explain(state, mutated)
                if arena in reachable:
                    assert found.explained, f"{mutated} is reachable but refused: {found.reasons}"
                    accepted += 1
                else:
                    assert not found.explained and found.reasons, f"{mutated} is unreachable but explained"
                    rejected += 1
            if isinstance(roll, Roll):  # a face this tumble cannot show, whatever the pyramids did
                shown = {a.face for a in state.legal_actions() if a.direction == roll.direction}
                face = rng.choice([f for f in faces(state.config.die) if f not in shown])
                place = next(p for p in after.view() if p.startswith("roll/"))
                found = explain(state, View(after.view().to_json() | {place: [face]}))
                assert not found.explained and [r.rule for r in found.reasons] == ["pungo/roll/geometry"]
                rejected += 1
            state = after
    assert rejected > 20


def test_turns_that_look_alike_but_hide_different_pyramids_are_all_offered(pg):
    """pungo/observe/turn: a large moving E or W onto a large looks the same; each hidden outcome is a reading."""
    rng, state = random.Random(2), pg.make().new_state()
    state = pg.play_turn(state, rng)  # ann's first turn; then bob rolls N (4) and moves
    after = pg.play_turn(state, rng)
    readings = state.interpret(after.view())
    assert len(readings) == 2 and all(r.verdict.legal for r in readings)
    boards = {state.apply(r.action).board for r in readings}
    assert len(boards) == 2 and after.board in boards
    assert {state.apply(r.action).view() for r in readings} == {after.view()}
