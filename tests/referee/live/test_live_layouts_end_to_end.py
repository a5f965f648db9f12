"""End to end: recorded playthroughs staged as camera snapshots, read by the real layouts, refereed
by the real Session, logged, and the log replayed.

No test doubles: every snapshot is a sloppy player's table (tests/referee/layouts/layout_staging.py)
read by ``referee.layouts.for_game``; the session decides what happened.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from staged_table import ROOT, stage, steps, zones
from referee import layouts, playthrough
from referee.log import PlaythroughLog, force, replay
from referee.session import Session

XFAIL: dict[str, str] = {}  # playthrough stem -> why the referee cannot yet follow it


def _case(path: Path):
    reason = XFAIL.get(path.stem)
    marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []
    return pytest.param(path, marks=marks, id=f"{path.parent.parent.name}-{path.stem}")


PLAYTHROUGHS = [_case(p) for p in sorted((ROOT / "tests" / "referee").glob("*/playthroughs/*.txt"))]
TROUBLE = {"violation", "question", "unrecognised"}


def kinds(events):
    return [e.kind for e in events]


def seed(path: Path) -> int:
    return zlib.crc32(path.stem.encode())


@pytest.mark.parametrize("path", PLAYTHROUGHS)
def test_a_recorded_game_staged_on_the_table_is_refereed_to_its_outcome(path, tmp_path):
    recorded = playthrough.load(path)
    game = recorded.game
    states, lines = steps(recorded)
    layout = layouts.for_game(game, zones(game))  # the real layout, on the default A4 mat where there is one
    session = Session.start(game, layout, tmp_path / "game.sqlite", setup=recorded.setup)
    assert session.state == states[0]
    rng = random.Random(seed(path))
    entered = asked = snapshots = 0
    for step in lines:
        if step.after is None:
            continue  # an @illegal line: the injected-violation test below stages these
        action = game.actions.parse(step.line.action)
        where = f"{path.name}:{step.line.number} {step.line.action}"
        if game.type.name == "pungo" and step.after.view() == session.state.view():
            continue  # a Pungo step nothing shows (a small into a nest of smalls): the next look shows it
        if step.before.is_spoken(action):
            events = session.enter(action)
            assert kinds(events) == ["correction", "action"] + (["outcome"] if step.after.is_over() else []), where
            assert session.state == step.after, where
            entered += 1
            continue
        known = session.state
        events = session.observe(stage(game, step.after, known, rng))
        snapshots += 1
        if "question" in kinds(events):
            # Only a question the camera cannot answer is allowed: every reading offered leaves the
            # table looking exactly as it does, yet only one reaches the recorded state (a Pungo
            # pyramid nested out of sight inside another; a Pouches 1.3 dig that takes the face-down
            # card from under a neighbouring pile's top, which stays, into the pouch as a back: which
            # pile was dug cannot be seen). The players answer with the recorded move.
            question = next(e for e in events if e.kind == "question")
            readings = session.pending.candidates
            assert question.payload["why"] == "several legal readings", where
            assert all(known.apply(c.reading.action).view() == step.after.view() for c in readings), where
            reaching = [i for i, c in enumerate(readings) if known.apply(c.reading.action) == step.after]
            assert len(reaching) == 1, (f"{where}: asked to choose among readings of which {len(reaching)} reach "
                                        f"the same state: {[str(c.reading.action) for c in readings]}")
            events = events + session.choose(reaching[0])
            asked += 1
            assert not TROUBLE & set(kinds(events[kinds(events).index("question") + 1:])), (where, kinds(events))
        else:
            assert not TROUBLE & set(kinds(events)), (where, [(e.kind, e.payload) for e in events])
            assert "action" in kinds(events), (where, kinds(events))
        assert session.state == step.after, (where, session.state.view().diff(step.after.view()))
    assert session.state == states[-1] and session.pending is None
    logged = session.log.events()
    assert kinds(logged).count("question") == asked and not {"violation", "unrecognised"} & set(kinds(logged))
    outcomes = [e for e in logged if e.kind == "outcome"]
    assert len(outcomes) == 1
    assert outcomes[0].payload["winners"] == list(recorded.expected.winners)
    assert outcomes[0].payload["rule"] == recorded.expected.rule
    rebuilt = replay(logged)
    assert rebuilt.game == game and rebuilt.state == states[-1] and rebuilt.outcome_logged
    assert snapshots > entered, (snapshots, entered, asked)


# ---------------------------------------------------------------- injected illegal moves

def _forced(game, step):
    """The table after the @illegal line's action, played anyway (``referee.log.force``)."""
    return force(step.before, game.actions.parse(step.line.action))


# (playthrough, line number of its @illegal line): one or more per game and edition
ILLEGAL = [
    pytest.param("pouches/playthroughs/02-fight-bury-1.9.txt", 22, id="pouches-1.9-uphill"),  # bedrock to a 5
    pytest.param("pouches/playthroughs/01-spade-climb-1.9.txt", 20, id="pouches-1.9-diagonal"),
    pytest.param("pouches/playthroughs/04-relaxation-1.9.txt", 16, id="pouches-1.9-steeper-hills"),
    pytest.param("pouches/playthroughs/03-fleeting-1.3.txt", 72, id="pouches-1.3-turn-order"),
    pytest.param("mongoose/playthroughs/four-and-a-pair.txt", 35, id="mongoose-capture-cancel"),
    pytest.param("deck_town/playthroughs/three-fours.txt", 12, id="deck-town-build-beside-uncontrolled"),
    pytest.param("deck_town/playthroughs/three-fours.txt", 15, id="deck-town-turn-order"),
    pytest.param("deck_town/playthroughs/three-fours.txt", 17, id="deck-town-move-two-cards"),
    pytest.param("pungo/playthroughs/standard-symmetry.txt", 10, id="pungo-no-smaller"),
    pytest.param("pungo/playthroughs/standard-symmetry.txt", 12, id="pungo-cost"),
]


@pytest.mark.parametrize("name,number", ILLEGAL)
def test_an_injected_illegal_move_is_a_violation_until_the_table_is_put_back(name, number, tmp_path):
    recorded = playthrough.load(ROOT / "tests" / "referee" / name)
    game = recorded.game
    _, lines = steps(recorded)
    step = next(s for s in lines if s.line.number == number)
    assert step.after is None, "an @illegal line"
    rule = step.line.illegal_rule
    layout = layouts.for_game(game, zones(game))
    session = Session(game, step.before, layout, PlaythroughLog.create(tmp_path / "illegal.sqlite"))
    rng = random.Random(number)
    illegal_table = stage(game, _forced(game, step), step.before, rng)
    events = session.observe(illegal_table)
    assert kinds(events) == ["violation"], [(e.kind, e.payload) for e in events]
    cited = [r["rule"] for reading in events[0].payload["readings"] for r in reading["verdict"]["reasons"]]
    assert rule in cited, cited
    assert session.state == step.before and session.pending.kind == "violation"
    assert session.observe(illegal_table) == []  # the same table again: nothing new
    put_back = session.observe(stage(game, step.before, step.before, rng))
    assert kinds(put_back) == ["resolved"] and put_back[0].payload["of"] == events[0].seq
    assert session.pending is None and session.state == step.before
    assert replay(session.log.events()).state == step.before


@pytest.mark.parametrize("name,number", ILLEGAL)
def test_an_injected_illegal_move_the_players_overrule_is_played(name, number, tmp_path):
    """The players may accept what the rules refuse: the table stands as played, and the log says so."""
    recorded = playthrough.load(ROOT / "tests" / "referee" / name)
    game = recorded.game
    step = next(s for s in steps(recorded)[1] if s.line.number == number)
    illegal = _forced(game, step)
    session = Session(game, step.before, layouts.for_game(game, zones(game)),
                      PlaythroughLog.create(tmp_path / "overruled.sqlite"))
    assert kinds(session.observe(stage(game, illegal, step.before, random.Random(number)))) == ["violation"]
    events = session.overrule(0)
    assert kinds(events)[0] == "overrule" and not TROUBLE & set(kinds(events)), [(e.kind, e.payload) for e in events]
    assert session.pending is None and session.state.view() == illegal.view()
    assert replay(session.log.events()).state == session.state
