"""A recorded playthrough as the tables a camera sees, and as a video sequence of staged scenes.

:func:`shots` walks a playthrough (:mod:`referee.playthrough`) and lists every table the camera
would see, in order, each a :class:`Shot`: the state it shows, the state the referee knows while
it shows (the one before the change), and the playthrough lines played to reach it. Moves that
leave the table looking the same (a Pouches ``stay``, a declared order) show nothing new: their
lines ride on the next shot. Pungo's moves are seen a whole turn at a time: the demo's players do
not pause in the middle of a turn (its referee reads such a pause too, as a part of the turn). An
``@illegal`` line, where the table can show it, becomes two shots: the table after the illegal move
(``illegal`` names the rule it breaks), then the table put right.

:func:`sequence` stages the shots (:mod:`vision.synth.staging`) as a
:class:`~vision.synth.sequence.Sequence`: each table held still, a hand reaching in to make each
change.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee import playthrough as recorded_games
from referee.game import State
from referee.log import force
from vision.synth.sequence import Sequence
from vision.synth.staging import Stager


@dataclass(frozen=True)
class Shot:
    state: State  # what the table shows
    known: State  # what the referee knows while it shows it (the state before the change)
    lines: tuple[recorded_games.Line, ...] = ()  # the playthrough's lines played to reach it
    illegal: str | None = None  # the rule an illegal table breaks (the next shot puts it right)
    put_right: bool = False  # the table restored after an illegal move


def shots(recorded: recorded_games.Playthrough) -> list[Shot]:
    """Every table of the recorded game the camera sees, from the opening table to the last."""
    states = recorded_games.replay(recorded).states
    game = recorded.game
    out = [Shot(states[0], states[0])]
    shown, pending, index = states[0], [], 0
    for line in recorded.lines:
        before = states[index]
        if line.illegal_rule is not None:
            try:
                wrong = force(before, game.actions.parse(line.action))
            except ValueError:
                continue  # the rules engine cannot show this table: nothing to film
            if wrong.view() != before.view() and before.view() == shown.view():
                out.append(Shot(wrong, before, tuple(pending) + (line,), illegal=line.illegal_rule))
                out.append(Shot(before, before, (), put_right=True))
                pending = []
            continue
        index += 1
        after = states[index]
        pending.append(line)
        if after.view() == shown.view() and not after.is_over():
            continue  # nothing to see: the players say it
        if game.type.name == "pungo" and not (pungo_turn_start(after) or after.is_over()):
            continue  # mid-turn: the demo's Pungo players pause only between turns
        out.append(Shot(after, shown, tuple(pending)))
        shown, pending = after, []
    return out


def pungo_turn_start(state) -> bool:
    """Whether a whole Pungo turn starts here: the die is about to be rolled, or (Decision Pungo,
    and the first turn, which uses the 1 showing) the mover has yet to take a step."""
    if state.config.decision:
        return state.phase == "move" and state.spent == 0
    return state.phase == "roll" or (state.phase == "move" and state.spent == 0 and state._is_first_turn())


def stager_for(recorded: recorded_games.Playthrough, table: list[Shot], seed: int = 0,
               size: tuple[int, int] = (1280, 720)) -> Stager:
    """One table for the whole game: the camera sees every shot."""
    return Stager(recorded.game, [s.state for s in table], seed=seed, size=size)


# An illegal table stays this much longer than the others: its player waits for the referee's word, which
# needs two looks (a slow camera's second look comes a second or more after the table settled). 12 frames
# at 10 fps: a whole number of looks for a camera read every 2nd, 3rd, 4th or 6th frame, so every table
# after it is looked at on the same frames as without it.
ILLEGAL_LONGER_S = 1.2


def sequence(recorded: recorded_games.Playthrough, seed: int = 0, size: tuple[int, int] = (1280, 720),
             fps: float = 10.0, hold_s: float = 1.0, reach_s: float = 1.5) -> tuple[Sequence, list[Shot]]:
    """The recorded game as a video sequence, and the shots its positions show (one per position)."""
    table = shots(recorded)
    stager = stager_for(recorded, table, seed, size)
    scenes = [stager.scene(s.state, s.known) for s in table]
    holds = [hold_s + ILLEGAL_LONGER_S if shot.illegal else hold_s for shot in table] \
        if any(s.illegal for s in table) else []
    return Sequence(scenes, fps=fps, hold_s=hold_s, reach_s=reach_s, holds=holds), table


def write_frames(path, folder, seed: int = 0, size: tuple[int, int] = (1280, 720), fps: float = 10.0,
                 hold_s: float = 1.0, reach_s: float = 1.5, progress=None) -> int:
    """Render the playthrough file ``path`` as frames into ``folder``: ``frame-000000.jpg`` and its
    ``frame-000000.truth.json`` (the renderer's truth, the snapshot a perfect vision would report,
    and which shot the frame shows), plus ``shots.json`` (each shot's view, the lines played to
    reach it, illegal or put right) and ``sequence.json`` (the scenes). ``progress(done, total)``
    is called after each frame. Returns the number of frames."""
    import json
    from pathlib import Path

    from vision.synth.files import write_rendering
    from vision.synth.render import render
    from vision.synth.sequence import frame_count, timeline
    from vision.synth.snapshot import expected_snapshot

    recorded = recorded_games.load(path)
    seq, table = sequence(recorded, seed=seed, size=size, fps=fps, hold_s=hold_s, reach_s=reach_s)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sequence.json").write_text(seq.to_json())
    (folder / "shots.json").write_text(json.dumps([
        {"position": i, "view": shot.state.view().to_json(), "lines": [line.action for line in shot.lines],
         "illegal": shot.illegal, "put_right": shot.put_right} for i, shot in enumerate(table)], indent=1))
    total = frame_count(seq)
    for n, (t, scene, position) in enumerate(timeline(seq)):
        rendering = render(scene)
        stem = folder / f"frame-{n:06d}"
        write_rendering(rendering, stem.with_suffix(".jpg"))
        truth = {"frame": n, "t": round(t, 4), "position": position, **rendering.truth(),
                 "snapshot": expected_snapshot(rendering, t).to_json()}
        stem.with_suffix(".truth.json").write_text(json.dumps(truth, indent=1))
        if progress is not None:
            progress(n + 1, total)
    return total
