"""Training crops for the whole-face net (``whole_face.onnx``): card outlines warped upright.

Two sources, both made the way the runtime cuts its crops (:func:`vision.cards.whole_face.face_crop`):

- **rendered tables** (:func:`scene_crops`): random scenes of Decktet cards (a fifth of standard
  cards, which are 'none' to this net), faces from ``tenza-magnate``, ``snej-oracles`` or our own
  drawn ones in turn, pyramids standing on cards. Each card mostly in view is cut from its true
  outline with its corners moved a little, and from a smaller quadrilateral inside it (what the
  outline finder returns round an art panel); every outline the finder itself returns is cut too,
  named by the card it outlines, else 'none' (a marker, a tile, two cards' edges); and from its
  outline placed roughly, as one laid out from a single corner index is (:func:`roughly`);
- **single faces** (:func:`single_face_crops`): every Decktet face and back of the same sets,
  equally often, laid at a random tilt on a random table, part covered by a pyramid-like blob or
  not, lit, blurred, noised and JPEG-compressed; standard faces so laid are 'none'.

``fogus-spiel`` is never used: the measure of Decktet recognition uses it as art never seen.
Each crop comes with the card's own corners in the crop (fractions of its width and height), which
the net learns to place.
"""

from __future__ import annotations

import numpy as np
import cv2

from models.cards.data import SHARED, visible_share
from vision.cards.classes import BACK, DECKTET, FACE_CROP, FACE_INDEX, NONE, STANDARD
from vision.cards.whole_face import crop_corners, face_crop, find_outlines, ordered

DECKTET_FACES = ("decktet/art/tenza-magnate", "decktet/art/snej-oracles")  # not fogus-spiel: held out
STANDARD_FACES = ("card_art/byron_knoll", "card_art/htdebeer")
IN_VIEW = 0.6  # a card's share in view for its outline to be taught as the card
NO_CORNERS = -1.0  # the corner target of a 'none' crop (not learned)


def folders(names) -> list[str | None]:
    """The art folders among ``names`` that exist, and None (our own drawn faces)."""
    return [str(SHARED / n) for n in names if (SHARED / n).is_dir()] + [None]


def scene_crops(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops, labels and corner targets (N x 4 x 2) from one rendered table."""
    from models.cards.measure import stand_on_cards
    from vision.synth.random_scene import random_scene
    from vision.synth.render import render

    rng = np.random.default_rng(seed)
    decktet = rng.random() < 0.8
    scene = random_scene(seed, deck="decktet" if decktet else "standard", pyramids=int(rng.integers(0, 8)))
    choices = folders(DECKTET_FACES if decktet else STANDARD_FACES)
    scene.faces = choices[seed % len(choices)]
    stand_on_cards(scene, seed)
    rendering = render(scene, masks=True)
    image = _camera(rendering.image, rng)
    cards = []
    for o in rendering.objects:
        if o.kind != "card" or len(o.polygon) != 4:
            continue
        polygon = np.array(o.polygon, np.float32)
        label = BACK if o.label == "back" else (o.label if o.label in DECKTET else NONE)
        cards.append((polygon, label, visible_share(rendering.instances, polygon.astype(np.float64), o.index)))
    crops, labels, targets = [], [], []

    def add(quad, label, truth):
        quad = ordered(quad)
        if rng.random() < 0.5:  # either way up
            quad = np.roll(quad, 2, axis=0)
        crops.append(_degraded(face_crop(image, quad), rng))
        labels.append(FACE_INDEX[label])
        targets.append(corners_in_crop(truth, quad) if label != NONE else np.full((4, 2), NO_CORNERS, np.float32))

    for polygon, label, seen in cards:
        if seen < IN_VIEW:
            continue
        side = np.linalg.norm(polygon[1] - polygon[0])
        add(polygon + rng.normal(0, 0.04 * side, (4, 2)).astype(np.float32), label, polygon)
        centre = polygon.mean(axis=0)  # a quadrilateral inside the card, as round its art panel
        inner = centre + (polygon - centre) * rng.uniform(0.6, 0.9, (1, 2)).astype(np.float32)
        add(inner + rng.normal(0, 0.03 * side, (4, 2)).astype(np.float32), label, polygon)
        add(roughly(polygon, rng), label, polygon)
    for quad in find_outlines(image):
        match = _outlined(quad, cards)
        if match is None:
            add(quad, NONE, None)
        elif match[2] >= IN_VIEW:  # (an outline of a card mostly hidden is neither taught nor punished)
            add(quad, match[1], match[0])
    return np.array(crops, np.uint8), np.array(labels, np.int64), np.array(targets, np.float32)


def roughly(polygon: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A card's outline placed as roughly as one laid out from a single corner index: turned up to
    25 degrees, a fifth too small or a quarter too large, moved by up to a sixth of its side."""
    centre = polygon.mean(axis=0)
    a = np.radians(rng.uniform(-25, 25))
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    side = np.linalg.norm(polygon[1] - polygon[0])
    moved = centre + rng.uniform(-1, 1, 2).astype(np.float32) * side / 6
    return ((polygon - centre) @ turn.T * np.float32(rng.uniform(0.8, 1.25)) + moved).astype(np.float32)


def _outlined(quad: np.ndarray, cards: list) -> tuple | None:
    """The card (polygon, label, share in view) a found outline outlines: overlapping it by half
    (intersection over union), or lying inside it and covering a third of it (an art panel)."""
    area = abs(cv2.contourArea(quad))
    for polygon, label, seen in cards:
        inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), polygon)
        card_area = abs(cv2.contourArea(polygon))
        if inter / (area + card_area - inter) >= 0.5 or (inter >= 0.9 * area and area >= 0.33 * card_area):
            return polygon, label, seen
    return None


def corners_in_crop(truth: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card's corners ``truth`` (picture pixels) in the face crop of ``quad``, as fractions of
    the crop's width and height, in the order of the crop's own corners (nearest first)."""
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), crop_corners())
    inside = cv2.perspectiveTransform(np.asarray(truth, np.float64).reshape(1, 4, 2), m)[0]
    inside = ordered_like(inside, crop_corners())
    return (inside / np.array(FACE_CROP, np.float64)).astype(np.float32)


def ordered_like(points: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``points`` (a quadrilateral, either way round) turned to lie corner by corner nearest ``reference``."""
    points = np.asarray(points, np.float64)
    centre = points.mean(axis=0)
    points = points[np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))]
    best = min(range(4), key=lambda k: np.linalg.norm(np.roll(points, -k, axis=0) - reference, axis=1).sum())
    return np.roll(points, -best, axis=0)


def single_face_crops(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` crops of single faces laid on random tables (balanced over the net's classes)."""
    from vision.synth.faces import FaceFolder, face

    rng = np.random.default_rng(seed)
    decktet_sources = [FaceFolder(f) if f else None for f in folders(DECKTET_FACES)]
    standard_sources = [FaceFolder(f) if f else None for f in folders(STANDARD_FACES)]
    names = [*DECKTET, BACK, NONE]
    crops, labels, targets = [], [], []
    for _ in range(count):
        label = names[int(rng.integers(len(names)))]
        if label == NONE:
            card_id = STANDARD[int(rng.integers(len(STANDARD)))]
            source = standard_sources[int(rng.integers(len(standard_sources)))]
        else:
            card_id = label
            source = decktet_sources[int(rng.integers(len(decktet_sources)))]
        back = str(rng.choice(["blue", "red", "green", "black", "purple"]))
        img = source.face(card_id, back) if source is not None else face(card_id, back)
        if label == BACK and source is not None and "back" not in source.paths:
            img = face("back", back)
        crop, truth_in_crop = _laid_on_a_table(img, rng)
        crops.append(crop)
        labels.append(FACE_INDEX[label])
        targets.append(truth_in_crop if label != NONE else np.full((4, 2), NO_CORNERS, np.float32))
    return np.array(crops, np.uint8), np.array(labels, np.int64), np.array(targets, np.float32)


def _laid_on_a_table(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A face tilted onto a random table, maybe part covered, cut at a jittered outline."""
    from vision.synth.faces import card_alpha

    h, w = img.shape[:2]
    side = float(rng.uniform(50, 130))  # the card's short side in the picture, pixels
    canvas = int(side * 2.6)
    centre = np.array([canvas / 2, canvas / 2]) + rng.uniform(-0.1, 0.1, 2) * canvas
    turn = rng.uniform(0, 2 * np.pi)
    tilt = rng.uniform(0.65, 1.0)  # foreshortening along a random direction
    squash = rng.uniform(0, np.pi)
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) * side / w
    r = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    s = np.array([[np.cos(squash), -np.sin(squash)], [np.sin(squash), np.cos(squash)]])
    corners = corners @ r.T @ s @ np.diag([1.0, tilt]) @ s.T
    corners = corners * (1 + rng.normal(0, 0.03, (4, 2))) + centre  # a little perspective
    table = _table(canvas, rng)
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), corners.astype(np.float32))
    warped = cv2.warpPerspective(img, m, (canvas, canvas), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(card_alpha(), m, (canvas, canvas))[..., None]
    out = (warped * alpha + table * (1 - alpha)).astype(np.uint8)
    if rng.random() < 0.5:
        _blob(out, corners, rng)
    out = _camera(out, rng)
    quad = corners.astype(np.float32)
    quad = quad + rng.normal(0, 0.05 * side, (4, 2)).astype(np.float32)
    if rng.random() < 0.25:  # round the art panel, or what shows of the card
        quad = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * rng.uniform(0.6, 0.9, (1, 2)).astype(np.float32)
    quad = ordered(quad)
    if rng.random() < 0.5:
        quad = np.roll(quad, 2, axis=0)
    return _degraded(face_crop(out, quad), rng), corners_in_crop(corners, quad)


def _table(side: int, rng: np.random.Generator) -> np.ndarray:
    """A plain, grainy or streaked table of a random colour (white mats included)."""
    colour = rng.integers(20, 250, 3) if rng.random() < 0.7 else np.full(3, rng.integers(200, 250))
    table = np.full((side, side, 3), colour, np.float32)
    table += rng.normal(0, rng.uniform(0, 12), (side, side, 1))
    if rng.random() < 0.3:  # wood grain or cloth weave, roughly
        stripes = np.sin(np.arange(side) / rng.uniform(2, 12) + rng.uniform(0, 6))[:, None, None] * rng.uniform(5, 30)
        table += stripes if rng.random() < 0.5 else stripes.transpose(1, 0, 2)
    return np.clip(table, 0, 255)


def _blob(img: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> None:
    """A pyramid-like blob (a shaded triangle or square of a piece's colour) over part of the card."""
    centre = corners.mean(axis=0) + (corners[int(rng.integers(4))] - corners.mean(axis=0)) * rng.uniform(0, 0.9)
    size = np.linalg.norm(corners[1] - corners[0]) * rng.uniform(0.25, 0.6)
    n = int(rng.choice([3, 4, 5]))
    angles = rng.uniform(0, 2 * np.pi) + np.arange(n) * 2 * np.pi / n
    points = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * size / 2
    colour = rng.integers(0, 255, 3)
    colour[int(rng.integers(3))] = rng.integers(150, 255)
    cv2.fillPoly(img, [np.round(points).astype(np.int32)], tuple(int(c) for c in colour), cv2.LINE_AA)
    half = np.array([centre, points[0], points[1]])  # one face in shadow
    cv2.fillPoly(img, [np.round(half).astype(np.int32)], tuple(int(c * 0.6) for c in colour), cv2.LINE_AA)


def _camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A webcam's look on a whole picture: light, colour cast, blur, sensor noise."""
    out = img.astype(np.float32) * rng.uniform(0.9, 1.1, 3) * rng.uniform(0.65, 1.15)
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.5)))
    out += rng.normal(0, rng.uniform(0, 6), out.shape[:2] + (1,))
    return np.clip(out, 0, 255).astype(np.uint8)


def _degraded(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop as a compressed stream gives it: JPEG at a random quality, sometimes a little blur."""
    if rng.random() < 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.3, 0.9)))
    ok, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
