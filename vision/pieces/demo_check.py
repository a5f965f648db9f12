"""How well the pieces step reads the demo tables: ``python -m vision.pieces.demo_check [GAME...]``.

``make demo`` referees a rendered game through the real pipeline, so the pieces reader must read
the demo's own tables. This replays every shot of a demo game (:mod:`vision.synth.demo`) as the
live pipeline sees it: the mat's markers give the calibration (:class:`calibration.tracker.MatTracker`),
and the demo's pieces step (:func:`vision.synth.demo.demo_pieces`: a :class:`vision.table_reader.GamePieces`
with each player's token shown alone at the start) reads the settled table of each shot. Cards are
not read here (their own figures are in ``bench/bench_cards.py``).

Each sighting is paired with the nearest piece of its kind within 15 mm of the renderer's truth
(:func:`vision.pieces.trials.match`). Per game it counts, for tokens (label), pyramids (bottom
colour and size; and whole visible stack) and the die (top face):

* recall: pieces in view (90 % of the outline, 60 % for a token's) read right, over pieces in view;
* precision: sightings that name a piece right, over all sightings (a sighting on nothing counts
  against it).

Tokens that could not be registered at the start are listed: a player whose token never
registered is never followed.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import dataclass, field

from referee.pyramids import Stack

PIECE_GAMES = ("pouches", "deck-town", "pungo")  # mongoose has cards only


@dataclass
class DemoTally:
    """Counts for one demo game: ``truth[kind]`` pieces in view, ``read[kind]`` read right among them,
    ``seen[kind]`` sightings made, ``named[kind]`` sightings that name a piece right."""

    game: str
    shots: int = 0
    truth: Counter = field(default_factory=Counter)
    read: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)
    named: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # tokens that could not be registered
    wrong: list[tuple[int, str, str]] = field(default_factory=list)  # (shot, truth, read) for looking at

    def recall(self, kind: str) -> float:
        return self.read[kind] / self.truth[kind] if self.truth[kind] else float("nan")

    def precision(self, kind: str) -> float:
        return self.named[kind] / self.seen[kind] if self.seen[kind] else float("nan")

    def figures(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for kind in ("token", "pyramid", "stack", "die"):
            if self.truth[kind] or self.seen[kind]:
                out[f"{kind}_recall"] = self.recall(kind)
                out[f"{kind}_precision"] = self.precision(kind)
        return out


def _names(kind: str, sighting) -> str:
    if kind == "token":
        return sighting.label
    if kind == "die":
        return str(sighting.face)
    return "+".join(str(p) for p in sighting.stack)


def _truth_name(kind: str, obj) -> str:
    if kind == "pyramid":
        return "+".join(str(p) for p in Stack.parse(obj.label).pyramids)  # the visible stack (a nest: its outer)
    return obj.label


def _bottom(stack: str) -> str:
    return stack.split("+")[0]


def tally_reading(tally: DemoTally, shot: int, reading: tuple[tuple, tuple, tuple], objects) -> None:
    """Count one shot: ``reading`` is the pieces step's (pyramids, dice, tokens), ``objects`` the renderer's truth."""
    from vision.pieces.trials import match

    pyramids, dice, tokens = reading
    for kind, found in (("pyramid", pyramids), ("die", dice), ("token", tokens)):
        # recall: each piece in view, and the sighting paired with it
        for truth, seen, _ in match(found, objects, kind):
            want = _truth_name(kind, truth)
            got = _names(kind, seen) if seen is not None else None
            tally.truth[kind] += 1
            if kind == "pyramid":
                tally.truth["stack"] += 1
                tally.read["pyramid"] += got is not None and _bottom(got) == _bottom(want)
                tally.read["stack"] += got == want
            else:
                tally.read[kind] += got == want
            if got != want:
                tally.wrong.append((shot, f"{kind} {want}", str(got)))
        # precision: a sighting is right when a piece of its kind within 15 mm (in view or partly hidden) bears
        # its name (for pyramids: its bottom, and its whole stack)
        near = [o for o in objects if o.kind == kind and o.visible >= 0.2]
        for s in found:
            name = _names(kind, s)
            names = [_truth_name(kind, o) for o in near if math.dist(s.center_mm, (o.pose["x"], o.pose["y"])) < 15.0]
            tally.seen[kind] += 1
            if kind == "pyramid":
                tally.seen["stack"] += 1
                tally.named["pyramid"] += any(_bottom(n) == _bottom(name) for n in names)
                tally.named["stack"] += name in names
            else:
                tally.named[kind] += name in names
            if not names:
                tally.wrong.append((shot, "nothing", f"{kind} {name} at {s.center_mm}"))


def check_demo(game: str) -> DemoTally:
    """Read the settled table of every shot of the demo ``game`` through the demo's pieces step."""
    from calibration.markers import detect_markers
    from calibration.tracker import MatTracker
    from vision.synth.demo import DemoSource
    from vision.synth.render import render
    from vision.synth.demo import demo_pieces  # the demo's own token showings: what `make demo` registers

    source = DemoSource(game)
    pieces = demo_pieces(source)
    tally = DemoTally(game)
    tracker = None
    for shot, state in enumerate(source.demo.sequence.states):
        rendering = render(state)
        frame = rendering.image
        if tracker is None:
            tracker = MatTracker(pieces.layout, (frame.shape[1], frame.shape[0]))
            tracker.update(detect_markers(frame))  # the tracker locks on its second frame
        calibration = tracker.update(detect_markers(frame)).calibration
        tally.shots += 1
        if calibration is None:
            tally.problems.append(f"shot {shot}: the mat's markers were not found")
            continue
        tally_reading(tally, shot, pieces(frame, calibration), rendering.objects)
        for problem in pieces.problems:
            if problem not in tally.problems:
                tally.problems.append(problem)
    return tally


def report(tally: DemoTally, wrong: int = 0) -> str:
    lines = [f"{tally.game}: {tally.shots} shots"]
    for kind, what in (("token", "tokens (label)"), ("pyramid", "pyramids (bottom colour+size)"),
                       ("stack", "pyramids (whole visible stack)"), ("die", "die (top face)")):
        if tally.truth[kind] or tally.seen[kind]:
            lines.append(f"  {what:32s} recall {tally.read[kind]:4d}/{tally.truth[kind]:<4d} = "
                         f"{tally.recall(kind):.2f}   precision {tally.named[kind]:4d}/{tally.seen[kind]:<4d} = "
                         f"{tally.precision(kind):.2f}")
    for problem in tally.problems:
        lines.append(f"  problem: {problem}")
    if wrong:
        for (shot, truth, got), n in Counter(tally.wrong).most_common(wrong):
            lines.append(f"  shot {shot:3d}: {truth} read as {got}" + (f" (x{n})" if n > 1 else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.pieces.demo_check", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(PIECE_GAMES), help=f"of {', '.join(PIECE_GAMES)}")
    parser.add_argument("--wrong", type=int, default=0, metavar="N", help="also list the first N misreadings")
    args = parser.parse_args(argv)
    for game in args.games:
        if game not in PIECE_GAMES:
            parser.error(f"{game!r} is not a demo game with pieces: pick from {', '.join(PIECE_GAMES)}")
    for game in args.games:
        print(report(check_demo(game), args.wrong), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
