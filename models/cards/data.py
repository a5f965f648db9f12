"""Training data for the card models, rendered: detector pictures with targets, classifier crops.

Every sample comes from :func:`vision.synth.random_scene` rendered with instance masks, so what
is visible is exact: an index counts only where at least :data:`SEEN` of its box shows the card
it belongs to (a fan's covered corners are not asked for). Half the scenes take their faces from
the public art sets in ``../shared/data`` (read, never copied), half from the project's own faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cards.classes import CROP, CROP_SCALE, DETECT_LONG_SIDE, INDEX, NONE
from vision.cards.recognise import crop_turned, crop_upright
from vision.synth.random_scene import random_scene
from vision.synth.render import render

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ART = ("card_art/byron_knoll", "card_art/htdebeer", "decktet/art/tenza-magnate", "decktet/art/snej-oracles")
SEEN = 0.85  # share of an index box that must show its own card for the index to be asked for
MIN_LEGIBLE_PX = 14  # a smaller index (detector picture) is not taught to the classifier: too few pixels to read
HIDDEN = 0.35  # below this share an index is plainly gone; in between it is neither asked for nor punished


@dataclass
class Index:
    """One corner index in a detector picture (pixels of the scaled picture)."""

    box: tuple[float, float, float, float]
    centre_of_card: tuple[float, float]
    label: str
    seen: float  # share of its box showing its own card


@dataclass
class Sample:
    jpeg: bytes  # the scene scaled for the detector, JPEG as a camera would send it
    indices: list[Index]
    backs: list[tuple[float, float, float, float]]  # boxes of face-down cards seen enough to count
    crops: np.ndarray  # N x CROP x CROP x 3 uint8 from the full-size picture: what is not an index
    crop_labels: np.ndarray  # N class numbers (all 'none'; index crops are cut by scene_index_crops)
    teaches_backs: bool = True  # whether ``backs`` lists every face-down card (real photos do not)


def art_folders() -> list[str]:
    return [str(SHARED / a) for a in ART if (SHARED / a).is_dir()]


def sample(seed: int, rng: np.random.Generator | None = None) -> Sample:
    """Render scene ``seed`` and cut it into what both models learn from."""
    rng = rng or np.random.default_rng(seed + 1_000_003)
    scene = random_scene(seed, faces=art_folders() or None)
    rendering = render(scene, masks=True)
    image, labels = rendering.image, rendering.instances
    h, w = image.shape[:2]
    scale = DETECT_LONG_SIDE / max(w, h)
    indices, backs, crops, crop_labels = [], [], [], []
    for obj in rendering.objects:
        if obj.kind != "card":
            continue
        card = np.array(obj.polygon, np.float64)
        centre = card.mean(axis=0)
        if obj.label == "back":
            if visible_share(labels, card, obj.index) >= 0.5:
                lo, hi = card.min(axis=0) * scale, card.max(axis=0) * scale
                backs.append((lo[0], lo[1], hi[0], hi[1]))
            continue
        for box in obj.extra.get("index_boxes", []):
            polygon = np.array(box["polygon"], np.float64)
            seen = visible_share(labels, polygon, obj.index)
            x0, y0, x1, y1 = box["box"]
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            indices.append(Index((x0 * scale, y0 * scale, x1 * scale, y1 * scale),
                                 tuple(centre * scale), obj.label, seen))
    for _ in range(max(4, len(indices) // 2)):  # what is not an index: pips, art, table, hands, clutter
        crop = _background_crop(image, [i.box for i in indices], scale, rng)
        if crop is not None:
            crops.append(crop)
            crop_labels.append(INDEX[NONE])
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    return Sample(jpeg.tobytes(), indices, backs, np.array(crops, np.uint8).reshape(-1, CROP, CROP, 3),
                  np.array(crop_labels, np.int64))


def jittered_crop(image: np.ndarray, box, card_centre, rng: np.random.Generator) -> np.ndarray:
    """An index crop as the runtime would cut it from a detection: turned upright by the card's
    centre, its place, size and turn a little off (as the detector's are)."""
    return crop_upright(image, box, card_centre, CROP_SCALE * float(rng.uniform(0.85, 1.2)),
                        (float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1))), float(rng.uniform(-12, 12)))


def scene_index_crops(samples: list[Sample], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Index crops from the rendered scenes' detector pictures: every index in full view and at
    least :data:`MIN_LEGIBLE_PX` across, and sharp enough for a person to read."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for s in samples:
        legible_ones = [i for i in s.indices if i.seen >= SEEN and max(i.box[2] - i.box[0], i.box[3] - i.box[1]) >= MIN_LEGIBLE_PX]
        if not legible_ones:
            continue
        image = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
        for i in legible_ones:
            crops.append(jittered_crop(image, i.box, i.centre_of_card, rng))
            labels.append(INDEX[i.label])
    crops, labels = np.array(crops, np.uint8).reshape(-1, CROP, CROP, 3), np.array(labels, np.int64)
    keep = legible(crops, labels)
    return crops[keep], labels[keep]


def _background_crop(image, boxes, scale, rng) -> np.ndarray | None:
    h, w = image.shape[:2]
    for _ in range(20):
        side = float(rng.uniform(12, 90)) * max(w, h) / 1280
        cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
        near = any(abs((b[0] + b[2]) / 2 / scale - cx) < side * 0.6 and abs((b[1] + b[3]) / 2 / scale - cy) < side * 0.6
                   for b in boxes)
        if not near:
            return crop_turned(image, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), 0.0, 1.0)
    return None


def visible_share(labels: np.ndarray, polygon: np.ndarray, index: int) -> float:
    """How much of ``polygon`` (pixels) shows instance ``index``; outside the picture counts as hidden."""
    mask = np.zeros(labels.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 1)
    area = max(1.0, float(cv2.contourArea(polygon.astype(np.float32))))
    return float(np.count_nonzero((labels == index) & (mask > 0))) / area


def generate(seeds: range, folder: Path, shard: int = 100, workers: int = 2, progress=print) -> list[Path]:
    """Render ``seeds`` into pickled shards of :class:`Sample` in ``folder`` (kept between runs:
    a shard already there is reused, so an interrupted build resumes)."""
    import pickle
    from multiprocessing import get_context

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    with get_context("spawn").Pool(workers) as pool:
        for start in range(seeds.start, seeds.stop, shard):
            path = folder / f"shard-{start:06d}-{min(start + shard, seeds.stop):06d}.pkl"
            paths.append(path)
            if path.exists():
                continue
            samples = pool.map(sample, range(start, min(start + shard, seeds.stop)), chunksize=4)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(samples, protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(path)
            progress(f"  rendered scenes {start}..{min(start + shard, seeds.stop) - 1} -> {path.name}")
    return paths


def load(paths: list[Path]) -> list[Sample]:
    import pickle

    return [s for p in paths for s in pickle.loads(p.read_bytes())]


def face_crops(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Classifier crops cut straight from card faces (the project's own and the public art sets):
    each face laid on a plain or noisy table at a random turn, size, tilt, light and blur, its
    index cut as the detector would. Legible and balanced over every card, unlike indices in
    whole scenes, which are often small and blurred."""
    from vision.cards.classes import CLASSES
    from vision.synth.faces import PX_PER_MM, FaceFolder, face, index_box_mm

    rng = np.random.default_rng(seed)
    sources = [None] + [FaceFolder(f) for f in art_folders()]
    names = [c for c in CLASSES if c != NONE]
    crops, labels = [], []
    for _ in range(count):
        card_id = names[int(rng.integers(len(names)))]
        source = sources[int(rng.integers(len(sources)))]
        img = source.face(card_id) if source is not None else face(card_id)
        h, w = img.shape[:2]
        x0, y0, x1, y1 = (v * PX_PER_MM for v in index_box_mm(card_id))
        if rng.random() < 0.5:  # the bottom-right index: the same, half a turn round
            x0, y0, x1, y1 = w - x1, h - y1, w - x0, h - y0
        side = max(x1 - x0, y1 - y0)
        target = float(rng.uniform(16, 70))  # the index's longer side in the picture, pixels
        k = target / side
        turn = float(rng.uniform(0, 360))
        canvas = int(max(w, h) * k * 1.6) + 8
        m = cv2.getRotationMatrix2D(((x0 + x1) / 2, (y0 + y1) / 2), turn, k)
        m[:, 2] += canvas / 2 - np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        tilt = np.eye(3)
        tilt[2, :2] = rng.uniform(-0.4, 0.4, 2) / canvas  # a little perspective
        grain = rng.normal(0, rng.uniform(0, 14), (canvas, canvas, 1))
        table = np.clip(rng.integers(20, 235, 3) + grain, 0, 255).astype(np.uint8)
        full = tilt @ np.vstack([m, [0, 0, 1]])
        out = cv2.warpPerspective(img, full, (canvas, canvas), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_TRANSPARENT, dst=table)
        corners = cv2.perspectiveTransform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [w / 2, h / 2]]],
                                                    np.float64), full)[0]
        card_centre, corners = corners[4], corners[:4]
        light = rng.uniform(0.88, 1.12, 3) * rng.uniform(0.6, 1.2)  # colour temperature, brightness
        out = np.clip(out.astype(np.float32) * light, 0, 255).astype(np.uint8)
        if rng.random() < 0.6:
            out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.3)))
        ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
        out = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        crops.append(jittered_crop(out, (lo[0], lo[1], hi[0], hi[1]), card_centre, rng))
        labels.append(INDEX[card_id])
    return np.array(crops, np.uint8), np.array(labels, np.int64)


def legible(crops: np.ndarray, labels: np.ndarray, sharpness: float = 60.0) -> np.ndarray:
    """Which scene crops to teach: 'none' crops, and indices sharp enough for a person to read."""
    grey = [cv2.Laplacian(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var() for c in crops]
    return (np.array(grey) >= sharpness) | (labels == INDEX[NONE])
