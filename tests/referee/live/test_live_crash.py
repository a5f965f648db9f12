"""A referee process killed mid-game (SIGKILL, no clean-up) loses at most the event it was writing,
and the game resumes at the same state."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from live_table import ScriptedLayout, mongoose_game
from referee.log import PlaythroughLog, frames_folder, replay
from referee.session import Session

HERE = Path(__file__).parent
ROOT = HERE.parents[2]


def _run_until_killed(log_path: Path, events_before_kill: int) -> tuple[int, bool]:
    """Start a referee process, let it commit some events, kill it; returns (last event it reported, finished)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, str(HERE / "crash_player.py"), str(log_path)], stdout=subprocess.PIPE,
                             text=True, env=env, cwd=ROOT)
    reported, count, finished = 0, 0, False
    try:
        for line in child.stdout:
            if line.startswith("logged"):
                reported, count = int(line.split()[1]), count + 1
                if count >= events_before_kill:
                    child.send_signal(signal.SIGKILL)  # no clean-up: the process is in its next write
                    break
            finished = finished or line.startswith("finished")
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()
    return reported, finished


def test_a_killed_referee_resumes_where_it_was(tmp_path):
    game, _, states, winners = mongoose_game("three-pairs")
    path = tmp_path / "crash.sqlite"
    for kill_after in (7, 13, 11):  # three crashes, each resumed by the next process
        reported, finished = _run_until_killed(path, kill_after)
        assert not finished
        with PlaythroughLog.open(path, readonly=True) as log:
            events = log.events()
        assert events[-1].seq >= reported, "every event reported as committed is in the log"
        rebuilt = replay(events)
        assert rebuilt.state in states  # a state of the real game, not something half-applied
        for event in events:
            assert event.frame is None or (frames_folder(path) / event.frame).is_file()
    session = Session.resume(path, ScriptedLayout())
    done = states.index(session.state)
    assert done > 15
    for t, after in enumerate(states[done + 1:], start=done + 1):
        session.observe(session.layout.show(float(t), after.view()))
    assert session.state == states[-1] and session.state.outcome().winners == tuple(winners)
    events = session.log.events()
    assert [e.kind for e in events].count("game") == 1 and [e.kind for e in events].count("outcome") == 1
    assert replay(events).state == states[-1]
