"""The real dev photographs, split in two: the earlier half of each set teaches, the later half measures.

``../shared/data/cards_real/dev`` holds 39 webcam table scenes and 176 phone photos, each set shot
in order over an afternoon (the file names are timestamps). Sorted by name, the first half of each
set teaches the models (:func:`teaching`), and the second half (:func:`measuring`) is what every
figure on real photographs is measured on: the models never see it. Splitting by time rather than
at random keeps near-identical neighbouring frames of one table on the same side of the line.

A labelled corner gives a box and a name but not which way the index is turned, which both models
need. When the card's other corner is labelled too, the card's centre is exactly midway between
the two (:func:`card_centres`); otherwise the classifier already trained on renders is asked at
which turn it most surely reads the labelled name (:func:`surest_turn`), and the centre is placed
from that turn as the runtime would.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from models.cards.data import SHARED, Index, Sample, jittered_crop
from vision.cards.classes import CROP, DETECT_LONG_SIDE, INDEX, NONE
from vision.cards.recognise import card_centre, crop_turned

REAL = SHARED / "cards_real" / "dev"
SETS = ("images/tabletop", "images/single")
TURNS_DEG = np.arange(0.0, 360.0, 10.0)


def records(folder: Path = REAL) -> list[dict]:
    return json.loads((folder / "labels.json").read_text())


def _halves(all_records: list[dict]) -> tuple[list[dict], list[dict]]:
    first, second = [], []
    for prefix in SETS:
        part = sorted((r for r in all_records if r["image"].startswith(prefix)), key=lambda r: r["image"])
        first += part[:len(part) // 2]
        second += part[len(part) // 2:]
    return first, second


def teaching(folder: Path = REAL) -> list[dict]:
    """The records the models learn from: the earlier half of each set (19 scenes, 88 photos)."""
    return _halves(records(folder))[0]


def measuring(folder: Path = REAL) -> list[dict]:
    """The records every real figure is measured on: the later half of each set (20 scenes, 88 photos)."""
    return _halves(records(folder))[1]


def surest_turn(probabilities: Callable[[np.ndarray], np.ndarray], image: np.ndarray, box, label: str) -> float:
    """The turn (degrees) at which the classifier reads ``label`` most surely in ``box``."""
    crops = np.stack([crop_turned(image, box, float(t)) for t in TURNS_DEG])
    return float(TURNS_DEG[int(np.argmax(probabilities(crops)[:, INDEX[label]]))])


def card_centres(record: dict, image: np.ndarray, probabilities) -> list[tuple[dict, tuple[float, float]]]:
    """Each labelled face-up corner of ``record`` with its card's centre in picture pixels."""
    corners = [c for c in record["corners"] if c["id"] in INDEX and c["id"] != NONE]
    counts = Counter(c["id"] for c in corners)
    out = []
    for c in corners:
        middle = _middle(c["box"])
        if counts[c["id"]] == 2:  # the card's two corners: its centre is midway
            other = next(o for o in corners if o["id"] == c["id"] and o is not c)
            out.append((c, tuple((np.array(middle) + _middle(other["box"])) / 2)))
        else:
            turn = surest_turn(probabilities, image, c["box"], c["id"])
            out.append((c, tuple(card_centre(c["box"], turn, c["id"]))))
    return out


def detector_samples(chosen: list[dict], probabilities, folder: Path = REAL, scene_copies: int = 1,
                     seed: int = 0) -> list[Sample]:
    """Detector pictures of the teaching photos: each at the four quarter turns (a box turned a
    quarter is still a box), scene photos at the detector's size, close-up phone photos smaller
    (as the runtime also looks at them: their indices are large), with 'none' crops of what lies
    away from every labelled corner. Face-down cards are not taught from these (their outlines are
    not labelled). Table scenes are listed ``scene_copies`` times (each use cuts it anew)."""
    rng = np.random.default_rng(seed)
    samples = []
    for record in chosen:
        image = cv2.imread(str(folder / record["image"]))
        centres = card_centres(record, image, probabilities)
        scene = record["image"].startswith(SETS[0])
        negatives = _background(image, [c["box"] for c in record["corners"]], rng)
        for side in (DETECT_LONG_SIDE,) if scene else (320, 448):
            for quarter in range(4):
                samples += [_sample(image, centres, side, quarter, negatives, rng)] * (scene_copies if scene else 1)
    return samples


def classifier_crops(chosen: list[dict], probabilities, folder: Path = REAL, per_corner: int = 12,
                     seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Index crops of the teaching photos' labelled corners (a few jittered cuts each, as the
    runtime cuts them from a detection) and 'none' crops of what lies away from every corner."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for record in chosen:
        image = cv2.imread(str(folder / record["image"]))
        for corner, centre in card_centres(record, image, probabilities):
            for _ in range(per_corner):
                crops.append(jittered_crop(image, corner["box"], centre, rng))
                labels.append(INDEX[corner["id"]])
        negatives = _background(image, [c["box"] for c in record["corners"]], rng)
        crops += list(negatives)
        labels += [INDEX[NONE]] * len(negatives)
    return np.array(crops, np.uint8).reshape(-1, CROP, CROP, 3), np.array(labels, np.int64)


def _sample(image, centres, side: int, quarter: int, negatives, rng) -> Sample:
    h, w = image.shape[:2]
    scale = side / max(w, h)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]

    def turned(x: float, y: float) -> tuple[float, float]:  # a point after `quarter` clockwise quarter turns
        for k in range(quarter):
            x, y = (sh if k % 2 == 0 else sw) - y, x
        return x, y

    small = np.ascontiguousarray(np.rot90(small, -quarter))
    indices = []
    for corner, centre in centres:
        x0, y0, x1, y1 = (v * scale for v in corner["box"])
        a, b = turned(x0, y0), turned(x1, y1)
        box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        indices.append(Index(box, turned(centre[0] * scale, centre[1] * scale), corner["id"], 1.0))
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    return Sample(jpeg.tobytes(), indices, [], negatives, np.full(len(negatives), INDEX[NONE], np.int64),
                  teaches_backs=False)


def _background(image: np.ndarray, boxes, rng, count: int = 12) -> np.ndarray:
    """Crops of index size that overlap no labelled corner: pips, face art, the table, clutter."""
    h, w = image.shape[:2]
    sides = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [40.0]
    crops = []
    for _ in range(count * 5):
        if len(crops) == count:
            break
        side = float(rng.choice(sides)) * float(rng.uniform(0.7, 1.6))
        cx, cy = float(rng.uniform(side / 2, w - side / 2)), float(rng.uniform(side / 2, h - side / 2))
        if any(abs(_middle(b)[0] - cx) < (b[2] - b[0] + side) / 2 and abs(_middle(b)[1] - cy) < (b[3] - b[1] + side) / 2
               for b in boxes):
            continue
        crops.append(crop_turned(image, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2),
                                 float(rng.uniform(0, 360))))
    return np.array(crops, np.uint8).reshape(-1, CROP, CROP, 3)


def _middle(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

