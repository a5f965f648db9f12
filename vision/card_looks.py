"""What each card looks like bare, as this camera sees it: card print is no piece.

A pyramid on a Decktet card stands on art of flat shapes in the pyramids' own colours, and the
pieces reader, which knows nothing of the card under a piece, reads some of that art as pyramids
(Deck Town trial 4: a red ellipse of the Painter's art read as a red small at 0.92, its flower as a
yellow medium). The card itself says which: the first time a face-up card is named surely with no
piece on or beside it (in Deck Town most cards are: turned up into a player's reveal, or built
bare), its face is kept, cut out of the frame and drawn flat at :data:`PX_PER_MM`, its colours as
shares of its white border's (the light differs across the table). A pyramid later read on a card
of that name is print when the spot it stands on looks as it did then: :data:`MOST` of the pixels of
its base's middle within :data:`CHANGED` in every colour share, the spot matched within
:data:`SLACK_MM` (a card's outline is placed a few millimetres off) either way up.

Only a card's first sure look is kept, and only when no piece was read on or beside it then: a
piece that stood there unseen would be print for good. A card first named surely with its small
already on it (a hatch puts both down together, the card unread in its player's reveal before) keeps
no look: Deck Town trial 7's Chance Meeting, first named surely on the town with its small unseen,
would have hidden the small from then on. A small so lost is what the layout offers back anyway
(a town card read with fewer pyramids than it carries), where print read as a piece is not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.homography import TableCalibration
from referee.cards import BACK
from referee.snapshot import CardSighting, PyramidSighting

PX_PER_MM = 2.0  # a card's face kept at this many pixels a millimetre (a camera over the table sees about one)
BORDER_MM = 2.5  # the strip round a card's face: its paper's white
WHITE_SHARE = 90  # the percentile of the strip's colours taken as that white (an outline a few mm off takes table in)
KEPT_SURELY = 0.9  # a card's look is kept only when it is named at least this surely
NEAR_MM = 15.0  # and no pyramid's middle lies within this of its outline (a large leans this far over it)
SLACK_MM = 5.0  # how far from where the outline puts it a spot is looked for on the kept face
SPOT_SHARE = 0.35  # the middle of a pyramid's base compared, as a share of the base's side
CHANGED = 0.1  # a colour share this much off the kept face's is something there that was not
MOST = 0.8  # ... at this share of the spot's pixels or more (the rest: noise, or the art's edge blurred otherwise)


@dataclass
class CardLooks:
    """The faces of the cards seen so far, by name (both cards of a name in a double deck look alike)."""

    faces: dict[str, np.ndarray] = field(default_factory=dict)  # float32 shares, PX_PER_MM, long side across
    named: set[str] = field(default_factory=set)  # the names seen surely so far, kept or not

    def keep(self, frame: np.ndarray, calibration: TableCalibration, cards, pyramids) -> None:
        """Keep the face of each card of ``cards`` named surely for the first time, when no pyramid of
        ``pyramids`` stands on or beside it."""
        for card in cards:
            if not card.face_up or card.card in (None, BACK) or card.card in self.named \
                    or card.confidence < KEPT_SURELY:
                continue
            self.named.add(card.card)
            if not _near_any(card, pyramids):
                self.faces[card.card] = _face(frame, calibration, card)

    def print_only(self, frame: np.ndarray, calibration: TableCalibration, pyramid: PyramidSighting,
                   cards) -> bool:
        """Whether ``pyramid`` stands on a face-up card of ``cards`` whose kept face looks just the same
        under it: the card's print read as a piece."""
        for card in cards:
            kept = self.faces.get(card.card) if card.face_up else None
            if kept is None or cv2.pointPolygonTest(np.float32(card.corners_mm), pyramid.center_mm, False) < 0:
                continue
            at = _on_face(card, pyramid.center_mm)
            half = max(2, round(SPOT_SHARE * pyramid.stack[0].size.base_mm * PX_PER_MM / 2))
            return _change(_face(frame, calibration, card), kept, at, half) <= CHANGED
        return False


def _near_any(card: CardSighting, pyramids) -> bool:
    outline = np.float32(card.corners_mm)
    return any(cv2.pointPolygonTest(outline, p.center_mm, True) > -NEAR_MM for p in pyramids)


def _flat(card: CardSighting) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The card's corners in table mm (its first edge a long side), where they go on its flat face, and
    that face's size in pixels (long side across)."""
    corners = np.float32(card.corners_mm)
    if np.linalg.norm(corners[1] - corners[0]) < np.linalg.norm(corners[2] - corners[1]):
        corners = np.roll(corners, -1, axis=0)
    width = max(8, round(float(np.linalg.norm(corners[1] - corners[0])) * PX_PER_MM))
    height = max(8, round(float(np.linalg.norm(corners[2] - corners[1])) * PX_PER_MM))
    flat = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    return corners, flat, (width, height)


def _face(frame: np.ndarray, calibration: TableCalibration, card: CardSighting) -> np.ndarray:
    """The card's face cut out of ``frame`` and drawn flat, its colours as shares of its border's."""
    corners, flat, size = _flat(card)
    picture = calibration.to_image(corners.astype(np.float64)).astype(np.float32)
    face = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(picture, flat), size,
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    rim = max(1, round(BORDER_MM * PX_PER_MM))
    border = np.concatenate([face[:rim].reshape(-1, 3), face[-rim:].reshape(-1, 3),
                             face[:, :rim].reshape(-1, 3), face[:, -rim:].reshape(-1, 3)])
    white = np.maximum(np.percentile(border, WHITE_SHARE, axis=0), 1.0)
    return face / white


def _on_face(card: CardSighting, point_mm) -> tuple[float, float]:
    """Where a table point lies on the card's flat face, in its pixels."""
    corners, flat, _ = _flat(card)
    x, y = cv2.perspectiveTransform(np.float32([[point_mm]]), cv2.getPerspectiveTransform(corners, flat))[0, 0]
    return float(x), float(y)


def _change(face: np.ndarray, kept: np.ndarray, at: tuple[float, float], half: int) -> float:
    """How far the square of ``half`` pixels round ``at`` on ``face`` is from its best match on ``kept`` (either
    way up, within :data:`SLACK_MM`): the :data:`MOST` quantile of its pixels' largest colour share difference
    (a spot by the card's edge is compared where the square lies on the face, beside it)."""
    x = min(max(round(at[0]), half), face.shape[1] - half - 1)
    y = min(max(round(at[1]), half), face.shape[0] - half - 1)
    spot = face[y - half:y + half + 1, x - half:x + half + 1]
    slack = math.ceil(SLACK_MM * PX_PER_MM)
    best = math.inf
    for turned in (False, True):
        other = cv2.rotate(kept, cv2.ROTATE_180) if turned else kept
        if other.shape != face.shape:
            other = cv2.resize(other, (face.shape[1], face.shape[0]))
        x0, y0 = max(0, x - half - slack), max(0, y - half - slack)
        window = other[y0:y + half + slack + 1, x0:x + half + slack + 1]
        if window.shape[0] < spot.shape[0] or window.shape[1] < spot.shape[1]:
            continue
        scores = cv2.matchTemplate(window, spot, cv2.TM_SQDIFF)
        _, _, (bx, by), _ = cv2.minMaxLoc(scores)
        match = window[by:by + spot.shape[0], bx:bx + spot.shape[1]]
        best = min(best, float(np.quantile(np.abs(match - spot).max(axis=2), MOST)))
    return best
