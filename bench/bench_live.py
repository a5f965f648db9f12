"""Live pipeline figures: frames per second through vision, and time from a settled table to a verdict.

Frames come from the demo table (``demo:pouches``, rendered at 1280x720) and a rendered 30-card
table on a mat; each goes through the real :class:`~vision.table_reader.TableReader` (markers,
calibration, card recognition) and the stabiliser.
"""

from __future__ import annotations

import time

import numpy as np

from bench import benchmark, percentiles
from calibration.mats import mat_layout
from vision.stabilise import Stabiliser
from vision.synth.random_scene import random_scene
from vision.synth.render import render
from vision.synth.scene import MatObject
from vision.table_reader import TableReader


def _mat_tables(count: int = 6) -> list[np.ndarray]:
    frames = []
    for seed in range(count):
        scene = random_scene(980_000 + seed, size=(1280, 720), cards=30, pyramids=0, hands=0)
        scene.mat = MatObject("deck-town", "A3")
        scene.camera.target_mm, scene.camera.distance_mm, scene.camera.tilt_deg = (190.0, 130.0), 700.0, 25.0
        scene.clutter = []
        frames.append(render(scene).image)
    return frames


@benchmark("live_pipeline_fps_1280x720_30cards", "frames/s",
           "frames per second through markers, calibration, card recognition and the stabiliser on a rendered "
           "1280x720 table of 30 cards on a mat (2 threads); target at least 20, aiming for 30")
def pipeline_fps() -> float:
    frames = _mat_tables()
    reader, stabiliser = TableReader(mat_layout("deck-town", "A3"), deck="standard"), Stabiliser()
    reader.read(frames[0], 0.0)
    started, n = time.perf_counter(), 0
    for _ in range(3):
        for frame in frames:
            reading = reader.read(frame, n / 30)
            stabiliser.push(n / 30, frame, reading.snapshot)
            n += 1
    return n / (time.perf_counter() - started)


@benchmark("live_pipeline_fps_still_table_1280x720_30cards", {"fps": "frames/s", "recognised_share": "fraction"},
           "frames per second through the live pipeline (motion, markers, calibration, the stabiliser, and card "
           "recognition while the table settles and every recheck_s after) on 10 s of one rendered 1280x720 table "
           "of 30 cards on a mat, still, with fresh camera noise on every frame, fed at 30 frames a second: most "
           "of a game; a table that changes on every frame is live_pipeline_fps_1280x720_30cards")
def still_table_fps() -> dict[str, float]:
    from vision.live import LivePipeline

    table = _mat_tables(1)[0]
    rng = np.random.default_rng(0)
    frames = [np.clip(table + rng.normal(0, 2.5, table.shape), 0, 255).astype(np.uint8) for _ in range(30)]
    pipeline = LivePipeline(TableReader(mat_layout("deck-town", "A3"), deck="standard"), lambda snapshot, jpeg: [])
    started = time.perf_counter()
    for n in range(300):
        pipeline.step(frames[n % len(frames)], n / 30)
    stats = pipeline.stats
    return {"fps": stats.frames / (time.perf_counter() - started),
            "recognised_share": (stats.frames - stats.moving - stats.settled_skips) / stats.frames}


@benchmark("live_demo_fps_1280x720", {"fps": "frames/s", "moving_share": "fraction"},
           "frames per second through the whole live pipeline (markers, calibration, cards, tokens, stabiliser) on "
           "the first 12 s of the Pouches demo at 1280x720, where hands reach over the table in about half the "
           "frames: a frame in motion is not recognised (the stabiliser would throw its reading away); "
           "moving_share is the share of such frames")
def demo_fps() -> dict[str, float]:
    from calibration.mats import mat_of
    from vision.live import LivePipeline
    from vision.synth.demo import DemoSource, demo_pieces

    source = DemoSource("pouches", size=(1280, 720), fps=10.0)
    frames = [source.read() for _ in range(120)]  # rendered first: drawing the table is not the pipeline's work
    reader = TableReader(mat_of(source.demo.recorded.game), deck="standard", pieces=demo_pieces(source))
    pipeline = LivePipeline(reader, lambda snapshot, jpeg: [])
    started = time.perf_counter()
    for n, frame in enumerate(frames):
        pipeline.step(frame, n * source.frame_interval)
    return {"fps": len(frames) / (time.perf_counter() - started), "moving_share": pipeline.stats.moving / len(frames)}


@benchmark("live_settle_to_verdict", "s",
           "time from the moment the table is still to the referee's verdict on the demo table (demo:pouches): "
           "the stabiliser's settle time (0.4 s), reading the frame that completes it, and the session's "
           "judgement; target under 1 s (a violation waits for a second look, 0.4 s more and a frame read)")
def settle_to_verdict() -> dict[str, float]:
    import tempfile
    from pathlib import Path

    from referee import layouts
    from referee.session import Session
    from vision.synth.demo import DemoSource, demo_pieces
    from vision.synth.sequence import timeline
    from calibration.mats import mat_of, zones_of

    source = DemoSource("pouches", size=(1280, 720), fps=10.0)
    recorded = source.demo.recorded
    first_still = {}
    for n, (_, scene, shown) in enumerate(timeline(source.demo.sequence)):
        if not scene.hands:
            first_still.setdefault(shown, n)
    # the demo's own pieces step: without the players' tokens no table would match the game
    reader = TableReader(mat_of(recorded.game), deck="standard", pieces=demo_pieces(source))
    settle = Stabiliser().settle_s
    waits = []
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.start(recorded.game, layouts.for_game(recorded.game, zones_of(mat_of(recorded.game))),
                                Path(tmp) / "bench.sqlite", setup=recorded.setup)
        for k, shot in enumerate(source.demo.shots[1:9], 1):
            for line in shot.lines[:-1]:
                if line.illegal_rule is None:
                    session.enter(recorded.game.actions.parse(line.action))
            source.seek(first_still[k] + round(settle / source.frame_interval))
            frame = source.read()
            started = time.perf_counter()
            reading = reader.read(frame, source.truth.t)
            if reading.snapshot is not None:
                session.observe(reading.snapshot, None)
            waits.append(settle + time.perf_counter() - started)
        session.log.close()
    return percentiles(waits)
