"""Pieces reader figures on rendered tables it never saw: accuracy per stage and time per 1280x720 frame."""

from __future__ import annotations

import math
import time

from bench import benchmark, percentiles
from vision.pieces.measure import measure
from vision.pieces.reader import PieceReader
from vision.pieces.trials import (MEASURE_SEEDS, calibration_of, deck_town_scene, piece_scene, pouches_registry,
                                  pouches_scene, pungo_scene, pungo_setup_scene)
from vision.synth.render import render

SCENES = 30  # random piece tables; plus 8 Pungo openings, 8 Deck Town boards and 8 Pouches heaps

_tally = None


def _measured():
    global _tally
    if _tally is None:
        seeds = list(MEASURE_SEEDS)
        tally = measure([(s, piece_scene(s)) for s in seeds[:SCENES]] + [(s, pungo_scene(s)) for s in seeds[:8]]
                        + [(s, deck_town_scene(s)) for s in seeds[:8]])
        registry = pouches_registry()
        _tally = measure([(s, pouches_scene(s)) for s in seeds[:8]], registry_of=lambda scene: registry, tally=tally)
    return _tally


@benchmark("pieces_accuracy", {**dict.fromkeys(("pyramid_colour_size", "tree_stack", "die_face", "token_identity",
                                                  "misread_sure", "misread_offered"), "fraction"),
                                 **dict.fromkeys(("missed", "extra", "pieces"), "pieces")},
           f"pieces reader on {SCENES} random piece tables, 8 Pungo openings, 8 Deck "
           "Town boards, 8 Pouches heaps (unseen seeds): pyramid bottom colour+size, whole tree stacks, die face, "
           "token label; of the stacks misread, the share read at least 0.6 surely (what the layouts take as seen) "
           "and the share offering the true stack among their alternatives; missed and extra are counts of pieces")
def accuracy() -> dict[str, float]:
    s = _measured().summary()
    return {k: s[k] for k in ("pyramid_colour_size", "tree_stack", "die_face", "token_identity", "misread_sure",
                              "misread_offered", "missed", "extra", "pieces")}


@benchmark("pieces_position_error", "mm", "distance from the true base centre of every piece read (p95, max)")
def position() -> dict[str, float]:
    s = _measured().summary()
    return {"p95": s["position_p95_mm"], "max": s["position_max_mm"]}


@benchmark("pieces_frame_time", "s", "pieces reader time per 1280x720 frame (target p50 < 0.015 s)")
def frame_time() -> dict[str, float]:
    return percentiles(_measured().seconds)


@benchmark("pieces_frame_cpu_time", "s", "pieces reader CPU time per 1280x720 frame (one core; wall time above "
           "includes waiting on a shared machine)")
def frame_cpu_time() -> dict[str, float]:
    return percentiles(_measured().cpu_seconds)


TRIAL_SEEDS = range(5)  # the first of ``make trials``' seeds
TRIAL_EVERY = 4  # every 4th of a trial's first 20 tables


def _read_trial_tables(game: str) -> dict:
    """The figures of the settled tables (no hand in view) of ``make trials``' first random games of
    ``game``, as the trials stage them (other tables, surfaces and light than the bench's own scenes),
    read with the reader told the game's pyramid colours, as the live pipeline tells it."""
    from bench.trials import HOLD_S, REACH_S, _cut
    from referee.playthrough import random_playthrough
    from vision.synth.demo import demo_game, demo_playthrough

    demo = demo_playthrough(game)
    scenes = []
    for seed in TRIAL_SEEDS:
        recorded = _cut(random_playthrough(demo.game, demo.setup, seed), 20)
        staged = demo_game(game, seed=seed, hold_s=HOLD_S, reach_s=REACH_S, recorded=recorded).sequence
        scenes += [(seed, scene) for scene in staged.states[::TRIAL_EVERY]]
    return measure(scenes, pyramid_colours=demo.game.new_state(demo.setup).pyramid_colours() or None).summary()


@benchmark("pieces_trial_tables", {"deck_town_pyramid_colour_size": "fraction", "deck_town_on_cards_exact": "fraction",
                                   "deck_town_on_cards": "pyramids", "deck_town_on_cards_missed": "pyramids",
                                   "deck_town_phantoms": "pieces", "pungo_pyramid_colour_size": "fraction",
                                   "pungo_tree_stack": "fraction", "pungo_die_face": "fraction",
                                   "pungo_missed": "pieces", "pungo_phantoms": "pieces"},
           f"pieces reader on the settled tables of the trials' random games (seeds {TRIAL_SEEDS.start}-"
           f"{TRIAL_SEEDS.stop - 1}, every {TRIAL_EVERY}th of their first 20 tables): Deck Town's pyramids, and "
           "those standing on a face-up card of the town (whole stack read exactly; missed), Pungo's pyramids, "
           "trees and die; phantoms are sightings 15 mm or more from every piece (card art read as a pyramid)")
def trial_tables() -> dict[str, float]:
    town, pungo = _read_trial_tables("deck-town"), _read_trial_tables("pungo")
    return {**{f"deck_town_{k}": town[k] for k in ("pyramid_colour_size", "on_cards_exact", "on_cards",
                                                    "on_cards_missed", "phantoms")},
            **{f"pungo_{k}": pungo[k] for k in ("pyramid_colour_size", "tree_stack", "die_face", "missed", "phantoms")}}


@benchmark("pieces_pungo_opening", "fraction", "share of 8 rendered Pungo openings (the rules' setup: four red "
           "stacks with a same-colour tree, the die 1 up) whose whole arena and roll grid the Pungo layout reads "
           "exactly as the opening state's view")
def pungo_opening() -> float:
    from calibration.mats import mat_layout
    from referee import games, layouts
    from referee.snapshot import TableSnapshot

    zones = {z.name: (z.x_mm, z.y_mm, z.w_mm, z.h_mm) for z in mat_layout("pungo", "A3").zones}
    xs = [x for x, y, w, h in zones.values()] + [x + w for x, y, w, h in zones.values()]
    ys = [y for x, y, w, h in zones.values()] + [y + h for x, y, w, h in zones.values()]
    area = (min(xs) - 10, min(ys) - 10, max(xs) - min(xs) + 20, max(ys) - min(ys) + 20)
    game = games.get("pungo", players=["ann", "bob"])
    state = game.new_state()
    layout = layouts.for_game(game, zones=zones)
    want = {k: v for k, v in state.view().items() if v}
    right = 0
    for seed in list(MEASURE_SEEDS)[:8]:
        scene = pungo_setup_scene(seed)
        reading = PieceReader(calibration_of(scene), dice_in_play=1, area_mm=area).read(render(scene).image)
        seen = layout.read(TableSnapshot(0.0, pyramids=reading.pyramids, dice=reading.dice), state)
        right += {k: v for k, v in seen.view.items() if v} == want
    return right / 8


@benchmark("pieces_demo", "fraction", "the demo's pieces step (each player's token shown alone at the start, the "
           "mat's markers for the calibration) on the settled table of every shot of the Pouches, Deck Town and "
           "Pungo demo games: recall and precision of token labels, pyramid bottom colour+size, whole visible "
           "stacks and die faces (python -m vision.pieces.demo_check prints the misreadings)")
def demo() -> dict[str, float]:
    from vision.pieces.demo_check import PIECE_GAMES, check_demo

    out = {}
    for game in PIECE_GAMES:
        tally = check_demo(game)
        out.update({f"{game.replace('-', '_')}_{k}": round(v, 4) for k, v in tally.figures().items()})
    return out


@benchmark("pieces_deck_town_table", {"on_cards_exact": "fraction", "on_cards": "pyramids",
                                      "on_cards_missed": "pyramids", "phantoms_on_cards": "pieces",
                                      "frame_p50": "ms", "frame_p95": "ms"},
           "Deck Town trial tables (seeds 0-3, every 20th frame without a hand, 1280x720) read in order by the live "
           "pipeline's table reader with the trials' pieces step, which drops a Decktet card's art read as a pyramid "
           "where the card was seen bare (vision.card_looks): pyramids standing on a face-up card read exactly "
           "(a reading of its colour and size within 15 mm), not seen, and phantoms on cards (readings on a face-up "
           "card 15 mm or more from every pyramid); and the time to read a whole frame, cards and pieces")
def deck_town_table() -> dict[str, float]:
    from bench.trials import TABLE_SEEDS, settled_frames
    from calibration.mats import mat_of
    from vision.synth.demo import demo_pieces
    from vision.table_reader import for_game

    on_cards = exact = missed = phantoms = 0
    times = []
    for seed in TABLE_SEEDS:
        source, frames = settled_frames("deck-town", seed)
        reader = for_game("deck-town", mat_of(source.demo.recorded.game), pieces=demo_pieces(source))
        for t, frame in frames:
            started = time.perf_counter()
            pyramids = reader.read(frame, t).snapshot.pyramids
            times.append((time.perf_counter() - started) * 1000)
            faces = [(o.pose["x"], o.pose["y"]) for o in source.truth.objects
                     if o.kind == "card" and o.label != "back" and o.visible > 0.5]

            def on_a_card(x, y):  # (a card's middle within 40 mm: it is 64 mm across)
                return any(abs(x - cx) < 40 and abs(y - cy) < 40 for cx, cy in faces)
            standing = [(o.label, (o.pose["x"], o.pose["y"])) for o in source.truth.objects
                        if o.kind == "pyramid" and on_a_card(o.pose["x"], o.pose["y"])]
            read = [p for p in pyramids if on_a_card(*p.center_mm)]
            for label, at in standing:
                near = [p for p in read if math.dist(p.center_mm, at) < 15]
                on_cards += 1
                exact += any("+".join(map(str, p.stack)) == label for p in near)
                missed += not near
            phantoms += sum(all(math.dist(p.center_mm, at) >= 15 for _, at in standing) for p in read)
    return {"on_cards_exact": round(exact / max(on_cards, 1), 4), "on_cards": on_cards, "on_cards_missed": missed,
            "phantoms_on_cards": phantoms, **{f"frame_{k}": v for k, v in percentiles(times).items()}}
