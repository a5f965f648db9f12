"""`tableside replay LOG` prints the game, every event with its verdict in words, and the outcome."""

from live_table import play_mongoose, uphill
from referee.log import export_jsonl
from webui.cli import main


def test_replay_prints_the_game_its_verdicts_and_the_outcome(tmp_path, capsys):
    session, _ = play_mongoose(tmp_path / "g.sqlite")
    assert main(["replay", str(tmp_path / "g.sqlite")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Mongoose standard; players ann, bob; options none"
    assert "accepted play AS JD (seen by the camera): legal" in out[3]
    assert out[-1] == ("outcome: bob - bob wins: three and two pairs (7s) beats two pairs (As and Qs) "
                       "[mongoose/rank/categories]")
    export_jsonl(session.log, tmp_path / "g.jsonl")
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 0
    assert capsys.readouterr().out.splitlines() == out


def test_replay_tells_violations_overrules_and_a_damaged_tail(tmp_path, capsys):
    session, layout, _, table = uphill(tmp_path / "p.sqlite")
    session.observe(layout.show(1.0, table))
    session.overrule()
    export_jsonl(session.log, tmp_path / "p.jsonl")
    assert main(["replay", str(tmp_path / "p.sqlite")]) == 0
    out = capsys.readouterr().out
    assert "VIOLATION" in out and "[pouches-1.9/move/uphill]" in out
    assert "players overrule and play move ann 0,1 anyway: illegal" in out
    assert "not finished: 1 moves;" in out
    text = (tmp_path / "p.jsonl").read_text().splitlines()
    (tmp_path / "cut.jsonl").write_text("\n".join(text[:-1] + [text[-1][:30]]) + "\n")
    assert main(["replay", str(tmp_path / "cut.jsonl")]) == 2
    captured = capsys.readouterr()
    assert "VIOLATION" in captured.out and "line 4 (event 3) is not valid JSON" in captured.err
    assert main(["replay", str(tmp_path / "missing.sqlite")]) == 2
    assert "no playthrough log" in capsys.readouterr().err
