"""A face-up card no index was found on, read again from a closer look.

The detector looks at the whole picture at a few sizes no larger than 800 pixels across
(:data:`vision.cards.recognise.DETECT_SIDES`). Seen from afar, a card's index is then a handful of
pixels, and one turned across the picture is often not found at all, although the card's outline
is plain (:mod:`vision.cards.backs` finds it, and sees white card stock inside it, not a back). Cut
out and enlarged so the card is :data:`CARD_PX` pixels long, the same card's indices are as large as
the detector learned them, and the recogniser names it. (On a rendered Pouches table seen from
1.3 m, the three cards turned across the picture were found only this way, at twice their size.)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.recognise import CardRecogniser, CardSeen

CARD_PX = 300  # a card's long side in the enlarged cut-out: indices of some 60 pixels
MARGIN = 0.15  # of the outline's size, round it in the cut-out
LARGEST = 4.0  # at most this enlargement: beyond, the picture holds nothing more to read


def read_closer(recogniser: CardRecogniser, frame: np.ndarray, polygon: list[list[float]], deck: str,
                among: frozenset[str] | None = None) -> CardSeen:
    """The card whose outline in ``frame`` is ``polygon`` (picture pixels, four corners), read from an
    enlarged cut-out: the surest card named there whose middle lies inside the outline, in picture
    pixels; else the card unknown (``id`` None) with that outline, and the likeliest names as
    alternatives where the cut-out offered any. ``deck`` and ``among`` as :meth:`CardRecogniser.recognise`
    takes them."""
    outline = np.asarray(polygon, np.float64)
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    pad = (hi - lo) * MARGIN
    height, width = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(lo - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(hi + pad), [width, height]).astype(int)
    long_side = max(float(np.linalg.norm(outline[i] - outline[(i + 1) % 4])) for i in range(4))
    scale = min(LARGEST, CARD_PX / max(long_side, 1.0))
    if x1 - x0 < 2 or y1 - y0 < 2 or scale <= 1.0:
        return CardSeen(None, 0.0, outline.tolist())
    cut = cv2.resize(frame[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    inside = outline.astype(np.float32)
    found = []
    for card in recogniser.recognise(cut, deck=deck, among=among):
        if card.id == "back":
            continue
        points = np.asarray(card.polygon, np.float64) / scale + (x0, y0)
        if cv2.pointPolygonTest(inside, tuple(float(v) for v in points.mean(axis=0)), False) < 0:
            continue
        found.append(CardSeen(card.id, card.confidence, points.tolist(), card.alternatives,
                              [[a / scale + x0, b / scale + y0, c / scale + x0, d / scale + y0]
                               for a, b, c, d in card.indices], card.whole_face))
    named = [c for c in found if c.id is not None]
    if named:
        return max(named, key=lambda c: c.confidence)
    if not found:
        return CardSeen(None, 0.0, outline.tolist())
    surest = max(found, key=lambda c: c.confidence)
    return CardSeen(None, surest.confidence, outline.tolist(), surest.alternatives)
