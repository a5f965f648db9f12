"""Where a perched pyramid of the *same* colour sits: its own pips on the faces below.

A red small on a red large's tip has the large's outline and colour, so colour bands cannot see it.
Its pips show (:func:`pip_dip`): every Looney pyramid has its 1, 2 or 3 pips near the base of each
face, in the middle. A perched medium's two pips sit a few millimetres above the perch height, across
the middle of the large's faces, where a lone large is plain plastic. (The line a perched small's base
draws across a large's faces was also used until session 16: on the Pungo trial games it found no
tree the pips missed, and took a lone large or a nest for a large with a small 5 times in 4,318
stacks.)
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.pyramids import Size
from vision.pieces.camera import TableCamera
from vision.pieces.fitting import Fit

STEP_MM = 2.5  # how far above and below the row of pips the plastic is compared
# Looney pyramids' pips, near the base of each face in the middle (the maker's moulding, as measured for the
# renderer's models): a pip's radius, the distance between pips' centres, and how far up the slant the row's
# centre lies (a share of the slant, plus one radius)
PIP_RADIUS_MM = 1.3
PIP_SPACING_MM = 3.4
PIP_RISE = 0.12
PIP_SAMPLES = 9  # points across the row of pips, on each face
ROW_SEARCH_MM = (-1.5, 0.0, 1.5)  # where each face's row of pips is looked for, round where it should be


def _pip_row_height(size: Size) -> float:
    """Height above its own base of the row of pips on a pyramid's faces."""
    slant = float(np.hypot(size.height_mm, size.base_mm / 2))
    return (slant * PIP_RISE + PIP_RADIUS_MM) * size.height_mm / slant


def _pip_row_half(size: Size) -> float:
    """Half the width of the row of a pyramid's pips along a face (its pip count is its size)."""
    return PIP_SPACING_MM * (int(size) - 1) / 2 + PIP_RADIUS_MM


def _middles(fit: Fit, size: Size, heights: np.ndarray, half_mm: float, camera: TableCamera) -> list[np.ndarray]:
    """For each of ``heights``: points (N x 3) across the middle ``2 * half_mm`` of the camera-facing sides
    there, :data:`PIP_SAMPLES` per side (all heights worked at once: a frame asks for thousands of rows)."""
    half = size.base_mm / 2 * (1 - heights / size.height_mm)  # (per height)
    a = np.radians(fit.angle)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    centre = np.array([fit.x, fit.y])
    corners = [centre + half[:, None] * (sx * ex + sy * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    across = np.linspace(-1.0, 1.0, PIP_SAMPLES)[None, :] * np.minimum(half_mm / np.maximum(half, 1e-6), 1.0)[:, None]
    sides, facing = [], []
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        mid = (p + q) / 2
        # a side faces the camera when the camera is beyond it
        facing.append(((mid - centre) * (camera.centre_mm[:2] - mid)).sum(axis=1) > 0)
        sides.append(mid[:, None, :] + (q - p)[:, None, :] / 2 * across[:, :, None])  # (height, sample, xy)
    out = []
    for n, height in enumerate(heights):
        xy = [side[n] for side, faces in zip(sides, facing) if faces[n]]
        out.append(np.column_stack([np.vstack(xy), np.full(len(xy) * PIP_SAMPLES, -height)]) if xy
                   else np.empty((0, 3)))
    return out


def pip_dip(grey: np.ndarray, fit: Fit, bottom: Size, top: Size, perch_mm: float, camera: TableCamera,
            lift_mm: float = 0.0) -> float:
    """How much darker, as a share of the plastic's lightness, the middle of the faces of ``bottom`` is where the
    pips of a ``top`` perched ``perch_mm`` up would be, than both just above and just below (``STEP_MM``).
    ``lift_mm``: the ``top`` rides that much higher, held up by a pyramid hidden inside it (a medium put over a
    small on a large's tip); its faces run parallel to the bottom's, further out, so its pips are where the
    bottom's face would have them ``lift_mm`` lower, raised by ``lift_mm``.

    About 0 on a plain face (a ramp from one colour to the next above is no darker than both sides); a row of
    pips makes it clearly positive (pips are the plastic, darker). The faces are steep: a base fitted 1 mm off
    across a face puts a row 3.5 mm higher or lower on it, so each face's row is looked for within
    ``ROW_SEARCH_MM`` of where it should be, and the faces' best dips are averaged."""
    row = perch_mm + _pip_row_height(top)
    heights = np.array([h for offset in ROW_SEARCH_MM for h in (row + offset - STEP_MM, row + offset,
                                                                 row + offset + STEP_MM)])
    points = _middles(fit, bottom, heights, _pip_row_half(top), camera)
    if not all(len(p) for p in points):  # (no side faces the camera at some height: nothing to compare)
        return 0.0
    every = np.vstack(points)
    every[:, 2] -= lift_mm  # (z points down from the table)
    px = camera.project(every).astype(np.float32)  # (all rows in one projection and one remap)
    seen = cv2.remap(grey, px[:, 0:1], px[:, 1:2], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).ravel()
    rows = np.split(seen.astype(np.float32), np.cumsum([len(p) for p in points])[:-1])
    best = None
    for k in range(len(ROW_SEARCH_MM)):
        below, at, above = rows[3 * k:3 * k + 3]
        if not len(below) == len(at) == len(above):  # a side turns away between the heights: too close to call
            continue
        below, at, above = (r.reshape(-1, PIP_SAMPLES) for r in (below, at, above))  # one line per camera-facing side
        dips = (np.minimum(below, above) - at).mean(axis=1) / np.maximum((below + above).mean(axis=1) / 2, 1.0)
        best = dips if best is None or len(best) != len(dips) else np.maximum(best, dips)
    return float(np.mean(best)) if best is not None else 0.0
