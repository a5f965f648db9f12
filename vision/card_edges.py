"""A card seen by one index, turned as the picture's edges say.

A card named from one corner index (the other covered, or too small to find from afar) is laid out
from that index: the index's place on the table is good to a millimetre or two, but the card's turn
is read from the index alone, and on an index 10 pixels tall that turn may be 40 or 50 degrees off
(a Pouches trial's heap seen from afar: six of eleven cards laid out 20-30 mm from where they lay,
half a cell, so the layout read them on their neighbours' piles). The card's own edges are in the
picture, though: its border against the mat, or the next card's. :func:`turned_by_edges` tries the
turns round the one read, each laying the card out from its index as a real card lies, and keeps the
one whose outline runs along the picture's edges, where it runs along them clearly better than the
turn read.

The same outlines say when two cards read are one (the table reader's one-card-a-place pass): the
outline the edges bear out best (:func:`borne_outline`, also turned half round, for an index at the
card's far corner read as if upright), whether two outlines lie at one place (:func:`one_place`), and
where a card's indices lie by its outline (:func:`index_places`), for an index misread as a card of
its own.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from calibration.homography import TableCalibration
from referee.snapshot import CardSighting
from vision.cards.classes import CARD_MM
from vision.cards.recognise import CardSeen, index_centre_mm

TURNS_DEG = np.arange(-60, 61, 5)  # turns tried round the one read (an index's turn is rarely further off)
SAMPLES = 24  # points along each side of an outline, its corners' tenths left out (a neighbour may cover them)
CLEARLY_BETTER = 0.15  # share of an outline's points on an edge by which a turn must beat the one read
ON_EDGES = 0.6  # share of its points on an edge an outline needs to be taken at all
SAME_PLACE_MM = 15.0  # two outlines whose middles lie closer, turned alike, are one card's place
SAME_TURN_DEG = 15.0
INDEX_PLACE_MM = 4.0  # an index this close to where another card's index lies is that card's


class EdgeMap:
    """The picture's edges (Canny on the grey picture, widened by a pixel), found once per frame when asked."""

    def __init__(self, frame: np.ndarray):
        self._frame = frame
        self._near: np.ndarray | None = None

    @property
    def near(self) -> np.ndarray:
        if self._near is None:
            grey = cv2.cvtColor(self._frame, cv2.COLOR_BGR2GRAY) if self._frame.ndim == 3 else self._frame
            edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 20, 60)
            self._near = cv2.dilate(edges, np.ones((3, 3), np.uint8)) > 0
        return self._near


def turned_by_edges(card: CardSeen, sighting: CardSighting, name: str, calibration: TableCalibration,
                    edges: EdgeMap, others_mm=()) -> CardSighting:
    """``sighting`` (laid out from ``card``'s first index, ``name``'s geometry) at the turn whose
    outline the picture's edges bear out best, or as it is where no turn does clearly better, or where
    that outline would hold one of ``others_mm`` (the other cards' middles and indices, table mm): a card
    of a fan or a pile lies under its neighbours, whose edges cross it at their own turns."""
    outlines, scores = _tried(card, sighting, name, calibration, edges)
    best = int(np.argmax(scores[:-1]))
    if scores[best] < ON_EDGES or scores[best] < scores[-1] + CLEARLY_BETTER:
        return sighting
    corners = outlines[best]
    if any(cv2.pointPolygonTest(corners.astype(np.float32), (float(x), float(y)), False) >= 0 for x, y in others_mm):
        return sighting
    return replace(sighting, **placed_by(corners))


def placed_by(corners: np.ndarray) -> dict:
    """A sighting's place from its outline (4 x 2, table mm, top-left corner first): ``center_mm``,
    ``corners_mm`` and ``angle_deg`` (the turn of its top side), rounded as sightings are."""
    centre, top = corners.mean(axis=0), corners[1] - corners[0]
    angle = math.degrees(math.atan2(top[1], top[0]))
    return {"center_mm": (round(float(centre[0]), 2), round(float(centre[1]), 2)),
            "corners_mm": tuple((round(float(x), 2), round(float(y), 2)) for x, y in corners),
            "angle_deg": round((angle + 180) % 360 - 180, 2)}


def borne_outline(card: CardSeen, sighting: CardSighting, name: str, calibration: TableCalibration,
                  edges: EdgeMap) -> tuple[np.ndarray, float]:
    """Of the outlines laid out from ``card``'s first index at the turns round ``sighting``'s, the one
    the picture's edges bear out best (4 x 2, table mm), and the share of its points on an edge; or of
    those turned half round, where they bear out clearly better (:data:`CLEARLY_BETTER`): the index was
    the card's far corner, read as if upright (a Mongoose trial's QH, its bottom index read AH 0.98 at
    the upright turn, was laid out across the table's edge beyond it, a card nobody played)."""
    outlines, scores = _tried(card, sighting, name, calibration, edges)
    best = int(np.argmax(scores[:-1]))
    back, back_scores = _tried(card, replace(sighting, angle_deg=sighting.angle_deg + 180), name, calibration, edges)
    turned = int(np.argmax(back_scores[:-1]))
    if back_scores[turned] >= scores[best] + CLEARLY_BETTER:
        return back[turned], float(back_scores[turned])
    return outlines[best], float(scores[best])


def one_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two card outlines (4 x 2, table mm) are one card's place: middles within
    :data:`SAME_PLACE_MM`, long sides turned alike within :data:`SAME_TURN_DEG`, either way round (the
    cards of a fan lie with their middles as close, turned apart)."""
    if np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) > SAME_PLACE_MM:
        return False
    turns = [math.degrees(math.atan2(*(o[2] - o[1])[::-1])) for o in (a, b)]  # along the long side
    return abs((turns[0] - turns[1] + 90) % 180 - 90) <= SAME_TURN_DEG


def index_places(corners: np.ndarray, name: str) -> np.ndarray:
    """Where the middles of the two indices of a card with outline ``corners`` (4 x 2, table mm, top-left
    corner first) and ``name``'s geometry lie on the table (2 x 2, mm): at its top-left and bottom-right."""
    at = np.array(index_centre_mm(name))
    across, down = corners[1] - corners[0], corners[3] - corners[0]
    step = at[0] * across / np.linalg.norm(across) + at[1] * down / np.linalg.norm(down)
    return np.array([corners[0] + step, corners[2] - step])


def _tried(card: CardSeen, sighting: CardSighting, name: str, calibration: TableCalibration,
           edges: EdgeMap) -> tuple[np.ndarray, np.ndarray]:
    """The outlines laid out from ``card``'s first index at the turns round ``sighting``'s (turns x 4 x 2,
    table mm), and the share on edges of each, ``sighting``'s own outline's last."""
    x0, y0, x1, y1 = card.indices[0]
    index = calibration.to_table(np.array([[(x0 + x1) / 2, (y0 + y1) / 2]], np.float64))[0]
    outlines = _outlines(index, np.radians(sighting.angle_deg + TURNS_DEG), name)
    scores = _on_edges(np.concatenate([outlines, np.array(sighting.corners_mm, np.float64)[None]]), calibration,
                       edges.near)
    return outlines, scores


def _outlines(index: np.ndarray, turns: np.ndarray, name: str) -> np.ndarray:
    """Card outlines (top-left corner first, mm) with the index's middle at ``index``, one per turn."""
    w, h = CARD_MM
    at = index_centre_mm(name)
    local = np.array([(-at[0], -at[1]), (w - at[0], -at[1]), (w - at[0], h - at[1]), (-at[0], h - at[1])])
    cos, sin = np.cos(turns)[:, None], np.sin(turns)[:, None]
    xs = index[0] + local[:, 0] * cos - local[:, 1] * sin
    ys = index[1] + local[:, 0] * sin + local[:, 1] * cos
    return np.stack([xs, ys], axis=2)


def _on_edges(outlines: np.ndarray, calibration: TableCalibration, near: np.ndarray) -> np.ndarray:
    """For each outline (N x 4 x 2, mm), the share of points along its sides that lie on an edge."""
    f = np.linspace(0.1, 0.9, SAMPLES)[:, None]
    sides = [outlines[:, i, None, :] + f * (outlines[:, (i + 1) % 4, None, :] - outlines[:, i, None, :])
             for i in range(4)]
    points = np.concatenate(sides, axis=1)  # N x 4*SAMPLES x 2
    px = np.round(calibration.to_image(points.reshape(-1, 2))).astype(np.int64).reshape(len(outlines), -1, 2)
    height, width = near.shape
    inside = (px[..., 0] >= 0) & (px[..., 0] < width) & (px[..., 1] >= 0) & (px[..., 1] < height)
    hits = np.zeros(inside.shape, bool)
    hits[inside] = near[px[..., 1][inside], px[..., 0][inside]]
    return hits.sum(axis=1) / np.maximum(inside.sum(axis=1), 1)
