"""A hand and forearm over the table, as convex 3D parts (palm, fingers, thumb, forearm).

Hands are occluders: they hide cards, cast soft shadows and, when they move, smear. The shape is
a simple model at real sizes: fingers fan out from the palm towards the fingertip point, the
forearm runs back along ``angle`` far enough to leave the picture, rising towards the elbow.
"""

from __future__ import annotations

import math

import numpy as np

from vision.synth.scene import HandObject


def hand_parts(hand: HandObject) -> list[tuple[np.ndarray, bool]]:
    """The hand's convex parts as (k x 3 points in table mm, is_sleeve) pairs, forearm first."""
    a = math.radians(hand.angle)
    back = np.array([math.cos(a), math.sin(a)])  # from the fingertips towards the elbow
    side = np.array([-back[1], back[0]])
    w = hand.width_mm
    tip = np.array([hand.x, hand.y])
    finger_len, palm_len = 0.85 * w, 1.05 * w
    palm_centre = tip + back * (finger_len + palm_len / 2)
    h = hand.height_mm
    parts = []
    wrist = palm_centre + back * palm_len * 0.45
    elbow = wrist + back * 420.0
    forearm = np.array([wrist + side * w * 0.36, elbow + side * w * 0.5, elbow - side * w * 0.5,
                        wrist - side * w * 0.36])
    parts.append((_lift(forearm, [h + 10, h + 160, h + 160, h + 10]), hand.sleeve is not None))
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    palm = palm_centre + np.outer(np.cos(t), back) * palm_len / 2 + np.outer(np.sin(t), side) * w / 2
    parts.append((_lift(palm, [h] * len(palm)), False))
    for i in range(4):
        offset = (i - 1.5) * w * 0.24
        root = palm_centre - back * palm_len * 0.35 + side * offset
        length = finger_len * (0.85 if i in (0, 3) else 1.0) * (0.9 if i == 0 else 1.0)
        direction = -back + side * offset / w * 0.35
        direction /= np.linalg.norm(direction)
        parts.append((_capsule(root, root + direction * length, w * 0.095, h, h * 0.75), False))
    thumb_root = palm_centre + side * w * 0.42 + back * palm_len * 0.1
    thumb_dir = -back * 0.6 + side * 0.8
    parts.append((_capsule(thumb_root, thumb_root + thumb_dir * w * 0.6, w * 0.11, h, h * 0.85), False))
    return parts


def _lift(points_2d: np.ndarray, heights) -> np.ndarray:
    return np.column_stack([points_2d, -np.asarray(heights, np.float64)])


def _capsule(p0: np.ndarray, p1: np.ndarray, radius: float, h0: float, h1: float, n: int = 8) -> np.ndarray:
    """A finger: a rounded bar from ``p0`` to ``p1`` (heights h0 to h1), as one convex outline."""
    d = p1 - p0
    d /= np.linalg.norm(d)
    base = math.atan2(d[1], d[0])
    end = [(p1 + radius * np.array([math.cos(base + s), math.sin(base + s)]), h1)
           for s in np.linspace(-math.pi / 2, math.pi / 2, n)]
    start = [(p0 + radius * np.array([math.cos(base + s), math.sin(base + s)]), h0)
             for s in np.linspace(math.pi / 2, 3 * math.pi / 2, n)]
    pts = end + start
    return np.array([[p[0], p[1], -z] for p, z in pts])
