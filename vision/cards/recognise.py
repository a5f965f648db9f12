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
   and from it the card's centre. An index whose card shows no other corner is read again with a
   faint find lying across the card from it, both at the turn the line between them gives (a find
   there naming another card, less surely, is that covered corner misread, and no card);
3. indices whose cards' centres coincide and whose names agree are one card (its two corners), as
   are two lying a card's index diagonal apart whose reads allow each other's name, and two read as
   one standard card lying as its two corners at the picture's scale (a standard deck holds each
   card once); each corner must allow the card's name (the corners' reads are combined by
   geometric mean). An index in black ink is read as no heart or diamond (:mod:`vision.cards.ink`).

A card whose name is not clear (best probability under :data:`NAMED`) is reported with ``id``
None and its candidates, never guessed. ``deck`` limits the names to one deck's cards.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.cards.classes import (CARD_MM, CLASSES, CROP, CROP_SCALE, DECKS, DECKTET_INDEX_CENTRE_MM, DETECT_LONG_SIDE,
                                  EXCUSE, INDEX, INDEX_CENTRE_MM, NONE, STRIDE, as_no_card)
from vision.cards import grey, ink, whole_face
from vision.cards.runtime import onnx_session

DETECT_SIDES = (800, DETECT_LONG_SIDE, 448, 320)  # stage 1 looks at these scales: indices from 10 to 200 px
# and, for indices larger still (a close-up photo of one card: an index a sixth of the picture across, which
# the detector at 320 boxes unsurely or not at all), at these coarser ones, keeping only the index finds
# there at least COARSE_SHARE of the picture's long side (a real table's indices are about a twentieth of
# it; what a coarse scale boxes smaller is what the finer scales see better). Only a picture where the
# finer scales found fewer than COARSE_UNLESS indices at least COARSE_CLEAR is looked at so: a table shows
# many (each of the 39 real webcam tables at least 6, while 172 of the 176 close-up photos show at most 4),
# and at a coarse scale a pile of a face's pips is boxed as one large index (a 10H's hearts read KD 0.98:
# looked at so, the held-out tables' precision fell from 0.783 to 0.775, their recall from 0.904 to 0.885).
# A rendered table of pyramids, or of Decktet cards, shows few such finds too: the table reader's recogniser
# never looks coarser (``close_ups``), nor does any for the Decktet (:meth:`CardRecogniser.recognise`)
COARSE_SIDES = (256, 192)
COARSE_SHARE = 0.08
COARSE_CLEAR = 0.4
COARSE_UNLESS = 5

MODELS = Path(__file__).resolve().parents[2] / "models" / "cards"
FOUND = 0.3  # detector peak needed to consider an index or a face-down card
FAINT = 0.15  # a fainter index peak is read only where a lone index's card should show its other corner
NAMED = 0.6  # classifier probability needed to name a card; below, the card is unknown
NOT_AN_INDEX = 0.5  # a crop the classifier calls 'none' this surely is dropped as a false find
# The classifier's crops were cut upright by one direction from an index to its card's centre for
# both decks (exactly: 52 degrees for a standard index, 41 for a Decktet one); the few degrees
# between are well inside the 40 degrees of turn it learned to read through.
UPRIGHT_DEG = 50.0
SURE = 0.9  # stage 2 reads an index named less surely than this at the detector's turn again,
RETRIED_TURNS_DEG = (-30.0, 30.0)  # at these turns round it, and the three reads vote on its name;
# one still unsure is read at these sizes of its box (the detector's box round a small index is
# sometimes half its size, cutting the rank off, or half again too large, taking in a pip)
RETRIED_SIZES = (0.7, 1.4, 2.0)
# one still unsure within this many of its box's sides of an index named surely is read at that index's
# turn, in its own box and in one this much smaller: cards of a row or a fan lie alike, and at a far
# camera's 10 px indices the detector's turn may be 60 degrees off and its box twice the index
NEIGHBOUR_SIDES = 4.0
NEIGHBOUR_SIZES = (1.0, 0.6)
# one found at least this surely but read surely as no index is read in a box this much larger: at a far
# camera's 10 px indices the detector's box may cut the rank off
CUT_OFF_FIND = 0.5
CUT_OFF_SIZE = 1.4
# a find named surely is read again in a box it suppressed lying inside it and at most this share of its side
TIGHTER = 0.75
# Two index finds whose boxes share this much of the smaller one are one index found twice (a second box
# taking in the pip beside it): their readings are pooled, whatever each says. Indices of different
# cards do not overlap: a card's index lies inside its white border.
SAME_INDEX = 0.2
SAME_INDEX_SIZE = 2.0  # and the larger box at most this many times the smaller's side
# Two lone finds read as different names are one card's two corners where they lie a card's index
# diagonal apart, its length within this fraction and its direction within these degrees (the finds'
# turns are rough), and either read gives the other's name at least IN_DOUBT
DIAGONAL_LENGTH = 0.25
DIAGONAL_TURN_DEG = 30.0
IN_DOUBT = 0.05
# a faint find this near a lone index's diagonal, in direction and in length (the lone index's box, which
# gives the length, is sometimes half again too large), is read as its other corner
DIAGONAL_SEARCH_DEG = 45.0
DIAGONAL_SEARCH_LENGTH = 0.45
# a find lying a card's index diagonal from a lone index (its length within this fraction), turned half
# round from it, places a card that would cover that index (a face runs past its index by about this
# much) or lie under it: where the lone index shows, such a find is its own card's covered corner, misread
COVERED_LENGTH = 0.15
COVERED_TURN_DEG = 20.0  # and the line turned as the lone index within this (a real 5S lying across a 4D: 27)
# a lone index and a lone find named surely as different cards, the line between them turned as the index
# within this, lie as one card's two corners (:func:`_tip_to_tip`): a fan's next card's corner lies an
# index width aside, 4 degrees off for one turned as this card, and its own top-left index pairs with it
TIP_TURN_DEG = 10.0
# two finds read as one card of the standard deck are its two corners where the line between them is
# as long as a card's index diagonal at the picture's scale (the median of its surely named indices' scales,
# at least SCALE_FINDS of them) within this fraction (on the 20 held-out webcam tables the pairs labelled
# one card's lie within 0.58-1.4 of it), and turned as it within these degrees (they, within 31)
ONE_CARD_LENGTH = 0.45
ONE_CARD_TURN_DEG = 40.0
SCALE_FINDS = 3
# an unnamed find beside a surely named index on its face, turned as it within this, is the pip or the art
# beside it: a box round court art takes its turn partly from the art (a Mongoose trial's JC, the club of its
# picture's frame read JS 0.50 at a turn 45 degrees from the index's, stood as an unknown card; another's crown
# and club, 48 degrees); one turned crosswise may be another card's index
PIP_TURN_DEG = 60.0
# a cell outscored only by a neighbour whose box has at least this many times its side, by at most
# this much, is a find of its own too (a fan's small index boxed by the next cell with a pip beside it)
BESIDE_SIZE = 1.7
BESIDE_TIE = 0.05


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
    whole_face: bool = False  # named from its whole face (a Decktet card), not from its index boxes

    def to_json(self) -> dict:
        return {"id": self.id, "confidence": round(self.confidence, 4),
                "polygon": [[round(x, 1), round(y, 1)] for x, y in self.polygon],
                "alternatives": [[name, round(p, 4)] for name, p in self.alternatives]}


class CardRecogniser:
    """Runs the two ONNX models of ``folder`` (``models/cards`` by default) with ONNX Runtime."""

    def __init__(self, folder: str | Path = MODELS, threads: int = 2, close_ups: bool = True) -> None:
        self.folder = Path(folder)
        self.threads = threads
        # (whether a picture may be a close-up of a card or two, looked at coarser where it shows few
        # indices: a photo may; a camera over a table, as the table reader's, never shows an index so large)
        self.close_ups = close_ups
        self._judged: tuple[np.ndarray, bool] | None = None  # (the picture being recognised, whether it is grey)
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
        try:
            return onnx_session(self.folder / name, self.threads)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise RecognitionError(f"cannot load {self.folder / name}: {exc}; rebuild it with `make models`") from None

    @cached_property
    def classifier_id(self) -> str:
        """A short fingerprint of ``classifier.onnx`` (a learned deck is read by its embeddings, so it
        is tied to the classifier it was taught with)."""
        return hashlib.sha256((self.folder / "classifier.onnx").read_bytes()).hexdigest()[:12]

    @cached_property
    def temperature(self) -> float:
        """The classifier's calibration (fitted by the recipe on renders it did not train on)."""
        meta = self.folder / "calibration.json"
        return float(json.loads(meta.read_text())["temperature"]) if meta.is_file() else 1.0

    # -- the stages ---------------------------------------------------------------------------

    def detect(self, image: np.ndarray, faint: list | None = None,
               coarse: bool | None = None) -> tuple[list[dict], list[dict]]:
        """Stage 1: index boxes (with the detector's ``turn_hint``, degrees) and face-down card
        boxes, in picture pixels. The detector runs at several scales (:data:`DETECT_SIDES`, long
        sides in pixels), so an index photographed from close by is found at the size the detector
        learned; a find seen at several scales is kept once. ``faint``, where given, receives the
        index finds the detector was less sure of (:data:`FAINT`) that no surer find covers: they
        are read only where a card's other corner should lie (:meth:`other_corners`). A picture
        showing few indices is looked at coarser too (:data:`COARSE_SIDES`), as a close-up photo may
        be, where ``coarse`` (by default the recogniser's ``close_ups``) allows it."""
        found = ([], [])
        for side in DETECT_SIDES:
            for channel, finds in enumerate(self._detect_at(image, side)):
                found[channel].extend(finds)
        indices = _suppress([f for f in found[0] if f["score"] >= FOUND])
        if (self.close_ups if coarse is None else coarse) and \
                sum(i["score"] >= COARSE_CLEAR for i in indices) < COARSE_UNLESS:  # (few indices show)
            large = COARSE_SHARE * max(image.shape[:2])
            for side in COARSE_SIDES:
                found[0].extend(f for f in self._detect_at(image, side)[0] if _box_side(f["box"]) >= large)
            indices = _suppress([f for f in found[0] if f["score"] >= FOUND])
        if faint is not None:  # (all kept, however they overlap: the best boxed may not be the surest)
            fainter = [f for f in found[0] if f["score"] < FOUND]
            covered = _one_thing_with_any([f["box"] for f in fainter], [i["box"] for i in indices])
            faint.extend(f for f, c in zip(fainter, covered) if not c)
        return indices, _suppress(found[1])

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
            peaks = (grid >= (FAINT if channel == 0 else FOUND)) & (grid == cv2.dilate(grid, np.ones((3, 3), np.uint8)))
            if channel == 0:
                peaks |= _peaks_beside_larger_boxes(grid, size[0].max(axis=0))
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

        Which way up an index is, and how large, the detector estimates; the crop is read at that
        turn and size. An index not named at least :data:`SURE` there is read again at a few turns
        round it (:data:`RETRIED_TURNS_DEG`; the classifier learned to read an index within 40
        degrees of upright): the turns read vote on the name (summed probabilities), that name's
        surest read is kept, and the index's turn is the middle of the turns read, weighted by how
        surely each named it. One still not named surely (and not read surely as no index at all:
        a larger box round a pip would only take in the neighbouring index) is read again at that
        turn with smaller and larger boxes (:data:`RETRIED_SIZES`: a box too small cuts the rank
        off, one too large takes in a pip and shrinks the rank); where one of them names it
        surely (a larger one only a name some turn's read gave at least :data:`IN_DOUBT`), its read
        is kept, and a smaller box that named it replaces the detector's (the card's centre and
        outline are placed from the box's size; a larger one is kept as found, as the classifier
        reads a well-boxed index surely from a crop somewhat too large too, so
        such a read is no measure of the index's size). One still not named surely is read in the
        boxes stage 1 suppressed as the same thing (``alike``, :func:`_suppress`), each at its own
        turn: the surest read naming a card surely replaces it, and any other one lying apart from
        every index named surely is added as an index (``indices`` grows, and the returned rows with
        it). The turn is the card's own on the picture:
        it is written into each index as ``turn`` (degrees), and the card's centre is placed from
        it (``card_centre``), as the index sits at a known place on a face."""
        if not indices:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 1), np.float32)
        turns = np.array([i["turn_hint"] for i in indices], np.float64)
        probs, embeddings = self.read_turned(image, indices, turns)
        unsure = np.flatnonzero(_named(probs) < SURE)
        doubted = probs.copy()  # (each name's most any turn read gave it)
        if len(unsure):
            at = [indices[k] for k in unsure]
            reads = [(probs[unsure], embeddings[unsure])] + self._read_each(
                image, [(at, turns[unsure] + d) for d in RETRIED_TURNS_DEG])
            doubted[unsure] = np.max([p for p, _ in reads], axis=0)
            weight = _vote(reads, unsure, probs, embeddings)  # read x index
            a = np.radians((0.0, *RETRIED_TURNS_DEG))[:, None]
            turns[unsure] += np.degrees(np.arctan2((weight * np.sin(a)).sum(axis=0), (weight * np.cos(a)).sum(axis=0)))
        # one still unclear (and not surely no index: a larger box round a pip would take in the
        # index beside it) is read with smaller and larger boxes; one that names it surely wins, a larger
        # box naming a standard card only with a name some turn's read left in doubt (:data:`IN_DOUBT`): at
        # a turn 50 degrees off, a box twice too large round a fan's small index takes in the next card's
        # (Mongoose trials: a 5H read 9H, 9D, 7H at its three turns read 4D 0.98 so, a QS read QS, KS read KD
        # 0.96). A Decktet index boxed round its rank alone reads nothing at its turns, and right so (held to
        # it, the rendered Decktet tables' recall fell from 0.60 to 0.55)
        unclear = np.flatnonzero((_named(probs) < SURE) & (probs[:, INDEX[NONE]] < NOT_AN_INDEX))
        if len(unclear):
            best, sized, sized_embeddings = self._read_resized(image, [indices[k] for k in unclear], turns[unclear])
            for n, (k, b) in enumerate(zip(unclear, best)):
                name = _best_name(sized[n])
                if _named(sized[n][None])[0] >= SURE and (
                        RETRIED_SIZES[b] < 1 or name not in DECKS["standard"] or doubted[k, INDEX[name]] >= IN_DOUBT):
                    probs[k], embeddings[k] = sized[n], sized_embeddings[n]
                    if RETRIED_SIZES[b] < 1:  # the index fits a smaller box: the detector's took in pips
                        indices[k]["box"] = _resized(indices[k]["box"], RETRIED_SIZES[b])
        # one still unclear beside an index named surely is read at that index's turn (a row's or a fan's cards
        # lie alike), in its own box and a smaller one; a read naming it surely wins, a smaller box with it
        unclear = np.flatnonzero((_named(probs) < SURE) & (probs[:, INDEX[NONE]] < NOT_AN_INDEX))
        beside = _nearest_named(indices, np.flatnonzero(_named(probs) >= SURE), unclear)
        if beside:
            sizes, sized, sized_embeddings = self._read_resized(
                image, [indices[k] for k, _ in beside], [turns[n] for _, n in beside], NEIGHBOUR_SIZES)
            for m, (k, n) in enumerate(beside):
                if _named(sized[m][None])[0] >= SURE:
                    probs[k], embeddings[k], turns[k] = sized[m], sized_embeddings[m], turns[n]
                    indices[k]["box"] = _resized(indices[k]["box"], NEIGHBOUR_SIZES[sizes[m]])
        # one found clearly but read surely as no index is read in a larger box (its rank may be cut off); a sure
        # name is kept unless a find inside that box names it already (a larger box round a pip takes in an index)
        cut = [k for k in np.flatnonzero(probs[:, INDEX[NONE]] >= NOT_AN_INDEX) if indices[k].get("score", 0) >= CUT_OFF_FIND]
        if cut:
            larger = [_resized(indices[k]["box"], CUT_OFF_SIZE) for k in cut]
            p, e = self.read_turned(image, [{"box": b} for b in larger], turns[cut])
            sure = [(_best_name(probs[j]), _middle(indices[j]["box"])) for j in np.flatnonzero(_named(probs) >= SURE)]
            for n, k in enumerate(cut):
                name = _best_name(p[n])
                if _named(p[n][None])[0] >= SURE and not any(
                        other == name and _inside_box(larger[n], at) for other, at in sure):
                    probs[k], embeddings[k], indices[k]["box"] = p[n], e[n], larger[n]
        # one named surely in a box much larger than one it suppressed lying inside it (a coarse box
        # round the index and the pips beside it, which the table reader takes for no index: the
        # demo's 5D, boxed half again too large) is read in that smaller box at its turn; where that
        # names the same card surely, the smaller box is the index's (as a smaller retried size's)
        tight = [(k, a) for k in np.flatnonzero(_named(probs) >= SURE) for a in indices[k].get("alike", [])
                 if _box_side(a["box"]) <= TIGHTER * _box_side(indices[k]["box"])
                 and _inside_box(indices[k]["box"], _middle(a["box"]))]
        if tight:
            p, e = self.read_turned(image, [a for _, a in tight], [turns[k] for k, _ in tight])
            for n in np.argsort(-_named(p)):
                k, a = tight[n]
                if _named(p[n][None])[0] >= SURE and _best_name(p[n]) == _best_name(probs[k]) and \
                        _box_side(a["box"]) < _box_side(indices[k]["box"]):
                    indices[k]["box"], probs[k], embeddings[k] = a["box"], p[n], e[n]
        # one still unclear is read in the boxes it suppressed as the same thing (stage 1's
        # ``alike``: at a coarse scale a box round a pip or spanning two indices of a fan can outscore
        # the fine boxes round the indices themselves); the surest read that names a card surely
        # takes its place, and any other that does, lying apart from every index, is an index too.
        # So is the larger of two finds named surely as different cards whose boxes are one index found
        # twice (:func:`_twice_found`): a box spanning two indices of a fan names one of them, and
        # would leave the card in doubt and the other index unread
        unclear = [k for k in sorted({*np.flatnonzero(_named(probs) < SURE), *_torn(indices, probs)})
                   if indices[k].get("alike")]
        if unclear:
            alike = [(k, a) for k in unclear for a in indices[k]["alike"]]
            p, e = self.read_turned(image, [a for _, a in alike], [a["turn_hint"] for _, a in alike])
            replaced, more = set(), []
            named = [indices[k] for k in np.flatnonzero(_named(probs) >= SURE)]  # (an unclear find may be a pip)
            for n in np.argsort(-_named(p)):
                k, a = alike[n]
                if _named(p[n][None])[0] < SURE or p[n, INDEX[NONE]] >= NOT_AN_INDEX:
                    break
                if k not in replaced:
                    replaced.add(k)
                    probs[k], embeddings[k], turns[k] = p[n], e[n], a["turn_hint"]
                    indices[k].update(box=a["box"], turn_hint=a["turn_hint"])
                    named.append(indices[k])
                elif not any(_one_thing(a, i) for i in named):
                    indices.append({**a, "alike": []})
                    named.append(indices[-1])
                    more.append(n)
            if more:
                probs, embeddings = np.vstack([probs, p[more]]), np.vstack([embeddings, e[more]])
                turns = np.append(turns, [alike[n][1]["turn_hint"] for n in more])
        for i, turn, p in zip(indices, turns, probs):
            i["turn"] = float(turn)
            i["card_centre"] = card_centre(i["box"], i["turn"], CLASSES[int(np.argmax(np.delete(p, INDEX[NONE])))])
        return probs, embeddings

    def read_turned(self, image: np.ndarray, indices: list[dict], turns) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's reads of ``indices`` (finds with a ``box``), each turned back by its turn in
        ``turns`` (degrees): class probabilities and embeddings, one row per find."""
        crops = np.stack([crop_turned(image, i["box"], float(t)) for i, t in zip(indices, turns)])
        probs, embeddings = self._classifier.run(None, {"crops": crops.transpose(0, 3, 1, 2).astype(np.float32)})
        if self.temperature != 1.0:
            logits = np.log(np.clip(probs, 1e-12, 1)) / self.temperature
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
        if self._without_colour(image):  # (the ink's colour is not in the picture: the sign's shape tells a diamond)
            probs = grey.suits_by_shape(probs, image, [i["box"] for i in indices],
                                        [_resized(i["box"], grey.WIDER) for i in indices], turns)
        else:  # (an index in black ink is no heart or diamond, whatever its hidden sign looked like)
            probs = ink.black_suits(probs, image, [i["box"] for i in indices])
        return probs, embeddings

    def _without_colour(self, image: np.ndarray) -> bool:
        """:func:`grey.without_colour` of ``image``, judged once while :meth:`recognise` works on it (each
        of its dozen reads asked it anew: about a millisecond each)."""
        if self._judged is not None and self._judged[0] is image:
            return self._judged[1]
        return grey.without_colour(image)

    def _read_resized(self, image: np.ndarray, finds: list[dict], turns,
                      sizes=RETRIED_SIZES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each of ``finds`` read at its turn in ``turns`` in its box resized by each of ``sizes`` (one run
        of the classifier): per find, which size named a card surest (the first such), and that read's
        probabilities and embedding."""
        reads = self._read_each(image, [([{**f, "box": _resized(f["box"], s)} for f in finds], turns)
                                        for s in sizes])
        best = np.stack([_named(p) for p, _ in reads]).argmax(axis=0)  # (size x find: the first surest)
        rows = np.arange(len(finds))
        return best, np.stack([p for p, _ in reads])[best, rows], np.stack([e for _, e in reads])[best, rows]

    def _read_each(self, image: np.ndarray,
                   batches: list[tuple[list[dict], np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`read_turned` of several batches of indices and turns, in one run of the classifier (a run
        has a cost of its own besides its crops'); a read is bit for bit the same whatever it is
        batched with."""
        probs, embeddings = self.read_turned(image, [i for indices, _ in batches for i in indices],
                                       np.concatenate([np.asarray(turns, np.float64) for _, turns in batches]))
        ends = np.cumsum([len(indices) for indices, _ in batches])[:-1]
        return list(zip(np.split(probs, ends), np.split(embeddings, ends)))

    def recognise(self, image: np.ndarray, deck: str = "auto", among: frozenset[str] | None = None) -> list[CardSeen]:
        """Every card in ``image`` (BGR): stages 1-3; for Decktet cards (``deck`` decktet, or auto
        where stage 3 named more Decktet cards than standard ones) also the whole-face stage (:mod:`vision.cards.whole_face`),
        merged with stage 3's cards."""
        if deck not in ("auto", *DECKS):
            raise ValueError(f"unknown deck {deck!r}; choose auto, {', '.join(DECKS)}")
        if among is not None and not among <= set(CLASSES) - {NONE}:
            raise ValueError(f"unknown card names: {', '.join(sorted(among - set(CLASSES)))}")
        self._judged = (image, grey.without_colour(image))
        try:
            return self._recognise(image, deck, among)
        finally:
            self._judged = None

    def _recognise(self, image: np.ndarray, deck: str, among: frozenset[str] | None) -> list[CardSeen]:
        faint: list[dict] = []
        # (not for the Decktet: its indices are found less surely, and a table of them, showing few finds
        # scoring COARSE_CLEAR, would be looked at coarser, where its faces' art is boxed as indices)
        indices, backs = self.detect(image, faint, coarse=self.close_ups and deck != "decktet")
        probs, _ = self.classify(image, indices)
        probs = restrict(probs, deck, among)
        probs = self.other_corners(image, indices, probs, faint, deck, among)
        cards = merge(indices, probs)
        # Decktet cards are named from their whole face too (vision/cards/whole_face.py): for the Decktet,
        # or for a picture of either deck where the index stage named more Decktet cards than standard ones
        # (the stage costs 110-170 ms a frame, which a table of standard cards need not pay; on one the
        # index stage names a Decktet card now and then: on 4 of 20 rendered tables of 8 cards)
        named = [c.id in DECKS["decktet"] for c in cards if c.id not in (None, "back")]
        decktet = deck == "decktet" or (deck == "auto" and sum(named) > len(named) - sum(named))
        faces = whole_face.reader(self.folder, self.threads) if decktet else None
        if faces is not None:
            # (outlines laid out by the index stage are read where it was unsure: the rest cost time only)
            also = [c.polygon for c in cards if c.confidence < SURE] + whole_face.outlines_of_indices(
                [i for i, p in zip(indices, probs) if p.max() < SURE])
            cards = whole_face.with_whole_faces(cards, faces.read(image, also=also, among=among))
            # cards of a fanned pile showing only an index, read as their neighbours lie
            finds = [f for i in indices for f in (i, *i.get("alike", ()))] + faint
            cards = whole_face.with_covered_indices(self, image, cards, finds, among)
        for back in backs:
            x0, y0, x1, y1 = back["box"]
            if not any(_inside(c.polygon, ((x0 + x1) / 2, (y0 + y1) / 2)) for c in cards):
                cards.append(CardSeen("back", back["score"], [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        return cards

    def other_corners(self, image: np.ndarray, indices: list[dict], probs: np.ndarray, faint: list[dict],
                      deck: str = "auto", among: frozenset[str] | None = None) -> np.ndarray:
        """Stage 2 for an index whose card shows no other corner: a faint find (``faint``, from
        :meth:`detect`) lying a card's index diagonal from it (:func:`_across_the_card`), and
        turned by the detector roughly half round from it, may be that corner. The line between
        the two gives the card's turn more exactly than the detector's hint (often 30 degrees off,
        enough to take a club for a spade), so the faint finds are read at it; the one read surest
        as an index (at least :data:`SURE`) is then the corner, and the lone index is read again at
        the line's turn. The corner is added to ``indices`` (its read as the returned
        probabilities' last row, and ``corner_of``: the lone index's number, for :func:`merge` to
        pair them) where it names the same card as that new read, or one the two reads leave in
        doubt (:func:`_names_in_doubt`), and the new read replaces the lone index's. A faint find
        naming another card is left out: it is no corner of this one, and too faint to be a card.
        Most lone indices are the top-left ones of a fan, whose other corners lie under the next
        card: their faint finds are pips, read as no index or unsurely, so one read each.

        An index found surely but not paired that lies there is a candidate too (its turn read far
        off, where a spade looks like a club, it names another card): read at the line's turn it is
        taken as the corner when it then names the same card as the lone index's new read, however
        unsurely; one named unsurely before that reads there surely as no index is set to none, where
        the lone index is named surely (what shows of its covered corner by the edge of the card over
        it; a lone find named unsurely may be a pip, and vouches for no corner). A found index named
        by nothing surely (:data:`NAMED`) is a candidate whatever its turn, taken as the corner only
        where it reads there surely and the lone index keeps its name. So is a found index lying where
        the lone index places its card's other corner (:func:`_at_the_other_corner`), whatever its turn
        and name, read there in smaller and larger boxes too (:data:`RETRIED_SIZES`); one that is a
        candidate for that only is, unpaired, left as it was read. One lone itself that
        still names another card there, lying as the covered corner of a lone index named surely and
        more surely than it that found no corner (:func:`_covered_corner`), is set to none too:
        no card of its own could lie there while that index shows."""
        names = [_best_name(p) for p in probs]
        live = [k for k in range(len(indices)) if probs[k, INDEX[NONE]] < NOT_AN_INDEX]
        # (an index lying as a card's other corner names it, or one the two reads leave in doubt, as
        # :func:`merge` pairs)
        unpaired = [k for k in live if not any(j != k and _diagonal_apart(indices[j], indices[k], names[k]) and
                                               _names_in_doubt(probs[j], probs[k]) for j in live)]
        # (a find of its name lying as its other corner, and not paired as another card's, shows it too)
        lone = [k for k in unpaired if not any(j != k and j in unpaired and names[j] == names[k] and
                                               _lies_as_other_corner(indices[k], indices[j], names[k]) for j in live)]
        surely_lone = [k for k in unpaired if not any(j != k and j in unpaired and names[j] == names[k] and _named(
            probs[j][None])[0] >= SURE and _lies_as_other_corner(indices[k], indices[j], names[k]) for j in live)]
        # the candidates for a lone index's other corner: the faint finds, and the other unpaired indices
        # (a corner read at a turn far off names another card, and cannot be paired as this one's)
        candidates = [(find, None) for find in faint] + [(indices[j], j) for j in unpaired]
        pairs = []  # (lone index, candidate, the card's turn from the line between them)
        loose = set()  # (pairs whose candidate's turn is no corner's: it must read there surely as the lone index)
        at_corner = set()  # (loose pairs whose candidate lies at the lone index's other corner: read at more sizes)
        only_placed = set()  # (and those paired for that only: the candidate is no covered corner set to none below)
        for k in lone:
            for c, (find, j) in enumerate(candidates):  # (turned by the detector about half round from it, too)
                turns = [find["turn_hint"]] if j is None else [find["turn_hint"], find["turn"]]
                half_round = any(abs(_wrapped(t - indices[k]["turn"] - 180.0)) <= 2 * DIAGONAL_TURN_DEG for t in turns)
                # (or a found index naming the same card, however far off its turn was read: the demo's TD
                # played beside the pool, its top-left index read TD 0.65 at a turn 80 degrees off)
                same_name = j is not None and names[j] == names[k]
                # (or a found index named by nothing surely, whose turn says nothing: the demo's AH's covered
                # corner, by the 4H's edge, read 6D 0.14 at a turn 86 degrees from it, stood as an unknown
                # card; it is paired only where it reads there surely, and the lone index keeps its name)
                unnamed = j is not None and _named(probs[j][None])[0] < NAMED
                # (or a lone found index turned crosswise to it, neither as it nor half round: it is paired only
                # where it reads there surely as the lone index does, else it may be that index's covered corner
                # misread, below -- the demo's discarded 9H's bottom-right corner by the 5D's edge, read 7D 0.94
                # at a turn 104 degrees off; a card lying on this one's corner, turned as it, is left alone)
                unnamed = unnamed or (j in lone and all(abs(_wrapped(t - indices[k]["turn"] - h)) > 2 * DIAGONAL_TURN_DEG
                                                        for t in turns for h in (0.0, 180.0)))
                # (or a found index, turned any way, lying where the lone index places its card's other corner
                # (:func:`_at_the_other_corner`): paired where it reads there surely as the lone index, in its box or
                # a smaller or larger one (:data:`RETRIED_SIZES`, as stage 2 reads an unclear index) -- Mongoose
                # trial 8's 2D, its upside-down bottom-right index read QH 0.73 at a turn 45 degrees off, laid out
                # as a card across the 4S and 8S; read at the 2D's turn, 2D 0.81, in a box 1.4 times as large 2D 0.97)
                placed = j is not None and _at_the_other_corner(indices[k], find)
                if j != k and (half_round or same_name or unnamed or placed) and _across_the_card(
                        indices[k], find, names[k], DIAGONAL_SEARCH_DEG):
                    (ax, ay), (bx, by) = _middle(indices[k]["box"]), _middle(find["box"])
                    pairs.append((k, c, math.degrees(math.atan2(by - ay, bx - ax)) - upright_deg(names[k])))
                    if not (half_round or same_name):
                        loose.add((k, c))
                        if placed:
                            at_corner.add((k, c))
                        if placed and not unnamed:
                            only_placed.add((k, c))
        if not pairs:
            return probs
        # the candidates first: most faint finds are pips or other cards' faces, read as no index or unsurely
        reads, _ = self.read_turned(image, [candidates[c][0] for _, c, _ in pairs], [t + 180.0 for _, _, t in pairs])
        # (one lying at the lone index's other corner, read there unsurely, is read in smaller and larger boxes too)
        wider = [n for n, (k, c, _) in enumerate(pairs) if (k, c) in at_corner and _named(reads[n][None])[0] < SURE]
        if wider:
            _, sized, _ = self._read_resized(image, [candidates[pairs[n][1]][0] for n in wider],
                                             [pairs[n][2] + 180.0 for n in wider])
            for m, n in enumerate(wider):
                if _named(sized[m][None])[0] > _named(reads[n][None])[0]:
                    reads[n] = sized[m]
        # the candidates read as an index (a faint find surely, as most are pips; a found index may name
        # its card unsurely, and must then name the same as the lone index), surest first; the lone
        # index is read again at each line's turn
        corners = [(k, c, turn, corner) for (k, c, turn), corner in zip(pairs, restrict(reads, deck, among))
                   if (candidates[c][1] is not None or _named(corner[None])[0] >= SURE)
                   and corner[INDEX[NONE]] < NOT_AN_INDEX]
        # a found index named unsurely, read there surely as no index, is what shows of a surely named
        # lone index's covered corner (a sliver by the edge of the card over it): none
        for (k, c, turn), corner in zip(pairs, restrict(reads, deck, among)):
            j = candidates[c][1]
            if j is not None and corner[INDEX[NONE]] >= NOT_AN_INDEX and _named(probs[j][None])[0] < SURE \
                    and _named(probs[k][None])[0] >= SURE and (k, c) not in only_placed:
                probs[j] = corner
        added, used, paired = [], set(), set()  # (candidates used; indices paired)
        if corners:
            corners.sort(key=lambda kctc: -_named(kctc[3][None])[0])
            again, _ = self.read_turned(image, [indices[k] for k, _, _, _ in corners], [turn for _, _, turn, _ in corners])
            for (k, c, turn, corner), read in zip(corners, restrict(again, deck, among)):
                find, j = candidates[c]
                # (a found index, read surely as a card already, must name the same one: two found indices
                # lie a diagonal apart by chance, as a fan's top-left one and its neighbour's bottom-right)
                if c in used or k in paired or read[INDEX[NONE]] >= NOT_AN_INDEX or (_best_name(read) != _best_name(
                        corner) and (j is not None or not _names_in_doubt(read, corner))) or \
                        ((k, c) in loose and (_best_name(read) != names[k] or _named(corner[None])[0] < SURE)):
                    continue  # another card's index (or claimed already, or the line's turn is no index's)
                used.update(n for n, (_, i) in enumerate(candidates) if n == c or i == k)
                paired.update((k, j))
                probs[k] = read
                indices[k]["turn"] = _wrapped(turn)
                indices[k]["card_centre"] = card_centre(indices[k]["box"], indices[k]["turn"], _best_name(read))
                other = find if j is not None else {**find}
                other.update(turn=_wrapped(turn + 180.0), corner_of=k)
                other["card_centre"] = card_centre(other["box"], other["turn"], _best_name(corner))
                if j is not None:  # a found index, read again at the line's turn
                    probs[j] = corner
                else:
                    indices.append(other)
                    added.append(corner)
        # a lone found index lying there as the other corner of a surely (and more surely) named lone index
        # that found no corner, read there as another card still, is that card's covered corner misread
        # (what shows of it by the edge of the card over it, boxed with a pip: the demo's pool 6C's
        # bottom-right corner, half under the 8C, read 4C 0.89): no card could lie there with the lone
        # index showing (:func:`_covered_corner`); the surest lone indices first (one so dropped has no say)
        surest = np.argsort(-_named(probs[[k for k, _, _ in pairs]]), kind="stable")
        scale = _picture_px_per_mm(indices, probs, live)
        for (k, c, turn), corner in (list(zip(pairs, restrict(reads, deck, among)))[n] for n in surest):
            j = candidates[c][1]
            if j is None or {j, k} & paired or (k, c) in only_placed:
                continue
            if j in lone and _covered_corner(indices[k], indices[j], turn, probs[k], probs[j], corner, scale):
                probs[j] = np.eye(len(CLASSES), dtype=probs.dtype)[INDEX[NONE]]
            # one named surely as another card lying exactly there, turned half round, is that card's own
            # corner read surely as another name (the demo's discarded 8D's bottom-right corner, by the
            # edge of the card over it, read 9D 0.99 where its top-left index reads 8D 0.99): the card is
            # one, its name in doubt between the two reads, and the referee takes the legal one. (A find
            # named unsurely as that name, lying as the find's other corner, does not make it a card: the
            # demo's box round the 8D's pips beside its index, read 9D 0.62)
            elif j in surely_lone and _tip_to_tip(indices[k], indices[j], turn, probs[k], probs[j], corner):
                paired.update((k, j))
                probs[j] = corner
                indices[j].update(turn=_wrapped(turn + 180.0), corner_of=k)
                indices[j]["card_centre"] = card_centre(indices[j]["box"], indices[j]["turn"], _best_name(corner))
        return np.vstack([probs, *[p[None] for p in added]]) if added else probs


def _nearest_named(indices: list[dict], named: np.ndarray, unclear: np.ndarray) -> list[tuple[int, int]]:
    """For each of ``unclear`` (rows of ``indices``), the nearest of ``named`` within
    :data:`NEIGHBOUR_SIDES` of its box's longer side, as (unclear row, named row) pairs."""
    if not len(named) or not len(unclear):
        return []
    middles = np.array([_middle(i["box"]) for i in indices])
    pairs = []
    for k in unclear:
        far = np.hypot(*(middles[named] - middles[k]).T)
        n = int(np.argmin(far))
        if far[n] <= NEIGHBOUR_SIDES * _box_side(indices[k]["box"]):
            pairs.append((int(k), int(named[n])))
    return pairs


_IS_NONE = np.arange(len(CLASSES)) == INDEX[NONE]


def _best_name(p: np.ndarray) -> str:
    """The card a read names best (whatever its probability of being no index)."""
    return CLASSES[int(np.argmax(np.where(_IS_NONE, -1.0, p)))]


def _torn(indices: list[dict], probs: np.ndarray) -> set[int]:
    """The larger find of each pair named surely as different cards whose boxes are one index
    found twice: one of them is misread, and the larger box, taking in more than an index, the likelier."""
    sure = [k for k in np.flatnonzero(_named(probs) >= SURE)]
    names = {k: _best_name(probs[k]) for k in sure}
    return {max((j, k), key=lambda n: _box_side(indices[n]["box"])) for a, j in enumerate(sure) for k in sure[a + 1:]
            if names[j] != names[k] and _twice_found(indices[j]["box"], indices[k]["box"])}


def _wrapped(deg: float) -> float:
    return float((deg + 180.0) % 360.0 - 180.0)


def _across_the_card(a: dict, b: dict, name: str, within_deg: float) -> bool:
    """Whether find ``b`` (its turn unknown) lies where card ``name``'s other index should be,
    seen from index ``a``: a card's index diagonal away (within :data:`DIAGONAL_SEARCH_LENGTH`), in
    the diagonal's direction from ``a``'s turn within ``within_deg``."""
    (ax, ay), (bx, by) = _middle(a["box"]), _middle(b["box"])
    along = math.degrees(math.atan2(by - ay, bx - ax)) - a["turn"] - upright_deg(name)
    expected = _diagonal_mm(name) * _px_per_mm(a["box"], a["turn"], name)
    return abs((along + 180) % 360 - 180) <= within_deg and \
        abs(math.dist((ax, ay), (bx, by)) / expected - 1) <= DIAGONAL_SEARCH_LENGTH


def _at_the_other_corner(index: dict, find: dict) -> bool:
    """Whether ``find``'s middle lies within a box's side of where ``index`` places its card's other
    index (``index`` mirrored through the card's centre it places), the two boxes index-sized alike
    (:data:`SAME_INDEX_SIZE`). A card's index lies at a corner of its own card: another card's index lying
    exactly there, where this card's corner shows or is covered, is rare; this card's own corner, its turn
    misread, is not."""
    (ix, iy), (cx, cy) = _middle(index["box"]), index["card_centre"]
    sides = sorted((_box_side(index["box"]), _box_side(find["box"])))
    return sides[1] <= SAME_INDEX_SIZE * sides[0] and \
        math.dist(_middle(find["box"]), (2 * cx - ix, 2 * cy - iy)) <= _box_side(index["box"])


def _covered_corner(index: dict, find: dict, turn: float, named: np.ndarray, found: np.ndarray,
                    there: np.ndarray, px_per_mm: float | None = None) -> bool:
    """Whether ``find``, a found index (read ``found`` at its own turn, ``there`` at ``turn``, the
    card's turn the line from ``index`` gives), is the covered other corner of the lone ``index``'s
    card (read ``named``), misread: ``index`` is named surely (:data:`SURE`) and more surely than
    ``find`` was, and turned as the line (within :data:`COVERED_TURN_DEG`); ``find``, read at
    the line's turn, still names a card, but another one (read as the same, it pairs as the
    corner); the two boxes are index-sized alike (:data:`SAME_INDEX_SIZE`: a box round pips
    is no index, and gives no length); and the line is as long as the card's index diagonal
    (within :data:`COVERED_LENGTH`) at the index box's scale or the picture's (``px_per_mm``, where
    known: :func:`_picture_px_per_mm`; a box half again too large, round a 10's two digits, makes the
    line look short). A card of its own whose index lay there, turned half round
    from this one, would reach over this card's index, or lie under this card with its index
    hidden: it is no card."""
    if there[INDEX[NONE]] >= NOT_AN_INDEX or _named(named[None])[0] < SURE:
        return False
    name = _best_name(named)
    sides = sorted((_box_side(index["box"]), _box_side(find["box"])))
    if _named(found[None])[0] >= _named(named[None])[0] or _best_name(there) == name or \
            abs(_wrapped(index["turn"] - turn)) > COVERED_TURN_DEG or sides[1] > SAME_INDEX_SIZE * sides[0]:
        return False
    length = math.dist(_middle(index["box"]), _middle(find["box"])) / _diagonal_mm(name)
    return any(abs(length / scale - 1) <= COVERED_LENGTH
               for scale in (_px_per_mm(index["box"], turn, name), px_per_mm) if scale)


def _tip_to_tip(index: dict, find: dict, turn: float, named: np.ndarray, found: np.ndarray,
                there: np.ndarray) -> bool:
    """Whether ``find``, a lone found index named surely (:data:`SURE`, read ``found`` at its own
    turn, ``there`` at ``turn``, the card's turn the line from ``index`` gives) as another card than
    the lone ``index`` (named surely too, ``named``), lies exactly as that card's other corner:
    the two half a turn apart, ``index`` turned as the line within :data:`TIP_TURN_DEG`, the line
    as long as the card's index diagonal (within :data:`DIAGONAL_LENGTH`) measured by either box
    (one card's two indices are alike in size: a box round court art, half again an index's side,
    read KD 0.97 a card's length from the 7C in bob's fan, gives no length), and ``find`` read at
    the line's turn still surely an index.
    A card of its own whose index lay there would lie on this card, face on face, and hide
    ``index``, or under it with its own index hidden: ``find`` is this card's corner misread (or
    ``index`` is), and the card one, its name in doubt between the two."""
    if min(_named(np.stack([named, found, there]))) < SURE or there[INDEX[NONE]] >= NOT_AN_INDEX or \
            _best_name(found) == _best_name(named) or not _half_a_turn_apart(index, find):
        return False
    name = _best_name(named)
    if abs(_wrapped(index["turn"] - turn)) > TIP_TURN_DEG:
        return False
    length = math.dist(_middle(index["box"]), _middle(find["box"]))
    return all(abs(length / (_diagonal_mm(name) * _px_per_mm(box, t, name)) - 1) <= DIAGONAL_LENGTH
               for box, t in ((index["box"], turn), (find["box"], turn + 180.0)))


def _lies_as_other_corner(index: dict, find: dict, name: str) -> bool:
    """Whether ``find``, read as card ``name`` as ``index`` is, lies as its card's other corner: half
    a turn from it, placing the card's centre alike (:func:`_same_card`), and no farther from it than
    :data:`DIAGONAL_SEARCH_LENGTH` past the card's index diagonal (an 8C's bottom-right corner, read
    6C 0.7 in camera frames a card and a half from the 6C's index, is no corner of the 6C)."""
    reach = (1 + DIAGONAL_SEARCH_LENGTH) * _diagonal_mm(name) * _px_per_mm(index["box"], index["turn"], name)
    return _half_a_turn_apart(index, find) and _same_card(find, index) and \
        math.dist(_middle(index["box"]), _middle(find["box"])) <= reach


def _diagonal_mm(name: str) -> float:
    """How far apart card ``name``'s two index middles lie on its face."""
    at = index_centre_mm(name)
    return 2 * math.hypot(CARD_MM[0] / 2 - at[0], CARD_MM[1] / 2 - at[1])


def _vote(reads: list[tuple[np.ndarray, np.ndarray]], rows: np.ndarray, probs: np.ndarray,
          embeddings: np.ndarray) -> np.ndarray:
    """Several reads of the indices ``rows`` (each a pair of probabilities and embeddings) vote on
    each one's name by their summed probabilities (one read's sure misreading does not outvote the
    others); the name's surest read replaces the row of ``probs`` and ``embeddings``. Returns how
    surely each read named the winner (read x index), to weigh where it was read."""
    p = np.stack([r[0] for r in reads])  # read x index x class
    votes = p.sum(axis=0)
    votes[:, INDEX[NONE]] = -1.0
    name = votes.argmax(axis=1)
    weight = p[:, np.arange(len(rows)), name]
    best = weight.argmax(axis=0)
    probs[rows] = p[best, np.arange(len(rows))]
    embeddings[rows] = np.stack([r[1] for r in reads])[best, np.arange(len(rows))]
    return weight


def _resized(box, scale: float) -> list[float]:
    """``box`` scaled by ``scale`` round its middle."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) * scale / 2, (box[3] - box[1]) * scale / 2
    return [cx - hw, cy - hh, cx + hw, cy + hh]


def _named(probs: np.ndarray) -> np.ndarray:
    """How surely each row of probabilities names a card (its best class other than 'none')."""
    return np.delete(probs, INDEX[NONE], axis=1).max(axis=1)


def _suppress(finds: list[dict]) -> list[dict]:
    """The strongest of finds whose centres lie inside each other's boxes (one thing seen twice),
    each with the finds it outscored as ``alike``."""
    kept: list[dict] = []
    for f in sorted(finds, key=lambda f: -f["score"]):
        same = next((k for k in kept if _one_thing(f, k)), None)
        if same is None:
            kept.append({**f, "alike": []})
        else:  # kept beside the find that outscored it (stage 2 reads it where that one reads unclearly)
            same["alike"].append(f)
    return kept


def _peaks_beside_larger_boxes(grid: np.ndarray, log_side: np.ndarray) -> np.ndarray:
    """The cells of ``grid`` (index scores) found (:data:`FOUND`) that only a neighbour with a much larger
    box (:data:`BESIDE_SIZE` times the side) outscores, by at most :data:`BESIDE_TIE`: a small index
    of a fan (a 10's, about 10 px) whose neighbouring cell boxes it with the pip beside it, about as
    surely; the 3x3 peak would keep only the larger box. ``log_side``: the log of each cell's box's longer side."""
    h, w = grid.shape
    pad = np.pad(grid, 1, constant_values=-1.0)
    pad_side = np.pad(log_side, 1, constant_values=0.0)
    beaten_alike = np.zeros((h, w), bool)  # outscored by a neighbour of about its size, or by far
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy == dx == 0:
                continue
            other = pad[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
            larger = pad_side[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] - log_side >= math.log(BESIDE_SIZE)
            beaten_alike |= (other > grid) & (~larger | (other - grid > BESIDE_TIE))
    return (grid >= FOUND) & ~beaten_alike


def _one_thing(a: dict, b: dict) -> bool:
    """Whether two finds' centres lie inside each other's boxes."""
    return _inside_box(a["box"], _middle(b["box"])) or _inside_box(b["box"], _middle(a["box"]))


def _one_thing_with_any(boxes: list, others: list) -> np.ndarray:
    """For each of ``boxes``, whether it and any of ``others`` are one thing (:func:`_one_thing`), at once."""
    if not boxes or not others:
        return np.zeros(len(boxes), bool)
    a, b = np.array(boxes, np.float64)[:, None], np.array(others, np.float64)[None]
    return (_inside_boxes(a, _middles(b)) | _inside_boxes(b, _middles(a))).any(axis=1)


def _middles(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (boxes[..., 0] + boxes[..., 2]) / 2, (boxes[..., 1] + boxes[..., 3]) / 2


def _inside_boxes(boxes: np.ndarray, points: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    x, y = points
    return (boxes[..., 0] <= x) & (x <= boxes[..., 2]) & (boxes[..., 1] <= y) & (y <= boxes[..., 3])


def _inside_box(box, point) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def restrict(probs: np.ndarray, deck: str, among: frozenset[str] | None = None) -> np.ndarray:
    """Probabilities with the names outside ``deck`` removed (renormalised; 'auto' keeps all). Names
    outside ``among``, where given (the cards a game's deck holds), are read as no index
    (:func:`~vision.cards.classes.as_no_card`), and so is the Excuse, whatever the deck: it prints no
    index, and a crop read as its blank corner is any card's corner with its index hidden."""
    if not len(probs):
        return probs
    out = probs * np.array([deck == "auto" or name in DECKS[deck] or name == NONE for name in CLASSES])
    out /= np.clip(out.sum(axis=1, keepdims=True), 1e-12, None)
    return as_no_card(out, CLASSES, lambda name: name == EXCUSE or (among is not None and name not in among))


def merge(indices: list[dict], probs: np.ndarray) -> list[CardSeen]:
    """Stage 3: one card per group of indices that name the same card and agree on its centre."""
    none = INDEX[NONE]
    live = [k for k in range(len(indices)) if probs[k, none] < NOT_AN_INDEX]
    groups: list[list[int]] = []
    echoes: set[int] = set()  # finds at a corner of a card already seen by both: no card, and no say in its name
    names = np.delete(probs, none, axis=1).argmax(axis=1)  # (each find's name, as a number)
    scale = _picture_px_per_mm(indices, probs, live)
    for k in sorted(live, key=lambda k: -probs[k].max()):
        name = names[k]
        # a card it names and places alike; else one whose box it shares (boxes sharing this much are one
        # index found twice, however each was read) -- in that order, as a box round a pip beside its
        # card's index may overlap the index of the next card in a fan
        named = next((g for g in groups if names[g[0]] == name and _same_card(indices[g[0]], indices[k])), None)
        shared = next((g for g in groups if _twice_found(indices[g[0]]["box"], indices[k]["box"])), None)
        if _found_again(named, shared, k, indices, probs):  # (misread finds of that card: none of its corners)
            groups.remove(named)
            continue
        same = named or shared
        if same is not None:
            same.append(k)
        else:  # read as two names, yet placed as the two corners of one card: one card, its name in doubt
            # (or found as the other's other corner, :meth:`CardRecogniser.other_corners`; or lying a
            # card's index diagonal apart, turned as its two ends, and either reading the other's name
            # possible: the turns read are too rough to place the centre from both)
            # (or, of the standard deck, both naming one card surely (:data:`SURE`) and lying as its two corners at
            # the picture's scale, :func:`_corners_of_one_card`: a deck holds each card once, and one index boxed
            # round its rank alone, half its size, places the card's centre far from where the other places it; a
            # find naming it unsurely is no such evidence: the Pouches demo's 9C's pip read 9S 0.65 lay so from the
            # 8C's corner read 9S 0.88, and joined they stood as a 9S lying across the KS and the 9C)
            pair = next((g for g in groups if _one_corner([indices[j] for j in g]) and (
                (_opposite_corners(indices[g[0]], indices[k]) and not _surely_two(probs[g[0]], probs[k])) or
                k == indices[g[0]].get("corner_of", -1) or
                g[0] == indices[k].get("corner_of", -1))), None) or \
                next((g for g in groups if _one_corner([indices[j] for j in g]) and
                      _diagonal_apart(indices[g[0]], indices[k], CLASSES[name])
                      and _names_in_doubt(probs[g[0]], probs[k])), None) or \
                next((g for g in groups if _one_corner([indices[j] for j in g]) and min(_named(probs[[g[0], k]])) >= SURE
                      and _corners_of_one_card(indices[g[0]], indices[k], CLASSES[names[g[0]]], CLASSES[name], scale)),
                     None)
            # a find at a corner of a card already seen at both corners is that corner found again
            # (its box round a pip of the face beside the index): the card's, named by its corners
            # (or a pip on the face of such a card, placing its own card where that card lies)
            sure = _named(probs[k][None])[0] >= SURE
            seen = None if pair is not None else next(
                (g for g in groups if _at_a_corner([indices[j] for j in g if j not in echoes], indices[k],
                                                   _best_name(probs[g[0]]), sure) or
                 _placed_on_it([indices[j] for j in g if j not in echoes], indices[k], _best_name(probs[g[0]]))),
                None)
            # an unnamed find beside a surely named index on its card's face, turned about as it, is a box round
            # the pip or the art beside that index (:func:`_pip_beside`; a fan's next index lies beside it too,
            # but is read surely); one lying at such a card's other corner, turned half round from its index, is
            # that corner misread. So is one beside the index on the face, turned any way, named unsurely as a
            # card its read leaves in doubt with that one (:func:`_names_in_doubt`; a Mongoose trial's JC, its
            # picture's crown and club beside the index read JS 0.62, JC 0.09, at a turn 48 degrees from the
            # index's, stood as a JS revealed)
            if pair is None and seen is None and _named(probs[k][None])[0] < NAMED:
                seen = next((g for g in groups if _named(probs[g[0]][None])[0] >= SURE and any(
                    test(indices[g[0]], indices[k], _best_name(probs[g[0]]))
                    for test in (_pip_beside, _covered_end))),
                    None)
            elif pair is None and seen is None and _named(probs[k][None])[0] < SURE:
                seen = next((g for g in groups if _named(probs[g[0]][None])[0] >= SURE and _names_in_doubt(
                    probs[g[0]], probs[k]) and _beside_on_face(indices[g[0]], indices[k], _best_name(probs[g[0]]))),
                    None)
            if pair is not None:
                pair.append(k)
            elif seen is not None:
                seen.append(k)
                echoes.add(k)
            else:
                groups.append([k])
    cards = []
    for group in groups:
        named_by = [k for k in group if k not in echoes]
        p = _pooled([indices[k] for k in named_by], [probs[k] for k in named_by])
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
        # turned alike are one index found twice, its box once with a pip beside it; two finds
        # several index lengths apart are its two corners, however wrong one's turn was read)
        other = next((indices[k] for k in group[1:] if k not in echoes and (
            _half_a_turn_apart(first, indices[k]) or _apart(first["box"], indices[k]["box"]))), None)
        if other is not None:
            a, b = first["box"], other["box"]
            centre = [(a[0] + a[2] + b[0] + b[2]) / 4, (a[1] + a[3] + b[1] + b[3]) / 4]
        cards.append(CardSeen(card_id, confidence, card_outline(first["box"], centre, best), alternatives,
                              [indices[k]["box"] for k in group]))
    return cards


def _picture_px_per_mm(indices: list[dict], probs: np.ndarray, live: list[int]) -> float | None:
    """The picture's scale (pixels per mm on a card face) at its indices named surely (:data:`SURE`):
    the median of their boxes' (:func:`_px_per_mm`), at least :data:`SCALE_FINDS` of them, else None.
    One box is often a third too small or half again too large (boxed round the rank alone, or with a pip);
    the cards on one table are one size, and the camera's tilt changes their size on the picture less."""
    sure = [k for k in live if _named(probs[k][None])[0] >= SURE]
    if len(sure) < SCALE_FINDS:
        return None
    return float(np.median([_px_per_mm(indices[k]["box"], indices[k]["turn"], _best_name(probs[k])) for k in sure]))


def _corners_of_one_card(a: dict, b: dict, name_a: str, name_b: str, px_per_mm: float | None) -> bool:
    """Whether finds ``a`` and ``b``, both read as one card of the standard deck (``name_a`` and ``name_b``
    alike), lie as its two corners: half a turn apart, the line between them as long as the card's index
    diagonal at the picture's scale (``px_per_mm``, :func:`_picture_px_per_mm`; within
    :data:`ONE_CARD_LENGTH`) and turned from the card as the diagonal is (the card's turn the middle of
    the two finds', within :data:`ONE_CARD_TURN_DEG`). A standard deck holds each card once: the two are
    one card, not the same card twice (a real KS's top-left index boxed round its rank alone, half its
    size, placed the card's centre far from where its bottom-right corner placed it: KS named twice).
    (Two corners read as two cards of one rank are left apart: joined, their reads' mean named the card
    less often than either alone, and two cards of one rank lie so in a fan now and then.)"""
    if px_per_mm is None or name_a not in DECKS["standard"] or name_a != name_b or not _half_a_turn_apart(a, b):
        return False
    (ax, ay), (bx, by) = _middle(a["box"]), _middle(b["box"])
    turn = math.degrees(math.atan2(math.sin(math.radians(a["turn"])) - math.sin(math.radians(b["turn"])),
                                   math.cos(math.radians(a["turn"])) - math.cos(math.radians(b["turn"]))))
    along = math.degrees(math.atan2(by - ay, bx - ax)) - turn - upright_deg(name_a)
    length = math.dist((ax, ay), (bx, by)) / (_diagonal_mm(name_a) * px_per_mm)
    return abs(_wrapped(along)) <= ONE_CARD_TURN_DEG and abs(length - 1) <= ONE_CARD_LENGTH


def _found_again(named: list[int] | None, shared: list[int] | None, k: int, indices: list[dict],
                 probs: np.ndarray) -> bool:
    """Whether the card ``named`` (the finds that name find ``k``'s card and place it alike) is the
    card ``shared`` found again, all misread: ``k`` shares its box with that card's index, named
    surely, and places the card as it does, yet lies apart from every find of ``named`` (a box
    round a pip beside its own card's index lies within a box's side of it, and may overlap the
    next index of a fan: it stays with the card it names). So a card's index boxed with the pip
    beside it and read at a turn far off, which its bottom-right corner or a pip there, misread
    alike, seems to confirm, makes no second card on top of the first: its finds are left out (the
    card is named and placed by its own index)."""
    if named is None or shared is None or named is shared or _named(probs[shared[0]][None])[0] < SURE:
        return False
    beside = any(not _apart(indices[j]["box"], indices[k]["box"], 1.0) for j in named)
    return not beside and _same_card(indices[shared[0]], indices[k])


def _twice_found(a, b) -> bool:
    """Whether two boxes are one index found twice: sharing :data:`SAME_INDEX` of the smaller, and
    at most :data:`SAME_INDEX_SIZE` times its side (a box round the index and the pip beside it;
    one three times the index's side round a face's pips is no index)."""
    return _shared(a, b) >= SAME_INDEX and max(_box_side(a), _box_side(b)) <= SAME_INDEX_SIZE * min(
        _box_side(a), _box_side(b))


def _one_corner(finds: list[dict]) -> bool:
    """Whether a card's finds show one corner only: no two of them half a turn or several index
    lengths apart (an index and a box round it and a pip beside it are one corner)."""
    return not any(_half_a_turn_apart(a, b) or _apart(a["box"], b["box"]) for n, a in enumerate(finds)
                   for b in finds[n + 1:])


def _same_card(a: dict, b: dict) -> bool:
    """Whether two finds (read as one name) place their card's centre alike: within 2.5 of ``a``'s box sides."""
    return math.dist(a["card_centre"], b["card_centre"]) < 2.5 * _box_side(a["box"])


def _at_a_corner(card: list[dict], find: dict, name: str = "", surely_named: bool = False) -> bool:
    """Whether ``find`` lies at a corner of card ``name`` whose finds (``card``) include both its
    corners (two finds half a turn or several index lengths apart, so its outline is exact): placed
    as the corner opposite one of them (:func:`_opposite_corners`), or within a box's side of one
    of them and either turned as it or lying on the card's face turned any way but half round from
    it (a box round a pip beside the index, read at whatever turn). Another card's index cannot lie
    there while both this card's indices show: a neighbour in a fan is turned alike and lies beside
    the face, not on it; a card laid head to head over this one's corner shows its index half round.
    So a find ``surely_named`` (:data:`SURE`) turned alike counts only on the face: beside it, within
    a box's side, lies the next card's index in a fan (a real 7S's bottom-right index, read 7S 0.91,
    beside the 6S's, was taken for the 6S's corner and the 7S went unseen)."""
    ends = _two_corners(card)
    if ends is None:
        return False
    a, b = ends
    centre = _between(a, b)
    on_the_face = _inside(card_outline(a["box"], centre, name), _middle(find["box"]))
    # (one ``surely_named`` as a card beside the face is the next card's index in a fan, turned alike and
    # within a box's side of this card's: the real 7S's bottom-right index, 7S 0.91, beside the 6S's)
    turned_alike_counts = on_the_face or not surely_named
    return any(_opposite_corners(j, find) or (not _apart(j["box"], find["box"], 1.0) and (
        (on_the_face and not _half_a_turn_apart(j, find)) or
        (turned_alike_counts and abs(_wrapped(j["turn"] - find["turn"])) <= 40))) for j in card)


def _pip_beside(index: dict, find: dict, name: str) -> bool:
    """Whether ``find`` lies as a box round the pip or the art beside card ``name``'s ``index``: beside it
    on the card's face (:func:`_beside_on_face`), turned as it within :data:`PIP_TURN_DEG` (the demo's KC
    in bob's fan, the club of its picture's frame read QC 0.48, stood as an unknown card)."""
    return abs(_wrapped(index["turn"] - find["turn"])) <= PIP_TURN_DEG and _beside_on_face(index, find, name)


def _beside_on_face(index: dict, find: dict, name: str) -> bool:
    """Whether ``find``'s middle lies within a box's side of card ``name``'s ``index``, on the card's face."""
    outline = card_outline(index["box"], index["card_centre"], name)
    return not _apart(index["box"], find["box"], 1.0) and _inside(outline, _middle(find["box"]))


def _covered_end(index: dict, find: dict, name: str) -> bool:
    """Whether ``find`` lies at the other corner of card ``name`` seen by ``index``: turned half
    round from it, its middle within a box's side of where the card's other index would lie (the
    index mirrored through the card's centre). What shows there of the card's own corner, by the
    edge of the card over it (the demo's JD in bob's fan, its picture's foot and a pip by the 6D's
    edge read 9D 0.42, stood as an unknown card); another card's index could lie there only on
    this card, face on face, hiding ``index``, or under it, itself hidden."""
    if not _half_a_turn_apart(index, find):
        return False
    (ix, iy), (cx, cy) = _middle(index["box"]), index["card_centre"]
    return math.dist(_middle(find["box"]), (2 * cx - ix, 2 * cy - iy)) <= _box_side(index["box"])


def _two_corners(card: list[dict]) -> tuple[dict, dict] | None:
    """Two of a card's finds that are its two corners (half a turn or several index lengths apart), if any."""
    return next(((a, b) for n, a in enumerate(card) for b in card[n + 1:]
                 if _half_a_turn_apart(a, b) or _apart(a["box"], b["box"])), None)


def _between(a: dict, b: dict) -> list[float]:
    """The middle of two finds' boxes: a card's centre, from its two corners."""
    return [(a["box"][0] + a["box"][2] + b["box"][0] + b["box"][2]) / 4,
            (a["box"][1] + a["box"][3] + b["box"][1] + b["box"][3]) / 4]


def _placed_on_it(card: list[dict], find: dict, name: str = "") -> bool:
    """Whether ``find``, lying on the face of card ``name`` seen at both its corners (``card``: its
    finds), places its own card where that card lies, its centre within a box's side of the
    middle of the two corners. A card there would lie on this one, hiding the indices it is seen
    by: it is a pip of this card's face read as an index (the demo's 7H, a heart by its bottom-left
    read KH 0.90 upside down), and no card. (A card crossed on another, centre on centre, turned a
    quarter or so, would leave both the other's indices showing, and be taken for its pip: cards are
    not laid so in the refereed games.)"""
    ends = _two_corners(card)
    if ends is None:
        return False
    a, b = ends
    centre = _between(a, b)
    side = max(_box_side(a["box"]), _box_side(b["box"]))
    outline = np.array(card_outline(a["box"], centre, name), np.float32)
    # (on the face, or by its edge within half a box: the outline, from one index, is good to a few pixels)
    on_it = cv2.pointPolygonTest(outline, tuple(map(float, _middle(find["box"]))), True) >= -side / 2
    return on_it and math.dist(find["card_centre"], centre) < side


def _pooled(finds: list[dict], reads: list[np.ndarray]) -> np.ndarray:
    """One card's name from the reads of its finds. The finds of one corner (turned within a
    quarter turn of each other: the index and a box round it and a pip) are averaged, as one bad
    box must not veto its index's name; the card's two corners are independent reads, so their
    averages are combined by geometric mean (renormalised, without 'none'): each must allow the
    name, so a corner that reads KD but gives KS a fifth, opposite one sure of KS, names KS (an
    average would leave it unknown), while two sure reads of different names leave it in doubt.
    Where some finds of a corner name a card surely (:data:`SURE`), only those speak for it: a box
    round the index and the pip beside it, read unsurely, would otherwise pull a sure index's name
    below :data:`NAMED` (the demo's JC 0.99 with such a box read KC 0.52: JC 0.56, unknown)."""
    t0 = finds[0]["turn"]
    first = [abs(_wrapped(f["turn"] - t0)) <= 90 for f in finds]
    corners = []
    for side in (True, False):
        side_reads = [r for r, a in zip(reads, first) if a == side]
        sure = [r for r in side_reads if _named(r[None])[0] >= SURE]
        if side_reads:
            corners.append(np.mean(sure or side_reads, axis=0))
    logs = np.log(np.clip(np.stack(corners), 1e-6, 1.0)).mean(axis=0)
    logs[INDEX[NONE]] = -np.inf
    p = np.exp(logs - logs.max())
    return p / p.sum()


def _diagonal_apart(a: dict, b: dict, name: str) -> bool:
    """Whether two finds lie as card ``name``'s two indices, judged by the line between them and not by
    the centres each placed: half a turn apart, and the line from each to the other as long as a
    card's index diagonal (:data:`DIAGONAL_LENGTH`, from the boxes' sizes) and turned from the card
    as the diagonal is (:func:`upright_deg`, the card's turn the middle of the two finds' turns,
    within :data:`DIAGONAL_TURN_DEG`: one find's turn is often 30 degrees off, the middle less)."""
    if not _half_a_turn_apart(a, b):
        return False
    (ax, ay), (bx, by) = _middle(a["box"]), _middle(b["box"])
    turn = math.degrees(math.atan2(math.sin(math.radians(a["turn"])) - math.sin(math.radians(b["turn"])),
                                   math.cos(math.radians(a["turn"])) - math.cos(math.radians(b["turn"]))))
    along = math.degrees(math.atan2(by - ay, bx - ax)) - turn - upright_deg(name)
    length = math.dist((ax, ay), (bx, by))
    px_per_mm = (_px_per_mm(a["box"], a["turn"], name) + _px_per_mm(b["box"], b["turn"], name)) / 2
    expected = _diagonal_mm(name) * px_per_mm
    return abs((along + 180) % 360 - 180) <= DIAGONAL_TURN_DEG and abs(length / expected - 1) <= DIAGONAL_LENGTH


def _names_in_doubt(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two reads name one card, or either gives the other's name as its runner-up, at
    least :data:`IN_DOUBT` (a KS read as KD, 0.74, with KS 0.2): two cards' indices misread alike
    by chance are rare. (A pip of a 7S read 4S 0.6, 7S 0.22, 6S 0.06 leaves no doubt about a 6S.)"""
    if _best_name(a) == _best_name(b):
        return True
    return any(_runner_up(x) == _best_name(y) and x[INDEX[_best_name(y)]] >= IN_DOUBT for x, y in ((a, b), (b, a)))


def _surely_two(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two reads name two different cards, each surely (:data:`SURE`): two indices so read are
    two cards, even where they lie as one card's corners (a pouch's AS laid over the 5C, the AS's top
    corner and the 5C's bottom one turned half round from each other, stood as one card in doubt)."""
    return _best_name(a) != _best_name(b) and min(_named(np.stack([a, b]))) >= SURE


def _runner_up(p: np.ndarray) -> str:
    """The card a read names second best (whatever its probability of being no index)."""
    order = [CLASSES[i] for i in np.argsort(-p) if CLASSES[i] != NONE]
    return order[1]


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
    w, h = CARD_MM
    dx, dy = w / 2 - at[0], h / 2 - at[1]  # from the index's middle to the card's, on an upright face
    x0, y0, x1, y1 = index_box
    a = math.radians(turn_deg)
    k = _px_per_mm(index_box, turn_deg, name)
    ex, ey = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    return [(x0 + x1) / 2 + k * (dx * ex[0] + dy * ey[0]), (y0 + y1) / 2 + k * (dx * ex[1] + dy * ey[1])]


def _px_per_mm(index_box, turn_deg: float, name: str) -> float:
    """The picture's scale at an index of card ``name`` turned ``turn_deg``, from its box: the box
    is the index's bounding box on the picture, so turned it is wider than the index is long."""
    at, index_long_mm = index_centre_mm(name), index_length_mm(name)
    a = math.radians(turn_deg)
    long_px = _box_side(index_box) / max(1.0, abs(math.cos(a)) + abs(math.sin(a)) * (at[0] * 2 - 3.0) / index_long_mm)
    return long_px / index_long_mm


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


def _apart(a, b, sides: float = 2.5) -> bool:
    """Whether two boxes' middles lie more than ``sides`` times the larger box's side apart. Finds
    of one index (its box, one round the pip beside it) lie within a side; a card's two corners
    about four index lengths apart."""
    return math.dist(_middle(a), _middle(b)) > sides * max(_box_side(a), _box_side(b))


def _middle(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _box_side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def _inside(polygon, point) -> bool:
    return cv2.pointPolygonTest(np.array(polygon, np.float32), tuple(map(float, point)), False) >= 0
