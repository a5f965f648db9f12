"""Seeded random games refereed through the whole pipeline: does the referee follow them?

Issue #11 asks that rendered playthroughs, with hands passing over the table and camera noise,
be refereed with no false violation, at least 20 seeded games per game. A *trial* here is one
such game:

1. a random game of the demo's game, from the demo's setup and players
   (:func:`referee.playthrough.random_playthrough`, cut after ``--shots`` tables);
2. staged as a video with hands reaching in for every change (:mod:`vision.synth.script`);
3. played frame by frame into a dashboard game by the demo runner (:mod:`webui.demo`), read by
   real vision (the card and piece models) or simulated vision (the renderer's truth), the
   players saying what the camera cannot see and answering the questions only they can.

A random game makes no illegal move, so every violation is a false one. A trial is *followed*
when every state the session reached is one the game reached, in order, and it ends at the
game's last state. Trials run in parallel processes (``--jobs``); each takes minutes with real
vision, so they are not part of ``make bench``: ``make trials`` runs them.

    python -m bench.trials --games pouches,pungo --seeds 0-19 --vision real --jobs 2 --out trials.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path

GAMES = ("pouches", "mongoose", "deck-town", "pungo")
HOLD_S, REACH_S = 0.8, 1.2  # a table held still, a hand reaching in: shorter than the demo's, as players are


@dataclass(frozen=True)
class Trial:
    game: str
    seed: int
    vision: str
    every: int
    shots: int  # tables the game shows (the random game cut to about ``--shots``)
    over: bool  # whether the random game ended within them
    followed: bool
    moves: int  # moves the session accepted
    script: int  # the game's legal moves
    violations: int  # all false: a random game breaks no rule
    questions: int
    unrecognised: int
    answered: int  # questions the players answered
    refused: int  # players' entries the referee never took
    frames_read: int
    seconds: float
    error: str | None = None
    first_trouble: str | None = None  # the first violation or unexplained change, in words


def run_trial(game: str, seed: int, vision: str = "real", every: int = 2, shots: int = 60,
              size: tuple[int, int] = (1280, 720)) -> Trial:
    """Play one seeded random game of ``game`` through the pipeline and say how the referee did."""
    import cv2

    from referee.playthrough import follows, random_playthrough, replay
    from vision.synth.demo import DemoSource, demo_playthrough
    from webui import create_app
    from webui.demo import start_demo

    cv2.setNumThreads(1)
    demo = demo_playthrough(game)
    recorded = _cut(random_playthrough(demo.game, demo.setup, seed), shots)
    states = replay(recorded).states
    source = DemoSource(game, seed=seed, size=size, fps=10.0, hold_s=HOLD_S, reach_s=REACH_S, recorded=recorded)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"TESTING": True}, instance_path=instance)
        try:
            runner = start_demo(app, game, paced=False, every=every, simulated=vision == "simulated", source=source)
            runner.join()
            progress, session = runner.progress, runner.live.session
            followed = follows(recorded, list(session.moves)) and session.state == states[-1]
            kinds = Counter(e.kind for e in progress.events)
            trouble = next((e for e in progress.events if e.kind in ("violation", "unrecognised")), None)
            return Trial(game, seed, vision, every, len(source.demo.shots), states[-1].is_over(), followed,
                         len(session.moves), len(states) - 1, kinds["violation"], kinds["question"],
                         kinds["unrecognised"], len(progress.answered), len(progress.refused),
                         progress.frames_read, round(time.monotonic() - started, 1), progress.error,
                         _trouble_text(trouble))
        finally:
            app.extensions["tableside.games"].close()


def _cut(recorded, shots: int):
    """``recorded`` cut after the line that makes its ``shots``-th table (the whole game if shorter)."""
    from vision.synth.script import shots as tables_of

    tables = tables_of(recorded)
    if len(tables) <= shots:
        return recorded
    last = tables[shots - 1].lines[-1]
    lines = recorded.lines[:recorded.lines.index(last) + 1]
    return replace(recorded, lines=lines, expected=None)


TABLE_SEEDS = range(4)  # the trials whose tables `make bench` reads through the table reader (bench_cards, bench_pieces)
TABLE_EVERY = 20  # frames apart (2 s): a still table after each move, most of them


def settled_frames(game: str, seed: int, every: int = TABLE_EVERY, shots: int = 20):
    """Trial ``seed`` of ``game`` staged as the trials stage it (its first ``shots`` tables): its source (a
    :class:`vision.synth.demo.DemoSource`, whose ``truth`` is the frame last read), and its frames every ``every``
    with no hand in view, as (time in s, frame). For benchmarks of what the trials' tables read as."""
    from referee.playthrough import random_playthrough
    from vision.synth.demo import DemoSource, demo_playthrough

    demo = demo_playthrough(game)
    source = DemoSource(game, seed=seed, hold_s=HOLD_S, reach_s=REACH_S,
                        recorded=_cut(random_playthrough(demo.game, demo.setup, seed), shots))

    def frames():
        for position in range(4, source.demo.frames, every):
            source.seek(position)
            frame = source.read()
            if not any(o.kind == "hand" for o in source.truth.objects):
                yield position * source.frame_interval, frame
    return source, frames()


def _trouble_text(event) -> str | None:
    if event is None:
        return None
    payload = event.payload
    readings = [r["notation"] for r in payload.get("readings", [])][:3]
    changes = [f"{c['place']}: {c['before']} -> {c['after']}" for c in payload.get("changes", [])][:4]
    return f"{event.kind} at t={event.snapshot_t}: readings {readings}; changes {changes}"


def _one(args) -> dict:
    game, seed, vision, every, shots, size = args
    try:
        return asdict(run_trial(game, seed, vision, every, shots, size))
    except Exception as exc:  # one broken trial is reported, the others go on
        return {"game": game, "seed": seed, "vision": vision, "error": f"{type(exc).__name__}: {exc}"}


def summary(trials: list[dict]) -> dict[str, dict]:
    """Per game: trials, followed, false violations, questions, unrecognised changes, minutes."""
    out: dict[str, dict] = {}
    for t in trials:
        s = out.setdefault(t["game"], Counter())
        s["trials"] += 1
        s["followed"] += bool(t.get("followed"))
        s["with_false_violation"] += bool(t.get("violations"))
        s["false_violations"] += t.get("violations", 0)
        s["questions"] += t.get("questions", 0)
        s["unrecognised"] += t.get("unrecognised", 0)
        s["errors"] += t.get("error") is not None
        s["seconds"] += t.get("seconds", 0.0)
    return {game: dict(s) for game, s in out.items()}


def _seeds(text: str) -> list[int]:
    try:
        if "-" in text:
            first, last = (int(x) for x in text.split("-"))
            return list(range(first, last + 1))
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are 0-19 or 3,5,8; got {text!r}") from None


def _games(text: str) -> list[str]:
    names = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in names if g not in GAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"games are some of {', '.join(GAMES)}; got {text!r}")
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number, 1 or more; got {text!r}")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, like 1280x720; got {text!r}") from None
    return w, h


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.trials", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=_games, default=list(GAMES), help="comma-separated (default: all four)")
    parser.add_argument("--seeds", type=_seeds, default=list(range(20)), help="0-19 (default) or 3,5,8")
    parser.add_argument("--vision", choices=("real", "simulated"), default="real")
    parser.add_argument("--every", type=_positive, default=2, help="read every Nth frame (default 2, as make demo)")
    parser.add_argument("--shots", type=_positive, default=60, help="cut each random game after this many tables")
    parser.add_argument("--size", type=_size, default=(1280, 720))
    parser.add_argument("--jobs", type=_positive, default=1, help="trials run at once, one process each")
    parser.add_argument("--out", type=Path, help="write every trial and the summary here as JSON")
    args = parser.parse_args(argv)
    work = [(g, s, args.vision, args.every, args.shots, args.size) for g in args.games for s in args.seeds]
    print(f"{len(work)} trials ({args.vision} vision), {args.jobs} at a time", flush=True)
    trials = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for n, t in enumerate(pool.imap_unordered(_one, work), start=1):
            trials.append(t)
            print(f"[{n}/{len(work)}] {_line(t)}", flush=True)
            if args.out:  # after every trial, so that a run stopped half-way keeps what it found
                _write(args.out, trials)
    print(json.dumps(summary(trials), indent=1))
    return 0


def _line(t: dict) -> str:
    """A trial in words: how it went, its time, and its first trouble on a line of its own."""
    if "followed" not in t:  # the trial itself broke
        return f"{t['game']} seed {t['seed']}: error: {t['error']}"
    how = "followed" if t["followed"] else "LOST"
    if t["violations"]:
        how += f", {t['violations']} false violation(s)"
    trouble = f"\n    {t['first_trouble']}" if t["first_trouble"] else ""
    return f"{t['game']} seed {t['seed']}: {how} ({t['seconds']:.0f} s){trouble}"


def _write(path: Path, trials: list[dict]) -> None:
    done = sorted(trials, key=lambda t: (t["game"], t["seed"]))
    path.write_text(json.dumps({"summary": summary(done), "trials": done}, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
