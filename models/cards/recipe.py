"""Rebuild the card models: render, train, calibrate, export, measure (``make models``).

The classifier first learns from renders and card faces, then is fine-tuned on the earlier half of
the real dev photographs (:mod:`models.cards.real`); the detector learns from renders and that same
half. The later half is never used here: it is what the real figures are measured on.

Everything is seeded, so a rebuild gives the same models up to floating-point noise. Rendered
scenes are cached under ``build/cards`` (an interrupted build resumes), and so is the classifier
trained on renders. Last, the Decktet whole-face net is built (:mod:`models.cards.whole_face`). On 2
cores the whole recipe takes about 50 minutes and the whole-face net some 20 more; ``TABLESIDE_QUICK=1`` makes a
small smoke build for trying it out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import torch

from models.cards import data, real, train, whole_face
from models.cards.nets import Classifier
from models.cards.train import say
from vision.cards.classes import INDEX, NONE


HERE = Path(__file__).parent
BUILD = HERE.parents[1] / "build" / "cards"
TRAIN_SEEDS = range(0, 2400)  # scenes the models learn from
CALIBRATION_SEEDS = range(500_000, 500_200)  # scenes that fit the confidence calibration only
DETECTOR_EPOCHS = 5
CLASSIFIER_EPOCHS = 10
FACE_CROPS = 40_000  # classifier crops cut straight from card faces
REAL_EPOCHS = 3  # fine-tuning on the real teaching photos
REAL_LR = 1e-3
REAL_MIX = 4  # rendered crops kept in fine-tuning, per real crop
REAL_SCENE_COPIES = 4  # the real table scenes (the hardest) are shown this many times per detector epoch


def main() -> None:
    quick = os.environ.get("TABLESIDE_QUICK") == "1"
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    samples = training_scenes(quick)
    crops, labels = classifier_crops(samples, quick)
    classifier = build_classifier(crops, labels, quick)
    photos = real.teaching() if real.REAL.is_dir() else []
    turns_from = rendered_only(classifier)  # reads which way up each real photo's indices are
    if photos:
        classifier = teach_real_photos(classifier, crops, labels, photos, turns_from, quick)
    else:
        say(f"no real photographs at {real.REAL}: the models learn from renders only (the model card's figures do not hold)")
    train.export(classifier, HERE / "classifier.onnx")
    build_detector(samples, photos, turns_from, quick)
    calibrate(classifier, quick)
    whole_face.main()  # the Decktet whole-face net (models/cards/whole_face.py)
    say("done; measure with `python -m models.cards.measure`")


def training_scenes(quick: bool) -> list[data.Sample]:
    seeds = range(0, 200) if quick else TRAIN_SEEDS
    say(f"rendering {len(seeds)} training scenes (cached in {BUILD})")
    return data.load(data.generate(seeds, BUILD / "train", progress=say))


def classifier_crops(samples: list[data.Sample], quick: bool) -> tuple[np.ndarray, np.ndarray]:
    """What the classifier first learns from: indices of the rendered scenes, indices cut from card
    faces, and what is not an index."""
    none = np.concatenate([s.crop_labels for s in samples]) == INDEX[NONE]
    background = np.concatenate([s.crops for s in samples])[none]
    scene_crops, scene_labels = data.scene_index_crops(samples)
    faces, face_labels = face_crops(2_000 if quick else FACE_CROPS)
    say(f"{len(samples)} scenes, {sum(len(s.indices) for s in samples)} indices; classifier crops: "
        f"{len(scene_crops)} legible indices from the scenes, {len(faces)} cut from card faces, "
        f"{len(background)} of what is not an index")
    return (np.concatenate([scene_crops, faces, background]),
            np.concatenate([scene_labels, face_labels, np.full(len(background), INDEX[NONE])]))


def build_classifier(crops: np.ndarray, labels: np.ndarray, quick: bool):
    """The classifier trained on renders alone (kept as ``classifier-rendered.pt``: a rebuild that
    changes only the real-photo stage starts from it; delete it when the renders stage changes)."""
    cached = BUILD / "classifier-rendered.pt"
    classifier = Classifier()
    if cached.exists() and not quick:
        classifier.load_state_dict(torch.load(cached))
        say(f"classifier trained on renders: reusing {cached}")
        return classifier.eval()
    classifier = train.train_classifier(crops, labels, 1 if quick else CLASSIFIER_EPOCHS, progress=say)
    if not quick:
        torch.save(classifier.state_dict(), cached)
    return classifier


def teach_real_photos(classifier, crops: np.ndarray, labels: np.ndarray, photos: list[dict], probabilities, quick: bool):
    """Fine-tune on the teaching half of the real photographs (:mod:`models.cards.real`): their
    labelled corners and what lies away from them, mixed with :data:`REAL_MIX` times as many
    rendered crops, so what was learned from renders is kept. (Adding the detector's wrong finds
    there as further 'none' crops, with 5 epochs, read the real photos a little better and the
    demo tables worse: tried 2026-11-22, not kept.)"""
    real_crops, real_labels = real.classifier_crops(photos, probabilities)
    rng = np.random.default_rng(1)
    keep = rng.choice(len(crops), min(len(crops), REAL_MIX * len(real_crops)), replace=False)
    say(f"fine-tuning the classifier on {len(photos)} real photographs: {len(real_crops)} crops "
        f"({int((real_labels != INDEX[NONE]).sum())} of labelled corners), with {len(keep)} rendered ones")
    return train.train_classifier(np.concatenate([real_crops, crops[keep]]), np.concatenate([real_labels, labels[keep]]),
                                  1 if quick else REAL_EPOCHS, progress=say, net=classifier, max_lr=REAL_LR)


def rendered_only(classifier):
    """Class probabilities of crops from a snapshot of ``classifier`` as it is now (the real
    photos' index turns are read by the classifier trained on renders)."""
    frozen = Classifier()
    frozen.load_state_dict(classifier.state_dict())
    frozen.eval()

    def probabilities(crops: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            x = torch.from_numpy(crops.transpose(0, 3, 1, 2).astype(np.float32))
            return torch.softmax(frozen(x), dim=1).numpy()
    return probabilities


def build_detector(samples: list[data.Sample], photos: list[dict], probabilities, quick: bool):
    taught = list(samples)
    if photos:
        taught += real.detector_samples(photos, probabilities, scene_copies=REAL_SCENE_COPIES)
        say(f"detector: {len(samples)} rendered pictures and {len(taught) - len(samples)} of real photographs")
    detector = train.train_detector(taught, 1 if quick else DETECTOR_EPOCHS, progress=say)
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


