"""The session referees snapshots: moves accepted, violations held, questions asked, corrections logged."""

import dataclasses

import pytest

from live_table import JPEG, ScriptedLayout, ZoneLayout, card, mongoose_game, pouches_script, pungo_game
from live_table import uphill as uphill_table
from referee import IllegalAction, TableSnapshot, View
from referee.games.mongoose.actions import Reveal
from referee.games.pouches.actions import Move, Pick, Weapons
from referee.games.mongoose.deck import arranged
from referee.layouts import SeenView
from referee.log import PlaythroughLog, replay
from referee.session import Session, SessionError


def kinds(events):
    return [e.kind for e in events]


def test_a_whole_pungo_game_seen_turn_by_turn_reaches_its_winner(tmp_path):
    game, actions, states, winners = pungo_game()
    layout = ScriptedLayout()
    session = Session.start(game, layout, tmp_path / "pungo.sqlite")
    for t, after in enumerate(states[1:], start=1):
        events = session.observe(layout.show(float(t), after.view()))
        assert kinds(events)[0] == "action" and session.state == after
    assert len(session.moves) == len(actions)  # the same turns (steps that commute may be listed in another order)
    outcome = [e for e in session.log.events() if e.kind == "outcome"]
    assert [o.payload["winners"] for o in outcome] == [winners] and outcome[0].payload["rule"] == "pungo/win/symmetry"
    assert replay(session.log.events()).state == session.state


def test_a_whole_mongoose_game_is_accepted_move_by_move_and_the_log_rebuilds_it(tmp_path):
    game, actions, states, winners = mongoose_game("three-pairs")
    layout = ScriptedLayout()
    session = Session.start(game, layout, tmp_path / "game.sqlite")
    for t, after in enumerate(states[1:], start=1):
        events = session.observe(layout.show(float(t), after.view()), frame=JPEG if t == 1 else None)
        if after.view() != states[t - 1].view():  # a turn's end (refill into hands) shows nothing new
            assert "action" in kinds(events), (t, events)
        assert session.state == after
    logged = [e for e in session.log.events() if e.kind == "action"]
    read = [game.actions.from_json(e.payload["action"]) for e in logged]
    assert len(read) == len(actions)
    state = states[0]
    for seen, after in zip(read, states[1:]):  # the recorded moves (cards listed in the table's order)
        state = state.apply(seen)
        assert state == after
    assert all(e.payload["source"] == "camera" and e.payload["verdict"]["legal"] for e in logged)
    outcomes = [e for e in session.log.events() if e.kind == "outcome"]
    assert len(outcomes) == 1 and outcomes[0].payload["winners"] == winners
    assert session.observe(layout.show(99.0, states[-1].view())) == []  # the outcome is logged once
    rebuilt = replay(session.log.events())
    assert rebuilt.state == session.state and rebuilt.game == game and rebuilt.outcome_logged
    assert session.log.frame(session.log.events()[1]) == JPEG
    session.log.close()
    resumed = Session.resume(tmp_path / "game.sqlite", lambda g: ScriptedLayout())
    assert resumed.state == states[-1] and resumed.moves == tuple(str(a) for a in read)


def test_an_illegal_move_is_held_with_its_rule_until_put_right_then_overruled(tmp_path):
    session, layout, state, uphill = uphill_table(tmp_path / "p.sqlite")  # ann from bedrock to a 5, no Diamond
    assert state.to_move == "ann"
    events = session.observe(layout.show(1.0, uphill))
    assert kinds(events) == ["violation"]
    reasons = events[0].payload["readings"][0]["verdict"]["reasons"]
    assert "pouches-1.9/move/uphill" in [r["rule"] for r in reasons]
    assert session.state == state and session.pending.kind == "violation"
    assert session.observe(layout.show(2.0, uphill)) == []  # still the same table: nothing new
    put_back = session.observe(layout.show(3.0, state.view()))
    assert kinds(put_back) == ["resolved"] and put_back[0].payload["of"] == events[0].seq
    assert session.pending is None and session.state == state
    again = session.observe(layout.show(4.0, uphill))
    assert kinds(again) == ["violation"]
    with pytest.raises(SessionError):
        session.choose(0)  # a violation is not a question
    overruled = session.overrule()
    assert kinds(overruled) == ["overrule"] and overruled[0].payload["violation"] == again[0].seq
    assert session.state.spots["ann"] == (0, 1) and session.state.view() == uphill
    assert session.observe(layout.show(5.0, uphill)) == []
    assert replay(session.log.events()).state == session.state
    with pytest.raises(SessionError):
        session.overrule()
    session.undo()
    entered = session.enter(Move("ann", "0,1"), overrule=True)  # the same move, typed in and accepted
    assert kinds(entered) == ["correction", "overrule"] and entered[1].payload["violation"] is None
    assert replay(session.log.events()).state == session.state and session.state.spots["ann"] == (0, 1)


def test_a_violation_waits_for_a_second_look_and_a_glance_still_plays_a_legal_move(tmp_path):
    """pouches-1.9/move/uphill, seen at a glance (the live pipeline's first look at a settled table): nothing
    is flagged until a second look shows it too; a glance whose illegal table is gone at the second look
    (a piece missed, a card read in a pip) flags nothing; a legal move is played from a glance at once."""
    session, layout, state, uphill = uphill_table(tmp_path / "p.sqlite")

    def glance(t, seen):
        return dataclasses.replace(layout.show(t, seen), glance=True)
    assert session.observe(glance(1.0, uphill)) == [] and session.pending is None
    assert session.observe(layout.show(1.5, state.view())) == []  # the second look: the table as expected
    assert session.observe(glance(2.0, uphill)) == []
    flagged = session.observe(layout.show(2.5, uphill))  # the second look agrees: flagged now
    assert kinds(flagged) == ["violation"] and session.state == state
    assert "pouches-1.9/move/uphill" in [r["rule"] for r in flagged[0].payload["readings"][0]["verdict"]["reasons"]]
    assert kinds(session.observe(glance(3.0, state.view()))) == ["resolved"]  # put right: no second look needed
    legal = next(a for a in state.legal_actions() if state.apply(a).view() != state.view())
    played = session.observe(glance(4.0, state.apply(legal).view()))
    assert kinds(played)[0] == "action" and session.state == state.apply(legal)
    assert [e.kind for e in session.log.events()].count("violation") == 1


def test_what_an_answer_leaves_of_a_table_only_glanced_at_waits_for_a_second_look(tmp_path):
    """A glance shows bob's pouch card (the AS, or the 2D?) and ann's illegal step uphill
    (pouches-1.9/move/uphill): the players answer the question, and the step waits, as any violation
    seen at a glance does, for a second look (Deck Town trial 4: the answer to a question left a
    pyramid of a card's print, read once, which was flagged at once). A second look before the answer
    flags it with the answer."""
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:12]:  # ... pick bob 2,1: the table turns bob's new pouch card up next
        state = state.apply(game.actions.parse(line))
    revealed = state.apply(game.actions.parse(lines[12]))
    assert lines[12] == "reveal pouch/bob AS" and revealed.to_move == "ann"
    table = dict(revealed.view())
    table["tokens/0,1"] = ("ann",)  # and ann's step up to a 5 with no Diamond
    del table["tokens/-1,1"]
    look = SeenView(View(table), {"pouch/bob": (("2D",),)})

    def session_at(name):
        layout = ScriptedLayout()
        return Session(game, state, layout, PlaythroughLog.create(tmp_path / name)), layout

    session, layout = session_at("answered-first.sqlite")
    asked = session.observe(dataclasses.replace(layout.show(1.0, look), glance=True))
    assert kinds(asked) == ["question"]
    assert [r["notation"] for r in asked[0].payload["readings"]] == ["reveal pouch/bob AS", "reveal pouch/bob 2D"]
    assert kinds(session.choose(0)) == ["correction", "action"] and session.pending is None
    flagged = session.observe(layout.show(1.5, look))
    assert kinds(flagged) == ["violation"]
    assert "pouches-1.9/move/uphill" in [r["rule"] for r in flagged[0].payload["readings"][0]["verdict"]["reasons"]]

    session, layout = session_at("looked-again-first.sqlite")
    assert kinds(session.observe(dataclasses.replace(layout.show(1.0, look), glance=True))) == ["question"]
    assert session.observe(layout.show(1.5, look)) == []  # the question stands
    assert kinds(session.choose(0)) == ["correction", "action", "violation"]


def test_a_pick_and_the_card_it_uncovers_are_two_moves_read_from_one_snapshot(tmp_path):
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:14]:  # ... move ann -1,2: cat is on 1,2 and picks next
        state = state.apply(game.actions.parse(line))
    picked = state.apply(Pick("cat", "1,2"))
    assert picked.to_move == "*table*"
    table = dict(picked.view())
    table["heap/1,2"] = ("4H",)  # the camera already sees the card the pick uncovered
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, View(table)), frame=JPEG)
    assert [e.payload.get("notation") for e in events] == ["pick cat 1,2", "reveal heap/1,2 4H"]
    assert events[0].frame == events[1].frame is not None  # one frame, stored once
    assert session.state.view() == View(table)


def test_several_legal_readings_make_a_question_the_players_answer(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    start = game.new_state().apply(Reveal(("KD", "8D", "2H", "3D", "4D", "6S", "QS", "3H", "KS", "JS", "KC")))
    layout = ScriptedLayout()
    session = Session(game, start, layout, PlaythroughLog.create(tmp_path / "m.sqlite"))
    pool = start.view()["pool"]
    seen = SeenView(View({"pool": arranged(pool + ("9H",))}), {"pool": (arranged(pool + ("9D",)),)})  # or 9D?
    events = session.observe(layout.show(1.0, seen))
    assert kinds(events) == ["question"] and events[0].payload["why"] == "several legal readings"
    assert [r["notation"] for r in events[0].payload["readings"]] == ["reveal 9H", "reveal 9D"]
    answered = session.choose(1)
    assert kinds(answered) == ["correction", "action"]
    assert answered[1].payload["source"] == "choice" and "9D" in session.state.pool
    assert session.observe(layout.show(2.0, seen)) == []  # the camera's doubt agrees with what was chosen
    with pytest.raises(SessionError):
        session.choose(0)


def test_an_unexplained_change_is_flagged_until_the_table_is_back(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    state = states[1]  # the pool is dealt
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "m.sqlite"))
    moved = dict(state.view())
    moved["pool"] = tuple(c for c in moved["pool"] if c != "KD")
    moved["discards"] = ("KD",)  # no action moves a pool card to the discards
    events = session.observe(layout.show(1.0, View(moved)))
    assert kinds(events) == ["unrecognised"]
    assert {c["place"] for c in events[0].payload["changes"]} == {"pool", "discards"}
    assert kinds(session.observe(layout.show(2.0, state.view()))) == ["resolved"]


def test_low_confidence_never_makes_a_violation(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    state = states[1]  # pool dealt; 4D is in it, 4H is unseen
    assert "4D" in state.pool and "4H" not in state.pool
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "m.sqlite"))
    base = dict(state.view())
    # ann's play is read as 4D (already in the pool: no move explains it) but might be 4H: the legal reading
    seen = SeenView(View({**base, "play/ann": ("4D",), "play/bob": ("7C",)}), {"play/ann": (("4H",),)})
    events = session.observe(layout.show(1.0, seen))
    assert kinds(events) == ["action"] and events[0].payload["notation"] == "play 4H 7C"
    session.undo()
    # the 4D taken from the pool and played (illegal), read with doubt: ask, never flag
    taken = {**base, "pool": tuple(c for c in base["pool"] if c != "4D"), "play/ann": ("4D",), "play/bob": ("7C",)}
    doubtful = SeenView(View(taken), {"play/ann": (("KS",),)})
    events = session.observe(layout.show(2.0, doubtful))
    assert kinds(events) == ["question"] and "unsure" in events[0].payload["why"]
    assert [r["verdict"]["legal"] for r in events[0].payload["readings"]] == [False]
    confirmed = session.choose(0)  # the players say it really was the 4D: now it is a violation
    assert kinds(confirmed) == ["correction", "violation"]
    assert "mongoose/play/from-hand" in [r["rule"] for r in confirmed[1].payload["readings"][0]["verdict"]["reasons"]]
    assert kinds(session.observe(layout.show(3.0, state.view()))) == ["resolved"]
    # the same change read for certain is a violation at once
    events = session.observe(layout.show(4.0, View(taken)))
    assert kinds(events) == ["violation"] and session.state == state


def test_undo_takes_back_moves_and_the_log_agrees(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    layout = ScriptedLayout()
    session = Session.start(game, layout, tmp_path / "m.sqlite")
    for t in (1, 2, 3):
        session.observe(layout.show(float(t), states[t].view()))
    assert session.state == states[3]
    undone = session.undo()
    assert kinds(undone) == ["undo"] and undone[0].payload["notation"] == str(mongoose_game()[1][2])
    assert session.state == states[2]
    session.undo(), session.undo()
    assert session.state == states[0]
    with pytest.raises(SessionError):
        session.undo()
    session.observe(layout.show(4.0, states[1].view()))
    assert replay(session.log.events()).state == session.state == states[1]


def test_an_action_the_camera_cannot_see_is_entered_by_hand(tmp_path):
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    weapons_at = next(i for i, line in enumerate(lines) if line.startswith("weapons"))
    for line in lines[:weapons_at]:
        state = state.apply(game.actions.parse(line))
    session = Session(game, state, ScriptedLayout(), PlaythroughLog.create(tmp_path / "p.sqlite"))
    wrong = Weapons(("cat:QD", "bob:AS", "ann:4C"))  # ann is not in this fight
    before = len(session.log.events())
    with pytest.raises(IllegalAction):
        session.enter(wrong)
    assert len(session.log.events()) == before and session.state == state  # refused: nothing logged
    events = session.enter(Weapons(("cat:QD", "bob:8S")))
    assert kinds(events) == ["correction", "action"] and events[1].payload["source"] == "hand"
    assert events[0].payload["what"] == "enter" and session.state == state.apply(Weapons(("cat:QD", "bob:8S")))
    session.undo()
    logged = len(session.log.events())
    with pytest.raises(SessionError, match="cannot be played"):  # bob has no 7H: not even by agreement
        session.enter(Weapons(("cat:QD", "bob:7H")), overrule=True)
    assert len(session.log.events()) == logged and session.state == state
    assert replay(session.log.events()).state == session.state


def test_a_relabelled_sighting_is_read_again_and_the_correction_sticks(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    state = states[1]
    zones = {"pool": (0, 1000), "play/ann": (1000, 1100), "play/bob": (1100, 1200), "discards": (1200, 1300)}
    layout = ZoneLayout(zones)
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "m.sqlite"))
    pool = [card(c, 40 + 70 * i) for i, c in enumerate(state.view()["pool"])]
    misread = TableSnapshot(1.0, tuple(pool) + (card("4D", 1050), card("7C", 1150)))  # 4D is really the 4H
    events = session.observe(misread)
    assert kinds(events) == ["unrecognised"]  # a 4D in the pool and in a play: nothing explains that
    fixed = session.relabel(f"cards/{len(pool)}", "4H")
    assert kinds(fixed) == ["correction", "resolved", "action"] and fixed[1].payload["of"] == events[0].seq
    assert fixed[0].payload == {"what": "relabel", "sighting": "cards/12", "was": "4D", "label": "4H"}
    assert fixed[2].payload["notation"] == "play 4H 7C" and fixed[2].payload["source"] == "relabel"
    again = TableSnapshot(2.0, tuple(pool) + (card("4D", 1052), card("7C", 1150)))  # the camera still misreads
    assert session.observe(again) == []
    with pytest.raises(SessionError):
        session.relabel("cards/99", "AS")
    with pytest.raises(SessionError):
        session.relabel("cards/0", "nonsense")


def test_a_session_refuses_a_log_of_another_game_and_a_hand_over_the_table_reads_nothing(tmp_path):
    game, _, states, _ = mongoose_game("three-pairs")
    layout = ScriptedLayout()
    session = Session.start(game, layout, tmp_path / "m.sqlite")
    assert session.observe(TableSnapshot(1.0, occluded=True)) == [] and layout.reads == 0
    with pytest.raises(SessionError, match="another game"):
        Session(game, states[3], layout, session.log)
    assert Session(game, states[0], layout, session.log).state == states[0]


def test_resuming_a_finished_game_whose_outcome_was_not_yet_logged_logs_it_once(tmp_path):
    from live_table import play_mongoose
    from referee.log.jsonl import write_events

    session, states = play_mongoose(tmp_path / "whole.sqlite")
    events = session.log.events()
    assert events[-1].kind == "outcome"
    write_events(events[:-1], tmp_path / "cut.sqlite").close()  # as if killed just before the outcome
    resumed = Session.resume(tmp_path / "cut.sqlite", ScriptedLayout())
    assert [e.kind for e in resumed.log.events()].count("outcome") == 1
    resumed.log.close()
    again = Session.resume(tmp_path / "cut.sqlite", ScriptedLayout())
    assert [e.kind for e in again.log.events()].count("outcome") == 1 and again.state == states[-1]


def test_an_overrule_the_rules_engine_cannot_play_is_refused_and_nothing_is_logged(tmp_path):
    game, actions, states, _ = pungo_game()
    session = Session(game, states[0], ScriptedLayout(), PlaythroughLog.create(tmp_path / "p.sqlite"))
    out_of_turn = game.actions.parse(str(actions[0]).replace(f"turn {game.players[0]} ", f"turn {game.players[1]} ", 1))
    assert not states[0].check(out_of_turn)  # bob cannot play ann's opening turn
    logged = len(session.log.events())
    with pytest.raises(SessionError, match="cannot be played"):
        session.enter(out_of_turn, overrule=True)
    assert len(session.log.events()) == logged and session.state == states[0]


def test_a_card_turned_up_and_the_next_move_seen_together_are_read_in_turn(tmp_path):
    # the demo's round 3: cat's pick left a card to turn up at 1,2; the camera's next settled look shows
    # it turned up and bob's token already moved on (a reveal, then a move, in one snapshot)
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:21]:  # ... pick cat 1,2: the table must turn up the card at heap/1,2
        state = state.apply(game.actions.parse(line))
    assert state.to_move == "*table*"
    both = state.apply(game.actions.parse(lines[21])).apply(game.actions.parse(lines[22]))
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, both.view()), frame=JPEG)
    assert [e.payload.get("notation") for e in events] == ["reveal heap/1,2 2H", "move bob 3,2"]
    assert session.state == both


def test_a_move_seen_before_the_card_it_waits_for_is_still_a_violation(tmp_path):
    # the same look without the card turned up: nothing explains bob's move, which must wait for the reveal
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:21]:
        state = state.apply(game.actions.parse(line))
    table = dict(state.apply(game.actions.parse(lines[21])).apply(game.actions.parse(lines[22])).view())
    table["heap/1,2"] = state.view()["heap/1,2"]  # the card at 1,2 not turned up yet
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, View(table)), frame=JPEG)
    assert kinds(events) == ["violation"] and session.state == state
    reading = events[0].payload["readings"][0]
    assert reading["notation"] == "move bob 3,2"
    assert "pouches-1.9/setup/reveal" in {r["rule"] for r in reading["verdict"]["reasons"]}


def _pouches_before_bobs_step():
    """The demo's round 3 (02-fight-bury): bob steps to 3,2, then ann picks at 0,2 and the table turns
    up the card beneath. Returns (game, state before bob's step, the lines that follow)."""
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:22]:
        state = state.apply(game.actions.parse(line))
    assert state.to_move == "bob" and lines[22:25] == ["move bob 3,2", "pick ann 0,2", "reveal heap/0,2 8D"]
    return game, state, lines[22:25]


def test_two_players_moves_seen_in_one_look_are_both_accepted_in_order(tmp_path):
    # a slow camera: bob stepped and ann picked before the table was read still
    game, state, (step, pick, reveal) = _pouches_before_bobs_step()
    both = state.apply(game.actions.parse(step)).apply(game.actions.parse(pick))
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, both.view()), frame=JPEG)
    assert [(e.kind, e.payload.get("notation")) for e in events] == [("action", step), ("action", pick)]
    assert session.state == both and session.pending is None
    # and with the card it uncovered already turned up: three moves, read in turn
    session.undo(), session.undo()
    three = both.apply(game.actions.parse(reveal))
    events = session.observe(layout.show(2.0, three.view()))
    assert [e.payload.get("notation") for e in events if e.kind == "action"] == [step, pick, reveal]
    assert session.state == three and replay(session.log.events()).state == three


def test_a_legal_move_seen_with_an_illegal_one_after_it_flags_the_second_by_its_own_rule(tmp_path):
    game, state, (step, _, _) = _pouches_before_bobs_step()
    stepped = state.apply(game.actions.parse(step))
    table = dict(stepped.view())
    table["pouch/ann"] = tuple(sorted(table.get("pouch/ann", ()) + table["heap/2,2"]))  # ann digs two cells away
    table["heap/2,2"] = ("back",)
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, View(table)))
    assert kinds(events) == ["action", "violation"] and events[0].payload["notation"] == step
    reading = events[1].payload["readings"][0]
    assert reading["notation"] == "pick ann 2,2"
    assert {r["rule"] for r in reading["verdict"]["reasons"]} == {"pouches-1.9/pick/dig"}
    assert session.state == stepped and session.pending.kind == "violation"


def test_a_second_move_without_the_first_is_not_read_as_both(tmp_path):
    # ann picks while bob has not moved: no legal move of bob's shows on the table, so it stays a violation
    game, state, (step, pick, _) = _pouches_before_bobs_step()
    table = dict(state.apply(game.actions.parse(step)).apply(game.actions.parse(pick)).view())
    for place in ("tokens/3,1", "tokens/3,2"):
        table[place] = state.view().get(place)
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, View(table)))
    assert kinds(events) == ["violation"] and session.state == state
    assert events[0].payload["readings"][0]["notation"] == pick


def test_a_pass_entered_after_the_next_player_moved_lets_the_held_table_read(tmp_path):
    # 02-fight-bury: bob steps to 2,3, ann stays (said aloud), cat picks at 1,2; the camera saw the step
    # and the pick in one look before ann's stay was entered
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:27]:
        state = state.apply(game.actions.parse(line))
    step, stay, pick = (game.actions.parse(line) for line in lines[27:30])
    assert (str(step), str(stay), str(pick)) == ("move bob 2,3", "stay ann", "pick cat 1,2")
    after = state.apply(step).apply(stay).apply(pick)
    assert after.view() != state.apply(step).view() and state.apply(step).apply(stay).view() == state.apply(step).view()
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, after.view()))
    assert kinds(events) == ["action", "violation"] and events[0].payload["notation"] == "move bob 2,3"
    assert events[1].payload["readings"][0]["notation"] == "pick cat 1,2"  # out of turn: ann has not passed
    entered = session.enter(stay)
    assert kinds(entered) == ["correction", "resolved", "action", "action"]
    assert [e.payload["notation"] for e in entered if e.kind == "action"] == ["stay ann", "pick cat 1,2"]
    assert entered[3].payload["source"] == "camera" and session.state == after and session.pending is None


def test_a_weapon_dropped_on_a_pile_under_tokens_is_a_question_that_offers_the_drop(tmp_path):
    # 02-fight-bury's fight on 1,2: bob drops his 8S onto the pile bob and cat stand on, whose tokens hide it;
    # a bury under another pile looks the same from above, so the players are asked, and the drop is offered
    import dataclasses
    import random

    from referee import layouts
    from staged_table import stage, zones

    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:39]:
        state = state.apply(game.actions.parse(line))
    drop, cats = (game.actions.parse(line) for line in lines[39:41])
    assert (str(drop), str(cats)) == ("discard bob 8S drop", "discard cat QD drop")
    dropped = state.apply(drop)
    assert dropped.view()["tokens/1,2"] == ("bob", "cat") and dropped.view()["heap/1,2"] == ("8S",)
    rng = random.Random(7)
    table = stage(game, dropped, state, rng)
    table = dataclasses.replace(table, cards=tuple(c for c in table.cards if c.card != "8S"))  # under the tokens
    session = Session(game, state, layouts.for_game(game, zones(game)), PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(table)
    assert kinds(events) == ["question"]
    offered = [r["notation"] for r in events[0].payload["readings"]]
    assert "discard bob 8S drop" in offered and "discard bob 8S bury 1,1" in offered
    answered = session.choose(offered.index("discard bob 8S drop"))
    assert kinds(answered) == ["correction", "action"] and session.state == dropped  # the table agrees now
    assert session.observe(dataclasses.replace(table, t=table.t + 1)) == []
    # cat's QD dropped on top is seen: the pile shows again
    events = session.observe(stage(game, dropped.apply(cats), dropped, rng))
    assert [e.payload.get("notation") for e in events] == ["discard cat QD drop"]


def test_a_pile_top_hidden_under_tokens_is_not_read_as_a_pass(tmp_path):
    # after the fight, ann's turn: the tokens on 1,2 now hide its top (QD); nothing else changed. A pass
    # (stay) changes nothing on the table, so it does not explain this: the table is as the state has it
    import dataclasses
    import random

    from referee import layouts
    from staged_table import stage, zones

    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:lines.index("take cat AS") + 1]:
        state = state.apply(game.actions.parse(line))
    assert state.to_move == "ann" and state.view()["tokens/1,2"] == ("bob", "cat") and state.is_spoken(
        game.actions.parse("stay ann"))
    table = stage(game, state, state, random.Random(3))
    top = state.view()["heap/1,2"][0]
    table = dataclasses.replace(table, cards=tuple(c for c in table.cards if c.card != top))
    session = Session(game, state, layouts.for_game(game, zones(game)), PlaythroughLog.create(tmp_path / "p.sqlite"))
    assert session.observe(table) == [] and session.state == state


def _before_the_step_stay_and_pick(tmp_path, name: str = "p.sqlite"):
    """02-fight-bury before bob's step to 2,3, ann's stay (said aloud) and cat's pick at 1,2: a session
    there, the three moves and the table after them."""
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:27]:
        state = state.apply(game.actions.parse(line))
    step, stay, pick = (game.actions.parse(line) for line in lines[27:30])
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(tmp_path / name))
    return session, layout, (step, stay, pick), state.apply(step).apply(stay).apply(pick)


def test_a_pass_said_before_the_camera_saw_the_move_it_follows_waits_and_is_played_in_turn(tmp_path):
    session, layout, (step, stay, pick), after = _before_the_step_stay_and_pick(tmp_path)
    before = session.state
    with pytest.raises(IllegalAction):  # out of turn: bob has not stepped yet, as far as the referee knows
        session.enter(stay)
    said = session.enter(stay, wait=True)
    assert kinds(said) == ["correction"] and said[0].payload["what"] == "say"
    assert said[0].payload["verdict"]["legal"] is False and session.state == before
    assert [r["rule"] for r in said[0].payload["verdict"]["reasons"]] == ["pouches-1.9/turn/order"]
    assert [(s.seq, str(s.action)) for s in session.said] == [(said[0].seq, "stay ann")]
    events = session.observe(layout.show(1.0, after.view()))  # the step and the pick in one look
    assert kinds(events) == ["action", "correction", "action", "action"]
    assert [e.payload["notation"] for e in events if e.kind == "action"] == ["move bob 2,3", "stay ann", "pick cat 1,2"]
    assert [e.payload["source"] for e in events if e.kind == "action"] == ["camera", "hand", "camera"]
    assert events[1].payload["said"] == said[0].seq and session.said == () and session.state == after
    assert replay(session.log.events()).state == after
    from referee.log.words import describe  # as `tableside replay` prints them
    assert describe(said[0]).startswith("players say stay ann; it waits until the rules allow it: illegal (")
    assert describe(events[1]) == f"players' move stay ann, said at event {said[0].seq}, is played now"


def test_a_said_move_waits_across_a_restart_and_can_be_taken_back(tmp_path):
    session, layout, (step, stay, pick), after = _before_the_step_stay_and_pick(tmp_path)
    seq = session.enter(stay, wait=True)[0].seq
    behind = session.enter(step, wait=True)  # legal now, but said after a move that waits: it waits too
    assert kinds(behind) == ["correction"] and [str(s.action) for s in session.said] == ["stay ann", "move bob 2,3"]
    session.log.close()
    resumed = Session.resume(tmp_path / "p.sqlite", lambda g: layout)
    assert [(s.seq, str(s.action)) for s in resumed.said] == [(seq, "stay ann"), (behind[0].seq, "move bob 2,3")]
    with pytest.raises(SessionError, match="no said move 999 waits"):
        resumed.unsay(999)
    taken = resumed.unsay(seq)  # ann did not pass after all: bob's step, said next, is played at once
    assert kinds(taken) == ["correction", "correction", "action"]
    assert taken[0].payload == {"what": "unsay", "said": seq, "notation": "stay ann"}
    assert resumed.said == () and resumed.moves[-1] == "move bob 2,3"
    events = resumed.observe(layout.show(2.0, after.view()))  # cat's pick, with ann not passed: out of turn
    assert kinds(events) == ["violation"]
    resumed.log.close()
    assert Session.resume(tmp_path / "p.sqlite", lambda g: layout).said == ()
