"""Card recognition: find the corner indices and face-down cards, name each index, merge per card.

>>> from vision.cards.recognise import CardRecogniser   # doctest: +SKIP
>>> cards = CardRecogniser().recognise(cv2.imread("table.jpg"), deck="standard")   # doctest: +SKIP
>>> [(c.id, round(c.confidence, 2)) for c in cards]   # doctest: +SKIP
[('7H', 0.99), ('QS', 0.97), (None, 0.41), ('back', 0.93)]

The stages, each trained and measured on its own (``models/cards/README.md``):

1. the *detector* (``detector.onnx``) marks every printed corner index and every face-down card
   on a stride-4 grid of the picture scaled to 640 pixels, with the box size and, for an index,
   where its card's centre lies;
2. the *classifier* (``classifier.onnx``) names each index from a 48x48 crop of the full picture;
3. indices whose cards' centres coincide and whose names agree are one card (its two corners).

A card whose name is not clear (best probability under :data:`NAMED`) is reported with ``id``
None and its candidates, never guessed. ``deck`` limits the names to one deck's cards.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.cards.classes import CLASSES, CROP, CROP_SCALE, DECKS, DETECT_LONG_SIDE, INDEX, NONE, STRIDE

MODELS = Path(__file__).resolve().parents[2] / "models" / "cards"
FOUND = 0.3  # detector peak needed to consider an index or a face-down card
NAMED = 0.6  # classifier probability needed to name a card; below, the card is unknown
NOT_AN_INDEX = 0.5  # a crop the classifier calls 'none' this surely is dropped as a false find
CARD_MM = (63.0, 88.0)
INDEX_CENTRE_MM = (6.5, 11.5)  # where a printed index's middle sits on a face, from its corner
DECKTET_INDEX_CENTRE_MM = (6.5, 22.5)  # a Decktet index runs down past its suit icons


class RecognitionError(RuntimeError):
    """The models cannot be used (missing or unreadable files); the message says how to rebuild."""


@dataclass
class CardSeen:
    """One card in a picture: its name (None when unsure, 'back' face down), how sure, its outline."""

    id: str | None
    confidence: float
    polygon: list[list[float]]  # four corners in picture pixels, the top-left of the face first
    alternatives: list[tuple[str, float]] = field(default_factory=list)  # runner-up names, most likely first
    indices: list[list[float]] = field(default_factory=list)  # the corner index boxes it was named from

    def to_json(self) -> dict:
        return {"id": self.id, "confidence": round(self.confidence, 4),
                "polygon": [[round(x, 1), round(y, 1)] for x, y in self.polygon],
                "alternatives": [[name, round(p, 4)] for name, p in self.alternatives]}


class CardRecogniser:
    """Runs the two ONNX models of ``folder`` (``models/cards`` by default) with ONNX Runtime."""

    def __init__(self, folder: str | Path = MODELS, threads: int = 2) -> None:
        self.folder = Path(folder)
        self.threads = threads
        for name in ("detector.onnx", "classifier.onnx"):
            if not (self.folder / name).is_file():
                raise RecognitionError(f"the card model {self.folder / name} is missing; rebuild it with `make models`")

    @cached_property
    def _detector(self):
        return self._session("detector.onnx")

    @cached_property
    def _classifier(self):
        return self._session("classifier.onnx")

    def _session(self, name: str):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.log_severity_level = 3
        try:
            return ort.InferenceSession(str(self.folder / name), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise RecognitionError(f"cannot load {self.folder / name}: {exc}; rebuild it with `make models`") from None

    @cached_property
    def temperature(self) -> float:
        """The classifier's calibration (fitted by the recipe on renders it did not train on)."""
        meta = self.folder / "calibration.json"
        return float(json.loads(meta.read_text())["temperature"]) if meta.is_file() else 1.0

    # -- the stages ---------------------------------------------------------------------------

    def detect(self, image: np.ndarray) -> tuple[list[dict], list[dict]]:
        """Stage 1: index boxes (with their card's centre) and face-down card boxes, in picture pixels."""
        h, w = image.shape[:2]
        scale = DETECT_LONG_SIDE / max(w, h)
        small = cv2.resize(image, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        sh, sw = small.shape[:2]
        ph, pw = -(-sh // 32) * 32, -(-sw // 32) * 32  # the network halves five times
        padded = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
        x = padded.transpose(2, 0, 1)[None].astype(np.float32)
        heat, size, vector = self._detector.run(None, {"image": x})
        found = ([], [])
        for channel in (0, 1):
            grid = heat[0, channel]
            peaks = (grid >= FOUND) & (grid == cv2.dilate(grid, np.ones((3, 3), np.uint8)))
            for gy, gx in zip(*np.nonzero(peaks)):
                cx, cy = (gx + 0.5) * STRIDE, (gy + 0.5) * STRIDE
                if cx >= sw or cy >= sh:
                    continue
                bw, bh = (math.exp(float(v)) * STRIDE for v in size[0, :, gy, gx])
                box = [(cx - bw / 2) / scale, (cy - bh / 2) / scale, (cx + bw / 2) / scale, (cy + bh / 2) / scale]
                entry = {"box": box, "score": float(grid[gy, gx])}
                if channel == 0:
                    dx, dy = (float(v) * 64 for v in vector[0, :, gy, gx])
                    entry["card_centre"] = [(cx + dx) / scale, (cy + dy) / scale]
                found[channel].append(entry)
        return found

    def classify(self, image: np.ndarray, boxes: list) -> tuple[np.ndarray, np.ndarray]:
        """Stage 2: class probabilities (calibrated) and embeddings of the index in each box."""
        if not boxes:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 1), np.float32)
        crops = np.stack([crop_square(image, b) for b in boxes]).transpose(0, 3, 1, 2).astype(np.float32)
        probs, embeddings = self._classifier.run(None, {"crops": crops})
        if self.temperature != 1.0:
            logits = np.log(np.clip(probs, 1e-12, 1)) / self.temperature
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
        return probs, embeddings

    def recognise(self, image: np.ndarray, deck: str = "auto") -> list[CardSeen]:
        """Every card in ``image`` (BGR): stages 1-3."""
        if deck not in ("auto", *DECKS):
            raise ValueError(f"unknown deck {deck!r}; choose auto, {', '.join(DECKS)}")
        indices, backs = self.detect(image)
        probs, _ = self.classify(image, [i["box"] for i in indices])
        probs = restrict(probs, deck)
        cards = merge(indices, probs)
        for back in backs:
            x0, y0, x1, y1 = back["box"]
            if not any(_inside(c.polygon, ((x0 + x1) / 2, (y0 + y1) / 2)) for c in cards):
                cards.append(CardSeen("back", back["score"], [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        return cards


def restrict(probs: np.ndarray, deck: str) -> np.ndarray:
    """Probabilities with the names outside ``deck`` removed (renormalised); 'auto' keeps all."""
    if deck == "auto" or not len(probs):
        return probs
    keep = np.array([name in DECKS[deck] or name == NONE for name in CLASSES])
    out = probs * keep
    return out / np.clip(out.sum(axis=1, keepdims=True), 1e-12, None)


def merge(indices: list[dict], probs: np.ndarray) -> list[CardSeen]:
    """Stage 3: one card per group of indices that name the same card and agree on its centre."""
    none = INDEX[NONE]
    live = [k for k in range(len(indices)) if probs[k, none] < NOT_AN_INDEX]
    groups: list[list[int]] = []
    for k in sorted(live, key=lambda k: -probs[k].max()):
        name = int(np.argmax(np.delete(probs[k], none)))
        for group in groups:
            j = group[0]
            reach = 2.5 * _box_side(indices[j]["box"])
            if int(np.argmax(np.delete(probs[j], none))) == name and \
                    math.dist(indices[j]["card_centre"], indices[k]["card_centre"]) < reach:
                group.append(k)
                break
        else:
            groups.append([k])
    cards = []
    for group in groups:
        p = np.mean([probs[k] for k in group], axis=0)
        p[none] = 0.0
        p /= max(p.sum(), 1e-12)
        order = np.argsort(-p)
        best = CLASSES[order[0]]
        confidence = float(p[order[0]])
        alternatives = [(CLASSES[i], float(p[i])) for i in order[1:4] if p[i] >= 0.01]
        card_id = best if confidence >= NAMED else None
        if card_id is None:
            alternatives = [(best, confidence), *alternatives]
        first = indices[group[0]]
        at = DECKTET_INDEX_CENTRE_MM if best in DECKS["decktet"] else INDEX_CENTRE_MM
        cards.append(CardSeen(card_id, confidence, card_outline(first["box"], first["card_centre"], at), alternatives,
                              [indices[k]["box"] for k in group]))
    return cards


def card_outline(index_box, centre, index_centre_mm=(6.5, 11.5)) -> list[list[float]]:
    """The card's corners from one index and the card's centre. The index's centre sits at
    ``index_centre_mm`` from the face's top-left corner (or half a turn round, from the
    bottom-right), so the line from the card's centre to it fixes the card's size and turn
    (perspective ignored)."""
    x0, y0, x1, y1 = index_box
    c = np.array(centre, np.float64)
    d = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) - c
    w, h = CARD_MM
    on_card = np.array([index_centre_mm[0] - w / 2, index_centre_mm[1] - h / 2])
    if np.linalg.norm(d) < 1:
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    turn = math.atan2(d[1], d[0]) - math.atan2(on_card[1], on_card[0])
    k = float(np.linalg.norm(d) / np.linalg.norm(on_card))
    ex = np.array([math.cos(turn), math.sin(turn)])
    ey = np.array([-math.sin(turn), math.cos(turn)])
    quad = [c + k * (sx * w / 2 * ex + sy * h / 2 * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [[float(p[0]), float(p[1])] for p in quad]


def crop_square(image: np.ndarray, box, side_scale: float = CROP_SCALE, shift=(0.0, 0.0)) -> np.ndarray:
    """A CROP x CROP crop of a square around ``box`` (x0, y0, x1, y1 pixels), its side
    ``side_scale`` times the box's longer side, moved by ``shift`` (fractions of that side).
    Outside the picture the edge pixels repeat, as they do for an index at the border."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 2.0) * side_scale
    cx, cy = (x0 + x1) / 2 + shift[0] * side, (y0 + y1) / 2 + shift[1] * side
    k = CROP / side
    if k < 0.5:  # shrinking a lot: smooth first, as INTER_AREA would
        r = int(side * 0.75) + 2
        xa, ya = max(0, int(cx - r)), max(0, int(cy - r))
        patch = image[ya:int(cy + r) + 1, xa:int(cx + r) + 1]
        if patch.size:
            image, cx, cy = cv2.GaussianBlur(patch, (0, 0), 0.3 / k), cx - xa, cy - ya
    m = np.array([[k, 0, CROP / 2 - k * cx], [0, k, CROP / 2 - k * cy]], np.float64)
    return cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _box_side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def _inside(polygon, point) -> bool:
    return cv2.pointPolygonTest(np.array(polygon, np.float32), tuple(map(float, point)), False) >= 0
