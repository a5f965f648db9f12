"""Card faces and backs, drawn by our own code, or loaded from a folder of face images.

A face is a BGR image of a poker-size card (63 x 88 mm) at :data:`PX_PER_MM`, upright (its top
edge is the card's top). Standard cards get corner indices (rank over suit symbol, at the top-left
and, turned half round, the bottom-right), pips in the usual layouts and a simple court figure;
Decktet cards get the rank glyph and their suit icons in natural order down the corners, big suit
icons over a coloured art panel, and the card's name. :data:`CARD_ALPHA` is the rounded outline
every face shares.

>>> face("QH").shape
(440, 315, 3)
"""

from __future__ import annotations

import hashlib
import math
import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from referee import decktet
from referee.cards import JOKERS, RED_SUITS, Card

PX_PER_MM = 5.0
CARD_MM = (63.0, 88.0)
SIZE = (round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM))  # width, height in pixels
CORNER_RADIUS_MM = 3.2
# Where the top-left corner index lies on every face we draw (mm): rank and symbol together.
INDEX_BOX_MM = (1.5, 2.0, 11.5, 21.0)  # x0, y0, x1, y1
DECKTET_INDEX_BOX_MM = (1.5, 2.0, 11.5, 43.0)  # the rank glyph and up to three suit icons

PAPER = (236, 242, 245)  # a white card under neutral light is a little warm
BACK_COLOURS = {"blue": (140, 70, 30), "red": (40, 30, 160), "green": (60, 110, 30), "black": (40, 40, 40),
                "purple": (110, 40, 90)}
INK = {"black": (25, 25, 25), "red": (30, 30, 200)}
DECKTET_INK = {decktet.Suit.MOONS: (110, 70, 60), decktet.Suit.SUNS: (20, 150, 230), decktet.Suit.WAVES: (160, 90, 20),
               decktet.Suit.LEAVES: (40, 120, 40), decktet.Suit.WYRMS: (40, 40, 170), decktet.Suit.KNOTS: (90, 50, 110)}
_S = 16  # fixed-point bits for sub-pixel polygon drawing (cv2 "shift")


class FaceError(ValueError):
    """A folder of face images that cannot be used: missing, unreadable, or without a needed face."""


def face(card_id: str, back: str = "blue") -> np.ndarray:
    """The drawn face of ``card_id`` (``back`` gives the back in colour ``back``). Cached; do not modify."""
    if card_id == "back":
        return _back(back)
    return _face(card_id)


@cache
def _face(card_id: str) -> np.ndarray:
    if card_id in decktet.CATALOGUE:
        return _decktet_face(decktet.CATALOGUE[card_id])
    if card_id in JOKERS:
        return _joker(card_id)
    return _standard_face(Card.parse(card_id))


@cache
def card_alpha() -> np.ndarray:
    """The card's outline as a float32 mask 0..1 (rounded corners, anti-aliased)."""
    w, h = SIZE
    mask = np.zeros((h, w), np.uint8)
    r = CORNER_RADIUS_MM * PX_PER_MM
    _rounded_rect(mask, (0, 0, w, h), r, 255)
    return mask.astype(np.float32) / 255


def index_box_mm(card_id: str) -> tuple[float, float, float, float]:
    """The top-left corner index's box on a face (x0, y0, x1, y1 in mm from the face's top-left
    corner); the bottom-right index is its half turn. A Decktet index runs down past its suits."""
    if card_id in decktet.CATALOGUE:
        return DECKTET_INDEX_BOX_MM
    return INDEX_BOX_MM


# -- standard cards ---------------------------------------------------------------------------

# Pip centres in a unit box (x 0..1 across the pip area, y 0..1 down it); pips below the middle
# are drawn upside down, as printed.
_COLUMNS = (0.0, 0.5, 1.0)
_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def _standard_face(card: Card) -> np.ndarray:
    w, h = SIZE
    img = np.full((h, w, 3), PAPER, np.uint8)
    ink = INK[card.colour]
    _corner_indices(img, "10" if card.rank == "T" else card.rank, card.suit, ink)
    k = PX_PER_MM
    value = card.rank_value
    if card.rank in "JQK":
        _court(img, card, ink)
    elif value == 1:
        _suit(img, card.suit, w / 2, h / 2, 22 * k if card.suit == "S" else 14 * k, ink)
    else:
        x0, x1, y0, y1 = 19 * k, 44 * k, 17 * k, 71 * k
        for ux, uy in _PIPS[value]:
            _suit(img, card.suit, x0 + ux * (x1 - x0), y0 + uy * (y1 - y0), 9.5 * k, ink, flip=uy > 0.5)
    return img


def _corner_indices(img: np.ndarray, rank: str, suit: str, ink) -> None:
    """Rank and suit symbol at the top-left, and the same turned half round at the bottom-right."""
    k = PX_PER_MM
    x0, y0, x1, _ = INDEX_BOX_MM
    corner = np.full((round(19 * k), round(10 * k), 3), PAPER, np.uint8)  # drawn inside the index box
    cx = (x1 - x0) / 2 * k
    scale, thick = (1.35, 3) if len(rank) == 1 else (1.1, 3)
    (tw, th), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    cv2.putText(corner, rank, (round(cx - tw / 2), round(1.2 * k + th)), cv2.FONT_HERSHEY_DUPLEX, scale, ink,
                thick, cv2.LINE_AA)
    _suit(corner, suit, cx, 12.5 * k, 5.6 * k, ink)
    ch, cw = corner.shape[:2]
    ix, iy = round(x0 * k), round(y0 * k)
    img[iy:iy + ch, ix:ix + cw] = corner
    h, w = img.shape[:2]
    img[h - iy - ch:h - iy, w - ix - cw:w - ix] = corner[::-1, ::-1]


def _court(img: np.ndarray, card: Card, ink) -> None:
    """A framed, mirrored figure: enough to look like a court card, and to tell J, Q and K apart."""
    k = PX_PER_MM
    w, h = SIZE
    x0, y0, x1, y1 = round(12 * k), round(11 * k), round(w - 12 * k), round(h - 11 * k)
    gold, blue = (40, 170, 220), (150, 80, 40)
    half = np.full((round((y1 - y0) / 2), x1 - x0, 3), PAPER, np.uint8)
    hw, hh = half.shape[1], half.shape[0]
    # body, shoulders, head and a headdress that names the rank
    cv2.fillConvexPoly(half, np.array([[hw * 0.15, hh], [hw * 0.85, hh], [hw * 0.75, hh * 0.5], [hw * 0.25, hh * 0.5]],
                                      np.int32), ink if card.suit in RED_SUITS else blue, cv2.LINE_AA)
    sash = [[hw * 0.35, hh], [hw * 0.65, hh], [hw * 0.58, hh * 0.55], [hw * 0.42, hh * 0.55]]
    cv2.fillConvexPoly(half, np.array(sash, np.int32), gold, cv2.LINE_AA)
    cv2.circle(half, (hw // 2, round(hh * 0.38)), round(hw * 0.14), (150, 190, 235), -1, cv2.LINE_AA)
    cv2.circle(half, (hw // 2, round(hh * 0.38)), round(hw * 0.14), (40, 40, 40), 1, cv2.LINE_AA)
    top = round(hh * 0.38 - hw * 0.14)
    if card.rank == "K":
        pts = [[hw * 0.33, top + 4], [hw * 0.33, top - 14], [hw * 0.42, top - 6], [hw * 0.5, top - 18],
               [hw * 0.58, top - 6], [hw * 0.67, top - 14], [hw * 0.67, top + 4]]
        cv2.fillPoly(half, [np.array(pts, np.int32)], gold, cv2.LINE_AA)
    elif card.rank == "Q":
        cv2.ellipse(half, (hw // 2, top + 2), (round(hw * 0.17), 9), 0, 180, 360, gold, -1, cv2.LINE_AA)
    else:
        cv2.rectangle(half, (round(hw * 0.36), top - 8), (round(hw * 0.64), top + 3), blue, -1, cv2.LINE_AA)
    _suit(half, card.suit, hw * 0.2, hh * 0.18, 7 * k, ink)
    img[y0:y0 + hh, x0:x0 + hw] = half
    img[y1 - hh:y1, x0:x0 + hw] = half[::-1, ::-1]
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), ink, 2, cv2.LINE_AA)


def _joker(card_id: str) -> np.ndarray:
    w, h = SIZE
    img = np.full((h, w, 3), PAPER, np.uint8)
    ink = INK["red" if card_id.endswith("red") else "black"]
    for i, letter in enumerate("JOKER"):
        cv2.putText(img, letter, (round(3 * PX_PER_MM), round((8 + 6 * i) * PX_PER_MM)), cv2.FONT_HERSHEY_DUPLEX,
                    0.9, ink, 2, cv2.LINE_AA)
    cv2.circle(img, (w // 2, h // 2), round(15 * PX_PER_MM), ink, 4, cv2.LINE_AA)
    return img


def _suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float, colour, flip: bool = False) -> None:
    """A suit symbol ``size`` pixels tall centred at (cx, cy), upside down when ``flip``."""
    for poly in _suit_shapes()[suit]:
        pts = poly * (size / 2)
        if flip:
            pts = -pts
        pts = pts + (cx, cy)
        cv2.fillPoly(img, [np.round(pts * (1 << _S)).astype(np.int32)], colour, cv2.LINE_AA, _S)


@cache
def _suit_shapes() -> dict[str, list[np.ndarray]]:
    """Each suit symbol as polygons in a box from -1 to 1 (y down)."""
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    heart = np.column_stack([16 * np.sin(t) ** 3,
                             -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))])
    heart = (heart - [0, 1.5]) / 16.5
    spade_top = heart * [1.0, -1.0] - [0, 0.22]
    stem = np.array([[0, 0.2], [0.32, 1.0], [-0.32, 1.0]])
    d = np.linspace(0, 1, 8, endpoint=False)[:, None]
    corners = np.array([[0, -1], [0.72, 0], [0, 1], [-0.72, 0], [0, -1]], np.float64)
    # straight sides pulled in a little at their middles: printed diamonds have hollow sides
    diamond = np.concatenate([a + d * (b - a) - 0.1 * np.sin(np.pi * d) * np.sign(a + b) * [1, 1]
                              for a, b in zip(corners[:-1], corners[1:])])
    circle = np.column_stack([np.cos(t), np.sin(t)]) * 0.42
    club = [circle + [0, -0.5], circle + [-0.47, 0.12], circle + [0.47, 0.12],
            np.array([[0, 0], [0.3, 1.0], [-0.3, 1.0]]), np.array([[-0.2, -0.2], [0.2, -0.2], [0.2, 0.3], [-0.2, 0.3]])]
    return {"H": [heart], "D": [diamond], "S": [spade_top * 0.85, stem], "C": club}


# -- Decktet ----------------------------------------------------------------------------------

def _decktet_face(card: decktet.DecktetCard) -> np.ndarray:
    w, h = SIZE
    k = PX_PER_MM
    img = np.full((h, w, 3), PAPER, np.uint8)
    # An art panel in colours of the card's suits, with a pattern seeded by its id: every card differs.
    rng = np.random.default_rng(int(hashlib.sha1(card.id.encode()).hexdigest()[:8], 16))
    px0, py0, px1, py1 = round(12 * k), round(6 * k), round(w - 12 * k), round(h - 16 * k)
    inks = [DECKTET_INK[s] for s in card.suits] or [(60, 60, 60)]
    panel = np.zeros((py1 - py0, px1 - px0, 3), np.float32)
    yy = np.linspace(0, 1, panel.shape[0])[:, None, None]
    a, b = np.array(inks[0], np.float32), np.array(inks[-1], np.float32)
    panel[:] = (a * (1 - yy) + b * yy) * 0.55 + 255 * 0.45
    panel = panel.astype(np.uint8)
    for _ in range(6):
        colour = tuple(int(c) for c in rng.integers(60, 230, 3))
        centre = (int(rng.integers(0, panel.shape[1])), int(rng.integers(0, panel.shape[0])))
        axes = (int(rng.integers(15, 60)), int(rng.integers(10, 45)))
        cv2.ellipse(panel, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
    for i, suit in enumerate(card.suits):
        cy = panel.shape[0] * (i + 1) / (len(card.suits) + 1)
        _decktet_icon(panel, suit, panel.shape[1] / 2, cy, 15 * k, (250, 250, 250), outline=DECKTET_INK[suit])
    img[py0:py1, px0:px1] = panel
    cv2.rectangle(img, (px0, py0), (px1 - 1, py1 - 1), (60, 60, 60), 2, cv2.LINE_AA)
    _decktet_indices(img, card)
    name = card.name.upper()
    scale = min(0.7, (w - 24 * k) / max(1, cv2.getTextSize(name, cv2.FONT_HERSHEY_DUPLEX, 1.0, 1)[0][0]))
    (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
    cv2.putText(img, name, (round((w - tw) / 2), round(h - 9 * k)), cv2.FONT_HERSHEY_DUPLEX, scale,
                (40, 40, 40), 1, cv2.LINE_AA)
    return img


def _decktet_indices(img: np.ndarray, card: decktet.DecktetCard) -> None:
    """The rank glyph over the suit icons in natural order, down the left edge and (turned) the right."""
    k = PX_PER_MM
    strip = np.full((round(50 * k), round(10 * k), 3), PAPER, np.uint8)
    cx = strip.shape[1] / 2
    glyph = {decktet.ACE: "A", decktet.CROWN: "", decktet.PAWN: "P", decktet.COURT: "C", decktet.EXCUSE: ""}
    text = glyph.get(card.rank, card.rank)
    if card.rank == decktet.CROWN:
        pts = np.array([[-1, 0.6], [-1, -0.6], [-0.5, 0], [0, -0.9], [0.5, 0], [1, -0.6], [1, 0.6]]) * 3.4 * k
        cv2.fillPoly(strip, [np.round((pts + (cx, 6 * k)) * (1 << _S)).astype(np.int32)], (30, 30, 30), cv2.LINE_AA, _S)
    elif text:
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 1.35, 3)
        cv2.putText(strip, text, (round(cx - tw / 2), round(1.5 * k + th)), cv2.FONT_HERSHEY_DUPLEX, 1.35,
                    (30, 30, 30), 3, cv2.LINE_AA)
    for i, suit in enumerate(card.suits):
        _decktet_icon(strip, suit, cx, (15 + 8.5 * i) * k, 7 * k, DECKTET_INK[suit])
    x0, y0 = round(1.5 * k), round(2 * k)
    sh, sw = strip.shape[:2]
    h, w = img.shape[:2]
    img[y0:y0 + sh, x0:x0 + sw] = strip
    img[h - y0 - sh:h - y0, w - x0 - sw:w - x0] = strip[::-1, ::-1]


def _decktet_icon(img: np.ndarray, suit: decktet.Suit, cx: float, cy: float, size: float, colour,
                  outline=None) -> None:
    """A suit icon ``size`` pixels across: moon, sun, wave, leaf, wyrm or knot, as simple shapes."""
    r = size / 2
    c = (round(cx), round(cy))
    line = max(1, round(size / 9))
    edge = outline if outline is not None else colour
    t = np.linspace(0, 2 * np.pi, 48, endpoint=False)

    def poly(points, fill=True):
        p = [np.round(np.asarray(points) * (1 << _S)).astype(np.int32)]
        if fill:
            cv2.fillPoly(img, p, colour, cv2.LINE_AA, _S)
        cv2.polylines(img, p, True, edge, max(1, line // 2), cv2.LINE_AA, _S)

    if suit == decktet.Suit.MOONS:  # a crescent: the difference of two discs, as one outline
        outer = np.column_stack([np.cos(t[:25] + np.pi / 2 + np.pi / 4), np.sin(t[:25] + np.pi / 2 + np.pi / 4)])
        a = np.linspace(np.pi * 0.75 + np.pi, np.pi * 0.75, 25)
        inner = np.column_stack([0.45 + 0.8 * np.cos(a - np.pi / 2), -0.2 + 0.8 * np.sin(a - np.pi / 2)])
        poly(np.concatenate([outer, inner]) * r + (cx, cy))
    elif suit == decktet.Suit.SUNS:
        for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
            cv2.line(img, (round(cx + 0.6 * r * np.cos(a)), round(cy + 0.6 * r * np.sin(a))),
                     (round(cx + r * np.cos(a)), round(cy + r * np.sin(a))), edge, line, cv2.LINE_AA)
        poly(np.column_stack([np.cos(t), np.sin(t)]) * 0.5 * r + (cx, cy))
    elif suit == decktet.Suit.WAVES:
        x = np.linspace(-1, 1, 24)
        for dy in (-0.45, 0.05, 0.55):
            pts = np.column_stack([x, dy + 0.22 * np.sin(x * np.pi * 1.5)]) * r + (cx, cy)
            cv2.polylines(img, [np.round(pts * (1 << _S)).astype(np.int32)], False, edge, line + 1, cv2.LINE_AA, _S)
    elif suit == decktet.Suit.LEAVES:
        s = np.linspace(0, np.pi, 24)
        side = np.column_stack([0.45 * np.sin(s), -np.cos(s)])
        leaf = np.concatenate([side, side[::-1] * [-1, 1]])
        rot = np.array([[0.8, -0.6], [0.6, 0.8]])
        poly((leaf @ rot.T) * r + (cx, cy))
        tip, stem = np.array([0, -1]) @ rot.T * r, np.array([0, 1.1]) @ rot.T * r
        cv2.line(img, (round(cx + tip[0]), round(cy + tip[1])), (round(cx + stem[0]), round(cy + stem[1])), edge,
                 max(1, line // 2), cv2.LINE_AA)
    elif suit == decktet.Suit.WYRMS:
        s = np.linspace(0, 1, 28)
        body = np.column_stack([np.sin(s * 2 * np.pi) * 0.55, s * 1.8 - 0.9]) * r + (cx, cy)
        cv2.polylines(img, [np.round(body * (1 << _S)).astype(np.int32)], False, edge, line * 2 + 1, cv2.LINE_AA, _S)
        cv2.circle(img, (round(body[-1][0]), round(body[-1][1])), max(2, round(r * 0.22)), edge, -1, cv2.LINE_AA)
    else:  # knots: two interlaced rings
        for dx in (-0.35, 0.35):
            cv2.circle(img, (round(cx + dx * r), c[1]), max(2, round(0.55 * r)), edge, line + 1, cv2.LINE_AA)


# -- backs ------------------------------------------------------------------------------------

@cache
def _back(colour: str) -> np.ndarray:
    if colour not in BACK_COLOURS:
        raise FaceError(f"unknown card back {colour!r}; backs come in {', '.join(BACK_COLOURS)}")
    w, h = SIZE
    k = PX_PER_MM
    img = np.full((h, w, 3), (245, 245, 245), np.uint8)
    ink = BACK_COLOURS[colour]
    x0, y0 = round(4 * k), round(4 * k)
    inner = np.full((h - 2 * y0, w - 2 * x0, 3), ink, np.uint8)
    light = tuple(int(c * 0.55 + 255 * 0.45) for c in ink)
    step = round(4 * k)
    ih, iw = inner.shape[:2]
    for d in range(-ih, iw + ih, step):  # a diamond lattice, as on most backs
        cv2.line(inner, (d, 0), (d + ih, ih), light, 2, cv2.LINE_AA)
        cv2.line(inner, (d, ih), (d + ih, 0), light, 2, cv2.LINE_AA)
    cv2.ellipse(inner, (iw // 2, ih // 2), (iw // 4, ih // 6), 0, 0, 360, (245, 245, 245), 3, cv2.LINE_AA)
    img[y0:h - y0, x0:w - x0] = inner
    return img


# -- face images from a folder ----------------------------------------------------------------

_RANK_WORDS = {"ace": "A", "1": "A", "jack": "J", "queen": "Q", "king": "K", "10": "T"}
_SUIT_WORDS = {"spades": "S", "spade": "S", "hearts": "H", "heart": "H", "diamonds": "D", "diamond": "D",
               "clubs": "C", "club": "C"}
_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp"}


class FaceFolder:
    """Face images read from a folder, named by card id (``QH.png``, ``mountain.gif``, ``back.png``)
    or as the public art sets name them (``queen_of_hearts.png``, ``heart_queen.png``).

    Faces the folder lacks are drawn by :func:`face`, so a Decktet folder still renders standard
    cards. Images are resized to the face size; transparent pixels are laid on ``transparent``.
    """

    def __init__(self, folder: str | Path, transparent=(0, 0, 0)) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise FaceError(f"face folder {self.folder} does not exist or is not a folder")
        try:
            files = [p for p in self.folder.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES]
        except OSError as exc:
            raise FaceError(f"cannot read the face folder {self.folder}: {exc.strerror}") from None
        self.paths = {}
        for path in sorted(files):
            card_id = card_id_of_file(path.stem)
            if card_id:
                self.paths.setdefault(card_id, path)
        if not self.paths:
            raise FaceError(f"no face images named by card id in {self.folder} (expected names like QH.png, "
                            "queen_of_hearts.png or mountain.gif)")
        self.transparent = transparent
        self._cache: dict[str, np.ndarray] = {}

    def face(self, card_id: str, back: str = "blue") -> np.ndarray:
        if card_id not in self.paths:
            return face(card_id, back)
        if card_id not in self._cache:
            path = self.paths[card_id]
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None:
                raise FaceError(f"cannot read the face image {path}: is it a PNG, JPEG or GIF?")
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            if image.shape[2] == 4:  # transparent parts (a GIF's key colour, PNG corners) on a plain colour
                alpha = image[..., 3:4].astype(np.float32) / 255
                image = (image[..., :3] * alpha + np.array(self.transparent) * (1 - alpha)).astype(np.uint8)
            self._cache[card_id] = cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)
        return self._cache[card_id]


def card_id_of_file(stem: str) -> str | None:
    """The card id an image file's name stands for, or None: ``queen_of_hearts`` -> ``QH``."""
    from vision.synth.scene import is_card_id

    if is_card_id(stem):
        return stem
    text = stem.lower().replace("-", "_")
    if text in ("back", "card_back"):
        return "back"
    if text in ("black_joker", "joker_black"):
        return "joker-black"
    if text in ("red_joker", "joker_red"):
        return "joker-red"
    match = re.fullmatch(r"(\w+?)_of_(\w+?)2?", text) or re.fullmatch(r"([a-z]+)_(\w+)", text)
    if match:
        a, b = match.groups()
        if a in _SUIT_WORDS:  # suit first, as in heart_queen
            a, b = b, a
        rank = _RANK_WORDS.get(a, a.upper() if a.isdigit() and 2 <= int(a) <= 9 else None)
        suit = _SUIT_WORDS.get(b)
        if rank and suit:
            return rank + suit
    return None


def _rounded_rect(img: np.ndarray, box, radius: float, value) -> None:
    x0, y0, x1, y1 = box
    pts = []
    for cx, cy, a0 in ((x1 - radius, y0 + radius, -90), (x1 - radius, y1 - radius, 0),
                       (x0 + radius, y1 - radius, 90), (x0 + radius, y0 + radius, 180)):
        for a in np.radians(np.linspace(a0, a0 + 90, 8)):
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    cv2.fillPoly(img, [np.round(np.array(pts) * (1 << _S)).astype(np.int32)], value, cv2.LINE_AA, _S)
