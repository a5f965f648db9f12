"""Suits in a picture without colour: told by the shape of the index's suit sign.

A phone photo taken grey-scale shows a red index as dark as a black one, and the index classifier,
which learned to tell the suits apart by colour as much as by shape, reads a diamond as a club. In
such a picture (:func:`without_colour`) a read's suit is settled by the sign itself: a diamond fills
the four-sided outline round it, no other suit's sign does (:func:`diamond_fill`). Hearts, spades
and clubs are not told apart so (their fills overlap): a sign that is no diamond leaves its card in
doubt among them rather than guessed.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.classes import CLASSES, CROP_SCALE, DECKS, INDEX

# a picture is without colour where a pixel's channels differ by less than GREY_SPREAD of 255 on average (the
# real colour photos by 2.9 at least, the grey ones by 0.9 at most); a suit sign is a diamond where it fills
# at least DIAMOND_FILL of its four-sided outline and itself together (on the teaching half's photos turned
# grey: diamonds 0.90 to 0.96, hearts, spades and clubs 0.84 at most; a 10 of diamonds read TC 0.91 before)
GREY_SPREAD = 1.5
DIAMOND_FILL = 0.87
WIDER = 1.3  # the box looked in where the detector's cut the sign off

_DIAMONDS = np.array([INDEX[n] for n in DECKS["standard"] if n.endswith("D")])
_OTHER_SUITS = np.array([[INDEX[CLASSES[d][:-1] + suit] for suit in "SHC"] for d in _DIAMONDS])  # (each rank's)


def without_colour(image: np.ndarray) -> bool:
    """Whether ``image`` has no colour (:data:`GREY_SPREAD`), judged on every 8th pixel."""
    if image.ndim != 3:
        return False
    few = image[::8, ::8].astype(np.int16)
    return float((few.max(axis=2) - few.min(axis=2)).mean()) < GREY_SPREAD


def darkest(image: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel of the colour picture ``image`` (what ink is darkest in, whatever
    its colour); ``image.min(axis=2)`` took 20 ms on a 1280x720 picture, this about 1."""
    blue, green, red = cv2.split(image)
    return cv2.min(cv2.min(blue, green), red)


def _diamond(ink: np.ndarray, box, wider, turn_deg: float) -> bool | None:
    """Whether the suit sign of the index in ``box`` (of the picture's darkest channel ``ink``), turned
    upright by ``turn_deg``, is a diamond: it fills the four-sided outline round it (:func:`diamond_fill`,
    at least :data:`DIAMOND_FILL`). Where no whole sign shows in the box, the ``wider`` box is looked in
    (the detector's box sometimes cuts the sign off below the rank: a grey 7D's box, two thirds of its
    index, read 7S 0.34). None where no sign shows there either."""
    fill = diamond_fill(ink, box, turn_deg)
    if fill is None:
        fill = diamond_fill(ink, wider, turn_deg)
    return None if fill is None else fill >= DIAMOND_FILL


def diamond_fill(image: np.ndarray, box, turn_deg: float, side: int = 96) -> float | None:
    """How fully the suit sign of the index in ``box``, turned upright by ``turn_deg``, fills the
    four-sided outline round it: the largest ink blob in the crop's lower part (below the rank), its
    and the outline's shared area over their union (a diamond's about 0.9, a club's 0.75). None where
    no such blob shows."""
    x0, y0, x1, y1 = box
    k = side / max(x1 - x0, y1 - y0, 2.0) / CROP_SCALE
    m = cv2.getRotationMatrix2D(((x0 + x1) / 2, (y0 + y1) / 2), turn_deg, k)
    m[:, 2] += (side / 2 - (x0 + x1) / 2, side / 2 - (y0 + y1) / 2)
    crop = cv2.warpAffine(darkest(image) if image.ndim == 3 else image, m, (side, side),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    _, ink = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink)
    # (a blob touching the crop's edge is the card's edge or a neighbour's, and no whole sign)
    inside = [j for j in range(1, n) if stats[j, 4] >= 40 and centres[j][1] >= 0.45 * side and stats[j, 0] > 0
              and stats[j, 1] > 0 and stats[j, 0] + stats[j, 2] < side and stats[j, 1] + stats[j, 3] < side]
    if not inside:
        return None
    blob = (labels == max(inside, key=lambda j: stats[j, 4])).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    lo, hi = 0.0, 0.5  # the hull simplified to four corners (or fewer), the loosest such fit found by halving
    for _ in range(16):
        if len(cv2.approxPolyDP(hull, (lo + hi) / 2 * perimeter, True)) > 4:
            lo = (lo + hi) / 2
        else:
            hi = (lo + hi) / 2
    outline = np.zeros_like(blob)
    cv2.fillPoly(outline, [cv2.approxPolyDP(hull, hi * perimeter, True)], 1)
    return float(np.logical_and(outline, blob).sum() / np.logical_or(outline, blob).sum())


def suits_by_shape(probs: np.ndarray, image: np.ndarray, boxes, wider, turns) -> np.ndarray:
    """The classifier's reads ``probs`` of the indices in ``boxes`` (``wider``: each a third larger, where
    the box cut the sign off) of a picture without colour, each index read at its turn in ``turns``, with
    its suit told by its sign's shape (:func:`_diamond`): where
    the sign is a diamond, each rank's reads as a club, spade or heart go to that rank's diamond; where it
    is not, each rank's read as a diamond is shared among its other three suits (which of them it is, the
    read of a black-looking sign does not say surely: the card is left in doubt rather than guessed)."""
    ink = darkest(image) if image.ndim == 3 else image  # (once for all the reads)
    probs = probs.copy()
    for row, (box, larger, turn) in enumerate(zip(boxes, wider, turns)):
        diamond = _diamond(ink, box, larger, float(turn))
        if diamond is None:
            continue
        d, others = probs[row, _DIAMONDS], probs[row, _OTHER_SUITS]
        probs[row, _DIAMONDS] = d + others.sum(axis=1) if diamond else 0.0
        probs[row, _OTHER_SUITS] = 0.0 if diamond else others + d[:, None] / 3
    return probs
