"""What each card looks like bare, as this camera sees it: card print is no piece, and a card half hidden is there.

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

The same faces say where a card still lies (:meth:`CardLooks.there`): a pyramid set on a card can hide
it from the recogniser, have it laid out off its place or read as another card, while most of its art
still shows as kept. A wrong face would then keep a wrong card, so a face is kept only at the card's
own outline (no other card overlapping it, its art in the outline's middle) and never for a name read
on another kept card's face.

And they show what stands on a card (:meth:`CardLooks.standing`): a small on busy art merges with the
art in the pieces reader's foreground and goes unseen (Deck Town trial 0's yellow smalls on the
Darkness), while against the card's bare look it stands out alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.homography import TableCalibration
from referee.cards import BACK
from referee.pyramids import Size
from referee.snapshot import CardSighting, PyramidSighting
from vision.pieces.reader import CUT, WHOLE

PX_PER_MM = 2.0  # a card's face kept at this many pixels a millimetre (a camera over the table sees about one)
BORDER_MM = 2.5  # the strip round a card's face: its paper's white
WHITE_SHARE = 90  # the percentile of the strip's colours taken as that white (an outline a few mm off takes table in)
KEPT_SURELY = 0.9  # a card's look is kept only when it is named at least this surely
# the middle of a kept face's art lies this near the face's (measured on Deck Town trials 0-9: 0.2-5.5 mm on
# 60 faces kept at outlines within 6 mm of the card's; 14 and 23 mm on two laid 18 and 36 mm off)
CENTRED_MM = 8.0
MOST_ART = 0.72  # and covers at most this share of it (0.16-0.69 on those faces; decks' backs named the Excuse: 0.74-0.99)
OVERLAP = 0.05  # a card overlapped by another more than this share of it keeps no face (neighbours in a grid: none)
NEAR_MM = 15.0  # and no pyramid's middle lies within this of its outline (a large leans this far over it)
SLACK_MM = 5.0  # how far from where the outline puts it a spot is looked for on the kept face
SPOT_SHARE = 0.35  # the middle of a pyramid's base compared, as a share of the base's side
CHANGED = 0.1  # a colour share this much off the kept face's is something there that was not
MOST = 0.8  # ... at this share of the spot's pixels or more (the rest: noise, or the art's edge blurred otherwise)
ART = 0.25  # a kept face's pixel this far off its paper's white, as a share, in some colour is art
STILL = 0.5  # the share of a card's art that must look as kept for the card to be there still
# what stands on a card with a kept face: pixels STANDING_CHANGE or more off the kept face in some colour share (0.1,
# 0.2, 0.3 and 0.4 tried on the bench's Deck Town frames), in patches of at least STANDING_AREA of a small's base; a
# pixel only darker than kept, about alike in every colour (its shares' ratios within SHADE_SPREAD), is shadow
STANDING_CHANGE = 0.3
STANDING_AREA = 0.3
SHADE_SPREAD = 0.15


@dataclass
class CardLooks:
    """The faces of the cards seen so far, by name (both cards of a name in a double deck look alike)."""

    faces: dict[str, np.ndarray] = field(default_factory=dict)  # float32 shares, PX_PER_MM, long side across
    named: set[str] = field(default_factory=set)  # the names seen surely so far, kept or not

    def keep(self, frame: np.ndarray, calibration: TableCalibration, cards, pyramids) -> None:
        """Keep the face of each card of ``cards`` named surely for the first time, when no pyramid of
        ``pyramids`` stands on or beside it. A card that another of ``cards`` overlaps (a reveal's cards laid
        over each other) waits for a sure look apart, and one whose art does not lie in the middle of its
        outline (:func:`_art_centred`) for a look at its own outline: a face cut out at an outline laid off
        takes in the table or another card (Deck Town trial 1's Windfall kept half the Consul over it). A face
        that another name's kept face matches (:meth:`there`'s test) is that card misread, and keeps nothing."""
        for card in cards:
            if not card.face_up or card.card in (None, BACK) or card.card in self.named \
                    or card.confidence < KEPT_SURELY or any(_overlap(card, other) for other in cards if other is not card):
                continue
            face = _face(frame, calibration, card)
            if not _art_centred(face):
                continue  # an outline laid off: the card waits for a look at its own outline
            if any(_art_kept(face, other) >= STILL for other in self.faces.values()):
                continue  # a card whose face is kept, misread (Deck Town trial 3's Mountain, read surely as the Diplomat)
            self.named.add(card.card)
            if not _near_any(card, pyramids):
                self.faces[card.card] = face

    def there(self, frame: np.ndarray, calibration: TableCalibration, card: CardSighting) -> bool:
        """Whether the kept face of ``card``'s name lies at its outline (within :data:`SLACK_MM`, either way
        up): at least :data:`STILL` of the face's art (its pixels :data:`ART` off its paper's white) looks as
        kept there. A pyramid set on a card covers a corner or part of its art and can hide the card from the
        recogniser, or have its outline laid a margin's width off (Deck Town trial 9's Chance Meeting, its
        small grown to a medium over its corner: found nowhere, or 25 mm off); a card taken away or covered by
        another leaves little of its art to match (trial 9: 0.65-0.78 under the pyramids, 0.0 moved away)."""
        kept = self.faces.get(card.card) if card.face_up else None
        return kept is not None and _art_kept(_face(frame, calibration, card), kept) >= STILL

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

    def standing(self, frame: np.ndarray, calibration: TableCalibration, cards) -> np.ndarray | None:
        """Where something stands on a face-up card of ``cards`` whose kept face is known: a mask over
        ``frame`` of the pixels that differ from the card's bare look by more than :data:`STANDING_CHANGE`
        in some colour share and are not merely darker (a shadow), in patches of at least :data:`STANDING_AREA`
        of a small's base: :data:`WHOLE` where the patch lies within the card, :data:`CUT` where it reaches the
        card's rim (what stands there may go on over the card's edge), 0 elsewhere; None when no card has a
        kept face. A piece standing on busy art merges with it in the pieces reader's foreground, and a small
        there goes unseen or takes in art and reads a size up; against the bare card it stands out alone. A
        card another overlaps is left out (the other card changed it)."""
        mask = None
        slack = math.ceil(SLACK_MM * PX_PER_MM)
        least = STANDING_AREA * (Size.SMALL.base_mm * PX_PER_MM) ** 2
        for card in cards:
            kept = self.faces.get(card.card) if card.face_up else None
            if kept is None or any(_overlap(card, other) for other in cards if other is not card):
                continue
            face = _face(frame, calibration, card)
            kept = _aligned(kept, face)
            changed = np.abs(face - kept).max(axis=2) > STANDING_CHANGE
            ratio = face / np.maximum(kept, 0.05)
            shade = (ratio.max(axis=2) - ratio.min(axis=2) < SHADE_SPREAD) & (ratio.mean(axis=2) < 1.0)
            changed &= ~shade
            changed[:slack], changed[-slack:], changed[:, :slack], changed[:, -slack:] = False, False, False, False
            changed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            n, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
            keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= least]
            if not keep:
                continue
            if mask is None:
                mask = np.zeros(frame.shape[:2], np.uint8)
            # a patch at the rim may be part of a piece that stands over the card's edge: CUT, not WHOLE
            x, y, w, h = (stats[keep, k] for k in range(4))
            cut = (x <= slack) | (y <= slack) | (x + w >= face.shape[1] - slack) | (y + h >= face.shape[0] - slack)
            values = np.zeros(n, np.uint8)
            values[keep] = np.where(cut, CUT, WHOLE)
            corners, flat, _ = _flat(card)
            picture = calibration.to_image(corners.astype(np.float64)).astype(np.float32)
            back = cv2.warpPerspective(values[labels], cv2.getPerspectiveTransform(flat, picture),
                                       (frame.shape[1], frame.shape[0]), flags=cv2.INTER_NEAREST)
            np.maximum(mask, back, out=mask)
        return mask


def _aligned(kept: np.ndarray, face: np.ndarray) -> np.ndarray:
    """``kept`` laid where it best fits ``face`` (:func:`_placed_insides`, the closest of its two ways up), at
    ``face``'s size; where the shift leaves a rim uncovered, ``face``'s own pixels fill it."""
    inside, (x, y), _ = min(_placed_insides(kept, face), key=lambda placed: placed[2])
    out = face.copy()
    out[y:y + inside.shape[0], x:x + inside.shape[1]] = inside
    return out


def _art_kept(face: np.ndarray, kept: np.ndarray) -> float:
    """The share of ``kept``'s art (pixels :data:`ART` or more off its paper's white in some colour) found on
    ``face`` within :data:`CHANGED`, where ``kept``'s inside fits ``face`` best (:func:`_placed_insides`), either
    way up."""
    best = 0.0
    for inside, (x, y), _ in _placed_insides(kept, face):
        match = face[y:y + inside.shape[0], x:x + inside.shape[1]]
        art = np.abs(inside - 1.0).max(axis=2) >= ART
        alike = np.abs(match - inside).max(axis=2) <= CHANGED
        best = max(best, float((alike & art).sum()) / max(int(art.sum()), 1))
    return best


def _placed_insides(kept: np.ndarray, face: np.ndarray):
    """For ``kept`` as it lies and turned half round: its inside (all but a :data:`SLACK_MM` rim), where on
    ``face`` it fits best, and how far off it is there (summed squared differences)."""
    slack = math.ceil(SLACK_MM * PX_PER_MM)
    for other in _both_ways_up(kept, face):
        inside = other[slack:-slack, slack:-slack]
        low, _, at, _ = cv2.minMaxLoc(cv2.matchTemplate(face, inside, cv2.TM_SQDIFF))
        yield inside, at, low


def _both_ways_up(kept: np.ndarray, face: np.ndarray):
    """``kept`` as it lies and turned half round, each drawn at ``face``'s size (an outline is read from
    either end of its card)."""
    for other in (kept, cv2.rotate(kept, cv2.ROTATE_180)):
        yield other if other.shape == face.shape else cv2.resize(other, (face.shape[1], face.shape[0]))


def _art_centred(face: np.ndarray) -> bool:
    """Whether the art of a face cut out (its pixels :data:`ART` off white) has its middle within
    :data:`CENTRED_MM` of the face's, and covers at most :data:`MOST_ART` of it: a Decktet card's art panel lies
    in its middle within a white border, and an outline laid off takes in the table or a neighbour's art on one
    side (on a dark table, its border no paper, all of it reads as art), as a back's print fills its card."""
    art = np.abs(face - 1.0).max(axis=2) >= ART
    ys, xs = np.nonzero(art)
    if len(xs) == 0 or art.mean() > MOST_ART:
        return False
    off = (xs.mean() - (face.shape[1] - 1) / 2, ys.mean() - (face.shape[0] - 1) / 2)
    return math.hypot(*off) / PX_PER_MM <= CENTRED_MM


def _overlap(card: CardSighting, other: CardSighting) -> bool:
    """Whether two cards' outlines overlap by more than :data:`OVERLAP` of a card."""
    a, b = np.float32(card.corners_mm), np.float32(other.corners_mm)
    area, _ = cv2.intersectConvexConvex(a, b)
    return area > OVERLAP * cv2.contourArea(a)


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
    for other in _both_ways_up(kept, face):
        x0, y0 = max(0, x - half - slack), max(0, y - half - slack)
        window = other[y0:y + half + slack + 1, x0:x + half + slack + 1]
        if window.shape[0] < spot.shape[0] or window.shape[1] < spot.shape[1]:
            continue
        scores = cv2.matchTemplate(window, spot, cv2.TM_SQDIFF)
        _, _, (bx, by), _ = cv2.minMaxLoc(scores)
        match = window[by:by + spot.shape[0], bx:bx + spot.shape[1]]
        best = min(best, float(np.quantile(np.abs(match - spot).max(axis=2), MOST)))
    return best
