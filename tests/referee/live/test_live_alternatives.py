"""A sighting the camera could not name, or named with doubt, read through a game's real layout: the
session takes the reading the rules allow among its candidates; a misread that no move explains
is flagged for the players to relabel, never a violation.

The table is Bob's pouch in the recorded Pouches game 02-fight-bury: his second pick is face down
in his pouch and the table must show it turned up (rule pouches-1.9/setup/reveal). The card is the
8S; vision's doubt is between it and the 8C, which lies face up on the heap at 2,0 already.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from live_table import ScriptedLayout, pouches_script
from referee import layouts, playthrough
from referee.layouts import SeenView
from referee.log import PlaythroughLog, force
from referee.session import Session
from referee.snapshot import Alternative, TokenSighting
from referee.view import View
from staged_table import ROOT, stage, steps


def _bob_turns_up(unnamed):
    """(session, snapshot): the state waiting for Bob's card to be shown, and the table showing it,
    the 8S sighting replaced by ``unnamed(sighting)``."""
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:17]:  # ... pick bob 2,1: his new card lies face down
        state = state.apply(game.actions.parse(line))
    assert lines[17] == "reveal pouch/bob 8S" and state.view()["heap/2,0"] == ("8C",)
    shown = state.apply(game.actions.parse(lines[17]))
    snapshot = stage(game, shown, state, random.Random(3))
    cards = [unnamed(c) if c.card == "8S" else c for c in snapshot.cards]
    return state, game, dataclasses.replace(snapshot, cards=tuple(cards))


def _session(tmp_path, game, state):
    return Session(game, state, layouts.for_game(game), PlaythroughLog.create(tmp_path / "p.sqlite"))


def test_an_unnamed_card_reads_as_its_candidate_the_rules_allow(tmp_path):
    state, game, snapshot = _bob_turns_up(lambda c: dataclasses.replace(
        c, card=None, confidence=0.45, alternatives=(Alternative("8C", 0.45), Alternative("8S", 0.40))))
    events = _session(tmp_path, game, state).observe(snapshot)
    # the likelier 8C cannot be turned up (it lies on the heap): the 8S is the only legal reading
    assert [(e.kind, e.payload.get("notation")) for e in events] == [("action", "reveal pouch/bob 8S")]


@pytest.mark.parametrize("confidence, alternatives", [(0.5, (Alternative("6C", 0.3),)), (0.97, ())],
                         ids=["doubtful", "sure"])
def test_a_card_misread_as_one_already_on_the_table_is_flagged_never_a_violation_and_a_relabel_fixes_it(
        tmp_path, confidence, alternatives):
    # read as the 8C (6C its other candidate): both lie face up on the heap, so no move explains it
    state, game, snapshot = _bob_turns_up(lambda c: dataclasses.replace(c, card="8C", confidence=confidence,
                                                                         alternatives=alternatives))
    session = _session(tmp_path, game, state)
    events = session.observe(snapshot)
    assert [e.kind for e in events] == ["unrecognised"]
    assert [c["place"] for c in events[0].payload["changes"]] == ["pouch/bob"]
    misread = next(i for i, c in enumerate(snapshot.cards) if c.card == "8C" and c.center_mm[0] > 300)
    fixed = session.relabel(f"cards/{misread}", "8S")
    assert [(e.kind, e.payload.get("notation")) for e in fixed] == [
        ("correction", None), ("resolved", None), ("action", "reveal pouch/bob 8S")]



def test_a_card_read_surely_as_one_taken_out_of_the_deck_reads_as_its_runner_up_the_rules_allow(tmp_path):
    # 1.9 takes the KC out for three players: a KC read at 0.92 is the camera's mistake, however
    # sure, so its runner-up (the 8S at 0.05) is weighed as a doubtful card's would be
    state, game, snapshot = _bob_turns_up(lambda c: dataclasses.replace(
        c, card="KC", confidence=0.92, alternatives=(Alternative("8S", 0.05), Alternative("KD", 0.02))))
    assert "KC" in state.removed and "KD" in state.removed
    session = _session(tmp_path, game, state)
    assert [(e.kind, e.payload.get("notation")) for e in session.observe(snapshot)] == [
        ("action", "reveal pouch/bob 8S")]
    # the card still reads KC in the next look: the table shows what the state has, nothing new
    assert session.observe(dataclasses.replace(snapshot, t=snapshot.t + 1.0)) == []
    # read as a card the deck holds (the 7S, still unseen), the camera is believed
    state, game, snapshot = _bob_turns_up(lambda c: dataclasses.replace(
        c, card="7S", confidence=0.92, alternatives=(Alternative("8S", 0.05),)))
    assert [(e.kind, e.payload.get("notation")) for e in _session(tmp_path / "held", game, state).observe(snapshot)
            ] == [("action", "reveal pouch/bob 7S")]

def _with_phantom(snapshot, confidence, on="back"):
    """``snapshot`` with Bob's token seen a second time, on the pile topped by ``on``: a shadow, say."""
    pile = next(c for c in snapshot.cards if c.card == on)
    return dataclasses.replace(snapshot, tokens=snapshot.tokens + (TokenSighting("bob", pile.center_mm, confidence),))


def test_a_doubtful_find_that_is_no_thing_does_not_hide_the_move_beside_it(tmp_path):
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    shown = state.apply(game.actions.parse(lines[0]))  # reveal heap/0,0 6C
    snapshot = _with_phantom(stage(game, shown, state, random.Random(5)), confidence=0.55)
    events = _session(tmp_path, game, state).observe(snapshot)
    assert [(e.kind, e.payload.get("notation")) for e in events] == [("action", "reveal heap/0,0 6C")]
    # found for sure, the second token is no doubt: nothing explains it
    sure = _with_phantom(stage(game, shown, state, random.Random(5)), confidence=0.95)
    assert [e.kind for e in _session(tmp_path / "sure", game, state).observe(sure)] == ["unrecognised"]


def test_an_illegal_move_beside_a_doubtful_find_is_asked_about_and_without_it_is_a_violation(tmp_path):
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:13]:  # ... reveal pouch/bob AS: Ann to move, from the bedrock at -1,1
        state = state.apply(game.actions.parse(line))
    uphill = force(state, game.actions.parse("move ann 0,1"))  # onto the 5C without a Diamond
    snapshot = stage(game, uphill, state, random.Random(7))
    events = _session(tmp_path, game, state).observe(_with_phantom(snapshot, confidence=0.55, on="7C"))
    assert [e.kind for e in events] == ["question"]
    assert [r["notation"] for r in events[0].payload["readings"]] == ["move ann 0,1"]
    events = _session(tmp_path / "clean", game, state).observe(snapshot)
    assert [e.kind for e in events] == ["violation"]
    assert "pouches-1.9/move/uphill" in {r["rule"] for r in events[0].payload["readings"][0]["verdict"]["reasons"]}


def test_a_place_the_camera_keeps_misreading_is_the_same_mistake_and_no_ground_for_a_violation(tmp_path):
    # Deck Town: ann's small on the Mountain read as a medium while she builds the Battle; the build is read
    # from the place's other reading. At the next look the Mountain reads a medium again: the same misreading,
    # not a grow; and a refused build on that look is asked about, not flagged (a corrected look is a doubt)
    recorded = playthrough.load(ROOT / "tests" / "referee" / "deck_town" / "playthroughs" / "three-fours.txt")
    _, lines = steps(recorded)
    built = next(s for s in lines if s.line.action == "build ann battle -1,0")
    illegal = next(s for s in lines if s.line.number == 12)  # @illegal build bob pact -2,0
    assert illegal.before == built.after and illegal.line.illegal_rule == "deck-town-1.1/action/build"
    mountain = built.after.view()["board/0,0"]
    assert mountain == ("mountain", "red1")
    layout = ScriptedLayout()
    session = Session(recorded.game, built.before, layout, PlaythroughLog.create(tmp_path / "g.sqlite"))
    misread = {"board/0,0": ("mountain", "red2")}
    first = SeenView(View({**built.after.view(), **misread}), {"board/0,0": (mountain,)})
    assert [e.kind for e in session.observe(layout.show(1.0, first))] == ["action"] and session.state == built.after
    assert session.observe(layout.show(2.0, View({**built.after.view(), **misread}))) == []
    refused = force(illegal.before, recorded.game.actions.parse(illegal.line.action)).view()
    events = session.observe(layout.show(3.0, View({**refused, **misread})))
    assert [e.kind for e in events] == ["question"] and events[0].payload["why"].startswith("unsure recognition")
    assert "deck-town-1.1/action/build" in {r["rule"] for reading in events[0].payload["readings"]
                                            for r in reading["verdict"]["reasons"]}
