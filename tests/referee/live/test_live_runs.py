"""Several moves seen in one look (referee/runs.py): the runs of legal moves that end in the table."""

from live_table import ScriptedLayout, deck_town_game, mongoose_game, pouches_script
from referee import runs
from referee.layouts import SeenView
from referee.log import PlaythroughLog, describe, force, replay
from referee.session import Session
from referee.view import View


def kinds(events):
    return [e.kind for e in events]


def _pouches_states():
    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    states = [state]
    for line in lines:
        states.append(states[-1].apply(game.actions.parse(line)))
    return game, states, lines


def test_a_pick_of_the_card_just_turned_up_and_the_moves_between_are_read_from_one_look(tmp_path):
    # cat picked, the table turned up the 2H, bob stepped, ann picked and her pile turned up the 8D, and
    # cat picked the 2H: the camera saw only the end, where pile 1,2 looks as it did at the start
    game, states, lines = _pouches_states()
    assert lines[21:26] == ["reveal heap/1,2 2H", "move bob 3,2", "pick ann 0,2", "reveal heap/0,2 8D", "pick cat 1,2"]
    assert states[21].view().get("heap/1,2") == states[26].view().get("heap/1,2")
    layout = ScriptedLayout()
    session = Session(game, states[21], layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, states[26].view()))
    assert [(e.kind, e.payload["notation"]) for e in events] == [("action", line) for line in lines[21:26]]
    assert session.state == states[26] and replay(session.log.events()).state == states[26]


def test_a_mongoose_game_seen_once_a_round_is_followed_to_its_winner(tmp_path):
    # each look shows a whole round: the refill turned up, both plays, the capture and the discards
    game, actions, states, winners = mongoose_game("three-pairs")
    looks = [1, 3, 6, 10, 14, 18, 22, 26, 29, 32, 36, len(states) - 1]
    assert max(b - a for a, b in zip(looks, looks[1:])) >= 4  # four to seven moves in one look
    layout = ScriptedLayout()
    session = Session.start(game, layout, tmp_path / "m.sqlite")
    for t, look in enumerate(looks, start=1):
        events = session.observe(layout.show(float(t), states[look].view()))
        assert session.pending is None and set(kinds(events)) <= {"action", "outcome"}, (look, events)
        assert session.state == states[look], look
    outcomes = [e for e in session.log.events() if e.kind == "outcome"]
    assert [o.payload["winners"] for o in outcomes] == [winners]
    assert all(e.payload["verdict"]["legal"] for e in session.log.events() if e.kind == "action")


def test_histories_the_table_cannot_tell_apart_make_a_question(tmp_path):
    # cat's pouch gained the 4H and the 2H: she picked from her pile twice, or dug beneath a pile next to
    # her and then picked once; each leaves a different game behind, so the players are asked
    game, states, lines = _pouches_states()
    layout = ScriptedLayout()
    session = Session(game, states[20], layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, states[26].view()))
    assert kinds(events) == ["question"] and session.state == states[20]
    assert events[0].payload["why"].startswith("several moves seen at once")
    assert {r["notation"] for r in events[0].payload["readings"]} == {"pick cat 1,2", "pick cat 1,1", "pick cat 2,2"}
    session.choose([r["notation"] for r in events[0].payload["readings"]].index("pick cat 1,2"))
    assert session.state == states[26]


def test_a_longer_story_is_believed_only_when_every_move_in_it_is_legal(tmp_path):
    # the 2H turned up and cat picked it too: a second pick she may not make (no Spade held before)
    game, states, lines = _pouches_states()
    second = game.actions.parse("pick cat 1,2")
    assert not states[22].is_legal(second)
    layout = ScriptedLayout()
    session = Session(game, states[21], layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, force(states[22], second).view()))
    assert kinds(events) == ["violation"] and session.state == states[21]


def test_a_search_cut_short_asks_the_players_rather_than_guess(tmp_path, monkeypatch):
    game, states, lines = _pouches_states()
    monkeypatch.setattr(runs, "RUN_STATES", 200)  # finds the right first move, but not that it is the only one
    firsts, complete = runs.first_moves(states[21], [states[26].view()])
    assert [str(f.action) for f in firsts] == [lines[21]] and not complete
    layout = ScriptedLayout()
    session = Session(game, states[21], layout, PlaythroughLog.create(tmp_path / "p.sqlite"))
    events = session.observe(layout.show(1.0, states[26].view()))
    assert kinds(events) == ["question"] and "too many to be sure" in events[0].payload["why"]
    assert [r["notation"] for r in events[0].payload["readings"]] == [lines[21]]
    events = session.choose(0)
    assert session.state == states[26]


def test_a_look_that_missed_a_move_and_misread_both_moves_places_is_read_with_both_put_right(tmp_path):
    # Deck Town: bob built the Pact on 2,0 and ann spawned a second small on her Mountain, and the camera saw only
    # the end, misreading both places: the new small a size up, and the Pact's art as a large on it. Neither
    # place put right alone explains the table; both together are the two moves (Deck Town trial 1, where the
    # new card's small read a size up and the discard pile's covered card unread lost the game from move 9 on)
    game, actions, states, _ = deck_town_game("three-fours")
    assert [str(a) for a in actions[7:9]] == ["build bob pact 2,0", "spawn ann 0,0"]
    truth = states[9].view()
    assert truth.get("board/0,0") == ("mountain", "red1+red1") and truth.get("board/2,0") == ("pact",)
    seen = SeenView(View({**truth, "board/0,0": ("mountain", "red1+red2"), "board/2,0": ("pact", "yellow3")}),
                    {"board/0,0": (("mountain", "red1+red1"),), "board/2,0": (("pact",),)})
    layout = ScriptedLayout()
    session = Session(game, states[7], layout, PlaythroughLog.create(tmp_path / "d.sqlite"))
    events = session.observe(layout.show(1.0, seen))
    assert [(e.kind, e.payload.get("notation")) for e in events] == [
        ("action", "build bob pact 2,0"), ("action", "spawn ann 0,0")]
    assert session.state == states[9]


def _attack_read_before_its_replacement(tmp_path):
    """Deck Town, ann attacks bob's small on 1,0 and puts a red small in its place: the table settled before
    the red small was set down, so the camera's first look shows the attack without it (Deck Town trial 14).
    (session, layout, the state after the real attack, the view of the attack read without its replacement)."""
    game, actions, states, _ = deck_town_game("three-fours")
    assert str(actions[16]) == "attack ann 1,0 yellow1 harvest yes 0"
    without = states[16].apply(game.actions.parse("attack ann 1,0 yellow1 harvest no 0")).view()
    assert without != states[17].view()
    layout = ScriptedLayout()
    session = Session(game, states[16], layout, PlaythroughLog.create(tmp_path / "d.sqlite"))
    assert [(e.kind, e.payload.get("notation")) for e in session.observe(layout.show(1.0, without))] == [
        ("action", "attack ann 1,0 yellow1 harvest no 0")]
    return session, layout, states[17], without


def test_a_move_read_before_it_was_finished_is_read_again_when_the_next_look_shows_the_rest(tmp_path):
    # the red small alone explains nothing (it is no move of its own from the attack read), and the attack with
    # it explains the table: the referee takes its first reading back and plays the attack it now sees
    session, layout, finished, _ = _attack_read_before_its_replacement(tmp_path)
    events = session.observe(layout.show(2.0, finished.view()))
    assert [(e.kind, e.payload.get("notation")) for e in events] == [
        ("undo", "attack ann 1,0 yellow1 harvest no 0"), ("action", "attack ann 1,0 yellow1 harvest yes 0")]
    assert describe(events[0]) == ("undo attack ann 1,0 yellow1 harvest no 0 (event %d): the next look showed the move "
                                   "otherwise" % events[0].payload["undone"])
    assert session.state == finished and replay(session.log.events()).state == finished
    assert session.moves[-1] == "attack ann 1,0 yellow1 harvest yes 0"



def test_a_change_beyond_the_places_the_last_move_changed_is_not_folded_into_it(tmp_path):
    # bob's Pact read on 1,1, then seen on 2,0: a build there explains the table from before the first
    # reading, but 2,0 is a place that reading did not change. A change beyond the last move's places may
    # be a further move of the same player (a Pungo step on from where the last one ended, which may break
    # a rule) and is judged as one, never folded into the move before it
    game, actions, states, _ = deck_town_game("three-fours")
    assert str(actions[7]) == "build bob pact 2,0"
    layout = ScriptedLayout()
    session = Session(game, states[7], layout, PlaythroughLog.create(tmp_path / "d.sqlite"))
    misplaced = states[7].apply(game.actions.parse("build bob pact 1,1"))
    assert [e.payload.get("notation") for e in session.observe(layout.show(1.0, misplaced.view()))] == [
        "build bob pact 1,1"]
    events = session.observe(layout.show(2.0, states[8].view()))
    assert "undo" not in kinds(events) and session.state == misplaced


def test_a_card_turned_up_is_not_read_again_as_another(tmp_path):
    # only a player's move is read again: chance's is what was seen. Mongoose's refill turned up the JC, then the
    # TH, and the look after lost the JC: read again it would be a refill of the TH alone, and the JC, seen once
    # more, a later one; both logged out of the order played (Mongoose trials 11, 12, 13 and 19)
    game, actions, states, _ = mongoose_game("three-pairs")
    assert str(actions[3]) == "reveal JC,TH,7S"
    first = states[3].apply(game.actions.parse("reveal JC"))
    layout = ScriptedLayout()
    session = Session(game, states[3], layout, PlaythroughLog.create(tmp_path / "m.sqlite"))
    assert [e.payload.get("notation") for e in session.observe(layout.show(1.0, first.view()))] == ["reveal JC"]
    events = session.observe(layout.show(2.0, states[3].apply(game.actions.parse("reveal TH")).view()))
    assert "undo" not in kinds(events) and session.state == first
