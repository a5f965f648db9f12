"""Face-down cards on a calibrated table: card-sized rectangles in the view from above.

The detector names a face-up card by its printed index; a back has no index, and its design is
whatever the deck's maker chose. But once the table is calibrated a card has a known size, so a
face-down card is found the classical way: look at the table from straight above, find its edges,
and keep the closed outlines whose smallest enclosing rectangle has a card's size and shape (the
card itself, or the printed back inside its white border: both share the card's centre and turn).
Outlines round a face-up card the detector named are that card, not a back. An outline running
along the picture's edge is no card either: the card it seems to be may go on out of view, so its
size is unknown (a striped table cut by the picture's edge makes card-sized rectangles there).

A card-sized outline is not always a back: a face-up card whose index the detector could not make
out (a small card turned across the picture, seen from afar) has the same outline. Its middle is
white card stock with a few pips, where a back's is its printed design; so each outline says how
much of its middle is as white as the mat's paper (``BackSeen.paper``), and one above
:data:`FACE_LIKE` is a face-up card to be read more closely, never a back. One with nothing printed
on it at all is bare paper between cards, no card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.homography import TableCalibration
from calibration.rectify import rectify
from vision.cards.classes import CARD_MM

PX_PER_MM = 1.5  # a card is 95 x 132 pixels from above: its edges are plain, the view is cheap
REACH_MM = 700.0  # how far from the mat's origin face-down cards are looked for
SMALLEST = 0.72  # a back's printed design may sit inside a white border: down to this share of the card
LARGEST = 1.1
SQUARENESS = 0.15  # how far (relative) an outline's long/short ratio may be from a card's
FILLED = 0.85  # an outline must fill this share of its rectangle (a card's corners are barely rounded)
SAME_CARD_MM = 15.0  # outlines whose centres are this close are one card (its edge and its design's)
FACE_LIKE = 0.2  # share of an outline's middle as white as the mat's paper above which it is a face
# (rendered tables: backs 0.00-0.06, face-up cards 0.33 (a queen) to 0.94 (pips), under any light)
WHITE = 0.7  # a pixel is as white as the paper when each of its colours is this share of the paper's
# an outline whose middle (its inner 80 %: a two's pips and the indices inside) is all this white is bare paper
# boxed by the cards round it and the mat's lines, no card (rendered trial tables: cards 0.96-0.97, a two of
# diamonds 0.97, an empty place between cards 1.00)
BLANK = 0.995
# a Decktet card's art panel (mm, short and long side): the project's faces print it 39 x 66 mm on the
# 63 x 88 mm card, the published art sets (../shared/data/decktet/art) about 42 x 65 mm; seen inked
# against the paper it often takes in the index and the name beside it, up to the card's size
PANEL_SHORT = (32.0, 66.0)
PANEL_LONG = (52.0, 92.0)
PANEL_FILLED = 0.6  # it must fill this share of its rectangle (a pyramid on it, an index beside it bulge it)
# a pixel is inked where its colours, each as a share of the paper's, spread this much (a warm light tints
# the paper itself: its raw colours spread 35 grey levels and more), or shaded where one is below SHADE
INK = 0.1
SHADE = 0.8
EDGE_PX = 4  # (in the view from above) an outline coming this close to the picture's edge may be cut by it


@dataclass(frozen=True)
class BackSeen:
    """A face-down card on the table: centre (mm), the direction of its short side (degrees, as a
    face-up card's top edge: a back has no top, so within -90..90), how rectangular its outline
    was (0..1), and its corners (mm, a card's size round the centre, as a face-up card lists them)."""

    centre_mm: tuple[float, float]
    angle_deg: float
    filled: float
    paper: float = 0.0  # the share of its middle as white as the mat's paper (0 when no paper was given)

    @property
    def face_like(self) -> bool:
        """Whether the outline looks like a face-up card rather than a back (see the module's doc)."""
        return self.paper > FACE_LIKE

    def corners_mm(self) -> list[tuple[float, float]]:
        a = math.radians(self.angle_deg)
        ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        short, long = CARD_MM
        c = np.asarray(self.centre_mm)
        quad = [c + sx * short / 2 * ex + sy * long / 2 * ey for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        return [(float(p[0]), float(p[1])) for p in quad]


def visible_area(calibration: TableCalibration, around: tuple[float, float] = (0.0, 0.0),
                 reach: float = REACH_MM) -> tuple[float, float, float, float] | None:
    """The table rectangle (x, y, width, height, mm) the picture shows, within ``reach`` of ``around``."""
    w, h = calibration.image_size
    corners = calibration.to_table(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    if not np.isfinite(corners).all():
        return None
    lo = np.maximum(corners.min(axis=0), np.asarray(around) - reach)
    hi = np.minimum(corners.max(axis=0), np.asarray(around) + reach)
    if (hi - lo).min() < CARD_MM[0]:
        return None
    return float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1])


def _median(grey: np.ndarray) -> float:
    """``np.median`` of an 8-bit picture, from its histogram: the same number, without sorting its
    two million pixels (a quarter of the time ``np.median`` takes on the view from above)."""
    below = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel().astype(np.int64))
    n = grey.size  # the median is the middle value, or the mean of the two middle ones
    lower, upper = np.searchsorted(below, ((n - 1) // 2, n // 2), side="right")
    return (float(lower) + float(upper)) / 2


def _long_enough(contours, length_px: float) -> list[np.ndarray]:
    """The contours whose points span at least ``length_px`` (bar rounding): no side of a smallest
    enclosing rectangle is longer than the points' widest span, which their bounding box's diagonal
    bounds. Most of the thousands of outlines in a view are a few pixels of texture, and are left out
    here at once rather than one by one."""
    if not contours:
        return []
    points = np.concatenate(contours).reshape(-1, 2)
    starts = np.cumsum([0] + [len(c) for c in contours[:-1]])
    span = np.maximum.reduceat(points, starts) - np.minimum.reduceat(points, starts)
    return [contours[k] for k in np.flatnonzero(np.hypot(span[:, 0], span[:, 1]) >= 0.99 * length_px)]


def find_backs(frame: np.ndarray, calibration: TableCalibration, area_mm: tuple[float, float, float, float],
               face_up_mm: list[tuple[float, float]] = (),
               paper_mm: tuple[float, float, float, float] | None = None) -> list[BackSeen]:
    """The card-sized outlines in ``frame`` within the table rectangle ``area_mm``: face-down cards,
    and face-up cards no index was found on (``face_like``, measured against the mat's paper, the
    table rectangle ``paper_mm``, where given). Outlines holding one of the ``face_up_mm`` centres
    (face-up cards already named) are left out."""
    short, long = CARD_MM
    top, found = _rectangles(frame, calibration, area_mm, (SMALLEST * short, LARGEST * short),
                             (SMALLEST * long, LARGEST * long), long / short)
    if paper_mm is not None:
        white = _paper_white(top, area_mm, paper_mm)
        found = [BackSeen(f.centre_mm, f.angle_deg, f.filled, _paper_share(top, area_mm, f, white)) for f in found
                 if _paper_share(top, area_mm, f, white, middle=0.8) < BLANK]
    return _apart(found, face_up_mm)


def find_panels(frame: np.ndarray, calibration: TableCalibration, area_mm: tuple[float, float, float, float],
                paper_mm: tuple[float, float, float, float],
                face_up_mm: list[tuple[float, float]] = ()) -> list[BackSeen]:
    """The cards round the Decktet art panels in ``frame`` within the table rectangle ``area_mm``: the
    regions of the view from above that are inked (:data:`INK`) or shaded (:data:`SHADE`) against the
    mat's paper (the table rectangle ``paper_mm``; colours taken as shares of the paper's white), whose
    smallest rectangle has the size of an art panel with the index and the name beside it, up to a
    card's (:data:`PANEL_SHORT`, :data:`PANEL_LONG`), each given as the card-sized outline round its
    middle at its turn (a panel sits a few millimetres off its card's middle: who reads the card puts
    its outline right; it is no back, whatever :attr:`BackSeen.face_like` says). A Decktet card's own edge is often lost
    on a white mat, or under bright light, where its coloured panel is not; a pyramid on the panel breaks
    the panel's edge, not its colour. Regions holding one of the ``face_up_mm`` centres (cards already
    named) are left out. Many regions are no card (a back, a pile, the table beside the mat): who reads
    them says which are."""
    top = rectify(frame, calibration, area_mm, PX_PER_MM)
    white = _paper_white(top, area_mm, paper_mm)
    if white is None:
        return []
    # each colour as a share of the paper's (the paper is white: a warm light's cast goes), looked up per channel
    # from its 256 values: dividing the 2100 x 1200 view and reducing across each pixel's colours took half a second
    shares = [(np.arange(256) / max(float(w), 1.0)).astype(np.float32) for w in white]
    planes = cv2.split(top)
    blue, green, red = (cv2.LUT(plane, share) for share, plane in zip(shares, planes))
    spread = cv2.subtract(cv2.max(cv2.max(blue, green), red), cv2.min(cv2.min(blue, green), red))
    inked = spread > np.float32(INK)
    for share, plane in zip(shares, planes):
        inked |= cv2.LUT(plane, (share < SHADE).astype(np.uint8)).view(bool)
    mask = cv2.morphologyEx(inked.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    panels = [_rectangle(c, area_mm, PANEL_SHORT, PANEL_LONG, None, PANEL_FILLED)
              for c in _long_enough(contours, PANEL_LONG[0] * PX_PER_MM)]
    return _apart([p for p in panels if p is not None], face_up_mm)


def _rectangles(frame: np.ndarray, calibration: TableCalibration, area_mm: tuple[float, float, float, float],
                short_mm: tuple[float, float], long_mm: tuple[float, float],
                ratio: float | None) -> tuple[np.ndarray, list[BackSeen]]:
    """The view from above of ``area_mm``, and the closed outlines in it whose smallest enclosing
    rectangle has sides within ``short_mm`` and ``long_mm`` (and, unless None, a long side ``ratio``
    times the short, within :data:`SQUARENESS`), filling it (:data:`FILLED`) and clear of the
    picture's edge, each as the card-sized outline round the rectangle's middle at its turn."""
    top = rectify(frame, calibration, area_mm, PX_PER_MM)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.0)
    median = _median(grey)
    edges = cv2.Canny(grey, 0.33 * median * 0.5, 0.66 * median * 0.5)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    # the picture itself within the area, seen from above, less a rim: an outline reaching the rim may
    # be cut by the picture's edge (or the area's)
    in_view = cv2.erode(rectify(np.full(frame.shape[:2], 255, np.uint8), calibration, area_mm, PX_PER_MM),
                        np.ones((2 * EDGE_PX + 1, 2 * EDGE_PX + 1), np.uint8),
                        borderType=cv2.BORDER_CONSTANT, borderValue=0)
    found = []
    for contour in _long_enough(contours, long_mm[0] * PX_PER_MM):
        points = contour.reshape(-1, 2)
        if in_view[points[:, 1], points[:, 0]].all():
            found.append(_rectangle(contour, area_mm, short_mm, long_mm, ratio, FILLED))
    return top, [f for f in found if f is not None]


def _rectangle(contour: np.ndarray, area_mm, short_mm: tuple[float, float], long_mm: tuple[float, float],
               ratio: float | None, filled: float) -> BackSeen | None:
    """The card-sized outline round the middle of ``contour`` (view-from-above pixels of ``area_mm``) at
    its turn, where its smallest enclosing rectangle has sides within ``short_mm`` and ``long_mm`` (and,
    unless None, a long side ``ratio`` times the short, within :data:`SQUARENESS`) and it fills at least
    ``filled`` of it; else None."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    a, b = sorted((w / PX_PER_MM, h / PX_PER_MM))
    if not (short_mm[0] <= a <= short_mm[1] and long_mm[0] <= b <= long_mm[1]):
        return None
    if ratio is not None and abs((b / a) / ratio - 1) > SQUARENESS:
        return None
    share = cv2.contourArea(contour) / max(w * h, 1.0)
    if share < filled:
        return None
    short_deg = angle if w <= h else angle + 90.0  # minAreaRect's angle is along its "width"
    centre = (area_mm[0] + (cx + 0.5) / PX_PER_MM, area_mm[1] + (cy + 0.5) / PX_PER_MM)
    return BackSeen(centre, (short_deg + 90.0) % 180.0 - 90.0, min(1.0, share))


def _apart(found: list[BackSeen], face_up_mm) -> list[BackSeen]:
    """``found`` less outlines within :data:`SAME_CARD_MM` of a better-filled one (a card's edge and
    its print's), and those holding one of the ``face_up_mm`` centres."""
    kept: list[BackSeen] = []
    for back in sorted(found, key=lambda f: -f.filled):
        if any(math.dist(back.centre_mm, k.centre_mm) < SAME_CARD_MM for k in kept):
            continue
        outline = np.array(back.corners_mm(), np.float32)
        if any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in face_up_mm):
            continue
        kept.append(back)
    return kept


def _paper_white(top: np.ndarray, area_mm, paper_mm) -> np.ndarray | None:
    """The mat paper's white in the view from above (BGR): the bright end (90th percentile, from each
    colour's histogram: sorting the paper's half a million pixels cost 30 ms a frame) of the paper's
    pixels, which cards, markers and print cover only in part."""
    x0, y0 = (round((paper_mm[0] - area_mm[0]) * PX_PER_MM), round((paper_mm[1] - area_mm[1]) * PX_PER_MM))
    x1, y1 = x0 + round(paper_mm[2] * PX_PER_MM), y0 + round(paper_mm[3] * PX_PER_MM)
    paper = top[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]
    if not paper.size:
        return None
    blue, green, red = cv2.split(paper)
    shown = (cv2.max(cv2.max(blue, green), red) > 0).astype(np.uint8)  # (what the picture shows of it)
    count = int(shown.sum())
    if not count:
        return None
    white = []
    for channel in range(3):
        below = np.cumsum(cv2.calcHist([paper], [channel], shown, [256], [0, 256]).ravel())
        white.append(float(np.searchsorted(below, 0.9 * count)))
    return np.array(white)


def _paper_share(top: np.ndarray, area_mm, back: BackSeen, white: np.ndarray | None, middle: float = 0.6) -> float:
    """The share of the middle of ``back``'s outline (its inner ``middle``, by side) as white as ``white``."""
    if white is None:
        return 0.0
    a = math.radians(back.angle_deg)
    ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    c = np.asarray(back.centre_mm)
    half = middle / 2
    corners = [c + sx * half * CARD_MM[0] * ex + sy * half * CARD_MM[1] * ey for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    polygon = np.round((np.array(corners) - np.asarray(area_mm[:2])) * PX_PER_MM).astype(np.int32)
    (x0, y0), (x1, y1) = np.maximum(polygon.min(axis=0), 0), polygon.max(axis=0) + 1
    part = top[y0:y1, x0:x1]  # (only round the outline: a mask of the whole view per outline cost 10 ms each)
    if not part.size:
        return 0.0
    mask = np.zeros(part.shape[:2], np.uint8)
    cv2.fillPoly(mask, [polygon - (x0, y0)], 255)
    pixels = part[mask > 0]
    if not len(pixels):
        return 0.0
    return float((pixels >= WHITE * white).all(axis=1).mean())
