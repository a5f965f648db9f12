"""Pungo players pause in the middle of a turn: the camera sees a part of it, then the rest.

The recorded Pungo games are played one step per line; here the camera looks after every second
line (Chaos Pungo: every line), so a look may show a roll and a step, two steps of the same turn, or a turn's last step and
the next player's roll. The session must follow each game to the recorded end with no violation,
question or unexplained change, and never read a pause as a whole turn (the cause of session 8's
"turn whose steps cancel out").
"""

from __future__ import annotations

import random

import pytest

from live_table import ROOT, ScriptedLayout
from referee import games, playthrough
from referee.games.pungo.actions import Part, Turn
from referee.log import PlaythroughLog
from referee.session import Session

GAMES = ROOT / "tests" / "referee" / "pungo" / "playthroughs"
TROUBLE = {"violation", "question", "unrecognised"}


def _states(name: str):
    recorded = playthrough.load(GAMES / f"{name}.txt")
    return recorded.game, playthrough.replay(recorded).states


# Chaos Pungo is seen every step, not every second one: a throw showing the face already up cannot be
# seen, and a look that then shows the thrower's step and the next throw reads as one turn under way
@pytest.mark.parametrize("name, every", [("standard-symmetry", 2), ("decision", 2), ("pyramid-die", 2), ("chaos", 1)])
def test_a_recorded_game_seen_every_step_or_two_is_followed_to_its_end(name, every, tmp_path):
    """pungo/move/spend-all: parts of turns are read as the turn going on, and their rests as whole turns."""
    game, states = _states(name)
    layout = ScriptedLayout()
    session = Session(game, states[0], layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    looks = list(range(every, len(states), every)) + [len(states) - 1]
    events = []
    for t, index in enumerate(looks):
        events += session.observe(layout.show(float(t), states[index].view()))
    assert not TROUBLE & {e.kind for e in events}, [(e.kind, e.payload) for e in events if e.kind in TROUBLE]
    assert session.state == states[-1] and session.state.is_over() == states[-1].is_over()
    read = [e.payload["notation"] for e in events if e.kind == "action"]
    if name != "decision":  # Decision Pungo's roll ends the turn: its parts are steps only
        assert any(n.startswith("part ") for n in read), read


def test_a_roll_and_one_step_are_a_turn_going_on_not_a_turn_whose_steps_cancel(tmp_path):
    """pungo/move/spend-all: bob rolled 4 and stepped once; a whole turn stepping back and forth to the
    same table is legal too, but the camera has seen a pause, and the referee waits for the rest."""
    game, states = _states("standard-symmetry")
    before, seen = states[1], states[3]  # bob to roll; then his roll W 4 and his step r2c2 W
    readings = [r.action for r in before.interpret(seen.view()) if r.verdict.legal]
    assert readings == [Part("bob", "W:4", ("r2c2:1:W",))]
    assert not any(isinstance(a, Turn) and not isinstance(a, Part) for a in readings)
    assert before.apply(readings[0]) == seen


def _whole_turn(state, rng):
    """One whole turn of random legal actions (a random turn may spend points going back and forth)."""
    seat = state.seat
    while not state.is_over():
        state = state.apply(rng.choice(state.legal_actions()))
        if state.phase == "roll" and state.seat != seat or state.is_over():
            break
    return state


# not Chaos Pungo: there a throw showing the face already up is not seen, and after a turn read as a
# pause the next player's steps may read as the rest of that turn (the note of session 9 says more)
@pytest.mark.parametrize("options", [{}, {"points": "averaging"}, {"colours": 3}, {"arena": "4x3"}])
def test_random_games_seen_only_between_turns_are_followed(options, tmp_path):
    """pungo/move/spend-all: a random turn that went back and forth looks like a pause; the next
    turn seen shows it was over, and the referee reads its end, then the next turn."""
    game = games.get("pungo", players=["ann", "bob"], options=options)
    paused = 0
    for seed in range(6):
        rng, state = random.Random(seed), game.new_state()
        layout = ScriptedLayout()
        session = Session(game, state, layout, PlaythroughLog.create(tmp_path / f"{seed}.sqlite"))
        for t in range(40):
            if state.is_over():
                break
            turn_before, state = state, _whole_turn(state, rng)
            if state.view() == session.state.view():
                continue  # a Chaos throw showing the face already up, and nothing else: nothing to see
            events = session.observe(layout.show(float(t), state.view()))
            if session.pending is not None and session.pending.kind == "question":
                # a small stepped into a small from one side or another: the table cannot say, the
                # players answer (only such questions: every reading looks alike, one is what they did,
                # this turn, or the end of the last one read as a pause)
                readings = [c.reading.action for c in session.pending.candidates]
                results = [session.state.apply(a) for a in readings]
                assert len({r.view() for r in results}) == 1, readings
                reaching = [k for k, r in enumerate(results) if r in (state, turn_before)]
                assert len(reaching) == 1, (seed, t, readings)
                events = [e for e in events if e.kind != "question"] + session.choose(reaching[0])
            assert not TROUBLE & {e.kind for e in events}, (seed, t, [(e.kind, e.payload) for e in events])
            paused += session.state != state
        assert session.state == state or session.state.view() == state.view(), seed
    assert paused  # some turns were read as pauses and ended by the next turn seen
