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


HERE = Path(__file__).parent
BUILD = HERE.parents[1] / "build" / "cards"
TRAIN_SEEDS = range(0, 2400)  # scenes the models learn from
CALIBRATION_SEEDS = range(500_000, 500_200)  # scenes that fit the confidence calibration only
DETECTOR_EPOCHS = 5
CLASSIFIER_EPOCHS = 6
FACE_CROPS = 30_000  # classifier crops cut straight from card faces


def main() -> None:
    quick = os.environ.get("TABLESIDE_QUICK") == "1"
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    seeds = range(0, 200) if quick else TRAIN_SEEDS
    say(f"rendering {len(seeds)} training scenes (cached in {BUILD})")
    samples = data.load(data.generate(seeds, BUILD / "train", progress=say))
    crops = np.concatenate([s.crops for s in samples])
    labels = np.concatenate([s.crop_labels for s in samples])
    keep = data.legible(crops, labels)
    say(f"{len(samples)} scenes, {sum(len(s.indices) for s in samples)} indices, {len(crops)} classifier crops, "
        f"{int(keep.sum())} of them legible")
    faces, face_labels = face_crops(2_000 if quick else FACE_CROPS)
    crops, labels = np.concatenate([crops[keep], faces]), np.concatenate([labels[keep], face_labels])
    say(f"{len(faces)} crops cut from card faces; {len(crops)} classifier crops in all")

    classifier = train.train_classifier(crops, labels, 1 if quick else CLASSIFIER_EPOCHS, progress=say)
    train.export(classifier, HERE / "classifier.onnx")
    detector = train.train_detector(samples, 1 if quick else DETECTOR_EPOCHS, progress=say)
    train.export(detector, HERE / "detector.onnx")

    say("fitting the confidence calibration on scenes the models did not learn from")
    held = data.load(data.generate(range(CALIBRATION_SEEDS.start, CALIBRATION_SEEDS.start + (40 if quick else 200)),
                                   BUILD / "calibration", progress=say))
    t = fit_temperature(classifier, np.concatenate([s.crops for s in held]), np.concatenate([s.crop_labels for s in held]))
    (HERE / "calibration.json").write_text(json.dumps({"temperature": round(t, 4)}, indent=2) + "\n")
    say(f"temperature {t:.3f}; measure with `python -m models.cards.measure`")


def face_crops(count: int, chunk: int = 2_000) -> tuple[np.ndarray, np.ndarray]:
    """:func:`data.face_crops` made on every core (seeded per chunk: the same crops every build)."""
    from multiprocessing import get_context

    cached = BUILD / f"face-crops-{count}.npz"
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


