"""Measuring rendered scenes against their ground truth: masks, overlaps, warping cards back."""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from vision.synth import faces
from vision.synth.scene import Camera, CardObject, Effects, Scene

FACE_PX_PER_MM = 3  # resolution at which a card is warped back out of a picture


def polygon_mask(polygon, shape) -> np.ndarray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(polygon) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return mask.astype(bool)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.count_nonzero(a & b) / max(1, np.count_nonzero(a | b)))


def warp_back(image: np.ndarray, polygon) -> np.ndarray:
    """The card a truth polygon outlines, warped back upright to FACE_PX_PER_MM, grey."""
    w, h = round(63 * FACE_PX_PER_MM), round(88 * FACE_PX_PER_MM)
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - 0.5
    H = cv2.getPerspectiveTransform(np.float32(polygon), dst)
    return cv2.cvtColor(cv2.warpPerspective(image, H, (w, h), flags=cv2.INTER_LINEAR), cv2.COLOR_BGR2GRAY)


@cache
def face_grey(card_id: str) -> np.ndarray:
    w, h = round(63 * FACE_PX_PER_MM), round(88 * FACE_PX_PER_MM)
    return cv2.cvtColor(cv2.resize(faces.face(card_id), (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)


def corner(grey: np.ndarray, card_id: str = "QH") -> np.ndarray:
    """The top-left corner index region of an upright face image of a card like ``card_id``."""
    x0, y0, x1, y1 = (round(v * FACE_PX_PER_MM) for v in faces.index_box_mm(card_id))
    return grey[y0:y1, x0:x1]


def grid_scene(ids, columns: int, size=(1920, 1080), gap_mm: float = 8.0, tilt: float = 0.0, **effects) -> Scene:
    """Cards laid out in a grid, face up, the camera above the grid's centre so all fit in view."""
    rows = math.ceil(len(ids) / columns)
    pitch_x, pitch_y = 63 + gap_mm, 88 + gap_mm
    cards = [CardObject(card_id, (i % columns) * pitch_x, (i // columns) * pitch_y) for i, card_id in enumerate(ids)]
    centre = ((columns - 1) * pitch_x / 2, (rows - 1) * pitch_y / 2)
    width_mm = max(columns * pitch_x, rows * pitch_y * size[0] / size[1]) * 1.1
    distance = width_mm / 2 / math.tan(math.radians(30))
    return Scene(camera=Camera(centre, distance, tilt, size=size, hfov_deg=60), cards=cards,
                 effects=Effects(**{"noise": 2.0, "focus_blur_px": 0.5, "jpeg_quality": 85, **effects}))


class Matcher:
    """Normalised correlation of a warped-back card against many candidate faces at once."""

    def __init__(self, candidates, region):
        self.ids = list(candidates)
        self.region = region
        self.vectors = np.stack([unit_vector(region(face_grey(cid), cid)) for cid in self.ids])

    def best(self, image, polygon, like: str):
        """(best candidate, {candidate: score}) for the card ``polygon`` outlines, cut like card ``like``."""
        seen = unit_vector(self.region(warp_back(image, polygon), like))
        scores = dict(zip(self.ids, (self.vectors @ seen).tolist()))
        return max(scores, key=scores.get), scores


def unit_vector(grey: np.ndarray) -> np.ndarray:
    v = grey.astype(np.float32).ravel()
    v -= v.mean()
    return v / (np.linalg.norm(v) + 1e-9)

