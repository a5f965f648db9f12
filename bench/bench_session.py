"""Live referee figures: the time from a stable snapshot to its verdict being logged.

A whole recorded Mongoose game is played through a session, one snapshot per table change: the
layout's reading (a stand-in that returns the view the table shows), the diff, ``interpret``, the
check, the apply and the committed SQLite write (WAL, ``synchronous=FULL``: on disk when it
returns), and with a frame, the JPEG file written beside the log. The log lives in the system's
temporary folder, so the figure includes that disk's fsync.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench import benchmark, percentiles
from referee.game import configure
from referee.games.mongoose import GAME_TYPE, STATE
from referee.layouts import SeenView
from referee.session import Session
from referee.snapshot import TableSnapshot

GAME = configure(GAME_TYPE, None, ["ann", "bob"], None, STATE)
RECORDED = Path(__file__).resolve().parent.parent / "tests" / "referee" / "mongoose" / "playthroughs" / "three-pairs.txt"
FRAME = b"\xff\xd8\xff\xe0" + bytes(100_000) + b"\xff\xd9"  # the size of a 1280x720 JPEG


class _Table:
    """Reads each snapshot as the view scripted for its time."""

    def __init__(self):
        self.views = {}

    def read(self, snapshot, state):
        return self.views[snapshot.t]


def _states():
    state, states = GAME.new_state(), []
    for raw in RECORDED.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line and not line.startswith(("@", "refused ")):
            state = state.apply(GAME.actions.parse(line))
            states.append(state)
    return states


def _verdict_times(games: int, frame: bytes | None) -> list[float]:
    states, samples = _states(), []
    with tempfile.TemporaryDirectory(prefix="tableside-bench-") as folder:
        for number in range(games):
            table = _Table()
            session = Session.start(GAME, table, Path(folder) / f"game-{number}.sqlite")
            for t, after in enumerate(states, start=1):
                table.views[float(t)] = SeenView(after.view())
                began = time.perf_counter()
                events = session.observe(TableSnapshot(float(t)), frame)
                if events:
                    samples.append(time.perf_counter() - began)
            session.log.close()
    return samples


@benchmark("session_verdict", "ms", "a stable snapshot to its verdict committed to the playthrough log "
           "(Mongoose moves of a recorded game; reading, diff, interpret, check, apply, SQLite commit)")
def verdict() -> dict[str, float]:
    return {k: v * 1000 for k, v in percentiles(_verdict_times(10, None)).items()}


@benchmark("session_verdict_with_frame", "ms", "as session_verdict, also writing the 100 kB JPEG frame "
           "that triggered it beside the log")
def verdict_with_frame() -> dict[str, float]:
    return {k: v * 1000 for k, v in percentiles(_verdict_times(10, FRAME)).items()}
