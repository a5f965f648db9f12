"""Card recognition: find the corner indices and face-down cards, name each index, merge per card.

>>> from vision.cards.recognise import CardRecogniser   # doctest: +SKIP
>>> cards = CardRecogniser().recognise(cv2.imread("table.jpg"), deck="standard")   # doctest: +SKIP
>>> [(c.id, round(c.confidence, 2)) for c in cards]   # doctest: +SKIP
[('7H', 0.99), ('QS', 0.97), (None, 0.41), ('back', 0.93)]

The stages, each trained and measured on its own (``models/cards/README.md``):

1. the *detector* (``detector.onnx``) marks every printed corner index and every face-down card
   on a stride-4 grid of the picture scaled to a few sizes, with the box size and, for an index,
   its turn on the picture;
2. the *classifier* (``classifier.onnx``) names each index from 48x48 crops of the full picture
   turned upright by a few turns round the detector's; the surest reading gives the card's turn,
   and from it the card's centre;
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

DETECT_SIDES = (800, DETECT_LONG_SIDE, 448, 320)  # stage 1 looks at these scales: indices from 10 to 200 px

MODELS = Path(__file__).resolve().parents[2] / "models" / "cards"
FOUND = 0.3  # detector peak needed to consider an index or a face-down card
NAMED = 0.6  # classifier probability needed to name a card; below, the card is unknown
NOT_AN_INDEX = 0.5  # a crop the classifier calls 'none' this surely is dropped as a false find
CARD_MM = (63.0, 88.0)
INDEX_CENTRE_MM = (6.5, 11.5)  # where a printed index's middle sits on a face, from its corner
DECKTET_INDEX_CENTRE_MM = (6.5, 22.5)  # a Decktet index runs down past its suit icons
# The classifier's crops were cut upright by one direction from an index to its card's centre for
# both decks (exactly: 52 degrees for a standard index, 41 for a Decktet one); the few degrees
# between are well inside the 40 degrees of turn it learned to read through.
UPRIGHT_DEG = 50.0
SURE = 0.9  # stage 2 reads an index named less surely than this at the detector's turn again,
RETRIED_TURNS_DEG = (-30.0, 30.0)  # at these turns round it, and the three reads vote on its name
# Two index finds whose boxes share this much of the smaller one are one index found twice (a second box
# taking in the pip beside it): their readings are pooled, whatever each says. Indices of different
# cards do not overlap: a card's index lies inside its white border.
SAME_INDEX = 0.2


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
        """Stage 1: index boxes (with the detector's ``turn_hint``, degrees) and face-down card
        boxes, in picture pixels. The detector runs at several scales (:data:`DETECT_SIDES`, long
        sides in pixels), so an index photographed from close by is found at the size the detector
        learned; a find seen at several scales is kept once."""
        found = ([], [])
        for side in DETECT_SIDES:
            for channel, finds in enumerate(self._detect_at(image, side)):
                found[channel].extend(finds)
        return _suppress(found[0]), _suppress(found[1])

    def _detect_at(self, image: np.ndarray, long_side: int) -> tuple[list[dict], list[dict]]:
        h, w = image.shape[:2]
        scale = long_side / max(w, h)
        small = cv2.resize(image, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        sh, sw = small.shape[:2]
        ph, pw = -(-sh // 32) * 32, -(-sw // 32) * 32  # the network halves five times
        padded = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
        x = padded.transpose(2, 0, 1)[None].astype(np.float32)
        heat, size, _, turn = self._detector.run(None, {"image": x})  # (the centre vector is unused: too rough)
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
                if channel == 0:  # the detector's own sense of the index's turn
                    entry["turn_hint"] = math.degrees(math.atan2(float(turn[0, 1, gy, gx]), float(turn[0, 0, gy, gx])))
                found[channel].append(entry)
        return found

    def classify(self, image: np.ndarray, indices: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        """Stage 2: class probabilities (calibrated) and embeddings of each found index.

        Which way up an index is, the detector estimates; the crop is read at that turn, and an
        index not named at least :data:`SURE` there is read again at a few turns round it
        (:data:`RETRIED_TURNS_DEG`; the classifier learned to read an index within 40 degrees of
        upright). The turns read vote on the name (summed probabilities); that name's surest read
        is kept, and the index's turn is the middle of the turns read, weighted by how surely each
        named it. That turn is the card's own on the picture: it is written into each index as
        ``turn`` (degrees), and the card's centre is placed from it (``card_centre``), as the
        index sits at a known place on a face."""
        if not indices:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 1), np.float32)
        turns = np.array([i["turn_hint"] for i in indices], np.float64)
        probs, embeddings = self._read(image, indices, turns)
        unsure = np.flatnonzero(_named(probs) < SURE)
        if len(unsure):
            offsets = np.array((0.0, *RETRIED_TURNS_DEG))
            reads = [(probs[unsure], embeddings[unsure])] + [
                self._read(image, [indices[k] for k in unsure], turns[unsure] + d) for d in RETRIED_TURNS_DEG]
            p = np.stack([r[0] for r in reads])  # turn x index x class
            # the turns read vote on the name (one far turn's sure misreading does not outvote two);
            # the name's surest read is kept, and the turn is the middle of where the name was read
            votes = p.sum(axis=0)
            votes[:, INDEX[NONE]] = -1.0
            name = votes.argmax(axis=1)
            weight = p[:, np.arange(len(unsure)), name]  # turn x index
            best = weight.argmax(axis=0)
            probs[unsure] = p[best, np.arange(len(unsure))]
            embeddings[unsure] = np.stack([r[1] for r in reads])[best, np.arange(len(unsure))]
            a = np.radians(offsets)[:, None]
            turns[unsure] += np.degrees(np.arctan2((weight * np.sin(a)).sum(axis=0), (weight * np.cos(a)).sum(axis=0)))
        for i, turn, p in zip(indices, turns, probs):
            i["turn"] = float(turn)
            i["card_centre"] = card_centre(i["box"], i["turn"], CLASSES[int(np.argmax(np.delete(p, INDEX[NONE])))])
        return probs, embeddings

    def _read(self, image: np.ndarray, indices: list[dict], turns) -> tuple[np.ndarray, np.ndarray]:
        crops = np.stack([crop_turned(image, i["box"], float(t)) for i, t in zip(indices, turns)])
        probs, embeddings = self._classifier.run(None, {"crops": crops.transpose(0, 3, 1, 2).astype(np.float32)})
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
        probs, _ = self.classify(image, indices)
        probs = restrict(probs, deck)
        cards = merge(indices, probs)
        for back in backs:
            x0, y0, x1, y1 = back["box"]
            if not any(_inside(c.polygon, ((x0 + x1) / 2, (y0 + y1) / 2)) for c in cards):
                cards.append(CardSeen("back", back["score"], [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        return cards


def _named(probs: np.ndarray) -> np.ndarray:
    """How surely each row of probabilities names a card (its best class other than 'none')."""
    return np.delete(probs, INDEX[NONE], axis=1).max(axis=1)


def _suppress(finds: list[dict]) -> list[dict]:
    """The strongest of finds whose centres lie inside each other's boxes (one thing seen twice)."""
    kept: list[dict] = []
    for f in sorted(finds, key=lambda f: -f["score"]):
        c = ((f["box"][0] + f["box"][2]) / 2, (f["box"][1] + f["box"][3]) / 2)
        if not any(_inside_box(k["box"], c) or _inside_box(f["box"], ((k["box"][0] + k["box"][2]) / 2,
                                                                        (k["box"][1] + k["box"][3]) / 2))
                   for k in kept):
            kept.append(f)
    return kept


def _inside_box(box, point) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


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
            same_card = int(np.argmax(np.delete(probs[j], none))) == name and \
                math.dist(indices[j]["card_centre"], indices[k]["card_centre"]) < reach
            if same_card or _shared(indices[j]["box"], indices[k]["box"]) >= SAME_INDEX:
                group.append(k)  # (boxes sharing this much are one index found twice, however each was read)
                break
        else:  # read as two names, yet placed as the two corners of one card: one card, its name in doubt
            pair = next((g for g in groups if len(g) == 1 and _opposite_corners(indices[g[0]], indices[k])), None)
            if pair is not None:
                pair.append(k)
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
        centre = first["card_centre"]
        # a card's two indices sit half a turn apart round its centre: the middle is exact (two finds
        # turned alike are one index found twice, its box once with a pip beside it)
        other = next((indices[k] for k in group[1:] if _half_a_turn_apart(first, indices[k])), None)
        if other is not None:
            a, b = first["box"], other["box"]
            centre = [(a[0] + a[2] + b[0] + b[2]) / 4, (a[1] + a[3] + b[1] + b[3]) / 4]
        cards.append(CardSeen(card_id, confidence, card_outline(first["box"], centre, best), alternatives,
                              [indices[k]["box"] for k in group]))
    return cards


def _opposite_corners(a: dict, b: dict) -> bool:
    """Whether two indices sit as one card's two corners: turned half a turn from each other, each
    placing the card's centre at the middle between them (within half an index)."""
    half_turn = _half_a_turn_apart(a, b)
    middle = ((a["box"][0] + a["box"][2] + b["box"][0] + b["box"][2]) / 4,
              (a["box"][1] + a["box"][3] + b["box"][1] + b["box"][3]) / 4)
    near = 0.5 * max(_box_side(a["box"]), _box_side(b["box"]))
    return half_turn and all(math.dist(i["card_centre"], middle) < near for i in (a, b))


def _shared(a, b) -> float:
    """How much of the smaller of two boxes lies in the other."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-9, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


def _half_a_turn_apart(a: dict, b: dict) -> bool:
    return abs((a["turn"] - b["turn"]) % 360 - 180) <= 40


def index_centre_mm(name: str) -> tuple[float, float]:
    """Where the middle of ``name``'s printed index sits on its face, from the face's top-left corner."""
    return DECKTET_INDEX_CENTRE_MM if name in DECKS["decktet"] else INDEX_CENTRE_MM


def index_length_mm(name: str) -> float:
    """How long ``name``'s printed index is on its face: it starts 2 mm from the edge and runs as
    far past its middle."""
    return 2 * index_centre_mm(name)[1] - 4.0


def upright_deg(name: str) -> float:
    """The direction (degrees, y down) from an upright card's top-left index to its centre."""
    at = index_centre_mm(name)
    return math.degrees(math.atan2(CARD_MM[1] / 2 - at[1], CARD_MM[0] / 2 - at[0]))


def card_centre(index_box, turn_deg: float, name: str) -> list[float]:
    """Where the card's centre lies, from one of its indices and its turn on the picture: the
    index's middle sits at a known place on a face (:func:`index_centre_mm`), so the centre is a
    known number of index lengths away in a known direction."""
    at = index_centre_mm(name)
    index_long_mm = index_length_mm(name)
    w, h = CARD_MM
    dx, dy = w / 2 - at[0], h / 2 - at[1]  # from the index's middle to the card's, on an upright face
    x0, y0, x1, y1 = index_box
    a = math.radians(turn_deg)
    # the box is the index's bounding box on the picture: turned, it is wider than the index is long
    long_px = max(x1 - x0, y1 - y0) / max(1.0, abs(math.cos(a)) + abs(math.sin(a)) * (at[0] * 2 - 3.0) / index_long_mm)
    k = long_px / index_long_mm
    ex, ey = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    return [(x0 + x1) / 2 + k * (dx * ex[0] + dy * ey[0]), (y0 + y1) / 2 + k * (dx * ex[1] + dy * ey[1])]


def card_outline(index_box, centre, name: str = "") -> list[list[float]]:
    """The card's corners from one index of card ``name`` and the card's centre. The index's
    middle sits at :func:`index_centre_mm` from the face's top-left corner (or half a turn round,
    from the bottom-right), so the line from the card's centre to it fixes the card's size and
    turn (perspective ignored)."""
    x0, y0, x1, y1 = index_box
    c = np.array(centre, np.float64)
    d = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) - c
    w, h = CARD_MM
    at = index_centre_mm(name)
    on_card = np.array([at[0] - w / 2, at[1] - h / 2])
    if np.linalg.norm(d) < 1:
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    turn = math.atan2(d[1], d[0]) - math.atan2(on_card[1], on_card[0])
    k = float(np.linalg.norm(d) / np.linalg.norm(on_card))
    ex = np.array([math.cos(turn), math.sin(turn)])
    ey = np.array([-math.sin(turn), math.cos(turn)])
    quad = [c + k * (sx * w / 2 * ex + sy * h / 2 * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [[float(p[0]), float(p[1])] for p in quad]


def crop_turned(image: np.ndarray, box, turn_deg: float, side_scale: float = CROP_SCALE,
                shift=(0.0, 0.0)) -> np.ndarray:
    """The classifier's input: a CROP x CROP crop of a square around the index ``box`` (x0, y0,
    x1, y1 pixels), its side ``side_scale`` times the box's longer side, turned back by
    ``turn_deg`` (the card's turn on the picture) so the index reads upright, and moved by
    ``shift`` (fractions of the crop's side). Outside the picture the edge pixels repeat."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 2.0) * side_scale
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    k = CROP / side
    if k < 0.5:  # shrinking a lot: smooth first, as INTER_AREA would
        r = int(side * 0.75) + 2
        xa, ya = max(0, int(cx - r)), max(0, int(cy - r))
        patch = image[ya:int(cy + r) + 1, xa:int(cx + r) + 1]
        if patch.size:
            image, cx, cy = cv2.GaussianBlur(patch, (0, 0), 0.3 / k), cx - xa, cy - ya
    m = cv2.getRotationMatrix2D((cx, cy), turn_deg, k)
    m[:, 2] += (CROP / 2 - cx + shift[0] * CROP, CROP / 2 - cy + shift[1] * CROP)
    return cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def crop_upright(image: np.ndarray, box, card_centre, side_scale: float = CROP_SCALE, shift=(0.0, 0.0),
                 turn: float = 0.0) -> np.ndarray:
    """:func:`crop_turned` for an index whose card's centre is known (training): turned so that
    the centre lies in the direction :data:`UPRIGHT_DEG` from the index, as on an upright card;
    ``turn`` (degrees) turns it further, for training."""
    x0, y0, x1, y1 = box
    towards = math.degrees(math.atan2(card_centre[1] - (y0 + y1) / 2, card_centre[0] - (x0 + x1) / 2))
    return crop_turned(image, box, towards - UPRIGHT_DEG + turn, side_scale, shift)


def _box_side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def _inside(polygon, point) -> bool:
    return cv2.pointPolygonTest(np.array(polygon, np.float32), tuple(map(float, point)), False) >= 0
