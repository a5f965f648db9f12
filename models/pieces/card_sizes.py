"""Count how often a lone pyramid's size read on a face-up card was each size (``models/pieces/card_sizes.json``).

    python -m models.pieces.card_sizes [--seeds 20-27]

Reads the settled tables of Deck Town trial games (every 20th frame with no hand in view, as ``make bench``
stages them) in order through the live pipeline's table reader, and for every lone pyramid it read lying on
a face-up card it saw, counts the size of the pyramid truly standing within 15 mm (of the colour read), or
nothing. Seeds 20 and up: the trials play 0-19 and the bench reads 0-3. A few minutes on one core.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

from referee.pyramids import Stack
from vision.pieces.card_sizes import NOTHING, SIZES_FILE, CardSizes, on_a_card

SEEDS = range(20, 28)
NEAR_MM = 15.0


def count(seeds) -> dict[str, Counter]:
    from bench.trials import settled_frames
    from calibration.mats import mat_of
    from vision.synth.demo import demo_pieces
    from vision.table_reader import for_game

    counts: dict[str, Counter] = {}
    for seed in seeds:
        source, frames = settled_frames("deck-town", seed)
        reader = for_game("deck-town", mat_of(source.demo.recorded.game), pieces=demo_pieces(source))
        for t, frame in frames:
            snapshot = reader.read(frame, t).snapshot
            truths = [(Stack.parse(o.label).pyramids, (o.pose["x"], o.pose["y"]))
                      for o in source.truth.objects if o.kind == "pyramid"]
            for sighting in snapshot.pyramids:
                if len(sighting.stack) != 1 or not on_a_card(sighting.center_mm, snapshot.cards):
                    continue
                near = sorted(truths, key=lambda ta: math.dist(ta[1], sighting.center_mm))
                read = sighting.stack[0]
                if near and math.dist(near[0][1], sighting.center_mm) < NEAR_MM:
                    bottom = near[0][0][0]
                    if bottom.colour != read.colour or len(near[0][0]) != 1:
                        continue  # another colour, or a tree: not a question of size alone
                    was = str(int(bottom.size))
                else:
                    was = NOTHING
                counts.setdefault(str(int(read.size)), Counter())[was] += 1
        print(f"seed {seed}: {sum(sum(c.values()) for c in counts.values())} readings so far", flush=True)
    return counts


def main(argv: list[str] | None = ()) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=f"{SEEDS.start}-{SEEDS.stop - 1}", help="trial seeds, as 20-27")
    args = parser.parse_args(argv)
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    counts = count(seeds)
    sizes = CardSizes({read: dict(row) for read, row in sorted(counts.items())})
    sizes.save(SIZES_FILE, about=f"lone pyramids read on a face-up card, Deck Town trial tables of seeds {args.seeds} "
                                 "(every 20th frame, no hand): size read -> what stood there (python -m "
                                 "models.pieces.card_sizes)")
    for read, row in sorted(sizes.counts.items()):
        print(f"  read size {read}: " + ", ".join(f"{was} {n}" for was, n in sorted(row.items())))
    print(f"written to {SIZES_FILE}")


if __name__ == "__main__":
    main(None)
