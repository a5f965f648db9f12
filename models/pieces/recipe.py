"""Fit the pyramid colour table (``models/pieces/palette.npz``) on renders the measurements never use.

    python -m models.pieces.recipe [--scenes 120]

Renders ``piece_scene`` (and a sixth as many Pungo and Deck Town scenes) for seeds from
:data:`vision.pieces.trials.FIT_SEEDS`, reads each with the
pieces reader (an empty palette: geometry needs no colours), pairs every fitted stack with the
truth, and keeps each colour band's feature labelled with the colour of the pyramid that shows
there; each is then read with its own frame's examples left out, which gives how often each colour
read was each colour (``Palette.truths``). Then it counts how often a size read on a face-up card was
each size (``models/pieces/card_sizes.py``). About eight minutes on one core.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from models.pieces import card_sizes
from referee.pyramids import Size, Stack
from vision.pieces.palette import PALETTE_FILE, Palette
from vision.pieces.reader import PieceReader
from vision.pieces.trials import FIT_SEEDS, calibration_of, deck_town_scene, piece_scene, pungo_scene
from vision.synth.render import render


def band_colours(visible: Stack) -> list[str]:
    """The colour each band of a stack's outline shows, bottom first (see vision.pieces.stacks)."""
    by_size = {p.size: p.colour for p in visible.pyramids}
    bottom = visible.pyramids[0]
    if bottom.size == Size.LARGE:
        medium = by_size.get(Size.MEDIUM, bottom.colour)
        return [bottom.colour, medium, by_size.get(Size.SMALL, medium)]
    if bottom.size == Size.MEDIUM:
        return [bottom.colour, by_size.get(Size.SMALL, bottom.colour)]
    return [bottom.colour]


def collect(scenes: int) -> tuple[np.ndarray, list[str]]:
    """Band features with their true colours: random piece tables, and some Pungo mats and Deck Town boards
    (white paper and printed cards behind translucent plastic look unlike any table)."""
    features, labels = [], []
    empty = Palette(np.zeros((0, 10), np.float32), np.zeros(0, str), 1.0)
    seeds = list(FIT_SEEDS)
    plan = ([piece_scene(s) for s in seeds[:scenes]] + [pungo_scene(s) for s in seeds[:scenes // 6]]
            + [deck_town_scene(s) for s in seeds[:scenes // 6]])
    for scene in plan:
        rendering = render(scene)
        reading = PieceReader(calibration_of(scene), palette=empty).read(rendering.image)
        for o in rendering.objects:
            if o.kind != "pyramid" or o.visible < 0.9:
                continue
            near = [b for b in reading.bands if math.dist(b[0], (o.pose["x"], o.pose["y"])) < 8]
            visible = Stack.parse(o.label)
            if len(near) != 1 or near[0][1] != int(visible.pyramids[0].size):
                continue
            for feature, colour in zip(near[0][2], band_colours(visible)):
                if feature is not None:
                    features.append(feature)
                    labels.append(colour)
    return np.array(features, np.float32), labels


def main(argv: list[str] | None = ()) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=400)
    args = parser.parse_args(argv)
    features, labels = collect(args.scenes)
    palette = Palette.fit(features, labels)
    palette.save(PALETTE_FILE)
    print(f"palette: {len(labels)} examples of {len(set(labels))} colours, reach {palette.reach:.1f}, "
          f"written to {PALETTE_FILE}")
    for read, row in sorted(palette.confusion.items()):
        print(f"  read {read}: " + ", ".join(f"{was} {share:.2f}" for was, share in row.items()))
    card_sizes.main()  # how often a size read on a card was right: counted with the palette just written


if __name__ == "__main__":
    main(None)
