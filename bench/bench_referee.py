"""Referee vocabulary figures: what crosses the vision -> referee boundary at frame rate."""

from __future__ import annotations

import json
import subprocess
import sys

from bench import benchmark, per_call
from referee import CardSighting, DieSighting, PyramidSighting, Pyramid, Size, TableSnapshot, standard_deck


def _busy_snapshot() -> TableSnapshot:
    """A crowded table: 40 cards, 12 pyramid stacks, 2 dice, 5 tokens."""
    cards = tuple(CardSighting(card, True, (10.0 * i, 20.0), ((0, 0), (63, 0), (63, 88), (0, 88)), 12.5, 0.97)
                  for i, card in enumerate(standard_deck()[:40]))
    pyramids = tuple(PyramidSighting((Pyramid("red", Size.LARGE), Pyramid("blue", Size.SMALL)), (5.0 * i, 3.0), 0.9)
                     for i in range(12))
    dice = (DieSighting(4, (300.0, 40.0), 0.99), DieSighting(1, (320.0, 40.0), 0.8))
    return TableSnapshot(12.25, cards, pyramids, dice)


@benchmark("snapshot_json_roundtrip", "ms", "encode + decode one crowded TableSnapshot (40 cards) as JSON text")
def snapshot_roundtrip() -> float:
    snapshot = _busy_snapshot()
    return 1000 * per_call(lambda: TableSnapshot.from_json(json.loads(json.dumps(snapshot.to_json()))))


@benchmark("cli_games_wall", "ms", "wall time of `tableside games` in a fresh interpreter (start-up included)")
def cli_start() -> float:
    return 1000 * per_call(lambda: subprocess.run([sys.executable, "-m", "webui.cli", "games"], check=True,
                                                  stdout=subprocess.DEVNULL), min_seconds=2.0, repeats=3)


@benchmark("import_referee_peak_rss", "MiB", "peak resident memory of a fresh interpreter importing referee")
def import_memory() -> float:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and exec.
    code = ("import referee, referee.games; referee.games.types(); "
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return int(out) / 1024  # KiB


