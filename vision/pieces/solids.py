"""The outlines of the pieces in the picture: pyramid stacks, a die and tokens as 3D point sets.

Each piece is convex or nearly so (a pawn's waist is the exception, and its hull is close enough),
so its outline in the picture is the convex hull of its corners projected by the camera. A tree's
outline is its bottom pyramid's: a smaller pyramid perched on a larger one's tip stands exactly
where the larger one narrows to its base, so the two share their slopes.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from referee.pyramids import Size


def pyramid_points(x: float, y: float, angle_deg: float, size: Size, base_mm: float = 0.0,
                   top_mm: float | None = None, bottom_mm: float = 0.0) -> np.ndarray:
    """Corners of a pyramid standing on the table at (x, y), cut to the heights ``bottom_mm``..``top_mm``
    above its own base (standing ``base_mm`` above the table): a frustum, or the whole pyramid."""
    return _pyramid_at_origin(float(angle_deg), size, float(base_mm), top_mm, float(bottom_mm)) + (x, y, 0.0)


@lru_cache(maxsize=4096)  # outlines are fitted thousands of times a frame, at a few turns: the shape once each
def _pyramid_at_origin(angle_deg: float, size: Size, base_mm: float, top_mm: float | None,
                       bottom_mm: float) -> np.ndarray:
    half, height = size.base_mm / 2, size.height_mm
    top = height if top_mm is None else min(top_mm, height)
    a = math.radians(angle_deg)
    c, s_ = math.cos(a), math.sin(a)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    turned = corners @ np.array([[c, s_], [-s_, c]])  # rows: sx * ex + sy * ey
    points = np.empty((8, 3))
    for k, z in enumerate((bottom_mm, top)):
        r = half * (1 - z / height)
        points[4 * k:4 * k + 4, :2] = r * turned
        points[4 * k:4 * k + 4, 2] = -(base_mm + z)
    points.flags.writeable = False  # shared by every call: the caller gets a moved copy
    return points


def lying_pyramid_points(x: float, y: float, angle_deg: float, size: Size) -> np.ndarray:
    """Corners of a pyramid lying on one face with its tip pointing along ``angle_deg``, (x, y) the middle
    of the face on the table: that face's base edge across the tip's direction, the tip a slant height
    further on, and the base square standing tilted over the edge (it is square to the pyramid's axis,
    so its far edge is ``b * h / s`` up and ``b**2 / (2 s)`` towards the tip)."""
    b, h = size.base_mm, size.height_mm
    s = math.hypot(h, b / 2)
    a = math.radians(angle_deg)
    u = np.array([math.cos(a), math.sin(a), 0.0])  # towards the tip
    v = np.array([-math.sin(a), math.cos(a), 0.0])
    up = np.array([0.0, 0.0, -1.0])  # table frame: height is -z
    edge = np.array([x, y, 0.0]) - u * s / 2
    raised = edge + u * b * b / (2 * s) + up * b * h / s
    return np.array([edge - v * b / 2, edge + v * b / 2, raised + v * b / 2, raised - v * b / 2, edge + u * s])


def cube_points(x: float, y: float, angle_deg: float, edge_mm: float, top_only: bool = False) -> np.ndarray:
    """Corners of a cube standing on the table (or, ``top_only``, of its top face, clockwise in the table frame)."""
    return _cube_at_origin(float(angle_deg), float(edge_mm), top_only) + (x, y, 0.0)


@lru_cache(maxsize=4096)
def _cube_at_origin(angle_deg: float, edge_mm: float, top_only: bool) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s_ = math.cos(a), math.sin(a)
    ring = edge_mm / 2 * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) @ np.array([[c, s_], [-s_, c]])
    levels = (edge_mm,) if top_only else (0.0, edge_mm)
    points = np.vstack([np.column_stack([ring, np.full(4, -z)]) for z in levels])
    points.flags.writeable = False
    return points


def cylinder_points(x: float, y: float, radius_mm: float, height_mm: float, segments: int = 16) -> np.ndarray:
    """Points round a cylinder (a disc, or the hull of a pawn) standing on the table."""
    return _cylinder_at_origin(float(radius_mm), float(height_mm), segments) + (x, y, 0.0)


@lru_cache(maxsize=256)
def _cylinder_at_origin(radius_mm: float, height_mm: float, segments: int) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = np.column_stack([radius_mm * np.cos(t), radius_mm * np.sin(t)])
    points = np.vstack([np.column_stack([ring, np.zeros(segments)]),
                        np.column_stack([ring, np.full(segments, -height_mm)])])
    points.flags.writeable = False
    return points


def outline_mask(pixels: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """A 0/1 mask over ``box`` (x0, y0, x1, y1) of the convex hull of ``pixels``."""
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    hull = cv2.convexHull(np.round((pixels - (x0, y0)) * 16).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
    return mask
