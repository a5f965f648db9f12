"""Decktet cards named from their whole face: outlines found, warped upright, read by a small net.

A Decktet card's corner index (a rank glyph over up to three suit icons) is a few pixels wide on a
table seen from a metre away, too small for the index stage (:mod:`vision.cards.recognise`) to
read. Its face is not: each card has a large art panel of its own, and the art sets picture the
same scenes. So this stage

1. finds card-like outlines as quadrilaterals (:func:`find_outlines`: the closed edges of a card
   against the table, or of its art panel where a white border melts into a white mat), liberally:
   the net says which are cards;
2. warps each to a small upright picture of :data:`~vision.cards.classes.FACE_CROP` pixels
   (:func:`face_crop`; a Decktet face reads the same half a turn round, so either way up will do);
3. names it with ``whole_face.onnx`` (:class:`WholeFaceReader`): one of the 45 Decktet cards, a
   back, or 'none' (no card: a tile, a marker, a standard card), and where the card's own corners
   lie in the crop, so an outline found round the art panel or cut by a pyramid is put right. A
   card read from a corrected outline is read once more from it.

The recogniser merges these reads with the index stage's (``CardRecogniser.recognise``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.cards.classes import (BACK, CARD_MM, CLASSES, DECKS, DECKTET_INDEX_CENTRE_MM, EXCUSE, FACE_CLASSES,
                                  FACE_CROP, NONE, as_no_card)
from vision.cards.runtime import onnx_session

MODELS = Path(__file__).resolve().parents[2] / "models" / "cards"
MODEL = "whole_face.onnx"
WORK_LONG_SIDE = 1280  # outlines are looked for in the picture scaled down to this long side at most
SMALLEST_SIDE = 18  # an outline's short side must span this many pixels (of the picture as given)
LARGEST_AREA = 0.4  # and it may cover at most this share of the picture
FILLED = 0.8  # an outline must fill this share of the quadrilateral fitted to it
SQUAREST = 0.35  # its short side at least this share of its long one (a card 63:88 seen at a tilt)
SAME_OUTLINE = 0.7  # two outlines overlapping this much (intersection over union) are one


@dataclass
class FaceRead:
    """One outline read by the whole-face stage: its class probabilities (over
    :data:`~vision.cards.classes.FACE_CLASSES`, calibrated) and the card's outline in picture
    pixels (as the net placed its corners; the first corner is the face's top-left or, read half a
    turn round, its bottom-right)."""

    probs: np.ndarray
    polygon: np.ndarray  # 4 x 2

    @property
    def name(self) -> str:
        return FACE_CLASSES[int(np.argmax(self.probs))]

    @property
    def confidence(self) -> float:
        return float(self.probs.max())

    @property
    def alternatives(self) -> list[tuple[str, float]]:
        """The runners-up (at most three, at least 0.01 likely; 'none' is no card's name)."""
        order = np.argsort(-self.probs)[1:4]
        return [(FACE_CLASSES[i], float(self.probs[i])) for i in order
                if FACE_CLASSES[i] != NONE and self.probs[i] >= 0.01]


def find_outlines(image: np.ndarray) -> list[np.ndarray]:
    """Card-like quadrilaterals in ``image`` (BGR): each a 4 x 2 float32 array of picture pixels in
    the order :func:`ordered` gives. The closed outlines of several masks are fitted with four
    corners (:func:`_card_like`): the edges (a card's edge against the table, its art panel's
    frame); the regions brighter than their surroundings (a white card on a dark or busy table,
    whose edge the table's texture breaks); the edges' regions filled in, opened at three sizes
    and parted between their cores (:func:`_parted`: cards lying close together); and the regions
    darker than their surroundings (an art panel, where a white border melts into a white mat).
    Outlines that nearly coincide are kept once. Many are no card (a marker, a tile, a book): the
    net reads each and says which are."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    edges = cv2.dilate(cv2.Canny(grey, 20, 60), np.ones((3, 3), np.uint8))
    bright = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                   _odd(max(small.shape[:2]) // 8), -8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # the edges' closed regions filled in and opened at a few sizes: a card touched by a line (a
    # shadow's edge, a neighbour's corner) is cut free of it, and its outline closed again
    outer, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = cv2.drawContours(np.zeros_like(edges), outer, -1, 255, cv2.FILLED)
    # (opened at half size: the same outlines, a quarter of the work)
    half = cv2.resize(filled, (filled.shape[1] // 2, filled.shape[0] // 2), interpolation=cv2.INTER_NEAREST)
    side = max(half.shape[:2])
    opened = [cv2.morphologyEx(half, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
              for k in (_odd(side // 160), _odd(side // 80), _odd(side // 40))]
    # what is darker than its surroundings: an art panel inside a white border on a white mat
    dark = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 _odd(max(small.shape[:2]) // 8), 12)
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours = []
    for mask in (edges, bright):
        contours += cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    for mask in opened:
        contours += [c * 2 for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]]
    contours += cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    contours += _parted(filled, (SMALLEST_SIDE * scale) ** 2)
    quads = []
    for contour in contours:
        quad = _card_like(contour, SMALLEST_SIDE * scale, LARGEST_AREA * small.shape[0] * small.shape[1])
        if quad is not None:
            quads.append(quad / scale)
    return _distinct(quads)


def _parted(filled: np.ndarray, smallest_area: float) -> list[np.ndarray]:
    """The outlines of the regions of ``filled`` parted where they narrow: cards lying close
    together merge into one region, but each has a core far from every edge (more than half as far
    as the region's farthest point), and the region is split between the cores (watershed)."""
    count, regions, stats, _ = cv2.connectedComponentsWithStats(filled)
    dist = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
    cores = np.zeros(filled.shape, np.uint8)
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < smallest_area:
            continue
        x, y, w, h = stats[k, :4]
        inside = regions[y:y + h, x:x + w] == k
        d = dist[y:y + h, x:x + w]
        cores[y:y + h, x:x + w][inside & (d > 0.5 * d[inside].max())] = 255
    n, markers = cv2.connectedComponents(cores)
    if n <= 2:
        return []  # one core at most: nothing to part
    markers = markers + 1
    markers[(filled > 0) & (cores == 0)] = 0  # to be shared out between the cores
    markers = cv2.watershed(cv2.cvtColor(filled, cv2.COLOR_GRAY2BGR), markers.astype(np.int32))
    out = []
    for k in range(2, n + 1):
        part = (markers == k).astype(np.uint8)
        out += cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    return out


def _odd(n: int) -> int:
    return max(3, n | 1)


def _card_like(contour: np.ndarray, smallest_side: float, largest_area: float) -> np.ndarray | None:
    """The quadrilateral a contour outlines, if it is card-like: large enough, not too large,
    not a sliver, and filling its four-cornered fit (a pyramid across one edge bulges the outline
    out; its hull's four-cornered fit then still has the card's corners)."""
    x, y, bw, bh = cv2.boundingRect(contour)
    if min(bw, bh) < smallest_side or bw * bh > 4 * largest_area:
        return None
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if area < smallest_side ** 2 or area > largest_area:
        return None
    quad = _four_sides(hull)
    if quad is None:
        return None
    quad_area = abs(cv2.contourArea(quad))
    if quad_area <= 0 or area < FILLED * quad_area or quad_area > 1.3 * area:
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long = min(sides[0] + sides[2], sides[1] + sides[3]), max(sides[0] + sides[2], sides[1] + sides[3])
    if short < 2 * smallest_side or short < SQUAREST * long or not _square_cornered(quad):
        return None
    return ordered(quad)


def _four_sides(hull: np.ndarray) -> np.ndarray | None:
    """A convex outline's four-cornered fit: its corners where it has four; else the corners where
    the lines along its four longest sides meet (a card's edges stay the longest sides of an outline
    that a pyramid or a neighbouring card bulges out at one place)."""
    polygon = cv2.approxPolyDP(hull, 0.015 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(polygon) < 4:
        return None
    if len(polygon) == 4:
        return polygon.astype(np.float32)
    lengths = np.linalg.norm(np.roll(polygon, -1, axis=0) - polygon, axis=1)
    longest = np.sort(np.argsort(-lengths)[:4])  # in the outline's order
    corners = []
    for a, b in zip(longest, np.roll(longest, -1)):
        p, r = polygon[a], polygon[(a + 1) % len(polygon)] - polygon[a]
        q, s = polygon[b], polygon[(b + 1) % len(polygon)] - polygon[b]
        cross = r[0] * s[1] - r[1] * s[0]
        if abs(cross) < 1e-6 * np.dot(r, r) * np.dot(s, s) ** 0.5 or abs(cross) < 1e-9:
            return None  # two of the sides run parallel: no corner between them
        t = ((q - p)[0] * s[1] - (q - p)[1] * s[0]) / cross
        corners.append(p + t * r)
    return np.array(corners, np.float32)


def _square_cornered(quad: np.ndarray) -> bool:
    """Whether every corner of ``quad`` is between 50 and 130 degrees (a card seen at a tilt up to
    45 degrees; a triangle fitted with four corners has one near 180)."""
    for k in range(4):
        a, b = quad[k - 1] - quad[k], quad[(k + 1) % 4] - quad[k]
        cos = float(np.dot(a, b) / max(1e-9, np.linalg.norm(a) * np.linalg.norm(b)))
        if abs(cos) > 0.643:
            return False
    return True


def ordered(quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners clockwise on the picture from the top-left of an upright card: the first
    side is one of the two shorter ones (a card's top or bottom edge), the higher of them."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    quad = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]  # clockwise (y down)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    start = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    if quad[[start, (start + 1) % 4], 1].mean() > quad[[(start + 2) % 4, (start + 3) % 4], 1].mean():
        start += 2
    return np.roll(quad, -start, axis=0)


def _distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` less those overlapping an earlier, larger one by :data:`SAME_OUTLINE`."""
    kept: list[np.ndarray] = []
    boxes = np.zeros((len(quads), 4))  # (the kept quads' bounding boxes: only those meeting a quad's are compared)
    for quad in sorted(quads, key=lambda q: -abs(cv2.contourArea(q))):
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        near = np.flatnonzero(~((lo > boxes[:len(kept), 2:]) | (boxes[:len(kept), :2] > hi)).any(axis=1))
        if all(_overlap(quad, kept[k]) < SAME_OUTLINE for k in near):
            boxes[len(kept)] = (*lo, *hi)
            kept.append(quad)
    return kept


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    if (a.min(axis=0) > b.max(axis=0)).any() or (b.min(axis=0) > a.max(axis=0)).any():
        return 0.0  # (most pairs: their bounding boxes do not even meet)
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = abs(cv2.contourArea(a)) + abs(cv2.contourArea(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def crop_corners() -> np.ndarray:
    """The corners of a face crop, in the order of :func:`ordered`."""
    w, h = FACE_CROP
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def face_crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline ``quad`` (ordered) warped upright to a :data:`FACE_CROP` picture (a large card is
    smoothed first, so the warp does not alias)."""
    quad = np.asarray(quad, np.float32)
    w, h = FACE_CROP
    shrink = min(np.linalg.norm(quad[1] - quad[0]) / w, np.linalg.norm(quad[3] - quad[0]) / h)
    if shrink > 2:
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 3
        x0, y0 = max(0, x0), max(0, y0)
        patch = image[y0:y1, x0:x1]
        if patch.size:
            image, quad = cv2.GaussianBlur(patch, (0, 0), 0.4 * shrink), (quad - (x0, y0)).astype(np.float32)
    m = cv2.getPerspectiveTransform(quad, crop_corners())
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class WholeFaceReader:
    """Runs ``whole_face.onnx`` (from ``folder``) with ONNX Runtime on the outlines of a picture."""

    def __init__(self, folder: str | Path = MODELS, threads: int = 2) -> None:
        self.folder = Path(folder)
        self.threads = threads

    @property
    def available(self) -> bool:
        return (self.folder / MODEL).is_file()

    @cached_property
    def _session(self):
        return onnx_session(self.folder / MODEL, self.threads)

    @cached_property
    def temperature(self) -> float:
        """The net's calibration (fitted by its recipe on renders it did not learn from)."""
        meta = self.folder / "whole_face.json"
        return float(json.loads(meta.read_text())["temperature"]) if meta.is_file() else 1.0

    def read(self, image: np.ndarray, quads: list[np.ndarray] | None = None, also=(),
             among: frozenset[str] | None = None) -> list[FaceRead]:
        """Every outline in ``image`` (:func:`find_outlines`, or ``quads``) read, and the rough
        outlines ``also`` (cards laid out by the index stage, :func:`outlines_of_indices`); a card
        (not 'none') is read again from the outline the net placed its corners at, and named by both reads.
        Only the cards ``among`` are named where given (the names a game's deck holds)."""
        quads = find_outlines(image) if quads is None else [ordered(q) for q in quads]
        quads = _distinct(quads + [ordered(q) for q in also if _plausible(np.asarray(q, np.float32))])
        if not quads:
            return []
        probs, corners = self.run(np.stack([face_crop(image, q) for q in quads]), among)
        reads = [FaceRead(p, _to_picture(c, q)) for p, c, q in zip(probs, corners, quads)]
        again = [k for k, r in enumerate(reads) if r.name != NONE and _plausible(r.polygon)]
        if again:
            polygons = [ordered(reads[k].polygon) for k in again]
            probs, corners = self.run(np.stack([face_crop(image, q) for q in polygons]), among)
            for k, p, c, q in zip(again, probs, corners, polygons):
                # both reads must allow the name (geometric mean): an outline straddling two cards is
                # read as one card, then as another once the net has placed its corners
                both = np.sqrt(p * reads[k].probs)
                reads[k] = FaceRead(both / both.sum(), _to_picture(c, q))
        return reads

    def name(self, image: np.ndarray, quad: np.ndarray, among: frozenset[str] | None = None) -> FaceRead | None:
        """The card whose outline in ``image`` is ``quad`` (picture pixels, found some other way: a
        card-sized outline on a calibrated table), where the net names one at least
        :data:`SURE_FACE` surely, with the outline it placed (as :meth:`read`); None where it reads a
        back, no card, or nothing surely; only the cards ``among`` are named where given."""
        reads = self.read(image, [quad], among=among)
        named = reads and reads[0].name not in (NONE, BACK) and reads[0].confidence >= SURE_FACE
        return reads[0] if named else None

    def run(self, crops: np.ndarray, among: frozenset[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated probabilities and the card's corners (crop pixels, 4 x 2) of N face crops.
        Each crop is read both ways up (a Decktet face reads the same half a turn round, and the net
        learned both) and the two reads' probabilities averaged: a pyramid or a glare that throws one
        read (the demo's Mountain under two pyramids: 0.53 one way, 0.90 the other) throws the other
        less. The corners are the upright read's. Cards not ``among`` (where given) are given nothing."""
        n = len(crops)
        both = np.concatenate([crops, crops[:, ::-1, ::-1]])
        logits, corners = self._session.run(None, {"crops": both.transpose(0, 3, 1, 2).astype(np.float32)})
        logits = logits / self.temperature
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        p = (p[:n] + p[n:]) / 2
        if among is not None:
            p = as_no_card(p, FACE_CLASSES, lambda name: name != BACK and name not in among)
        return p, corners[:n].reshape(-1, 4, 2) * np.array(FACE_CROP, np.float32)


def outlines_of_indices(indices: list[dict]) -> list[np.ndarray]:
    """A Decktet card's outline laid out from each corner index the index stage found (its box and
    the turn stage 2 read; see :func:`vision.cards.recognise.card_outline`), whatever it was named:
    rough (the turn may be 30 degrees off), but the net places the card's corners from it."""
    from vision.cards.classes import DECKTET
    from vision.cards.recognise import card_centre, card_outline

    outlines = []
    for i in indices:
        if "turn" in i:
            centre = card_centre(i["box"], i["turn"], DECKTET[0])
            outlines.append(np.array(card_outline(i["box"], centre, DECKTET[0]), np.float32))
    return outlines


def _to_picture(corners: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Crop pixels of the outline ``quad``'s face crop back to picture pixels."""
    m = cv2.getPerspectiveTransform(crop_corners(), np.asarray(quad, np.float32))
    return cv2.perspectiveTransform(corners.reshape(1, 4, 2).astype(np.float64), m)[0].astype(np.float32)


def _plausible(quad: np.ndarray) -> bool:
    """Whether corners the net placed make a convex quadrilateral (a poor guess may not)."""
    return bool(cv2.isContourConvex(np.round(quad * 16).astype(np.int32))) and abs(cv2.contourArea(quad)) > 25


# -- merging with the index stage -------------------------------------------------------------

SURE_FACE = 0.6  # a whole-face read this sure names its card (fills in a card, or overrides a less sure read)
# a name the whole face gives less than this is ruled out, however surely the index stage read it: a
# few-pixel index misreads (the demo's Mountain, its 9 and suns read ace-suns 0.95, which its face
# gives 0.0001), a whole face seen surely does not look like another card's
RULED_OUT = 0.01
SAME_PLACE = 0.25  # two outlines whose centres lie this share of a card's diagonal apart are one card
_READERS: dict[tuple[str, int], WholeFaceReader] = {}


def reader(folder: str | Path = MODELS, threads: int = 2) -> WholeFaceReader | None:
    """The reader of ``folder``'s whole-face net, made once per folder; None where it has no such net
    (a folder of older models: the recogniser then reads indices only)."""
    key = (str(folder), threads)
    if key not in _READERS:
        _READERS[key] = WholeFaceReader(folder, threads)
    return _READERS[key] if _READERS[key].available else None


def with_whole_faces(cards: list, reads: list[FaceRead]) -> list:
    """The index stage's ``cards`` (``CardSeen``) merged with the whole-face ``reads`` of the same
    picture. A read at least :data:`SURE_FACE` sure of a card (or a back) is that card: a card the
    index stage placed there (its outline over the read's by half, or its centre near the read's, or
    one of its indices on the read's card) is named by the surer of the two, unless the read rules
    the index stage's name out (gives it less than :data:`RULED_OUT`), and given the read's outline,
    which the net placed from the whole card, and the index boxes that named the read's card or none;
    where the index stage found none, the read is added. Reads less sure, or of no card, change
    nothing (a card the index stage could not name stays unknown)."""
    from vision.cards.recognise import CardSeen

    sure = [r for r in reads if r.name != NONE and r.confidence >= SURE_FACE]
    kept: list[FaceRead] = []  # one read per card: an outline and its art panel's are read alike
    for read in sorted(sure, key=lambda r: -r.confidence):
        if not any(_same_place(read.polygon, k.polygon) for k in kept):
            kept.append(read)
    cards = list(cards)
    for read in kept:
        polygon = [[float(x), float(y)] for x, y in read.polygon]
        same = [c for c in cards if _same_place(read.polygon, np.array(c.polygon, np.float32))
                or any(_inside(read.polygon, box) for box in c.indices)]
        if any(c.id is not None and c.id != read.name and c.confidence > read.confidence
               and not _ruled_out(read, c.id) for c in same):
            continue  # the index stage read a different card there, more surely, and the face allows it
        # the index boxes of the card it names, or of none (an index too small to read: they tell the
        # table reader this card is face up), not those that named another card: misread, and often
        # boxed too small (the demo's Pact, its index read as the Windfall at half an index's size),
        # which the table reader would drop the card for; and only those on the read's card (a double
        # deck's two cards of one name lying near were merged by the index stage into one card, whose
        # boxes on the other would make that card's read this one's again)
        indices = [box for c in same if c.id in (read.name, None)
                   for box in c.indices if _inside(read.polygon, box)]
        cards = [c for c in cards if not any(c is s for s in same)]
        cards.append(CardSeen(read.name, read.confidence, polygon, read.alternatives, indices, whole_face=True))
    return cards


def _ruled_out(read: FaceRead, name: str) -> bool:
    """Whether the whole-face ``read`` rules the card ``name`` out (a standard card's name, which the
    net has no class for, is not: 'auto' may have named one on a mostly Decktet table)."""
    return name in FACE_CLASSES and read.probs[FACE_CLASSES.index(name)] < RULED_OUT


def _inside(polygon: np.ndarray, box) -> bool:
    """Whether the middle of an index ``box`` lies on the card ``polygon`` (the index stage laid out
    a card from an index on this card: its outline may be far off, when the index's size was misread)."""
    return _on(polygon, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))


def _on(polygon, point) -> bool:
    """Whether ``point`` (picture pixels) lies on the outline ``polygon`` or inside it."""
    return cv2.pointPolygonTest(np.asarray(polygon, np.float32), tuple(map(float, point)), False) >= 0


def _in_box(point, box) -> bool:
    """Whether ``point`` lies in the index ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    return x0 <= point[0] <= x1 and y0 <= point[1] <= y1


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two card outlines are one card: centres near (a card's outline from one index may be
    a little off) or overlapping by half."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    diagonal = max(np.linalg.norm(a[2] - a[0]), np.linalg.norm(a[3] - a[1]), 1.0)
    if np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) < SAME_PLACE * diagonal:
        return True
    return cv2.isContourConvex(b.astype(np.float32)) and _overlap(a, b) >= 0.5


# -- cards of a fanned pile, named from the one index each shows ---------------------------------

# In a pile fanned so that a strip of every card shows (Deck Town's discards), a covered card's face
# is mostly hidden: the whole-face net, which reads the face, names only the top card, and the index
# detector finds the covered cards' indices (each shows the index along its uncovered edge) but, at
# a few pixels across, boxes them loosely and misjudges their turn, so the classifier cannot name
# them. A neighbouring card named from its whole face lies as they do: its outline gives the turn
# and the size in pixels of an index beside it, and an index boxed and turned from it reads surely
# (the demo's discards at frame 476: 0.9 to 1.0 each, where the detector's boxes read 0.2 to 0.9).
COVERED_REACH = 1.0  # finds within this many card diagonals of a card named from its whole face
# tried along the index, in index lengths: the detector's boxes are up to 0.4 off along it
COVERED_SHIFTS = tuple(round(0.1 * k, 1) for k in range(-5, 6))
COVERED_SURE = 0.9  # how surely such an index must name a card for the card to be added
COVERED_RUN = 2  # at this many neighbouring places along the index at least (a box straddling two indices
# may read a third card once: the demo's discards, an 'excuse' 0.95 between the Ace and the Consul)
SAME_INDEX = 0.5  # reads whose middles lie this many index lengths apart read one index (a fan's next lies 0.8 away)
INDEX_BOX_MM = (7.0, 37.0)  # a Decktet index's extent on the face (across, along the long side)
SAME_CARD = 0.2  # a card whose middle lies this many diagonals from one laid out from its index is that card (a fan steps 0.3)


def with_covered_indices(recogniser, image: np.ndarray, cards: list, finds: list[dict],
                         among: frozenset[str] | None = None) -> list:
    """``cards`` (``CardSeen``, after :func:`with_whole_faces`) with the Decktet cards of a fanned
    pile that show only an index. Each index the detector found (``finds``: its boxes, faint ones
    included) near a card named from its whole face is boxed and turned as the index of a card lying
    as that one does (:func:`_index_box`), at a few places along the index (the detector's box is a
    little off), and read by the index classifier of ``recogniser``
    (:class:`~vision.cards.recognise.CardRecogniser`). Of the two ways up, the one whose card would
    lie nearer the neighbour's middle is read: a covered card lies under its neighbours, its index
    showing on the side away from them. A name read at :data:`COVERED_RUN` neighbouring places,
    at one of them at least :data:`COVERED_SURE`, of a Decktet card seen nowhere else in the picture,
    at an index no surer such read took, is that card, laid out from the index: the face's corner
    the known distance from it, the card as large and turned as its neighbour. Places on the face
    of a card read surely read its index or a mark on it, and are passed over; the others are read
    even where the find's middle lies on such a face (a covered index boxed with the index of the
    card over it), the card laid out at a find of its own reading it too, or, with none, where it
    was read well off the faces. Only the cards ``among`` are named where given (the names a game's deck
    holds)."""
    from vision.cards.recognise import CardSeen, restrict

    faces = [c for c in cards if c.whole_face and c.id in DECKS["decktet"]]
    if not faces or not finds:
        return cards
    faces.sort(key=lambda c: -c.confidence)  # the surest read's outline is likeliest right
    frames = [_face_frame(np.array(c.polygon, np.float64)) for c in faces]
    # per find: the index middles tried along it; the face's axes; which of them lie on a sure face,
    # and whether the find's middle does
    places, axes, faced = [], [], []
    sure = [np.array(c.polygon, np.float32) for c in faces if c.confidence >= COVERED_SURE]
    for find in finds:
        x0, y0, x1, y1 = find["box"]
        middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        near = [f for f in frames if np.linalg.norm(middle - f[0]) < COVERED_REACH * f[3]]
        if not near:
            continue
        centre, ex, ey, _ = near[0]
        if np.linalg.norm(_card_middle(middle, -ex, -ey) - centre) < np.linalg.norm(_card_middle(middle, ex, ey) - centre):
            ex, ey = -ex, -ey
        along = [middle + ey * s * INDEX_BOX_MM[1] for s in COVERED_SHIFTS]
        # a place on the face of a card read surely (half an index's width inside its outline: the net's
        # outline is a few pixels off) reads its index or a mark on it: no covered card's
        off = [_on_a_face(m, sure, INDEX_BOX_MM[0] / 2 * np.linalg.norm(ex)) for m in along]
        if all(off):
            continue
        places.append(along)
        axes.append((ex, ey))
        faced.append((off, _on_a_face(middle, sure, 0.0)))
    if not places:
        return cards
    # read in two passes, to the same outcome: a card needs a name read at two neighbouring places, so one
    # of every other place reads it at 0.5 at least; the places between are read only along the finds where
    # one does (a Decktet table's 100 finds, 11 places each, took 450 ms of reads). Places on a sure face
    # are never read: their reads count for nothing
    shape = (len(places), len(COVERED_SHIFTS))
    probs = np.zeros((*shape, len(CLASSES)), np.float32)
    unread = ~np.array([off for off, _ in faced])
    at = np.array(places)  # (find, place, xy)

    def read(cells: np.ndarray) -> None:
        cells = cells & unread
        ns, ks = np.nonzero(cells)
        if len(ns):
            boxes = [{"box": _index_box(at[n, k], *axes[n])} for n, k in zip(ns, ks)]
            turns = [float(np.degrees(np.arctan2(axes[n][0][1], axes[n][0][0]))) for n in ns]
            read = recogniser.read_turned(image, boxes, turns)[0]
            probs[ns, ks] = read if among is None else restrict(read, "decktet", among)
            unread[ns, ks] = False

    decktet_class = np.isin(np.arange(len(CLASSES)), [CLASSES.index(d) for d in DECKS["decktet"]
                                                       if d != EXCUSE and (among is None or d in among)])
    every_other = np.zeros(shape, bool)
    every_other[:, ::2] = True
    read(every_other)
    promising = (decktet_class[probs.argmax(axis=2)] & (probs.max(axis=2) >= 0.5)).any(axis=1)
    read(promising[:, None] & ~every_other)
    off_faces = np.array([off for off, _ in faced])
    best = np.where(unread | off_faces, -1, probs.argmax(axis=2))
    reads = []  # (how sure, name, find, place along it)
    for n, row in enumerate(probs):
        names = best[n]
        for k in range(len(row)):
            if names[k] < 0 or not decktet_class[names[k]]:
                continue
            run = [j for j in range(max(0, k - COVERED_RUN + 1), min(len(row), k + COVERED_RUN))
                   if names[j] == names[k] and row[j].max() >= 0.5]
            if row[k].max() >= COVERED_SURE and _longest_run(run, k) >= COVERED_RUN:
                reads.append((float(row[k].max()), CLASSES[int(names[k])], n, k))
    # a find whose middle lies on a sure face is that card's index (or a mark on it): the places beside
    # it, off the face, may read a covered card's index surely (the demo's Painter, its index strip left
    # of the Desert's, where the Desert's find reaches it, 0.95), but lie where that find is, across the
    # index, not where the covered index is (the Painter's lies an index's width lower, a fan's step
    # before the Desert: laid out there, it came after it). Such a read names the card where a find of
    # its own, off the faces, reads that name too at that index, and the card lies at the place of it
    # reading the name surest (the Painter's own find reads it 0.87 at most, too unsurely to name it).
    # Where none does, it names the card only off the faces by half an index's width, where it lies (the
    # demo's Harvest at 534, its index boxed only with the Author's, on the Author's outline): a place
    # by a card's edge reads its own index's end (the Pact's suns pip in test_whole_face.py, beside its
    # bottom index, read as the Ace of Suns)
    own_find = ~np.array([middle_faced for _, middle_faced in faced])
    reach = [SAME_INDEX * INDEX_BOX_MM[1] * np.linalg.norm(ey) for _, ey in axes]
    near_faced = np.zeros(shape, bool)  # the places of finds of their own near such reads, read if they were not
    for _, _, n, k in reads:
        if faced[n][1]:
            near_faced |= own_find[:, None] & (np.linalg.norm(at - at[n, k], axis=2) < reach[n])
    read(near_faced)
    best = np.where(unread | off_faces, -1, probs.argmax(axis=2))
    sureness = probs.max(axis=2)
    moved = []
    for p, name, n, k in reads:
        if faced[n][1]:
            own = np.argwhere(own_find[:, None] & (best == CLASSES.index(name)) & (sureness >= 0.5) &
                              (np.linalg.norm(at - at[n, k], axis=2) < reach[n]))
            if len(own):
                _, n, k = max((sureness[m, j], m, j) for m, j in own)
            elif any(cv2.pointPolygonTest(o, (float(at[n, k, 0]), float(at[n, k, 1])), True) >
                     -INDEX_BOX_MM[0] / 2 * np.linalg.norm(axes[n][0]) for o in sure):
                continue
        moved.append((p, name, n, k))
    reads = moved
    # the surest read of each index names it; other names read as surely at the same index are its
    # alternatives, and share the confidence (the demo's Painter, 3 of Suns and Knots, read as the
    # Castle, 7 of the same suits, as surely at a few pixels: the referee tells them apart)
    reads.sort(key=lambda r: -r[0])
    named: list[tuple[np.ndarray, dict[str, float], int, int]] = []  # middle, best read of each name, find, place
    for p, name, n, k in reads:
        middle = at[n, k]
        same = next((t for t in named if np.linalg.norm(middle - t[0]) < SAME_INDEX * INDEX_BOX_MM[1] * np.linalg.norm(axes[n][1])), None)
        if same is None:
            named.append((middle, {name: p}, n, k))
        else:
            same[1].setdefault(name, p)
    seen = {c.id for c in cards}
    cards = list(cards)
    for middle, names, n, k in named:
        name, p = next(iter(names.items()))
        ex, ey = axes[n]
        w, h = CARD_MM
        at = DECKTET_INDEX_CENTRE_MM
        corner = middle - ex * at[0] - ey * at[1]  # the face's top-left
        polygon = np.array([corner, corner + ex * w, corner + ex * w + ey * h, corner + ey * h], np.float32)
        if name in seen:
            # seen already: where it was read less surely from an outline elsewhere (the whole-face net
            # reading the demo's Ace of Knots from an outline round it and the Consul over it), it lies here
            same = [c for c in cards if c.id == name]
            if not same or any(c.confidence >= p or _near(c.polygon, polygon) for c in same):
                continue
            # unless the read lies in an index box that card was named from and, laid out from it as a covered
            # card, the card would lie on another card seen there: its own index read again, laid out on the wrong
            # side of it (Deck Town trial 11's Ace of Leaves, on top of the discard pile and named from both its
            # indices, was laid out over the End under it). Where no card lies there, such a move is a few
            # millimetres (trial 2's Sea, in a reveal: kept where it was, the Window read covered under it took
            # its place)
            if any(_in_box(middle, box) for c in same for box in c.indices) and any(
                    c.id not in (name, None) and _on(c.polygon, polygon.mean(axis=0)) for c in cards):
                continue
            cards = [c for c in cards if c.id != name]
        seen.add(name)
        # a card read less surely where this one lies (the whole-face net reads a covered card poorly: the
        # demo's Painter, under two cards, as the Bard 0.87) is this one; the cards over it lie a fan's step away.
        # Not a card named from its face that gives this name no share among its runners-up: the face rules it
        # out (a rendered table's Windfall, 0.84 from its face, replaced by a Huntress misread 0.97 beside it)
        cards = [c for c in cards if not (c.confidence < p and _near(c.polygon, polygon) and (
            not c.whole_face or c.id == name or any(other == name for other, _ in c.alternatives)))]
        total = sum(names.values())
        alternatives = [(other, q / total) for other, q in names.items() if other != name]
        cards.append(CardSeen(name, p * p / total, polygon.tolist(), alternatives, [_index_box(middle, ex, ey)]))
    return cards


def _on_a_face(point: np.ndarray, outlines: list[np.ndarray], margin: float) -> bool:
    """Whether ``point`` lies inside one of ``outlines``, at least ``margin`` pixels from its edge."""
    return any(cv2.pointPolygonTest(o, (float(point[0]), float(point[1])), True) >= margin for o in outlines)


def _near(outline, polygon: np.ndarray) -> bool:
    """Whether a card's ``outline`` has its middle within :data:`SAME_CARD` diagonals of ``polygon``'s."""
    apart = np.linalg.norm(np.mean(np.asarray(outline, np.float64), axis=0) - polygon.mean(axis=0))
    return bool(apart < SAME_CARD * np.linalg.norm(polygon[2] - polygon[0]))


def _longest_run(places: list[int], k: int) -> int:
    """How many of the consecutive ``places`` run through ``k``."""
    a = b = k
    while a - 1 in places:
        a -= 1
    while b + 1 in places:
        b += 1
    return b - a + 1


def _card_middle(index_middle: np.ndarray, ex: np.ndarray, ey: np.ndarray) -> np.ndarray:
    """Where the card whose index's middle lies at ``index_middle`` has its own, on a face with axes ``ex``, ``ey``."""
    (w, h), at = CARD_MM, DECKTET_INDEX_CENTRE_MM
    return index_middle + ex * (w / 2 - at[0]) + ey * (h / 2 - at[1])


def _face_frame(polygon: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """A card's centre, its face's axes in picture pixels per millimetre (across, along the long
    side), and its diagonal in pixels, from its outline (the face's top-left corner first, or its
    bottom-right: the axes then point the other way)."""
    w, h = CARD_MM
    ex = ((polygon[1] - polygon[0]) + (polygon[2] - polygon[3])) / (2 * w)
    ey = ((polygon[3] - polygon[0]) + (polygon[2] - polygon[1])) / (2 * h)
    return polygon.mean(axis=0), ex, ey, float(np.linalg.norm(polygon[2] - polygon[0]))


def _index_box(centre: np.ndarray, ex: np.ndarray, ey: np.ndarray) -> list[float]:
    """The upright box round a Decktet index centred at ``centre`` on a face with axes ``ex``, ``ey``."""
    a, b = INDEX_BOX_MM[0] / 2, INDEX_BOX_MM[1] / 2
    corners = np.array([centre + ex * sx * a + ey * sy * b for sx in (-1, 1) for sy in (-1, 1)])
    return [float(v) for v in (*corners.min(axis=0), *corners.max(axis=0))]
