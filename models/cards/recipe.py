"""Rebuild the card models: render, train, calibrate, export, measure (``make models``).

Everything is seeded, so a rebuild gives the same models up to floating-point noise. Rendered
scenes are cached under ``build/cards`` (an interrupted build resumes). On 2 cores the whole
recipe takes about 40 minutes; ``TABLESIDE_QUICK=1`` makes a small smoke build for trying it out.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import torch

from models.cards import data, train
from vision.cards.classes import INDEX, NONE


HERE = Path(__file__).parent
BUILD = HERE.parents[1] / "build" / "cards"
TRAIN_SEEDS = range(0, 2400)  # scenes the models learn from
CALIBRATION_SEEDS = range(500_000, 500_200)  # scenes that fit the confidence calibration only
DETECTOR_EPOCHS = 5
CLASSIFIER_EPOCHS = 10
FACE_CROPS = 40_000  # classifier crops cut straight from card faces


def main() -> None:
    quick = os.environ.get("TABLESIDE_QUICK") == "1"
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    samples = training_scenes(quick)
    classifier = build_classifier(samples, quick)
    build_detector(samples, quick)
    calibrate(classifier, quick)
    say("done; measure with `python -m models.cards.measure`")


def training_scenes(quick: bool) -> list[data.Sample]:
    seeds = range(0, 200) if quick else TRAIN_SEEDS
    say(f"rendering {len(seeds)} training scenes (cached in {BUILD})")
    return data.load(data.generate(seeds, BUILD / "train", progress=say))


def build_classifier(samples: list[data.Sample], quick: bool):
    none = np.concatenate([s.crop_labels for s in samples]) == INDEX[NONE]
    background = np.concatenate([s.crops for s in samples])[none]
    scene_crops, scene_labels = data.scene_index_crops(samples)
    faces, face_labels = face_crops(2_000 if quick else FACE_CROPS)
    crops = np.concatenate([scene_crops, faces, background])
    labels = np.concatenate([scene_labels, face_labels, np.full(len(background), INDEX[NONE])])
    say(f"{len(samples)} scenes, {sum(len(s.indices) for s in samples)} indices; classifier crops: "
        f"{len(scene_crops)} legible indices from the scenes, {len(faces)} cut from card faces, "
        f"{len(background)} of what is not an index")
    classifier = train.train_classifier(crops, labels, 1 if quick else CLASSIFIER_EPOCHS, progress=say)
    train.export(classifier, HERE / "classifier.onnx")
    torch.save(classifier.state_dict(), BUILD / "classifier.pt")  # for calibrating without retraining
    return classifier


def build_detector(samples: list[data.Sample], quick: bool):
    detector = train.train_detector(samples, 1 if quick else DETECTOR_EPOCHS, progress=say)
    train.export(detector, HERE / "detector.onnx")
    return detector


def calibrate(classifier, quick: bool) -> None:
    say("fitting the confidence calibration on scenes the models did not learn from")
    held = data.load(data.generate(range(CALIBRATION_SEEDS.start, CALIBRATION_SEEDS.start + (40 if quick else 200)),
                                   BUILD / "calibration", progress=say))
    held_crops, held_labels = data.scene_index_crops(held, seed=1)
    none = np.concatenate([s.crop_labels for s in held]) == INDEX[NONE]
    t = fit_temperature(classifier, np.concatenate([held_crops, np.concatenate([s.crops for s in held])[none]]),
                        np.concatenate([held_labels, np.full(int(none.sum()), INDEX[NONE])]))
    (HERE / "calibration.json").write_text(json.dumps({"temperature": round(t, 4)}, indent=2) + "\n")
    say(f"temperature {t:.3f}")


def face_crops(count: int, chunk: int = 2_000) -> tuple[np.ndarray, np.ndarray]:
    """:func:`data.face_crops` made on every core (seeded per chunk: the same crops every build)."""
    from multiprocessing import get_context

    cached = BUILD / f"face-crops-upright-{count}.npz"
    if cached.exists():
        with np.load(cached) as d:
            return d["crops"], d["labels"]
    with get_context("spawn").Pool(max(1, os.cpu_count() or 1)) as pool:
        parts = pool.starmap(data.face_crops, [(chunk, 7_000 + k) for k in range(count // chunk)])
    crops, labels = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    BUILD.mkdir(parents=True, exist_ok=True)
    np.savez(cached, crops=crops, labels=labels)
    return crops, labels


def fit_temperature(net, crops: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that makes held-out confidences honest (least negative log-likelihood)."""
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(crops[i:i + 512].transpose(0, 3, 1, 2).astype(np.float32)))
                            for i in range(0, len(crops), 512)])
    y = torch.from_numpy(labels)
    grid = np.exp(np.linspace(np.log(0.3), np.log(4.0), 60))
    nll = [float(torch.nn.functional.cross_entropy(logits / t, y)) for t in grid]
    return float(grid[int(np.argmin(nll))])


def say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


