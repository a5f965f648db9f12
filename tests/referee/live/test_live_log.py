"""The playthrough log: SQLite in WAL mode, append-only, frames beside it, JSON Lines, damage kept apart."""

import json
import sqlite3
import threading

import pytest

from live_table import JPEG, play_mongoose
from referee.log import (LogError, PlaythroughLog, export_jsonl, frames_folder, import_jsonl, read_jsonl, recover,
                         replay)
from referee.session import Session


def test_the_log_is_sqlite_in_wal_mode_and_append_only(tmp_path):
    session, _ = play_mongoose(tmp_path / "g.sqlite", moves=3)
    db = sqlite3.connect(tmp_path / "g.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET kind = 'undo' WHERE seq = 2")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events")
    events = session.log.events()
    assert [e.seq for e in events] == list(range(1, len(events) + 1)) and events[0].kind == "game"
    assert events[0].payload["players"] == ["ann", "bob"] and events[0].payload["game"]["game"] == "mongoose"
    assert all(e.snapshot_t is not None for e in events[1:]) and events[1].snapshot_t == 1.0
    with pytest.raises(LogError, match="already exists"):
        PlaythroughLog.create(tmp_path / "g.sqlite")


def test_frames_are_jpeg_files_beside_the_database(tmp_path):
    log = PlaythroughLog.create(tmp_path / "f.sqlite")
    first = log.append("game", {"x": 1}, frame=JPEG)
    second = log.append("resolved", {"of": 1}, frame=first.frame)  # events of one snapshot share it
    assert (frames_folder(tmp_path / "f.sqlite") / first.frame).read_bytes() == JPEG
    assert frames_folder(tmp_path / "f.sqlite").name == "f-frames" and second.frame == first.frame
    with pytest.raises(ValueError, match="JPEG"):
        log.append("resolved", {}, frame=b"\x89PNG\r\n")
    with pytest.raises(LogError, match="no frame named"):
        log.append("resolved", {}, frame="999999.jpg")
    with pytest.raises(ValueError, match="kind"):
        log.append("shrug", {})
    assert len(log.events()) == 2 and log.frame(log.events()[0]) == JPEG


def test_a_reader_follows_while_the_session_writes(tmp_path):
    session, states = play_mongoose(tmp_path / "r.sqlite", moves=1)
    reader = PlaythroughLog.open(tmp_path / "r.sqlite", readonly=True)
    seen, done = [], threading.Event()

    def follow():
        last = 0
        while not done.is_set() or last < len(session.log.events()):
            new = reader.events(since=last)
            seen.extend(new)
            last = new[-1].seq if new else last

    thread = threading.Thread(target=follow)
    thread.start()
    layout = session.layout
    for t, after in enumerate(states[2:12], start=2):
        session.observe(layout.show(float(t), after.view()))
    done.set()
    thread.join(10)
    assert [e.seq for e in seen] == [e.seq for e in session.log.events()]
    with pytest.raises(LogError, match="read-only"):
        reader.append("undo", {})


def test_json_lines_export_and_import_round_trip(tmp_path):
    session, states = play_mongoose(tmp_path / "a.sqlite", frame=JPEG)
    count = export_jsonl(session.log, tmp_path / "a.jsonl")
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == {"format": "tableside-playthrough", "version": 1} and len(lines) == count + 1
    assert read_jsonl(tmp_path / "a.jsonl") == session.log.events()
    copy, problem = import_jsonl(tmp_path / "a.jsonl", tmp_path / "b.sqlite")
    assert problem is None and copy.events() == session.log.events()
    assert replay(copy.events()).state == session.state == states[-1]
    framed = next(e for e in copy.events() if e.frame)
    assert copy.frame(framed) == JPEG  # frames travel in a folder beside the export


def test_a_bad_json_line_is_named_and_the_good_part_kept(tmp_path):
    session, _ = play_mongoose(tmp_path / "a.sqlite", moves=6)
    export_jsonl(session.log, tmp_path / "a.jsonl")
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    lines[5] = lines[5][:40]  # event 5 cut off mid-line
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=r"line 6 \(event 5\) is not valid JSON") as raised:
        read_jsonl(tmp_path / "bad.jsonl")
    assert raised.value.seq == 5 and [e.seq for e in raised.value.kept] == [1, 2, 3, 4]
    with pytest.raises(LogError):
        import_jsonl(tmp_path / "bad.jsonl", tmp_path / "refused.sqlite")
    kept, problem = import_jsonl(tmp_path / "bad.jsonl", tmp_path / "kept.sqlite", keep_good=True)
    assert problem.seq == 5 and len(kept.events()) == 4
    assert replay(kept.events()).state == replay(session.log.events()[:4]).state
    (tmp_path / "other.jsonl").write_text('{"format": "something else"}\n')
    with pytest.raises(LogError, match="not a Tableside playthrough header"):
        read_jsonl(tmp_path / "other.jsonl")


def _damaged_copy(tmp_path, moves=8):
    session, states = play_mongoose(tmp_path / "d.sqlite", moves=moves)
    events = session.log.events()
    session.log.close()  # the last connection folds the WAL into the database file
    return events, states


def test_an_event_whose_json_does_not_parse_is_named_and_recover_keeps_the_rest(tmp_path):
    events, states = _damaged_copy(tmp_path)
    target = events[4]
    data = (tmp_path / "d.sqlite").read_bytes()
    text = json.dumps(target.payload, separators=(",", ":"), sort_keys=True).encode()
    assert data.count(text) == 1
    (tmp_path / "d.sqlite").write_bytes(data.replace(text, b"#" + text[1:]))  # same length: a garbled byte
    with pytest.raises(LogError, match=f"event {target.seq}: the payload is not valid JSON") as raised:
        Session.resume(tmp_path / "d.sqlite", lambda game: None)
    assert raised.value.kept == events[:4]
    aside, problem = recover(tmp_path / "d.sqlite")
    assert problem.seq == target.seq and aside.name == "d.damaged-1.sqlite" and aside.exists()
    resumed = Session.resume(tmp_path / "d.sqlite", lambda game: None)
    assert resumed.log.events() == events[:4] and resumed.state == replay(events[:4]).state
    assert recover(tmp_path / "d.sqlite") == (tmp_path / "d.sqlite", None)  # a whole log is left alone


def test_an_action_the_game_refuses_on_replay_is_named(tmp_path):
    events, _ = _damaged_copy(tmp_path, moves=3)
    db = sqlite3.connect(tmp_path / "d.sqlite")
    bad = {"action": {"kind": "play", "first": "AS", "second": "AS"}, "notation": "play AS AS",
           "verdict": {"legal": True, "reasons": []}, "source": "camera"}
    with db:
        db.execute("INSERT INTO events VALUES (?, 0, NULL, 'action', ?, NULL)", (len(events) + 1, json.dumps(bad)))
    db.close()
    log = PlaythroughLog.open(tmp_path / "d.sqlite")
    with pytest.raises(LogError, match=f"event {len(events) + 1} \\(action\\): the rules refuse play AS AS") as raised:
        replay(log.events())
    assert raised.value.kept == events
    assert replay(log.events(), partial=True).state == replay(events).state


def test_a_truncated_or_foreign_file_gives_a_clear_error(tmp_path):
    events, _ = _damaged_copy(tmp_path, moves=40)
    data = (tmp_path / "d.sqlite").read_bytes()
    assert len(data) >= 4 * 4096
    (tmp_path / "cut.sqlite").write_bytes(data[: len(data) - 4096])  # the last page lost
    with pytest.raises(LogError, match="is damaged") as raised:
        Session.resume(tmp_path / "cut.sqlite", lambda game: None)
    good = len(raised.value.kept)
    assert good > 10 and raised.value.kept == events[:good] and raised.value.seq == good + 1
    assert f"events 1 to {good} are good" in str(raised.value)
    aside, problem = recover(tmp_path / "cut.sqlite")
    assert problem is not None and aside.exists()
    kept = PlaythroughLog.open(tmp_path / "cut.sqlite").events()
    assert kept == events[:good] and Session.resume(tmp_path / "cut.sqlite", lambda g: None).state == replay(kept).state
    (tmp_path / "mid.sqlite").write_bytes(data[: len(data) - 5000])  # cut in the middle of a page
    with pytest.raises(LogError, match="is damaged") as raised:
        PlaythroughLog.open(tmp_path / "mid.sqlite")
    assert 0 < len(raised.value.kept) <= good and raised.value.kept == events[: len(raised.value.kept)]
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(LogError, match="not a readable playthrough log"):
        PlaythroughLog.open(tmp_path / "junk.sqlite")
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.close()
    with pytest.raises(LogError, match="not a Tableside playthrough log"):
        PlaythroughLog.open(tmp_path / "other.sqlite")
    with pytest.raises(LogError, match="no playthrough log"):
        PlaythroughLog.open(tmp_path / "missing.sqlite")
