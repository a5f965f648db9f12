"""A referee process for the crash test: plays the recorded Mongoose game into the log at argv[1]
(resuming it if it exists), printing each event's number once it is committed, until killed."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from live_table import JPEG, ScriptedLayout, mongoose_game  # noqa: E402
from referee.session import Session  # noqa: E402

BIG_FRAME = JPEG * 200  # about 200 kB: a frame takes a while to write, so a kill often lands mid-write


def main(path: str) -> None:
    game, _, states, _ = mongoose_game("three-pairs")
    layout = ScriptedLayout()
    if Path(path).exists():
        session = Session.resume(path, layout)
        done = states.index(session.state)
    else:
        session, done = Session.start(game, layout, path), 0
    print("ready", done, flush=True)
    for t, after in enumerate(states[done + 1:], start=done + 1):
        for event in session.observe(layout.show(float(t), after.view()), frame=BIG_FRAME):
            print("logged", event.seq, flush=True)
    print("finished", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
