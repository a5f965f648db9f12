"""One camera frame -> one :class:`~referee.snapshot.TableSnapshot`: the live pipeline's vision step.

The stages: find the mat's markers and keep the table calibration locked (:class:`MatTracker`),
recognise the cards on the raw frame (:class:`~vision.cards.recognise.CardRecogniser`), and the
pieces with whatever reader the game needs, then express every sighting in table millimetres
through the calibration (which also undoes lens distortion when the camera's intrinsics are known).

Recognition runs on the raw frame rather than on a rectified image: the card models were trained
on camera-like pictures, and mapping a handful of corner points is cheaper than warping a frame.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.homography import TableCalibration
from calibration.markers import detect_markers
from calibration.mats import MatLayout
from calibration.tracker import MatTracker, TrackResult
from referee.cards import BACK, standard_deck
from referee.decktet import CATALOGUE, myrmex_deck
from referee.snapshot import Alternative, CardSighting, TableSnapshot
from vision.card_edges import (INDEX_PLACE_MM, EdgeMap, borne_outline, index_places, one_place, placed_by,
                               turned_by_edges)
from vision.card_looks import SLACK_MM, CardLooks
from vision.pieces.card_sizes import CardSizes
from vision.cards.backs import SAME_CARD_MM, find_backs, find_panels, visible_area
from vision.cards import whole_face
from vision.cards.closer import read_closer
from vision.cards.recognise import CARD_MM, CardRecogniser, CardSeen, card_outline, index_centre_mm, index_length_mm

SAVED = "saved"  # a reading's track status when the table was placed by the reader's saved fallback
# cards of the last frame no longer found that are looked at again, closer (60-100 ms each): a move turns a
# card or two up, or takes them away; more gone at once is the camera or the whole table changing
LOOKS_AGAIN = 2
TWICE_NAMED_LOOKS = 2  # cards whose name another card bears too, looked at again closer in one frame at most

# Reads the pieces (pyramids, dice, tokens) of one frame given the table calibration.
PieceReader = Callable[[np.ndarray, TableCalibration], tuple[tuple, tuple, tuple]]


@dataclass
class FrameReading:
    """What one frame showed: the snapshot (None until the table is calibrated), the tracker's
    state, and the cards in picture pixels (for the dashboard's overlay)."""

    snapshot: TableSnapshot | None
    track: TrackResult
    cards_px: list[CardSeen] = field(default_factory=list)


@dataclass
class TableReader:
    layout: MatLayout
    deck: str = "auto"  # the card names the game uses: standard, decktet or auto
    recogniser: CardRecogniser | None = None
    pieces: PieceReader | None = None
    copies: int = 1  # how many cards of one name the game's deck holds (two in Deck Town's double Decktet)
    among: frozenset[str] | None = None  # the names the game's deck holds: no other is named (Deck Town's, no Excuse)
    intrinsics: object | None = None  # calibration.intrinsics.CameraIntrinsics
    # A saved calibration (four clicked corners: calibration.json) for a table whose mat is not in
    # view; used only until the mat's markers are first seen, which then take over.
    fallback: TableCalibration | None = None
    _tracker: MatTracker | None = None
    # the cards of the last frame read, for a second look where one of them is no longer found
    _previous: list = field(default_factory=list, repr=False)
    _looks: CardLooks = field(default_factory=CardLooks, repr=False)  # Decktet faces seen bare: art is no piece
    _kept_found: list = field(default_factory=list, repr=False)  # the last frame's cards with a kept face
    # how often a lone pyramid's size read on a face-up card was right (loaded when a Decktet table is first read)
    card_sizes: CardSizes | None = None

    def read(self, frame: np.ndarray, t: float, recognise: bool = True) -> FrameReading:
        """The frame's snapshot at time ``t``; with ``recognise`` False only the mat is tracked (the
        snapshot is None): a frame in motion, whose reading the stabiliser would throw away."""
        if self._tracker is None or self._tracker.image_size != (frame.shape[1], frame.shape[0]):
            self._tracker = MatTracker(self.layout, (frame.shape[1], frame.shape[0]), self.intrinsics)
            self._previous, self._looks, self._kept_found = [], CardLooks(), []
        markers = detect_markers(frame)
        track = self._tracker.update(markers)
        if track.calibration is None and self.fallback is not None \
                and tuple(self.fallback.image_size) == (frame.shape[1], frame.shape[0]):
            track = TrackResult(SAVED, self.fallback, track.markers_seen,
                                f"no marker of the {self.layout.title} in view: the saved calibration is in use")
        if track.calibration is None or not recognise:
            return FrameReading(None, track)
        recogniser = self.recogniser or _default_recogniser()
        seen = [c for c in recogniser.recognise(frame, deck=self.deck, among=self.among)
                if not _on_a_marker(c, markers)]
        seen = [c for c in seen if index_sized(c, track.calibration)]
        edges = EdgeMap(frame)
        placed = [(c, card_sighting(c, track.calibration)) for c in seen]
        placed = [(c, s) for c, s in placed if card_sized(s)]
        indices = [[s.center_mm, *_index_middles(c, track.calibration)] for c, s in placed]
        placed = [(c, _along_edges(c, s, track.calibration, edges, [p for j, ps in enumerate(indices) if j != k for p in ps]))
                  for k, (c, s) in enumerate(placed)]
        placed = _one_card_a_place(placed, track.calibration, edges)
        placed = self._with_backs(frame, track.calibration, placed)
        placed += self._looked_again(frame, track.calibration, placed)
        placed = self._one_of_each(frame, track.calibration, placed)
        standing = None
        if self.deck == "decktet" and self.pieces:  # what stands on a card whose bare look is kept shows against it
            standing = self._looks.standing(frame, track.calibration, [s for _, s in placed])
        pyramids, dice, tokens = self.pieces(frame, track.calibration, standing) if self.pieces else ((), (), ())
        placed = [(c, s) for c, s in placed if not packed_over(s, pyramids)]
        if self.deck == "decktet" and self.pieces:
            placed = self._by_faces(frame, track.calibration, placed)
            pyramids = self._not_print(frame, track.calibration, [s for _, s in placed], pyramids)
            self.card_sizes = self.card_sizes or CardSizes.load()
            pyramids = self.card_sizes.weigh_on_cards(pyramids, [s for _, s in placed])
            self._kept_found = [s for _, s in placed if s.face_up and s.card in self._looks.faces]
        self._previous = placed
        seen, cards = [c for c, _ in placed], tuple(s for _, s in placed)
        return FrameReading(TableSnapshot(t, cards, tuple(pyramids), tuple(dice), tuple(tokens)), track, seen)

    def _not_print(self, frame: np.ndarray, calibration: TableCalibration, cards: list[CardSighting],
                   pyramids) -> tuple:
        """``pyramids`` but those that are a Decktet card's art, read where the card looked the same bare
        (:class:`CardLooks`), keeping the faces of cards named surely for the first time."""
        pyramids = tuple(p for p in pyramids if not self._looks.print_only(frame, calibration, p, cards))
        self._looks.keep(frame, calibration, cards, pyramids)
        return pyramids

    def _by_faces(self, frame: np.ndarray, calibration: TableCalibration,
                  placed: list[tuple[CardSeen, CardSighting]]) -> list[tuple[CardSeen, CardSighting]]:
        """``placed`` checked against the cards of the last frame read that have a kept face
        (:class:`CardLooks`), where that face still lies (:meth:`CardLooks.there`). A pyramid set on a card
        may hide it from the recogniser, have it laid out a margin's width off, or read as another card (Deck
        Town trial 9's Chance Meeting under a medium: found nowhere, 25 mm off, or as the Ace of Leaves). So a
        card found within :data:`REACH_MM` of where it lay is put back there when its face lies there and not
        where it was found; and where its face still lies, a face-up card found on it (its middle within the
        outline) by another name, or none, whose own face is not there, is that card; where nothing was found
        it is there still. A card moved is found where it went (its face is not where it lay: trial 3's
        Desert, placed 20 mm off once, was found at its place); a face is kept once for the two cards of a
        name in a double deck, so a name found now is not added again."""
        placed, names = list(placed), {s.card for _, s in placed}
        for old in self._kept_found:
            near = [k for k, (_, s) in enumerate(placed)
                    if s.card == old.card and math.dist(s.center_mm, old.center_mm) < REACH_MM]
            if near:
                k = near[0]
                now = placed[k][1]
                if math.dist(now.center_mm, old.center_mm) > SLACK_MM and \
                        not self._looks.there(frame, calibration, now) and self._looks.there(frame, calibration, old):
                    placed[k] = (_seen_as(old, calibration), replace(now, center_mm=old.center_mm,
                                                                     corners_mm=old.corners_mm, angle_deg=old.angle_deg))
                continue
            if old.card in names:
                continue
            on = [k for k, (_, s) in enumerate(placed) if _within(old.corners_mm, s.center_mm)]
            if on:  # one face-up card on it, whose own face is not there, may be this card misread
                found = placed[on[0]][1]
                if len(on) > 1 or not found.face_up or found.card == BACK or self._looks.there(frame, calibration, found):
                    continue
            if self._looks.there(frame, calibration, old):
                names.add(old.card)
                if on:
                    placed[on[0]] = (_seen_as(old, calibration), old)
                else:
                    placed.append((_seen_as(old, calibration), old))
        return placed

    def _looked_again(self, frame: np.ndarray, calibration: TableCalibration,
                      placed: list[tuple[CardSeen, CardSighting]]) -> list[tuple[CardSeen, CardSighting]]:
        """The cards named by a closer look (:func:`read_closer`) where a card of the last frame read
        lies no more, and nothing was found instead: a back just turned up, its face white on a white
        mat (no outline to find) and its index too small for the detector, would go unread. Only
        where at most :data:`LOOKS_AGAIN` cards went; a name already on the table is no new card (a
        card slid a little, its middle still on its old outline)."""
        names = {s.card for _, s in placed}
        gone = [old for _, old in self._previous
                if not any(math.dist(old.center_mm, s.center_mm) < SAME_CARD_MM for _, s in placed)]
        found = []
        for old in gone if len(gone) <= LOOKS_AGAIN else ():
            card = self._closer(frame, _card_square(old, calibration))
            if card.id not in (None, BACK) and card.id not in names:
                names.add(card.id)
                found.append((card, card_sighting(card, calibration)))
        return found

    def _one_of_each(self, frame: np.ndarray, calibration: TableCalibration,
                     placed: list[tuple[CardSeen, CardSighting]]) -> list[tuple[CardSeen, CardSighting]]:
        """``placed`` with each name on as many cards as the game's deck holds of it (:attr:`copies`, most
        often one): where a name is read on more, all but the surest are looked at again, closer
        (:func:`read_closer`, at most :data:`TWICE_NAMED_LOOKS`, least sure first). A card named anew, by a
        name the table holds too few of, takes that name; one the closer look names as a card the table
        holds enough of, or cannot name, was a mark on a card (a Mongoose collection's 2D's corner read as
        the pool's JD, 0.92) and goes; one it names as before stays, and the referee sees the name too often.
        (Deck Town's double Decktet holds two of each number card: a town of two Painters lost one of them,
        the closer look at a Decktet card's small index naming nothing, in trial 4.)"""
        names: dict[str, list[int]] = {}
        for k, (_, s) in enumerate(placed):
            if s.face_up and s.card not in (None, BACK):
                names.setdefault(s.card, []).append(k)
        doubtful = sorted((k for ks in names.values()
                           for k in sorted(ks, key=lambda k: -placed[k][1].confidence)[self.copies:]),
                          key=lambda k: placed[k][1].confidence)
        placed, gone = list(placed), set()
        for k in doubtful[:TWICE_NAMED_LOOKS]:
            old = placed[k][1]
            card = self._closer(frame, _card_square(old, calibration))
            if card.id == old.card:
                continue
            if card.id in (None, BACK) or len(names.get(card.id, ())) >= self.copies:
                gone.add(k)
            else:
                names.setdefault(card.id, []).append(k)
                placed[k] = (card, card_sighting(card, calibration))
        return [p for k, p in enumerate(placed) if k not in gone]

    def _closer(self, frame: np.ndarray, polygon) -> CardSeen:
        """The card inside ``polygon`` (picture pixels) read from an enlarged cut-out (:func:`read_closer`)."""
        return read_closer(self.recogniser or _default_recogniser(), frame, polygon, self.deck, self.among)

    def _face_at(self, frame: np.ndarray, polygon) -> CardSeen | None:
        """On a Decktet table, the card the whole-face net surely names inside ``polygon`` (picture
        pixels: a card-sized outline whose middle is no paper), with the outline the net placed; else
        None (a back, or no card). The recogniser may miss a Decktet card's face (a pyramid on its art
        panel: Deck Town trial 1's Desert, taken for a back in every look until it was covered)."""
        recogniser = self.recogniser or _default_recogniser()
        faces = whole_face.reader(recogniser.folder, recogniser.threads) if self.deck == "decktet" else None
        read = faces.name(frame, np.array(polygon, np.float32), self.among) if faces is not None else None
        if read is None:
            return None
        return CardSeen(read.name, read.confidence, read.polygon.tolist(), read.alternatives, whole_face=True)

    def _with_backs(self, frame: np.ndarray, calibration: TableCalibration,
                    placed: list[tuple[CardSeen, CardSighting]]) -> list[tuple[CardSeen, CardSighting]]:
        """``placed`` with the face-down cards found as card-sized outlines on the table (the
        detector's own face-down finds are kept where those found none), and the face-up cards such an
        outline turns out to be: one whose middle is paper read closer, and on a Decktet table one the
        whole-face net names, as it names a card round an art panel's colours (:func:`find_panels`)."""
        ox, oy = self.layout.origin_on_paper
        pw, ph = self.layout.paper_mm
        area = visible_area(calibration, around=(pw / 2 - ox, ph / 2 - oy))
        if area is None:
            return placed
        # a card named face up has no back's outline round its middle, nor round its surest index (a
        # Decktet card named from its whole face keeps no index). Its other index boxes may be a
        # neighbour's index merged into it: a Pouches heap seen from afar, its 6H with the 8D's index
        named = [(c, s) for c, s in placed if s.face_up and s.card is not None]
        face_up = [p for c, s in named for p in (s.center_mm, *_index_middles(c, calibration)[:1])]
        found = find_backs(frame, calibration, area, face_up, paper_mm=(-ox, -oy, pw, ph))
        # a Decktet card's edge may be lost where its art panel's colours are not: a card round a panel
        # may be a face-up card the recogniser missed (Deck Town trials: a pyramid on the panel, a white
        # card under bright light on the white mat)
        panels = find_panels(frame, calibration, area, (-ox, -oy, pw, ph), face_up) if self.deck == "decktet" else []
        panels = [p for p in panels if not any(math.dist(p.centre_mm, b.centre_mm) < SAME_CARD_MM for b in found)]
        backs, replaced, on_backs = [], set(), []
        for back, panel in [(b, False) for b in found] + [(p, True) for p in panels]:
            corners = back.corners_mm()
            polygon = calibration.to_image(np.array(corners)).tolist()
            # a face-up card the index stage missed or could not name: read it closer (or, a Decktet
            # card, from its whole face: its art panel fills its middle as a back's print does)
            card = self._closer(frame, polygon) if back.face_like else self._face_at(frame, polygon)
            if card is None and panel:
                continue  # no card round this panel, and no back either: a back's print is its card's size
            if card is not None:
                # an unknown card with its middle or an index in the outline was this card, not read
                unknown = {k for k, (c, s) in enumerate(placed) if s.face_up and s.card is None and any(
                    _within(corners, p) for p in [s.center_mm, *_index_middles(c, calibration)])}
                if card.id is None and unknown:
                    continue  # unknown either way: the index stage's reading stands
                replaced |= unknown
                backs.append((card, card_sighting(card, calibration)))
                continue
            on_backs.append(corners)
            backs.append((CardSeen(BACK, back.filled, polygon),
                          CardSighting(BACK, False, tuple(round(v, 2) for v in back.centre_mm),
                                       tuple((round(x, 2), round(y, 2)) for x, y in corners),
                                       round(back.angle_deg, 2), round(back.filled, 4))))
        # a card no name was found for, seen by a mark on a back or on its edge, is the back's print or the
        # side of the deck (the deck's pattern read as an index: a Mongoose trial's deck gave an unknown card
        # in a play area at the opening; another's right edge, its mark 0.2 mm outside the back's outline,
        # an unknown card that the votes named 2H in ann's play area)
        replaced |= {k for k, (c, s) in enumerate(placed) if s.face_up and s.card is None and any(
            _within(back, p, DECK_EDGE_MM) for back in on_backs
            for p in _index_middles(c, calibration)[:1] or [s.center_mm])}
        kept = [(c, s) for k, (c, s) in enumerate(placed) if k not in replaced and (s.face_up or not any(
            math.dist(s.center_mm, b.centre_mm) < 2 * SAME_CARD_MM for b in found))]
        return kept + backs


REACH_MM = 30.0  # how far from where a card with a kept face lay a card of its name found now may be that card misplaced


def _seen_as(card: CardSighting, calibration: TableCalibration) -> CardSeen:
    """``card`` as the recogniser would report it (its outline in picture pixels), for the overlay."""
    polygon = calibration.to_image(np.array(card.corners_mm, np.float64)).tolist()
    return CardSeen(card.card, card.confidence, polygon, [(a.label, a.probability) for a in card.alternatives])


def _card_square(sighting: CardSighting, calibration: TableCalibration) -> list[list[float]]:
    """A card's length square round ``sighting``'s middle, in picture pixels: where to look closer at it
    whichever way it lies (an outline laid out from one index may be turned a quarter off, and a cut-out
    of it would miss the indices at its ends)."""
    half = CARD_MM[1] / 2
    x, y = sighting.center_mm
    square = [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
    return calibration.to_image(np.array(square, np.float64)).tolist()


def _within(corners_mm, point, margin_mm: float = 0.0) -> bool:
    """Whether a table point (mm) lies inside an outline given by its corners (mm), or within
    ``margin_mm`` of it."""
    return cv2.pointPolygonTest(np.array(corners_mm, np.float32), tuple(map(float, point)), True) >= -margin_mm


DECK_EDGE_MM = 3.0  # how far outside a back's outline a mark still lies on the deck (its side, its worn edge)


def _index_middles(card: CardSeen, calibration: TableCalibration) -> list[tuple[float, float]]:
    """The middles of ``card``'s index boxes on the table (mm)."""
    if not card.indices:
        return []
    middles = np.array([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in card.indices], np.float64)
    return [tuple(p) for p in calibration.to_table(middles).tolist()]


def card_sighting(card: CardSeen, calibration: TableCalibration) -> CardSighting:
    """A card seen in the picture, placed on the table. A card seen by one index only (the other
    covered, as in a fan of cards) whose outline came out smaller than a card is laid out from that
    index on the table instead (:func:`_from_index`); so is one seen at one corner by several boxes (its
    index, and a box round a pip beside it that read its name too: the card's turn, read at that corner
    alone, may be 20 or 30 degrees off, and the outline placed from it short of a card). One larger than a card is laid out so only
    when it is named surely (:data:`SURELY_NAMED`): the detector's box round a real index
    sometimes takes in a pip, and swells the outline; a find on court art or pips, named less
    surely, stays too large, and is no card."""
    corners = calibration.to_table(np.array(card.polygon, np.float64))
    if card.id != BACK and (len(card.indices) == 1 or _one_corner(card, calibration)) and (
            _undersized(corners) or (card.confidence >= SURELY_NAMED and not _card_sized(corners, True))):
        corners = _from_index(card, corners, calibration)
    return CardSighting(
        card.id, card.id != BACK, **placed_by(corners), confidence=round(float(card.confidence), 4),
        alternatives=tuple(Alternative(name, round(float(p), 4)) for name, p in card.alternatives if name != card.id))


def _along_edges(card: CardSeen, sighting: CardSighting, calibration: TableCalibration, edges: EdgeMap,
                 others_mm: list) -> CardSighting:
    """``sighting`` turned as the picture's edges say (:func:`turned_by_edges`) where it was laid out from
    one index, unless the other cards' middles or indices (``others_mm``) would lie on it; a card with two indices
    apart is laid out from both, and one named from its whole face has its outline from the face."""
    if not _laid_from_one_corner(card, calibration):
        return sighting
    return turned_by_edges(card, sighting, _name(card), calibration, edges, others_mm)


def _laid_from_one_corner(card: CardSeen, calibration: TableCalibration) -> bool:
    """Whether ``card`` is placed by one corner of its face: a face-up card named from its indices, not its
    whole face, all of them at one corner."""
    return card.id != BACK and not card.whole_face and bool(card.indices) and \
        (len(card.indices) == 1 or _one_corner(card, calibration))


def _one_card_a_place(placed: list[tuple[CardSeen, CardSighting]], calibration: TableCalibration,
                      edges: EdgeMap) -> list[tuple[CardSeen, CardSighting]]:
    """``placed`` with one card where two show at one place, at least one of them seen at one corner and
    laid out from it as the picture's edges bear out best (:func:`borne_outline`, at least :data:`BORNE_OUT`
    of it on edges; the other as the edges bear it out too where it was so laid, else as placed): where
    their outlines lie alike (:func:`one_place`), or where one, borne out at no turn near its own, has its
    index just where the other's outline has one (:func:`_index_of`). A card lying on another hides it,
    indices and all, so the two are one card seen at its two corners: the surer is kept, laid out as the
    edges bear out its outline or else the other's, its name in doubt with the other's where they differ
    (:func:`_name_in_doubt`). A Mongoose trial's JD, its bottom corner half under the 6S, read KD 0.92
    there at a turn 50 degrees off; laid out from that turn, the KD stood across the JD, a card nobody
    revealed; some frames read the KD surer than the JD."""
    outlines, shares = [], []
    for card, sighting in placed:
        outline, share = np.array(sighting.corners_mm, np.float64), 0.0
        if _laid_from_one_corner(card, calibration):
            edge_outline, share = borne_outline(card, sighting, _name(card), calibration, edges)
            outline = edge_outline if share >= BORNE_OUT else outline
        outlines.append(outline)
        shares.append(share)
    borne = [share >= BORNE_OUT for share in shares]

    def one_card(k: int, j: int) -> bool:
        return ((borne[k] or borne[j]) and one_place(outlines[k], outlines[j])) or \
            _index_of(placed[k][0], placed[j][0], outlines[j], calibration, borne[k], borne[j]) or \
            _index_of(placed[j][0], placed[k][0], outlines[k], calibration, borne[j], borne[k])
    rank = [(sighting.confidence, -k) for k, (_, sighting) in enumerate(placed)]
    kept_for: dict[int, list[int]] = {}  # a card kept: the cards at its place that it stands for
    # (the least sure first, so that a card kept for others may itself go to a surer one)
    for k in sorted(range(len(placed)), key=rank.__getitem__):
        if not placed[k][1].face_up:
            continue
        j = max((j for j in range(len(placed)) if j != k and placed[j][1].face_up and rank[j] > rank[k]
                 and one_card(k, j)), key=rank.__getitem__, default=None)
        if j is not None:
            kept_for.setdefault(j, []).extend([k, *kept_for.pop(k, [])])
    dropped = {k for ks in kept_for.values() for k in ks}

    def laid(n: int, sighting: CardSighting) -> CardSighting:
        # a card kept for others lies as the edges bear out its outline (another card's index or middle, lying
        # on it, kept it from being turned so, and was its own corner), else the best borne of theirs
        best = n if borne[n] else max(kept_for[n], key=shares.__getitem__)
        return replace(sighting, **placed_by(outlines[best])) if borne[best] else sighting
    return [(card, _name_in_doubt(laid(n, sighting), [placed[k][1] for k in kept_for[n]]) if n in kept_for
             else sighting) for n, (card, sighting) in enumerate(placed) if n not in dropped]


def _index_of(card: CardSeen, other: CardSeen, outline: np.ndarray, calibration: TableCalibration,
              borne: bool, other_borne: bool) -> bool:
    """Whether ``card``, laid out from one corner that the picture's edges bear out at no turn near the one
    read (not ``borne``), was named from an index of ``other``: ``card``'s index lies within
    :data:`~vision.card_edges.INDEX_PLACE_MM` of where one of ``other``'s lies by its ``outline``, itself
    borne out. A Pouches trial's 5C, found by its bottom index, had its top index read 6S at a turn
    68 degrees off, a card laid out beside it on a pile nobody made."""
    if borne or not other_borne or not _laid_from_one_corner(card, calibration):
        return False
    index = np.array(_index_middles(card, calibration)[0])
    return bool(np.linalg.norm(index_places(outline, _name(other)) - index, axis=1).min() <= INDEX_PLACE_MM)


def _name_in_doubt(sighting: CardSighting, others: list[CardSighting]) -> CardSighting:
    """``sighting``, one card with ``others`` (the same card seen at its other corner), its name in doubt
    with theirs where they name it otherwise: each name as likely as its sighting is sure, among them all."""
    others = [o for o in others if o.card != sighting.card and o.card is not None]
    if not others or sighting.card is None:
        return sighting
    total = sighting.confidence + sum(o.confidence for o in others)
    named = {o.card: round(o.confidence / total, 4) for o in others}
    alternatives = tuple(Alternative(name, p) for name, p in named.items()) + tuple(
        a for a in sighting.alternatives if a.label not in named)
    return replace(sighting, confidence=round(sighting.confidence / total, 4), alternatives=alternatives)


def _one_corner(card: CardSeen, calibration: TableCalibration) -> bool:
    """Whether a card named from several boxes was seen at one corner: none of its boxes of an
    index's size on the table more than :data:`ONE_CORNER_SIDES` times the larger box's side from
    another (its two corners lie about four index lengths apart), the first (its surest) of an
    index's size. A box several times an index's size (round pips or court art that read the card's
    name too: a Mongoose trial's JD had one across the card above) places no corner."""
    def middle(b):
        return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2

    def side(b):
        return max(b[2] - b[0], b[3] - b[1])
    name = _name(card)
    boxes = [b for b in card.indices if _index_sized(b, name, calibration)]
    return bool(boxes) and _index_sized(card.indices[0], name, calibration) and \
        all(math.dist(middle(a), middle(b)) <= ONE_CORNER_SIDES * max(side(a), side(b))
            for n, a in enumerate(boxes) for b in boxes[n + 1:])


ONE_CORNER_SIDES = 1.5
# The share of an outline laid from one corner that must lie on the picture's edges for it to say where its
# card lies (less than a turn needs, :data:`~vision.card_edges.ON_EDGES`: a card over it may cover a side)
BORNE_OUT = 0.5

# How surely a card seen by one index must be named for an outline too large to be laid out from its index
# (false finds on court pictures and pips were named 0.6 to 0.85 on the real and demo tables; session 4)
SURELY_NAMED = 0.9


def _name(card: CardSeen) -> str:
    """The card's name, or its likeliest one when the recogniser could not tell (for its geometry)."""
    return card.id or (card.alternatives[0][0] if card.alternatives else "")


def _from_index(card: CardSeen, corners: np.ndarray, calibration: TableCalibration) -> np.ndarray:
    """The outline of a card known by one index: a real card's outline on the table, the index at
    its place on the face, turned as the recogniser's outline (``corners``, in mm) is.

    The recogniser sizes a card seen by one index by that index's size in pixels, which a
    neighbour's edge or a slanted view easily shrinks or swells by a third; the index's place on
    the table, through the calibration, is exact to a millimetre or two, and the card's size is
    known. So the centre is put the known distance from the index, in the direction the
    recogniser's outline gives."""
    x0, y0, x1, y1 = card.indices[0]
    index = calibration.to_table(np.array([[(x0 + x1) / 2, (y0 + y1) / 2]], np.float64))[0]
    towards = corners.mean(axis=0) - index
    if float(np.linalg.norm(towards)) < 1.0:
        return corners
    name = _name(card)
    at = index_centre_mm(name)
    reach = math.hypot(CARD_MM[0] / 2 - at[0], CARD_MM[1] / 2 - at[1])  # from the index's middle to the card's
    centre = index + towards / np.linalg.norm(towards) * reach
    # the recogniser's own outline geometry, in millimetres: at this reach it is a real card's size
    return np.array(card_outline((index[0], index[1], index[0], index[1]), centre, name))


# How large a printed index may look on the table, as a share of its real length: an index box is
# the detector's upright box round an index at any turn (measured on the rendered demo tables: 0.76
# to 1.46 of the index's length for the 148 true indices; the false finds on pips, court pictures
# and markers from 1.54 up, with two of an index's size).
INDEX_SIZE = (0.6, 1.5)


def index_sized(card: CardSeen, calibration: TableCalibration) -> bool:
    """Whether a face-up card was named from at least one mark of an index's size on the table (a
    card seen by one index rests on it alone; a card with two has its outline checked too). A card
    named from its whole face rests on no index: the boxes it keeps only say that it lies face up."""
    if not card.indices or card.whole_face:
        return True
    return any(_index_sized(box, _name(card), calibration) for box in card.indices)


def _index_sized(box, name: str, calibration: TableCalibration) -> bool:
    """Whether a box in the picture is of the size of ``name``'s printed index on the table."""
    x0, y0, x1, y1 = box
    q = calibration.to_table(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
    side = max(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))
    return INDEX_SIZE[0] <= side / index_length_mm(name) <= INDEX_SIZE[1]


# How far a sighting's outline on the table may differ from a real card's size: the outline is
# estimated from the index (its size and the card's turn), which is good to a few millimetres; a
# find several times that size is a marker, a group of pips or a bad pairing of two indices.
SIZE_TOLERANCE = 0.3


def card_sized(sighting: CardSighting) -> bool:
    """Whether a sighting's outline on the table is the size of a card. A face-down card's box is
    the upright bounding box of a card at any turn, so it may be as large as the card's diagonal."""
    return _card_sized(np.array(sighting.corners_mm, np.float64), sighting.face_up)


def _sides(corners: np.ndarray) -> list[float]:
    """The short and the long side of an outline."""
    return sorted(float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(2))


def _undersized(corners: np.ndarray) -> bool:
    """Whether a face-up outline falls short of a card's size (and is nowhere larger)."""
    sides, card = _sides(corners), CARD_MM
    return any(s < c * (1 - SIZE_TOLERANCE) for s, c in zip(sides, card)) and \
        all(s <= c * (1 + SIZE_TOLERANCE) for s, c in zip(sides, card))


def _card_sized(corners: np.ndarray, face_up: bool) -> bool:
    sides = _sides(corners)
    short, long = CARD_MM
    if face_up:
        return abs(sides[0] / short - 1) <= SIZE_TOLERANCE and abs(sides[1] / long - 1) <= SIZE_TOLERANCE
    return short * (1 - SIZE_TOLERANCE) <= sides[0] and sides[1] <= math.hypot(short, long) * (1 + SIZE_TOLERANCE)


PACKED_OVER = 5  # pyramids standing on or against a card's outline that make it a pack of pieces, no card
PACKED_REACH_MM = 13.0  # against: a centre this far outside the outline (half a large pyramid's base)


def packed_over(card: CardSighting, pyramids) -> bool:
    """Whether :data:`PACKED_OVER` or more pyramids stand on or against a face-up card's outline: a
    player's supply, nine pyramids packed in rows, is about a card's size, and an outline found across it
    was named a Decktet card (Deck Town trial 4's yellow supply read as the Desert at 0.92, its outline over
    the smalls' and the mediums' rows). A card of the town holds a pyramid or two of each player (on the
    still tables of Deck Town trials 0-9, never more than two stacks)."""
    if not card.face_up or len(pyramids) < PACKED_OVER:
        return False
    outline = np.array(card.corners_mm, np.float32)
    near = sum(cv2.pointPolygonTest(outline, tuple(map(float, p.center_mm)), True) >= -PACKED_REACH_MM
               for p in pyramids)
    return near >= PACKED_OVER


def _on_a_marker(card: CardSeen, markers) -> bool:
    """Whether every index a card was named from lies on one of the mat's markers (their black and
    white squares can look like a printed index to the detector)."""
    if not card.indices or not markers:
        return False
    quads = [m.corners_px.astype(np.float32) for m in markers]
    centres = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in card.indices]
    return all(any(cv2.pointPolygonTest(q, c, False) >= 0 for q in quads) for c in centres)


_RECOGNISER: CardRecogniser | None = None


def _default_recogniser() -> CardRecogniser:
    global _RECOGNISER
    if _RECOGNISER is None:
        _RECOGNISER = CardRecogniser(close_ups=False)  # (a camera over the table: no index is close)
    return _RECOGNISER


# What pieces each game puts on the table: (dice, pyramids). Mongoose is cards only.
GAME_PIECES = {"pouches": (0, False), "deck-town": (0, True), "pungo": (1, True)}
# The deck each game with cards is played with (Pungo has none).
GAME_DECKS = {"pouches": standard_deck, "mongoose": standard_deck, "deck-town": myrmex_deck}


def deck_names(game_name: str) -> str:
    """The card names ``game_name``'s deck uses, as :class:`TableReader`'s ``deck`` takes them: ``decktet``
    for a deck of Decktet cards, ``standard`` otherwise (Pungo has no cards, and is read as the demo table
    reads it)."""
    build = GAME_DECKS.get(game_name)
    return "decktet" if build and set(build()) <= set(CATALOGUE) else "standard"


def copies_in_deck(game_name: str) -> int:
    """How many cards of one name ``game_name``'s deck holds (two in Deck Town's Myrmex deck, a double
    Decktet; one in a game without cards)."""
    build = GAME_DECKS.get(game_name)
    return max(Counter(build()).values()) if build else 1


def for_game(game_name: str, mat: MatLayout, **options) -> TableReader:
    """A table reader of ``game_name``'s table on ``mat``: the card names its deck uses (:func:`deck_names`),
    the very cards it holds (no other is ever named: Deck Town's Myrmex deck has no Excuse, Light Keeper or
    Rite) and how many cards of one name it holds (:func:`copies_in_deck`); ``options`` as
    :class:`TableReader` takes."""
    build = GAME_DECKS.get(game_name)
    return TableReader(mat, deck=deck_names(game_name), copies=copies_in_deck(game_name),
                       among=frozenset(build()) if build else None, **options)


@dataclass
class GamePieces:
    """The pieces step of the pipeline for one game: a :class:`vision.pieces.PieceReader` made
    once the table is calibrated, knowing the game's dice and pyramids, the registered tokens
    (``showings``: frames each showing one token alone, with its label, shape and size) and the
    players' own pyramid colours (``colours``: frames each showing one pyramid of it alone)."""

    game: str
    layout: MatLayout
    showings: list = field(default_factory=list)  # (frame, label, shape, radius_mm, height_mm)
    colours: list = field(default_factory=list)  # (frame showing one pyramid of it alone, colour name)
    pyramid_colours: frozenset[str] | None = None  # the colours the game's pyramids come in (None: any)
    problems: list[str] = field(default_factory=list)  # tokens or colours that could not be registered, and why
    _reader: object | None = None
    _calibration: TableCalibration | None = None

    def __call__(self, frame: np.ndarray, calibration: TableCalibration,
                 standing: np.ndarray | None = None) -> tuple[tuple, tuple, tuple]:
        """The frame's (pyramids, dice, tokens); ``standing``: where the caller knows something stands (see
        :meth:`vision.pieces.PieceReader.read`)."""
        if self.game not in GAME_PIECES:
            return (), (), ()
        if self._reader is None or _moved(calibration, self._calibration, self.layout):
            reader = self.bare_reader(calibration)
            from vision.pieces import TokenError

            self.problems.clear()
            for shown, label, shape, radius, height in self.showings:
                try:
                    reader.register_token(shown, label, shape, radius, height)
                except TokenError as exc:  # refereeing goes on; that player's token goes unread
                    self.problems.append(str(exc))
            for shown, name in self.colours:
                try:
                    reader.register_colour(shown, name)
                except ValueError as exc:  # refereeing goes on; that colour is read as the nearest standard one
                    self.problems.append(str(exc))
            self._reader, self._calibration = reader, calibration
        reading = self._reader.read(frame, standing)
        return reading.pyramids, reading.dice, reading.tokens

    def bare_reader(self, calibration: TableCalibration):
        """The game's :class:`vision.pieces.PieceReader` for ``calibration``, before any token or colour is
        registered: anything that registers pieces for this step should read with one of these."""
        from vision.pieces import PieceReader
        from vision.pieces.reader import markers_print_mm

        dice, pyramids = GAME_PIECES[self.game]
        # pieces are read wherever the camera sees the table (the players' supplies lie beside the mat, off its
        # paper); the mat's markers are print, not pieces
        return PieceReader(calibration, dice_in_play=dice, pyramids_in_play=pyramids,
                           flat_print_mm=markers_print_mm(self.layout), pyramid_colours=self.pyramid_colours)


def _moved(a: TableCalibration, b: TableCalibration | None, layout: MatLayout, px: float = 2.0) -> bool:
    """Whether two calibrations put the mat's corners more than ``px`` apart in the picture (the camera moved)."""
    if b is None:
        return True
    ox, oy = layout.origin_on_paper
    w, h = layout.paper_mm
    corners = np.array([[-ox, -oy], [w - ox, -oy], [w - ox, h - oy], [-ox, h - oy]], np.float64)
    return float(np.abs(a.to_image(corners) - b.to_image(corners)).max()) > px
