"""Suits in a colour picture: an index printed in black ink names no heart or diamond.

The index classifier reads a suit from the sign's shape and colour together; where the sign is
hidden (a fan's top-left index, its suit under the next card) or cut off by the box, it guesses, and
on the real webcam tables it guessed a red suit for a black card more often than anything else (a 7S
read 7D 0.99, a 6S 6D 0.95, a 2S 2D 0.97: 9 of the 33 cards named wrongly on the 20 held-out tables).
The ink's colour settles half the question physically: where none of an index's ink is red
(:func:`shows_no_red`), each rank's reads as a heart or a diamond are shared between its spade and its
club, which the shape may tell and the colour does not (so a black index whose sign does not show is
left in doubt rather than guessed). A red index's ink always shows some red, however washed out the
webcam's colours; the reverse is not used: a black index's box often takes in a neighbour's red pip.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.classes import CLASSES, DECKS, INDEX

# An index shows no red where at most this much (0-255, red over the larger of green and blue) separates the red
# channel of its ink's 80th-percentile pixel from the others: of the index boxes found on the real webcam tables
# (all 39, both halves), 83% of those of black cards show no red so, and 1 of 263 of red cards (a box holding
# no ink of its own); of the phone photos', half the black ones and none of 135 red ones
NO_RED = 2.0
INK_PERCENTILE = 80
MIN_INK = 5  # pixels of ink needed to judge

_RED = np.array([INDEX[n] for n in DECKS["standard"] if n[-1] in "HD"])
_BLACK = np.array([[INDEX[CLASSES[r][:-1] + suit] for suit in "SC"] for r in _RED])  # (each red name's rank's)


def shows_no_red(image: np.ndarray, box) -> bool:
    """Whether the ink inside ``box`` (x0, y0, x1, y1 picture pixels) of the colour picture ``image``
    (BGR) shows no red: its darker pixels (Otsu's threshold on the darkest channel) at the
    :data:`INK_PERCENTILE` of redness are red by at most :data:`NO_RED`. False where too little
    ink shows to judge."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    patch = image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    if patch.size == 0:
        return False
    blue, green, red = cv2.split(patch)  # (once: the darkest channel, grey.darkest's, and the redness both need them)
    _, ink = cv2.threshold(cv2.min(cv2.min(blue, green), red), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    ink = ink > 0
    if np.count_nonzero(ink) < MIN_INK:
        return False
    redness = red[ink].astype(np.int16) - np.maximum(green[ink], blue[ink])
    return _percentile(redness, INK_PERCENTILE) <= NO_RED


def _percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` to the last bit (its linear rule, the same arithmetic), by partial
    sorting: it is called for every index read, and ``np.percentile`` took three quarters of the time."""
    at = (len(values) - 1) * (q / 100)
    below = int(at)
    above = min(below + 1, len(values) - 1)
    part = np.partition(values, (below, above))
    a, b, t = float(part[below]), float(part[above]), at - below
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def black_suits(probs: np.ndarray, image: np.ndarray, boxes) -> np.ndarray:
    """The classifier's reads ``probs`` of the indices in ``boxes`` of a colour picture, each read as a
    heart or a diamond moved, where the index's ink shows no red (:func:`shows_no_red`), half to its
    rank's spade and half to its club."""
    probs = probs.copy()
    for row, box in enumerate(boxes):
        red = probs[row, _RED]
        if red.sum() <= 0 or not shows_no_red(image, box):
            continue
        np.add.at(probs[row], _BLACK, red[:, None] / 2)  # (each rank's two red names onto its two black ones)
        probs[row, _RED] = 0.0
    return probs
