"""Measure the pieces reader on rendered scenes: the figures the tests assert and the bench records.

For every piece fully in view, the nearest sighting within 15 mm is its reading (none: missed).
Pyramids: the colour and size of the bottom pyramid, and for trees the whole visible stack bottom
to top, counted apart for those standing on a face-up card (its art is where pyramids are hardest
to read); dice: the top face; tokens: the label; all: the distance from the true centre.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.layouts.readout import DEFAULT_THRESHOLD
from referee.pyramids import Stack
from calibration.mats import mat_layout
from vision.pieces.reader import PieceReader, markers_print_mm
from vision.pieces.tokens import TokenRegistry
from vision.pieces.trials import calibration_of, match
from vision.synth.render import render

# the layouts' threshold: a sighting below it leaves its place uncertain (referee.layouts.for_game)
SURE = DEFAULT_THRESHOLD


@dataclass
class Tally:
    pyramids: int = 0
    pyramid_right: int = 0  # bottom colour and size
    trees: int = 0
    trees_right: int = 0  # whole visible stack
    on_cards: int = 0  # pyramids (and trees) standing on a face-up card
    on_cards_right: int = 0  # their whole visible stack
    on_cards_missed: int = 0
    misread: int = 0  # pyramids read with a wrong stack
    misread_sure: int = 0  # ... at least SURE surely: what the referee would take as seen
    misread_offered: int = 0  # ... with the true stack among the alternatives
    dice: int = 0
    dice_right: int = 0
    tokens: int = 0
    tokens_right: int = 0
    missed: int = 0
    extra: int = 0  # sightings that match no piece (in view: a piece mostly hidden is matched by none)
    phantoms: int = 0  # sightings 15 mm or more from every piece: where nothing stands
    errors_mm: list = field(default_factory=list)
    seconds: list = field(default_factory=list)  # wall clock per frame
    cpu_seconds: list = field(default_factory=list)  # this process's CPU time per frame (fairer on a busy machine)
    wrong: list = field(default_factory=list)  # (seed, truth, read) for looking at

    def rate(self, right: int, total: int) -> float:
        return right / total if total else float("nan")

    def summary(self) -> dict:
        errors = sorted(self.errors_mm)
        return {"pyramid_colour_size": self.rate(self.pyramid_right, self.pyramids),
                "tree_stack": self.rate(self.trees_right, self.trees),
                "on_cards_exact": self.rate(self.on_cards_right, self.on_cards), "on_cards": self.on_cards,
                "on_cards_missed": self.on_cards_missed,
                "misread_sure": self.rate(self.misread_sure, self.misread),
                "misread_offered": self.rate(self.misread_offered, self.misread),
                "die_face": self.rate(self.dice_right, self.dice),
                "token_identity": self.rate(self.tokens_right, self.tokens),
                "position_p95_mm": errors[int(0.95 * (len(errors) - 1))] if errors else float("nan"),
                "position_max_mm": errors[-1] if errors else float("nan"),
                "pieces": self.pyramids + self.dice + self.tokens, "missed": self.missed, "extra": self.extra,
                "phantoms": self.phantoms}


def _named(tally: Tally, seed: int, kind: str, pairs, name) -> tuple[int, int, int]:
    """Count matched (truth, sighting, distance) ``pairs`` of a piece named by ``name(sighting)`` (a
    die by its face, a token by its label): (pieces, named right, seen). Misses, wrong names and
    distances go into ``tally``."""
    pieces = right = seen_count = 0
    for truth, seen, d in pairs:
        pieces += 1
        if seen is None:
            tally.missed += 1
            tally.wrong.append((seed, f"{kind} {truth.label}", None))
            continue
        seen_count += 1
        tally.errors_mm.append(d)
        if name(seen) == truth.label:
            right += 1
        else:
            tally.wrong.append((seed, f"{kind} {truth.label}", name(seen)))
    return pieces, right, seen_count


def measure(scenes, registry_of=None, tally: Tally | None = None, pyramid_colours: frozenset[str] | None = None) -> Tally:
    """Read each (seed, scene) and count; ``registry_of(scene)`` gives the token registry to use. The reader is
    told what the game has, as the live pipeline tells it: how many dice, whether pyramids are in play, where
    the mat's markers are, and where the game says, the colours its pyramids come in."""
    tally = tally or Tally()
    for seed, scene in scenes:
        rendering = render(scene)
        mat = scene.mat
        markers = markers_print_mm(mat_layout(mat.game, mat.paper, mat.option_values())) if mat is not None else []
        reader = PieceReader(calibration_of(scene), tokens=registry_of(scene) if registry_of else TokenRegistry(),
                             dice_in_play=len(scene.dice), pyramids_in_play=bool(scene.pyramids),
                             flat_print_mm=markers, pyramid_colours=pyramid_colours)
        started, cpu = time.perf_counter(), time.process_time()
        reading = reader.read(rendering.image)
        tally.seconds.append(time.perf_counter() - started)
        tally.cpu_seconds.append(time.process_time() - cpu)
        matched = 0
        faces = [np.float32(o.polygon) for o in rendering.objects if o.kind == "card" and o.label != "back"]
        for truth, seen, d in match(reading.pyramids, rendering.objects, "pyramid"):
            stack = Stack.parse(truth.label)
            tally.pyramids += 1
            tree = len(stack) > 1
            tally.trees += tree
            middle = tuple(map(float, np.mean(np.float32(truth.polygon), axis=0)))
            on_card = any(cv2.pointPolygonTest(face, middle, False) >= 0 for face in faces)
            tally.on_cards += on_card
            if seen is None:
                tally.missed += 1
                tally.on_cards_missed += on_card
                tally.wrong.append((seed, truth.label, None))
                continue
            matched += 1
            tally.errors_mm.append(d)
            ok = seen.stack[0] == stack.pyramids[0]
            tally.pyramid_right += ok
            exact = "+".join(map(str, seen.stack)) == truth.label
            tally.trees_right += tree and exact
            tally.on_cards_right += on_card and exact
            if not exact:
                tally.wrong.append((seed, truth.label, "+".join(map(str, seen.stack))))
                tally.misread += 1
                tally.misread_sure += seen.confidence >= SURE
                tally.misread_offered += any(a.label == truth.label for a in seen.alternatives)
        n, right, found = _named(tally, seed, "die", match(reading.dice, rendering.objects, "die"), lambda s: str(s.face))
        tally.dice, tally.dice_right, matched = tally.dice + n, tally.dice_right + right, matched + found
        n, right, found = _named(tally, seed, "token", match(reading.tokens, rendering.objects, "token"),
                                 lambda s: s.label)
        tally.tokens, tally.tokens_right, matched = tally.tokens + n, tally.tokens_right + right, matched + found
        tally.extra += len(reading.pyramids) + len(reading.dice) + len(reading.tokens) - matched
        truth_spots = [(o.pose["x"], o.pose["y"]) for o in rendering.objects if o.kind in ("pyramid", "die", "token")]
        for s in (*reading.pyramids, *reading.dice, *reading.tokens):
            if all(math.dist(s.center_mm, t) >= 15.0 for t in truth_spots):
                tally.phantoms += 1
                tally.wrong.append((seed, "nothing", f"{type(s).__name__} at {s.center_mm}"))
    return tally
