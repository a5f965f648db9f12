"""Pyramids, dice and tokens in a frame, in table millimetres: the pieces reader the live pipeline calls.

For each blob of foreground (:mod:`vision.pieces.foreground`, on a half-size copy of the frame)
it fits every kind of piece it knows, by outline (:mod:`vision.pieces.fitting`): the three pyramid
sizes, dice of 12 to 18 mm and each registered token's shape; the best fit says what stands there
and where its base is. Then the kind's own reader names it: colour bands for a pyramid stack
(:mod:`vision.pieces.stacks`), the pip pattern of the top face for a die (:mod:`vision.pieces.dice`,
which also finds a die the foreground missed by its pips), the registry for a token
(:mod:`vision.pieces.tokens`). A blob no piece fits well is split into its coloured parts
(:meth:`Foreground.colour_parts`: a red token that merged with a black marker beside it), and each
part is read alone; in a game with pyramids, then into parts of each hue (a pyramid on a card's print of
other colours), and a blob that still yields nothing is cut at the gaps between
packed pieces (:meth:`Foreground.packed_parts`: a supply of pyramids beside the board), and each part
that an outline covers well is read (:mod:`vision.pieces.packs`: the pack's lost middle, pieces touching
with no gap, card piles that come apart like packs); what still fits nothing is left out: a card's print,
a shadow. Blobs of one saturated colour close together are one pack from the start
(:func:`packs.pack_blobs_joined`: the foreground can cut a supply's middle piece in two). A stack read with a
colour the game has not is no reading, and two pyramid sightings at one spot are one piece, the surer.
When the game has fewer dice than were found, the best matching faces are its dice and the other
candidates are read again as pyramids (a pyramid's printed pips can look like a face). Where the
game's variant lays pyramids on their sides, a blob no standing pyramid fits well is also fitted
with a lying one, every way round, which gives its ``pointing_deg``. Card print stands out beside the
pieces where a card's art meets its white border: the print whose colour goes on round a blob
(:meth:`Foreground.print_round`) is no piece, and a blob that took some in is read without it; a blob mostly such
print is no token either, whatever its colour (the edge of a blue back's panel, for a blue pawn). A medium or small
pyramid whose blob is ringed on every side by what the foreground took for shadow stands on a larger pyramid of grey,
white or clear plastic (:meth:`PieceReader._grey_under`): a shadow falls one way, away from the light; unless the
game has no pyramids of the colour that larger one reads as (a pyramid raised on a small inside it casts its shadow
all round: the blob is then read alone).

    reader = PieceReader(calibration, tokens=registry, dice_in_play=1, flat_print_mm=markers_print_mm(mat))
    reading = reader.read(frame)        # .pyramids, .dice, .tokens: referee sightings
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.homography import TableCalibration
from referee.pyramids import Size
from referee.snapshot import DieSighting, PyramidSighting, TokenSighting
from vision.pieces.camera import TableCamera
from vision.pieces import dice, packs
from vision.pieces.fitting import TURNS, Blob, Fit, fit_outline, fit_turning
from vision.pieces.foreground import PACK_CHROMA, Foreground, largest_part
from vision.pieces.perches import pip_dip
from vision.pieces.palette import NEIGHBOURS, Palette
from vision.pieces.solids import cube_points, cylinder_points, lying_pyramid_points, outline_mask, pyramid_points
from vision.pieces.stacks import read_lying, read_stack, with_truths
from vision.pieces import tokens as tokens_module
from vision.pieces.tokens import TokenRegistry, TokenSignature

DIE_EDGES_MM = (12.0, 14.0, 16.0, 18.0)
SHRINK = 2  # the frame is halved before looking for pieces: they stay 10+ pixels across, and it is 4x cheaper
MIN_IOU = 0.55  # a worse fit is not a piece
PART_IOU = 0.65  # the same for a part cut from a pack of pieces, stricter: card print comes apart into parts too
# a blob cut at its gaps is a pack when pieces fit parts making up this share of it; print cut at its lines (a
# pile of card backs) is less (set on 2026-11-22 on the Deck Town demo, see the model card)
PACK_COVER = 0.15
# a blob is also cut at the valleys of its difference from the table (packs.valley_parts) only when its median chroma
# is at least PACK_CHROMA (saturated plastic; not pale cards on a coloured table, nor card backs whose pattern is
# mixed with white: kept in vision.pieces.foreground, which finds packs by it too), and read so only when its pieces
# explain at least VALLEY_COVER of it. Both set on 2026-11-22, session 7, on the Deck Town demo's shots 0, 5, 9, 16
# and 20 and measured Deck Town boards 100000-100007 (see the model card)
VALLEY_COVER = 0.7
HUES = 3  # a blob nothing fits is also taken apart into parts of this many hues (a pyramid, and a card's print)
CLUSTERS_READ = 0.9  # a part of a pack taken apart into clusters is pieces when pieces fit this share of it
# clusters with no edge between them are pieces only when each fits a piece this closely: pieces touching along a
# face with print of their own show no stronger edge between them (session 7, on the Deck Town demo)
CLUSTER_SURE = 0.75
# a pack's clusters are also tried with smaller sizes each fits within RESIZE_NEAR of its best, and redrawn so when the
# outlines together cover the part RESIZE_GAIN better (intersection over union), RESIZE_TRIES ways at most (set on
# 2026-11-23, session 11, on Deck Town trial 8: a medium touching a large, cut into two clusters fitting a large at 0.88
# and 0.82 (medium 0.75), two larges covered its part at 0.867, a large and a medium at 0.90)
RESIZE_NEAR = 0.15
RESIZE_GAIN = 0.02
RESIZE_TRIES = 32
HOPELESS = 0.35  # a solid whose outline's area is less than this share of the blob's, or the other way, is not fitted
# a blob no piece fits better than this is tried without its pixels that look like the table round it, and read so
# when a piece then fits better by TRIM_GAIN (set on 2026-11-22, session 6, looking at the Pungo demo: a large
# pyramid's blob with a lobe of bare mat between it and its neighbours fitted at 0.67 to 0.79; see the model card)
TRIM_GATE = 0.85
TRIM_GAIN = 0.05
# ... and only when at least this share of what is taken off lies outside the outline fitted to the whole blob: bare
# table lies beside the piece, while pale plastic taken for the table (a white pyramid on a light table) lies within
TRIM_OUTSIDE = 0.15
# a blob at least this share of which is print that goes on round it (Foreground.print_round), and that no piece fits
# as closely as a pack's part must (PART_IOU), is print: only what is left without it may be a piece; one with at least
# PRINT_SOME of it that a piece fits loosely (under TRIM_GATE) is also read without it (and its other pixels of the
# print's colours) when a piece then fits clearly better (TRIM_GAIN). Set on 2026-11-23, session 10, on the Deck Town
# demo: the Mountain card's art edge read as a yellow small (0.9 of its blob print, fitted at 0.59 to 0.64), the red
# small at the Battle art's corner read as a large with the art (0.1 of its blob); the pieces read right on the demos,
# the bench's piece tables and Deck Town boards had at most 0.45 (and a few pixels of a stack's blurred skirt, 0.003)
PRINT_SHARE = 0.5
PRINT_SOME = 0.05
# a medium or small pyramid stands on a larger one of grey plastic when its blob with the shaded pixels joined to it
# fits the larger one (MIN_IOU) and at least this share of the larger outline round the blob is shaded (set on
# 2026-11-23, session 12, on the bench's random tables at the pieces' true poses: grey bottoms round a coloured top
# 0.91 to 0.99 where they were lost, coloured singles under a large's outline 0.52 at most)
GREY_RING = 0.8
LYING_GATE = 0.8  # a blob a standing pyramid fits worse than this may be one lying on its side (set by hand)
LYING_MARGIN = 0.08  # by how much more of its blob a lying pyramid must cover than a standing one (set by hand)
LYING_TURNS = tuple(float(a) for a in range(0, 360, 15))
MAX_PIP_STARTS = 2  # a die found by its pips is also looked for round this many of its pips
# ... unless the search from the pips' middle found a face this clear. Set on 2026-11-22 looking at the 97 such
# searches of the bench's piece tables and Pungo games and of the Pungo demo: the middle matched 0.88 or more, or
# 0.54 or less, and the extra starts never changed the face read
CLEAR_FACE = 0.8
# two pyramid sightings closer than this share of a small pyramid's base are one piece read twice (2026-11-23,
# session 9: the Deck Town demo's frames read a supply's small twice, 0 mm apart)
SAME_SPOT = 0.5
# the values of the ``standing`` mask :meth:`PieceReader.read` takes: a patch where something stands within a card,
# and one that reaches the card's rim (what stands there may go on over the card's edge); 0 elsewhere
WHOLE, CUT = 255, 128
MIN_TOKEN = 0.3  # a token reading less sure than this is nobody's token: left out
# a pixel within this share of the token reach has a registered token's colour (chosen on seeds 3000-3011)
COLOUR_GATE = 0.8
# print of a token's colour (a blue card back's pattern, for a blue pawn) is told from the token by a ring round
# what was found, from COLOUR_RING[0] to COLOUR_RING[1] pixels of the smaller frame out: when at least PRINT_ROUND of
# it has the token's colour and less than STANDS_OUT of what was found stands out from the table, it is print. Set on
# 2026-11-23, session 11, on Pouches trials 2, 10 and 18 (a blue pawn beside a heap of blue backs): the pawns had 0.0
# of their ring of their colour and 0.78 to 1.0 of them stood out; the backs' emblems and pattern 0.51 to 0.89, and 0.0
# to 0.42
COLOUR_RING = (2, 5)
PRINT_ROUND = 0.4
STANDS_OUT = 0.6


@dataclass
class PiecesReading:
    pyramids: tuple[PyramidSighting, ...] = ()
    dice: tuple[DieSighting, ...] = ()
    tokens: tuple[TokenSighting, ...] = ()
    bands: list = field(default_factory=list)  # (centre_mm, bottom size, band features): what the palette learns from

    @property
    def count(self) -> int:
        """How many pieces were read."""
        return len(self.pyramids) + len(self.dice) + len(self.tokens)

    def take(self, other: PiecesReading) -> None:
        """Add what ``other`` read (both built as lists, while a frame is being read)."""
        self.pyramids.extend(other.pyramids)
        self.dice.extend(other.dice)
        self.tokens.extend(other.tokens)
        self.bands.extend(other.bands)


def token_points(sig: TokenSignature):
    """The outline points of a registered token's shape at a spot."""
    if sig.shape == "disc":
        return lambda x, y, a: cylinder_points(x, y, sig.radius_mm, sig.height_mm)
    top = sig.height_mm * 0.78 + sig.radius_mm * 0.65  # a pawn: base ring, tapering body, head
    def pawn(x, y, a):
        base = cylinder_points(x, y, sig.radius_mm, sig.height_mm * 0.22)
        head = cylinder_points(x, y, sig.radius_mm * 0.45, top)
        return np.vstack([base, head[len(head) // 2:]])
    return pawn


def _one_each(tokens) -> tuple:
    """One sighting per registered token, the surest: each is one object, so a second reading of it
    is something else that looks like it (a card's corner, a shadow)."""
    surest = {}
    for token in tokens:
        if token.label not in surest or token.confidence > surest[token.label].confidence:
            surest[token.label] = token
    return tuple(t for t in tokens if surest[t.label] is t)


def _one_per_spot(pyramids: list[PyramidSighting]) -> tuple[PyramidSighting, ...]:
    """One sighting per spot, the surest: two pyramids' bases cannot lie closer than ``SAME_SPOT`` of a small
    one's (one on another is one stack, read as one sighting), so a second sighting there read the same piece
    again (a blob beside a pack, left out of it as too pale, holding a piece the pack's cut also read)."""
    reach = SAME_SPOT * Size.SMALL.base_mm
    kept: list[PyramidSighting] = []
    for p in sorted(pyramids, key=lambda p: -p.confidence):
        if all(np.hypot(p.center_mm[0] - q.center_mm[0], p.center_mm[1] - q.center_mm[1]) >= reach for q in kept):
            kept.append(p)
    return tuple(p for p in pyramids if any(p is q for q in kept))


def markers_print_mm(layout, margin_mm: float = 2.0) -> list[np.ndarray]:
    """The squares of a mat's markers (a :class:`calibration.mats.MatLayout`), ``margin_mm`` wider for the
    blur: print that lies flat, for ``PieceReader(flat_print_mm=...)``."""
    grow = margin_mm * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    return [m.corners_mm() + grow for m in layout.markers]


class PieceReader:
    """Reads pieces from frames of one camera; keeps the pose recovered from ``calibration``."""

    def __init__(self, calibration: TableCalibration, tokens: TokenRegistry | None = None,
                 palette: Palette | None = None, area_mm: tuple[float, float, float, float] | None = None,
                 dice_in_play: int | None = None, pyramids_in_play: bool = True,
                 flat_print_mm: list[np.ndarray] | tuple = (), lying_in_play: bool = False,
                 pyramid_colours: frozenset[str] | None = None) -> None:
        """``dice_in_play``: how many dice the game has (Pungo 1, Pouches 0), None when unknown: the best
        matching that many are reported, and with 0 none is looked for (a card's printed pips can look like a
        die's face). ``pyramids_in_play``: False where the game has none (pyramids registered as tokens are
        still read). ``flat_print_mm``: polygons (table mm, N x 2) of print known to lie flat there, such as
        the mat's markers: black and white squares that stand out like a pack of dark pieces. ``lying_in_play``:
        the game's variant lays pyramids on their sides to point (their ``pointing_deg`` is read); elsewhere a
        lying outline is not tried, as it fits some standing pyramids with their shadows, and card print.
        ``pyramid_colours``: the colours the game's pyramids come in (with those registered later), None when
        any may: a stack read with another colour is no piece of the game (card art read as a pink pyramid), and
        is not reported. On the Deck Town demo this took precision from 0.63 to 0.87, recall unchanged."""
        self.camera = TableCamera.from_calibration(calibration)
        self.view = self.camera.at_scale(1 / SHRINK)  # foreground and outlines work on a smaller copy
        self.tokens = tokens or TokenRegistry()
        self.palette = palette or Palette.load()
        self.area_mm = area_mm  # (x, y, width, height): pieces elsewhere (a mat's markers, the box) are ignored
        self.dice_in_play = dice_in_play
        self.pyramids_in_play = pyramids_in_play
        self.flat_print_mm = [np.asarray(p, np.float64).reshape(-1, 2) for p in flat_print_mm]
        self.lying_in_play = lying_in_play
        self.pyramid_colours = pyramid_colours
        self._fits_seen: dict = {}  # (box, mask, may_be_die) -> _fit_blob's answer, while a frame is read
        self._unplayed: dict = {}  # blob box -> the colour, not the game's, of a lone pyramid read there; per frame

    def read(self, image: np.ndarray, standing: np.ndarray | None = None) -> PiecesReading:
        """The pieces in ``image``. ``standing``: where the caller knows something stands, a mask over the frame
        (``WHOLE`` or ``CUT`` patches, 0 elsewhere; the table reader's from the cards whose bare look it kept,
        :meth:`vision.card_looks.CardLooks.standing`), read as :meth:`_read_standing` says."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise ValueError("read() needs a BGR colour frame (height x width x 3)")
        h, w = image.shape[:2]
        if (w, h) != tuple(self.camera.calibration.image_size):
            raise ValueError(f"the frame is {w}x{h} but the table calibration was made at "
                             f"{self.camera.calibration.image_size[0]}x{self.camera.calibration.image_size[1]}")
        self._grey_frame = None
        small = cv2.resize(image, (w // SHRINK, h // SHRINK), interpolation=cv2.INTER_AREA)
        fg = Foreground.of(small, self._piece_px(small))
        keep = np.full_like(fg.mask, 255)  # where pieces are looked for
        if self.area_mm is not None:
            x, y, aw, ah = self.area_mm
            corners = np.array([[x, y], [x + aw, y], [x + aw, y + ah], [x, y + ah]] * 2, np.float64)
            tall = np.column_stack([corners, [0.0] * 4 + [-Size.LARGE.height_mm] * 4])  # pieces stand up from it
            poly = cv2.convexHull(self.view.project(tall).astype(np.float32))
            keep[:] = 0
            cv2.fillConvexPoly(keep, np.round(poly).astype(np.int32).reshape(-1, 2), 255)
        for polygon in self.flat_print_mm:
            px = self.view.image_points(polygon)
            cv2.fillPoly(keep, [np.round(px).astype(np.int32).reshape(-1, 1, 2)], 0)
        mask = fg.mask & keep
        out = PiecesReading([], [], [], [])
        self._die_candidates = []  # (pattern match, sighting, blob or None): the dice found, best kept at the end
        self._fits_seen = {}  # (box, mask, may_be_die) -> _fit_blob's answer, for this frame
        self._unplayed = {}  # box -> the colour of a lone pyramid read there in a colour the game has not, this frame
        self._read_blobs(image, fg, mask, out)
        if standing is not None and self.pyramids_in_play:
            self._read_standing(image, fg, standing, keep, out)
        self._tokens_by_colour(fg, out)
        if self.dice_in_play != 0:
            self._dice_by_pips(image, small, out)
        if self.dice_in_play is not None and len(out.dice) > self.dice_in_play:
            # the game's dice are the best matching candidates; a blob that lost (a pyramid whose printed pips
            # looked like a face) is read again as whatever else it fits
            ranked = sorted(self._die_candidates, key=lambda c: -c[0])
            out.dice = [die for _, die, _ in ranked[:self.dice_in_play]]
            for _, _, blob in ranked[self.dice_in_play:]:
                if blob is not None:
                    self._read_blob(image, fg, blob, out, may_be_die=False)
        self._grey_frame = None
        self._fits_seen, self._unplayed = {}, {}
        pyramids = _one_per_spot([p for p in out.pyramids if self._in_play(p)])
        pyramids = tuple(with_truths(p, self.palette, self.pyramid_colours) for p in pyramids)
        return PiecesReading(pyramids, tuple(out.dice), _one_each(out.tokens), out.bands)

    def _read_standing(self, image: np.ndarray, fg: Foreground, standing: np.ndarray, keep: np.ndarray,
                       out: PiecesReading) -> None:
        """Read the patches of ``standing`` (:meth:`vision.card_looks.CardLooks.standing`: over the frame, ``WHOLE``
        for a patch within its card, ``CUT`` for one at its rim): a small on busy card art, which the foreground
        merged with the art, stands out alone against the card's bare look. A patch with no piece read near it is
        read on its own; a whole patch with one pyramid read near it in its colour, read on its own more surely as
        another size, gives that size (the pyramid's blob took in art: Deck Town's smalls read as mediums). A cut
        patch resizes nothing: the piece may stand over the card's edge, beyond what was compared."""
        h, w = fg.mask.shape
        small = cv2.resize(standing, (w, h), interpolation=cv2.INTER_NEAREST)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(((small > 0) & (keep > 0)).astype(np.uint8),
                                                               connectivity=8)
        for blob in _blobs(labels, stats, self._tiny_area(fg.mask)):
            x, y = self.view.to_table(blob.centroid.reshape(1, 2))[0]
            near = [s for s in (*out.pyramids, *out.dice, *out.tokens)
                    if math.dist((x, y), s.center_mm) < Size.LARGE.base_mm]
            if not near:
                self._read_blob(image, fg, blob, out, may_be_die=False)
                continue
            x0, y0, x1, y1 = blob.box
            whole = small[y0:y1, x0:x1][blob.mask > 0].min() == WHOLE
            if not whole or len(near) != 1 or not isinstance(near[0], PyramidSighting):
                continue
            alone = PiecesReading([], [], [], [])
            self._read_blob(image, fg, blob, alone, may_be_die=False)
            if len(alone.pyramids) == 1 and alone.pyramids[0].colour == near[0].colour \
                    and alone.pyramids[0].size != near[0].size and alone.pyramids[0].confidence > near[0].confidence:
                out.pyramids[out.pyramids.index(near[0])] = alone.pyramids[0]

    def _in_play(self, sighting: PyramidSighting) -> bool:
        """Whether every pyramid of ``sighting``'s stack has a colour the game's pyramids come in."""
        return self.pyramid_colours is None or all(q.colour in self.pyramid_colours for q in sighting.stack)

    def _read_blobs(self, image: np.ndarray, fg: Foreground, mask: np.ndarray, out: PiecesReading) -> None:
        """Read every blob of ``mask`` (0/255 over the small frame) into ``out``."""
        if self.pyramids_in_play:  # a pack the foreground cut in its middle is read whole
            gap = max(1, round(packs.JOIN_GAP_MM * self._piece_px(mask) / Size.LARGE.height_mm))
            n, labels, stats = packs.pack_blobs_joined(fg, mask, PACK_CHROMA, gap)
        else:
            n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for blob in _blobs(labels, stats, self._tiny_area(mask)):
            before = out.count
            printed = self._read_blob(image, fg, blob, out)
            if out.count == before and not printed:  # (print is not taken apart: its parts are print too)
                # nothing fits the blob: a coloured piece may have merged with something grey beside it
                # (a marker, a card's border, the mat's edge); each coloured part is read on its own
                parts = fg.colour_parts(blob.box, blob.mask)
                if len(parts) > 1 or (parts and parts[0][1].sum() < 0.8 * blob.area):
                    for part in parts:
                        self._read_blob(image, fg, Blob(*part), out)
                if self.pyramids_in_play and out.count == before:
                    # a pyramid standing on a card's print touches print of other colours: the blob's parts of
                    # each hue (HUES of them) are read on their own
                    parts = fg.colour_parts(blob.box, blob.mask, hues=HUES)
                    if len(parts) > 1 or (parts and parts[0][1].sum() < 0.8 * blob.area):
                        for part in parts:
                            self._read_blob(image, fg, Blob(*part), out)
                if self.pyramids_in_play and out.count == before:
                    # still nothing: pyramids of one colour packed close (a supply) come apart at the gaps (the
                    # games without pyramids have no supplies, and their card backs' print would come apart too)
                    self._read_pack(image, fg, blob, out)
                unplayed = self._unplayed.get(blob.box)
                if self.pyramids_in_play and out.count == before and unplayed:
                    self._read_core(image, fg, blob, unplayed, out)

    def _read_core(self, image: np.ndarray, fg: Foreground, blob: Blob, unplayed: str, out: PiecesReading) -> None:
        """Read ``blob``, read as a lone pyramid of a colour the game has not (``unplayed``), by its core of colour
        (:meth:`Foreground.coloured_core`): a translucent small on a card, its blob grown by its shadow of its own
        tint and the card's print beside it, reads as a larger pyramid of a paler colour (Deck Town trial 6: a red
        small read as a pink large, on every look but one). A pyramid read in the core is kept only in a colour
        that readings of the blob's colour were, on the palette's renders (pink for red): a card's art read as
        a pink large has a yellow patch in it, no yellow pyramid."""
        was = self.palette.truths(unplayed)
        for part in fg.coloured_core(blob.box, blob.mask):
            core = PiecesReading([], [], [], [])
            self._read_blob(image, fg, Blob(*part), core, may_be_die=False)
            if core.pyramids and all(q.colour in was for p in core.pyramids for q in p.stack):
                out.take(core)

    def _read_pack(self, image: np.ndarray, fg: Foreground, blob: Blob, out: PiecesReading) -> None:
        """Read a blob no piece fits whole as pieces packed close (:mod:`vision.pieces.packs`).

        Its lost middle is filled in and it is cut at its gaps, two ways: where it stands out least from the
        background (:meth:`Foreground.packed_parts`, on the smaller frame) and along the narrow valleys of its
        difference from the table round it on the full-size frame (:func:`packs.valley_parts`, where gaps a
        pixel or two wide still show). Each cut is read (:meth:`_read_cut`), and the one whose pieces explain
        more of the blob wins; the valley cut only when its pieces explain at least ``VALLEY_COVER`` of the
        blob (cut finer, card art comes apart into more parts that fit a pyramid), and only in a blob of
        saturated colour (``PACK_CHROMA``: plastic, not pale cards on a coloured table nor card backs). The valley
        cut leaves pieces that touch with no gap (a column of larges) as one part: its parts no piece fits are
        taken apart into clusters before the blob is judged a pack or print."""
        blob = packs.holes_filled(fg, blob)
        candidates_before = list(self._die_candidates)
        cuts = [(lambda: [Blob(*p) for p in fg.packed_parts(blob.box, blob.mask)], 0.0, False)]
        if packs.chroma(fg, blob) >= PACK_CHROMA:
            cuts.append((lambda: packs.valley_parts(image, fg, blob, SHRINK, self._piece_px_at(blob)), VALLEY_COVER,
                         True))
        best = None
        for cut, need, cluster_first in cuts:
            self._die_candidates = list(candidates_before)
            explained, readings = self._read_cut(image, fg, blob, cut(), cluster_first)
            if explained > 0 and explained >= need * blob.area and (best is None or explained > best[0]):
                best = (explained, readings, self._die_candidates)
        if best is None:
            self._die_candidates = candidates_before
            return
        self._die_candidates = best[2]
        for reading in best[1]:
            out.take(reading)

    def _read_cut(self, image: np.ndarray, fg: Foreground, blob: Blob, cut: list[Blob],
                  cluster_first: bool = False) -> tuple[int, list]:
        """A pack ``blob`` cut into parts (``cut``) read: how many of its pixels the pieces read explain, and
        their readings. Each part a piece fits (at ``PART_IOU``) is read. A pack is pieces: when they explain
        at least ``PACK_COVER`` of the blob, each part no piece fits is taken apart into clusters
        (:meth:`_read_clusters`); with ``cluster_first`` (a cut at the valleys of saturated plastic) they are
        taken apart first and count towards that share, and a cut between clusters may lie on no edge. When they
        explain less, the blob is print cut up (a pile of card backs comes apart into strips at its cards'
        borders, and some strips fit a pyramid) or print with a piece on it: only parts of a hue apart from the
        rest of the blob are kept."""
        readings, unfit = [], []
        for part in cut:
            reading = self._reading_of(image, fg, part)
            if reading.count:
                readings.append((part, reading))
            else:
                unfit.append(part)

        def clustered(parts):
            return [(part, reading) for part in parts
                    for reading in [self._read_clusters(image, fg, part, without_edge=cluster_first)]
                    if reading is not None]

        if cluster_first:  # pieces touching with no gap between them count before the blob is judged
            readings, unfit = readings + clustered(unfit), []
        if not readings:
            return 0, []
        if sum(part.area for part, _ in readings) >= PACK_COVER * blob.area:
            readings += clustered(unfit)
        else:
            apart = packs.hue_apart(fg, blob, [part for part, _ in readings])
            dropped = [reading for (_, reading), keep in zip(readings, apart) if not keep]
            readings = [(part, reading) for (part, reading), keep in zip(readings, apart) if keep]
            dropped_dice = [id(d) for reading in dropped for d in reading.dice]
            self._die_candidates = [c for c in self._die_candidates if id(c[1]) not in dropped_dice]
        return sum(part.area for part, _ in readings), [reading for _, reading in readings]

    def _reading_of(self, image: np.ndarray, fg: Foreground, part: Blob, may_be_die: bool = True,
                    min_iou: float = PART_IOU) -> PiecesReading:
        """What one part of a pack reads as, on its own (nothing when no piece fits it at ``min_iou``)."""
        reading = PiecesReading([], [], [], [])
        self._read_blob(image, fg, part, reading, may_be_die=may_be_die, min_iou=min_iou, in_pack=True)
        return reading

    def _read_clusters(self, image: np.ndarray, fg: Foreground, part: Blob,
                       without_edge: bool = False) -> PiecesReading | None:
        """A part of a pack that no piece fits, taken apart (:func:`packs.clusters`) into the fewest clusters,
        2 up to as many small pyramids as it has room for, of which pieces fit at least ``CLUSTERS_READ`` of
        its pixels: the pieces read from them, or None when no number of clusters does. The lines between
        clusters must lie on an edge of the picture (``packs.CUT_EDGE``), unless ``without_edge`` and every
        cluster fits a piece at ``CLUSTER_SURE``."""
        at = self.view.to_table(part.centroid.reshape(1, 2))[0]
        smallest = self._expected_area(at, lambda x, y, a: pyramid_points(x, y, a, Size.SMALL))
        best = None
        for k in range(2, min(packs.MAX_CLUSTERS, int(part.area / max(smallest, 1.0))) + 1):
            cut = packs.clusters(part, k)
            # a cut across print, not between pieces; in a pack coloured all over (``without_edge``) it stands when
            # pieces fit every cluster closely (pieces touching along a face with print of their own, such as a
            # pyramid's edges, show no stronger edge between them)
            if packs.cut_edge(fg, part, cut) >= packs.CUT_EDGE:
                bar = PART_IOU
            elif without_edge:
                bar = CLUSTER_SURE
            else:
                continue
            found = [(cluster, self._reading_of(image, fg, cluster, may_be_die=False, min_iou=bar))
                     for cluster in cut]
            read = [cluster for cluster, reading in found if reading.count]
            if sum(cluster.area for cluster in read) >= CLUSTERS_READ * part.area:
                # of the numbers of clusters that read, the one whose pieces fit closest: three mediums touching
                # in a column also come apart into two clusters that each fit a large, less closely
                fit = sum(c.area * self._fit_blob(c, False)[0][0] for c in read) / part.area
                if best is None or fit > best[0]:
                    best = (fit, cut, bar, found)
        if best is None:
            return None
        fit, cut, bar, found = best
        recut = self._clusters_refitted(part, cut)
        if recut is not None:
            again = [(cluster, self._reading_of(image, fg, cluster, may_be_die=False, min_iou=bar))
                     for cluster in recut]
            read = [cluster for cluster, reading in again if reading.count]
            if sum(cluster.area for cluster in read) >= CLUSTERS_READ * part.area and \
                    sum(c.area * self._fit_blob(c, False)[0][0] for c in read) / part.area > fit:
                found = again
        resized = self._clusters_resized(part, [cluster for cluster, _ in found])
        if resized is not None:
            again = [(cluster, self._reading_of(image, fg, cluster, may_be_die=False, min_iou=bar))
                     for cluster in resized]
            if sum(cluster.area for cluster, reading in again if reading.count) >= CLUSTERS_READ * part.area:
                found = again
        merged = PiecesReading([], [], [], [])
        for _, reading in found:
            merged.take(reading)  # (no dice: the clusters were read as anything but a die)
        return merged

    def _clusters_refitted(self, part: Blob, cut: list[Blob]) -> list[Blob] | None:
        """``cut`` (clusters of ``part``) drawn again from the pieces fitted to them (:meth:`_owned`). k-means cuts a
        part into clusters of about one size, so a medium beside a large takes some of the large and fits a large
        itself; the outlines follow the pieces. None when a cluster fits nothing."""
        fits = []
        for cluster in cut:
            found = self._fit_blob(cluster, False)
            if not found:
                return None
            fits.append(found[0][3])
        return self._owned(part, cut, fits)

    def _owned(self, part: Blob, cut: list[Blob], fits: list[Fit]) -> list[Blob] | None:
        """``cut`` (clusters of ``part``) drawn again from the outlines ``fits`` (one per cluster): each pixel of
        ``part`` goes to the outline that covers it, of those that do the one nearest the camera (it hides the ones
        behind), and to its own cluster where none does. None when a cluster is left with a sliver."""
        x0, y0, x1, y1 = part.box
        owner = np.full(part.mask.shape, -1, np.int32)
        for k, cluster in enumerate(cut):
            cx0, cy0, cx1, cy1 = cluster.box
            owner[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0][cluster.mask > 0] = k
        camera = self.camera.centre_mm[:2]
        nearest = np.full(part.mask.shape, np.inf)  # how far from the camera the piece owning each pixel stands
        for k, f in enumerate(fits):
            distance = float(np.hypot(f.x - camera[0], f.y - camera[1]))
            take = (outline_mask(f.outline_px, part.box) > 0) & (distance < nearest)
            owner[take], nearest[take] = k, distance
        out = []
        for k in range(len(cut)):
            mask = ((owner == k) & (part.mask > 0)).astype(np.uint8)
            ys, xs = np.nonzero(mask)
            if len(xs) < packs.SLIVER:
                return None
            box = (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)
            out.append(Blob(box, mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]))
        return out

    def _clusters_resized(self, part: Blob, cut: list[Blob]) -> list[Blob] | None:
        """``cut`` (clusters of ``part``, each of which a pyramid fits) drawn again for other sizes of pyramid, when
        they explain ``part`` clearly better together: None when no other sizes do.

        A medium touching a large with no gap between them comes apart into two clusters of about one size; the
        medium's took in the large's edge and fits a large, and the outlines redrawn from two larges keep it so.
        Every way of giving each cluster its best size or a smaller one it nearly fits (within ``RESIZE_NEAR``) is
        tried (a cluster that took in its neighbour's edge or a gap fits a larger piece than it is; tried larger, a
        medium whose cluster took in a strip of the gap beside it fitted a large, on Deck Town trial 3): the outlines
        of those sizes are fitted to the clusters and the clusters redrawn from them (:meth:`_owned`), twice. The
        sizes are kept when each redrawn cluster then fits its own size best (the pieces read are the sizes tried)
        and the outlines together cover ``part`` (intersection over union of their union with it) by
        ``RESIZE_GAIN`` more than the clusters' own best sizes do: the pieces' footprints, not the clusters' equal
        shares, explain the part."""
        options, best_fits = [], []
        for cluster in cut:
            found = self._fit_blob(cluster, False)
            if not found or found[0][1] != "pyramid":
                return None
            best_fits.append(found[0][3])
            options.append([f[2] for f in found if f[1] == "pyramid" and f[2] <= found[0][2] and f[0] > 0
                            and f[0] >= found[0][0] - RESIZE_NEAR])
        if all(len(o) == 1 for o in options) or np.prod([len(o) for o in options]) > RESIZE_TRIES:
            return None
        bar = _union_iou(part, best_fits) + RESIZE_GAIN
        chosen = None
        for sizes in itertools.product(*options):
            clusters = cut
            for _ in range(2):
                fits = [fit_outline(c, self.view, lambda x, y, a, s=s: pyramid_points(x, y, a, s))
                        for c, s in zip(clusters, sizes)]
                clusters = self._owned(part, cut, fits)
                if clusters is None:
                    break
            if clusters is None:
                continue
            found = [self._fit_blob(c, False) for c in clusters]
            if not all(f and f[0][1] == "pyramid" and f[0][2] == s for f, s in zip(found, sizes)):
                continue
            cover = _union_iou(part, [f[0][3] for f in found])
            if cover >= bar:
                chosen, bar = clusters, cover
        return chosen

    def _grey(self, image: np.ndarray) -> np.ndarray:
        if getattr(self, "_grey_frame", None) is None:
            self._grey_frame = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return self._grey_frame

    def _tokens_by_colour(self, fg: Foreground, out: PiecesReading) -> None:
        """Registered tokens the foreground missed (one standing on a card pile merges with the card's border),
        looked for where the picture has the token's own colour (with the pixels round that the foreground holds:
        the token's edge, blurred with what is round it), and not where that is print of its colour
        (:func:`_flat_print`: a blue back's emblem, for a blue pawn)."""
        seen = {t.label for t in out.tokens}
        for sig in self.tokens.shaped():
            if sig.label in seen:
                continue
            near = tokens_module.colour_distance(fg.lab, sig.colour_lab) < COLOUR_GATE * tokens_module.REACH
            mask = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
            best = None
            h, w = mask.shape
            for i in range(1, n):
                x0, y0, bw, bh, area = stats[i]
                if area < 12:
                    continue
                # the token's edge, blurred with the table, is off its colour but stands out: a pixel round it that
                # the foreground holds is the token's too
                X0, Y0, X1, Y1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x0 + bw + 1, w), min(y0 + bh + 1, h)
                own = (labels[Y0:Y1, X0:X1] == i).astype(np.uint8)
                grown = own | (cv2.dilate(own, np.ones((3, 3), np.uint8)) & (fg.mask[Y0:Y1, X0:X1] > 0))
                blob = Blob((int(X0), int(Y0), int(X1), int(Y1)), grown.astype(np.uint8))
                fit = fit_outline(blob, self.view, token_points(sig), turns=(0.0,))
                if fit.iou >= MIN_IOU - 0.1 and (best is None or fit.iou > best.iou) \
                        and not _flat_print(fg, fit, sig.colour_lab):
                    best = fit
            if best is None:
                continue
            taken = [s.center_mm for s in (*out.pyramids, *out.dice, *out.tokens)]
            if any(np.hypot(best.x - t[0], best.y - t[1]) < sig.radius_mm for t in taken):
                continue
            token = self.tokens.identify(_body_colour(fg, best), {sig.label: best.iou}, (best.x, best.y))
            if token is not None and token.label == sig.label and token.confidence >= MIN_TOKEN:
                out.tokens.append(token)

    def _dice_by_pips(self, image: np.ndarray, small: np.ndarray, out: PiecesReading) -> None:
        """Dice that the colour foreground missed (a white die on a white mat), found by their pips.

        The top face is near the middle of the pips seen, unless the side faces show more pips than the top
        (a 1 up shows one pip, at the top's centre, among its sides'). The sides seen face the camera, so the
        top's pips are the ones furthest from the point under it: the search also starts from those, unless
        the middle already showed a clear face."""
        taken = [s.center_mm for s in (*out.pyramids, *out.dice, *out.tokens)]
        below = self.camera.centre_mm[:2]
        for group in dice.pip_groups(self._grey(image), self.camera):  # pips are tiny: full size
            middle = group.mean(axis=0)
            if any(np.hypot(middle[0] - t[0], middle[1] - t[1]) < 18.0 for t in taken):
                continue
            found = dice.search_top_face(self._grey(image), self.camera, float(middle[0]), float(middle[1]))
            if dice.DIE_LIKE <= found.match < CLEAR_FACE:  # something like a face is near: worth a costlier look
                for x, y in sorted(group, key=lambda p: -np.hypot(*(p - below)))[:MAX_PIP_STARTS]:
                    found = max(found, dice.search_top_face(self._grey(image), self.camera, float(x), float(y)),
                                key=lambda reading: reading.match)
            die = dice.sighting(found)
            if die is not None:
                out.dice.append(die)
                self._die_candidates.append((found.match, die, None))
                taken.append(die.center_mm)

    def register_token(self, image: np.ndarray, label: str, shape: str, radius_mm: float, height_mm: float) -> None:
        """"This is Ann's token": take the signature of the one token shown alone in ``image``."""
        from vision.pieces.tokens import TokenError

        if shape not in ("disc", "pawn"):
            raise TokenError(f"token {label!r}: shape {shape!r} is not 'disc' or 'pawn'")
        probe = TokenSignature(label, shape, radius_mm, height_mm)
        small = cv2.resize(image, (image.shape[1] // SHRINK, image.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
        fg = Foreground.of(small, self._piece_px(small))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fg.mask, connectivity=8)
        best = None
        for i in range(1, n):
            x0, y0, bw, bh, _ = stats[i]
            blob = Blob((int(x0), int(y0), int(x0 + bw), int(y0 + bh)),
                        (labels[y0:y0 + bh, x0:x0 + bw] == i).astype(np.uint8))
            if blob.area < 30:
                continue
            fit = fit_outline(blob, self.view, token_points(probe), turns=(0.0,))
            if fit.iou < MIN_IOU:  # a token set down beside a marker or the mat's edge merges with it
                # (its coloured part; on the mat's edge the paper is coloured too against a background half table,
                # half paper, and comes apart from the token by hue: the parts of two, then HUES, hues)
                for hues in range(1, HUES + 1):
                    for part in fg.colour_parts(blob.box, blob.mask, hues=hues):
                        part_fit = fit_outline(Blob(*part), self.view, token_points(probe), turns=(0.0,))
                        fit = part_fit if part_fit.iou > fit.iou else fit
            if best is None or fit.iou > best.iou:
                best = fit
        if best is None or best.iou < MIN_IOU:
            raise TokenError(f"token {label!r}: no {shape} of radius {radius_mm} mm and height {height_mm} mm "
                             "stands alone in view; put just that token down in front of the camera")
        colour = _body_colour(fg, best)
        self.tokens.add(TokenSignature(label, shape, radius_mm, height_mm, tuple(float(v) for v in colour)))

    def register_colour(self, image: np.ndarray, name: str) -> None:
        """A pyramid colour the players brought (``name``, a lower-case word), from a frame showing one
        pyramid of it alone: its colour bands join the palette for this reader."""
        from referee.pyramids import Pyramid

        Pyramid(name, Size.SMALL)  # refuses a name that is no colour word, with a message
        reading = self.read(image)
        bands = [f for _, _, features in reading.bands for f in features if f is not None]
        if not bands or len(reading.bands) != 1:
            raise ValueError(f"colour {name!r}: show exactly one pyramid of it alone in front of the camera")
        # a handful of examples against thousands, seen at one spot: each is also taken lighter and darker (a
        # facet turned to or from the lamp), and counts as many times as the neighbours that vote
        examples = []
        for f in bands:
            for gain in (0.7, 0.85, 1.0, 1.2, 1.4):
                shaded = f.copy()
                shaded[0] = min(255.0, f[0] * gain)
                examples.append(shaded)
        self.palette = self.palette.with_colour(name, np.repeat(np.array(examples), NEIGHBOURS, axis=0))
        if self.pyramid_colours is not None:
            self.pyramid_colours = self.pyramid_colours | {name}

    def _piece_px_at(self, blob: Blob) -> float:
        """About how many pixels of the smaller frame a large pyramid's height spans at ``blob``."""
        at = self.view.to_table(blob.centroid.reshape(1, 2))[0]
        return self.view.px_per_mm(tuple(at)) * Size.LARGE.height_mm

    def _piece_px(self, small: np.ndarray) -> float:
        """About how many pixels of ``small`` a large pyramid's height spans near the picture's centre."""
        h, w = small.shape[:2]
        centre = self.view.to_table(np.array([[w / 2, h / 2]]))[0]
        return self.view.px_per_mm(tuple(centre)) * Size.LARGE.height_mm

    def _tiny_area(self, small: np.ndarray) -> float:
        """Blobs under this many pixels are too small to be any piece, wherever they are in the picture."""
        h, w = small.shape[:2]
        spots = self.view.to_table(np.array([[w / 2, 0], [w / 2, h - 1], [0, h / 2], [w - 1, h / 2]]))
        return 0.3 * min(self.view.px_per_mm(tuple(p)) for p in spots) ** 2 * Size.SMALL.base_mm ** 2

    def _expected_area(self, at_mm, points) -> float:
        px = self.view.project(points(at_mm[0], at_mm[1], 0.0))
        return float(cv2.contourArea(cv2.convexHull(px.astype(np.float32))))

    def _read_blob(self, image, fg: Foreground, blob: Blob, out: PiecesReading, may_be_die: bool = True,
                   min_iou: float = MIN_IOU, in_pack: bool = False) -> bool:
        """Read one blob into ``out``: the piece whose outline fits it best, when it fits at least ``min_iou``.

        A blob may hold the edge of a card's print, which stands out where the card's border pales the
        background (:meth:`Foreground.print_round`: print whose colour goes on round the blob). When most of the
        blob is such print (``PRINT_SHARE``) and no piece fits it as closely as a pack's part must (``PART_IOU``),
        only what is left without it may be a piece, and the blob is not taken apart further; when a piece fits the
        blob, but not closely, it is read without the print when a piece then fits clearly better (by
        ``TRIM_GAIN``): a pyramid at the corner of a card's art, whose blob took in the art's edge and fitted a
        larger pyramid. (Not for a part of a pack, ``in_pack``: its neighbours, not all of which stood out, lie
        round it.)

        A blob a piece fits, but not closely, may also hold table beside its piece: between pieces standing close,
        the background median takes their colour, and the bare table there stands out. Without the pixels that
        look like the table round the blob (:meth:`Foreground.without_table`), it is read instead when a
        piece then fits it clearly better (by ``TRIM_GAIN``) and what was taken off lay partly beside the piece
        fitted to the whole blob (``TRIM_OUTSIDE``), not all within it (a white pyramid's own plastic).

        Returns whether the blob was mostly print."""
        fits = self._fit_blob(blob, may_be_die)
        if fits is None:
            return False
        mostly = False
        if not in_pack:
            printed = fg.print_round(blob.box, blob.mask)
            # (a piece fits print loosely, as it fits the parts print comes apart into: a blob that a piece fits
            # as closely as a pack's part must is that piece, though the median took in some of its plastic)
            mostly = bool(printed.sum() >= PRINT_SHARE * blob.area and fits[0][0] < PART_IOU)
            if mostly or (printed.sum() >= PRINT_SOME * blob.area and min_iou <= fits[0][0] < TRIM_GATE):
                better = self._without_print(fg, blob, printed, may_be_die)
                if better is not None and (mostly or better[1][0][0] >= fits[0][0] + TRIM_GAIN):
                    blob, fits = better
                elif mostly:
                    return True
        if min_iou <= fits[0][0] < TRIM_GATE:  # only a piece's fit is bettered: print cut down is never made one
            trimmed = fg.without_table(blob.box, blob.mask)
            if trimmed is not None and _outside_share(blob, trimmed, fits[0][3]) < TRIM_OUTSIDE:
                trimmed = None
            trimmed_fits = self._fit_blob(Blob(*trimmed), may_be_die) if trimmed is not None else None
            if trimmed_fits is not None and trimmed_fits[0][0] >= fits[0][0] + TRIM_GAIN:
                blob, fits = Blob(*trimmed), trimmed_fits
        self._read_fitted(image, fg, blob, fits, out, may_be_die, min_iou)
        return mostly

    def _grey_under(self, fg: Foreground, blob: Blob, fit: Fit, size: Size) -> tuple[Fit, Size] | None:
        """A larger pyramid under the one fitted to ``blob`` (``fit``, ``size``) whose plastic was taken for shadow:
        (its fit, its size), or None. Grey, white or clear plastic in shade has the table's chromaticity, like a
        shadow; but a shadow falls on one side of its caster, away from the light, while a larger pyramid's base rings
        the one on it on every side. So the blob with the shaded pixels joined to it is fitted with each larger
        pyramid, and one whose outline is ``GREY_RING`` shaded round the blob (what the blob does not cover), fitting
        at least ``MIN_IOU``, stands there."""
        if fg.shaded is None or size == Size.LARGE:
            return None
        best = None
        h, w = fg.mask.shape
        for larger in (s for s in Size if s > size):
            points = lambda x, y, a, s=larger: pyramid_points(x, y, a, s)  # noqa: E731
            outline = self.view.project(points(fit.x, fit.y, fit.angle))
            reach = 0.5 * float(np.ptp(outline, axis=0).max())
            x0, y0 = (max(int(v), 0) for v in outline.min(axis=0) - reach)
            x1, y1 = int(min(outline[:, 0].max() + reach, w)), int(min(outline[:, 1].max() + reach, h))
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            own = np.zeros((y1 - y0, x1 - x0), np.uint8)
            bx0, by0, bx1, by1 = blob.box
            cx0, cy0, cx1, cy1 = max(bx0, x0), max(by0, y0), min(bx1, x1), min(by1, y1)
            if cx1 <= cx0 or cy1 <= cy0:
                continue
            own[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] = blob.mask[cy0 - by0:cy1 - by0, cx0 - bx0:cx1 - bx0]
            shaded = fg.shaded[y0:y1, x0:x1] > 0
            _, labels = cv2.connectedComponents(((own > 0) | shaded).astype(np.uint8), connectivity=8)
            joined = np.isin(labels, np.unique(labels[own > 0]))
            if joined.sum() <= own.sum() * 1.2:
                continue
            grown = largest_part((x0, y0, x1, y1), joined)
            if grown is None:
                continue
            bigger = fit_outline(Blob(*grown), self.view, points)
            ring = outline_mask(bigger.outline_px.astype(np.float32), (x0, y0, x1, y1)).astype(bool)
            ring &= ~(cv2.dilate(own, np.ones((3, 3), np.uint8)) > 0)
            if ring.sum() < 4:
                continue
            cover = float(shaded[ring].mean())
            if cover >= GREY_RING and bigger.iou >= MIN_IOU and (best is None or bigger.iou > best[0].iou):
                best = (bigger, larger)
        return best

    def _without_print(self, fg: Foreground, blob: Blob, printed: np.ndarray, may_be_die: bool) -> tuple | None:
        """``blob`` without the print it took in (:meth:`Foreground.without_print`; ``printed``: the print found
        round it), or that part's part of one colour (:meth:`Foreground.colour_parts`, ``HUES`` of them: print of
        another colour inside the blob, such as a dot of the art the pyramid stands beside), whichever a piece fits
        best: (part, its fits), or None when nothing is left that a piece may fit."""
        rest = fg.without_print(blob.box, blob.mask, printed)
        if rest is None:
            return None
        best = None
        for part in [rest, *fg.colour_parts(*rest, hues=HUES)]:
            fits = self._fit_blob(Blob(*part), may_be_die)
            if fits is not None and (best is None or fits[0][0] > best[1][0][0]):
                best = (Blob(*part), fits)
        return best

    def _fit_blob(self, blob: Blob, may_be_die: bool) -> list[tuple[float, str, object, Fit]] | None:
        """Every piece's outline fitted to ``blob``, as (score, kind, what, fit), best first; None when the blob is
        too small or too large for any piece. (Kept for the frame: a pack's clusters are fitted again when the
        reader compares cuts.)"""
        key = (blob.box, blob.mask.tobytes(), may_be_die)
        if key not in self._fits_seen:
            self._fits_seen[key] = self._fit_blob_now(blob, may_be_die)
        return self._fits_seen[key]

    def _fit_blob_now(self, blob: Blob, may_be_die: bool) -> list[tuple[float, str, object, Fit]] | None:
        at = self.view.to_table(blob.centroid.reshape(1, 2))[0]
        smallest = self._expected_area(at, lambda x, y, a: pyramid_points(x, y, a, Size.SMALL))
        largest = self._expected_area(at, lambda x, y, a: pyramid_points(x, y, a, Size.LARGE))
        if not 0.35 * smallest <= blob.area <= 2.5 * largest:
            return None
        fits: list[tuple[float, str, object, Fit]] = []

        def fit(points, turns=TURNS, fitter=fit_outline, need: float = HOPELESS) -> Fit:
            # IoU is at most the ratio of the two areas: a solid whose IoU could not reach ``need`` is not fitted
            expected = self._expected_area(at, points)
            if min(expected, blob.area) < need * max(expected, blob.area):
                return Fit(float(at[0]), float(at[1]), 0.0, 0.0, self.view.project(points(at[0], at[1], 0.0)))
            return fitter(blob, self.view, points, turns)

        for size in Size:
            f = fit(lambda x, y, a, s=size: pyramid_points(x, y, a, s))
            fits.append((f.iou, "pyramid", size, f))
        if may_be_die and self.dice_in_play != 0:  # a die's fit decides nothing in a game without dice
            # a die's fit counts only from MIN_IOU, and only within 0.1 of the best pyramid's (below): a cube that
            # could not fit that well is not tried
            pyramids_count = self.pyramids_in_play or any(s.shape == "pyramid" for s in self.tokens.signatures)
            need = max(MIN_IOU, max(f[0] for f in fits) - 0.1) if pyramids_count else MIN_IOU
            for edge in DIE_EDGES_MM:
                f = fit(lambda x, y, a, e=edge: cube_points(x, y, a, e), need=need)
                fits.append((f.iou, "die", edge, f))
                # a white die on a pale table may show only its lit top face: its sides look like shadow
                f = fit(lambda x, y, a, e=edge: cube_points(x, y, a, e, top_only=True), need=need)
                fits.append((f.iou, "die", edge, f))
        for sig in self.tokens.shaped():
            f = fit(token_points(sig), turns=(0.0,))
            fits.append((f.iou, "token", sig, f))
        standing = max(f[0] for f in fits if f[1] == "pyramid")
        if self.lying_in_play and standing < LYING_GATE:
            # a pyramid on its side: a long outline, its tip one way (so every turn round the circle)
            for size in Size:
                f = fit(lambda x, y, a, s=size: lying_pyramid_points(x, y, a, s), LYING_TURNS, fit_turning)
                # a standing pyramid's outline with its shadow can look a little like one lying: a clear margin
                fits.append((f.iou - LYING_MARGIN, "lying", size, f))
        fits.sort(key=lambda item: -item[0])
        return fits

    def _read_fitted(self, image, fg: Foreground, blob: Blob, fits: list, out: PiecesReading, may_be_die: bool,
                     min_iou: float) -> None:
        """Read ``blob`` into ``out`` from its fits (:meth:`_fit_blob`)."""
        die_fit = next((f for f in fits if f[1] == "die"), (0.0, "die", None, None))
        others = [f for f in fits if f[1] != "die"]
        if not (self.pyramids_in_play or any(s.shape == "pyramid" for s in self.tokens.signatures)):
            others = [f for f in others if f[1] != "pyramid"]
        may_be_die = may_be_die and self.dice_in_play != 0
        if die_fit[0] >= MIN_IOU and may_be_die and (not others or die_fit[0] >= others[0][0] - 0.1):
            # seen from above a die and a pyramid have the same square outline: the pips decide
            found = dice.search_top_face(self._grey(image), self.camera, die_fit[3].x, die_fit[3].y, reach_mm=4.0)
            die = dice.sighting(found)
            if die is not None:
                out.dice.append(die)
                self._die_candidates.append((found.match, die, blob))
                return
        token_fits = [f for f in others if f[1] == "token"]
        if token_fits and token_fits[0][0] >= MIN_IOU:
            # a registered token's colour decides between it and a pyramid of about its outline
            token = self.tokens.identify(_body_colour(fg, token_fits[0][3]), {f[2].label: f[0] for f in token_fits},
                                         (token_fits[0][3].x, token_fits[0][3].y))
            if token is not None and token.confidence >= 0.5 and not _print(fg, blob):
                out.tokens.append(token)
                return
        if not others or others[0][0] < min_iou:
            return
        iou, kind, what, fit = others[0]
        if kind == "lying":
            sizes = sorted((f[3].iou for f in fits if f[1] == "lying"), reverse=True)
            lying = read_lying(fit, what, fg, self.palette, _size_confidence(sizes[0] - sizes[1], fit.iou))
            if self._in_play(lying):
                out.pyramids.append(lying)
        elif kind == "pyramid":
            sizes = sorted(((f[0], f[2]) for f in fits if f[1] == "pyramid"), reverse=True)
            size_conf = _size_confidence(sizes[0][0] - sizes[1][0], iou)
            alts = [(s, round(float(v / max(sizes[0][0], 1e-6)) * 0.5, 4)) for v, s in sizes[1:2] if v > MIN_IOU]
            grey = self._grey(image)

            def stack(fit, what, alts):
                full_fit = Fit(fit.x, fit.y, fit.angle, fit.iou, fit.outline_px)
                return read_stack(fit, what, self.view, fg, self.palette, size_conf, alts,
                                  pips_at=lambda top, h, lift: pip_dip(grey, full_fit, what, top, h, self.camera,
                                                                       lift_mm=lift))
            under = self._grey_under(fg, blob, fit, what)
            if under is not None:  # the pyramid fitted stands on a larger one of grey plastic, taken for shadow
                # (the blob alone: its size)
                sighting, features = stack(*under, [(what, round(float(iou / max(under[0].iou, iou)) * 0.5, 4))])
            if under is None or not self._in_play(sighting):
                # a larger pyramid of a plastic the game has not is no such pyramid: the ring round the blob is
                # shadow (Pungo trial 4: a medium raised on a small perched on another medium, its shadow all round)
                sighting, features = stack(fit, what, alts)
            out.bands.append(((fit.x, fit.y), int(what), features))
            token = self.tokens.pyramid_token("+".join(str(p) for p in sighting.stack))
            if token is not None:
                out.tokens.append(TokenSighting(token.label, sighting.center_mm, sighting.confidence))
            elif self._in_play(sighting):
                # (a stack with a colour the game has not is no reading: the blob's coloured parts are read instead,
                # such as a red small on a card whose blob took in the card's teal print, read as red under cyan)
                out.pyramids.append(sighting)
            elif len(sighting.stack) == 1:  # (a lone pyramid: a stack's plastic takes in the colours round it)
                # (by the box read: one trimmed first, of print or table, has a box of its own and is not read again)
                self._unplayed[blob.box] = sighting.stack[0].colour
        else:
            shape_fits = {f[2].label: f[0] for f in fits if f[1] == "token"}
            colour = _body_colour(fg, fit)
            token = self.tokens.identify(colour, shape_fits, (fit.x, fit.y))
            if token is not None and token.confidence >= MIN_TOKEN and not _print(fg, blob):  # below: like no token
                out.tokens.append(token)


def _blobs(labels: np.ndarray, stats: np.ndarray, least: float):
    """The connected components of ``labels`` (with OpenCV's ``stats``) of at least ``least`` pixels, as blobs."""
    for i in range(1, len(stats)):
        x0, y0, bw, bh, area = stats[i]
        if area >= least:
            yield Blob((int(x0), int(y0), int(x0 + bw), int(y0 + bh)),
                       (labels[y0:y0 + bh, x0:x0 + bw] == i).astype(np.uint8))


def _union_iou(part: Blob, fits: list[Fit]) -> float:
    """Intersection over union of ``part`` with the union of the outlines ``fits``."""
    px = np.vstack([f.outline_px for f in fits])
    x0, y0, x1, y1 = part.box
    X0, Y0 = (int(v) for v in np.minimum(np.floor(px.min(axis=0)), (x0, y0)))
    X1, Y1 = (int(v) for v in np.maximum(np.ceil(px.max(axis=0)) + 1, (x1, y1)))
    union = np.zeros((Y1 - Y0, X1 - X0), bool)
    for f in fits:
        union |= outline_mask(f.outline_px, (X0, Y0, X1, Y1)) > 0
    inside = np.zeros_like(union)
    inside[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = part.mask > 0
    return float((union & inside).sum() / max(int((union | inside).sum()), 1))


def _outside_share(blob: Blob, trimmed: tuple, fit: Fit) -> float:
    """The share of what trimming took off ``blob`` that lies outside the outline ``fit`` (of the whole blob)."""
    x0, y0, x1, y1 = blob.box
    kept = np.zeros_like(blob.mask)
    (tx0, ty0, tx1, ty1), part = trimmed
    kept[ty0 - y0:ty1 - y0, tx0 - x0:tx1 - x0] = part
    taken = (blob.mask > 0) & (kept == 0)
    inside = outline_mask(fit.outline_px, blob.box) > 0
    return float((taken & ~inside).sum() / max(int(taken.sum()), 1))


def _print(fg: Foreground, blob: Blob) -> bool:
    """Whether at least ``PRINT_SHARE`` of ``blob`` is print that goes on round it (:meth:`Foreground.print_round`):
    no token. A token's plastic has a colour of its own, whatever it stands on or beside; the edge of a card back's
    panel of the token's colour, where it meets the card's white border, stands out like a token and fits one."""
    return bool(fg.print_round(blob.box, blob.mask).sum() >= PRINT_SHARE * blob.area)


def _flat_print(fg: Foreground, fit: Fit, colour_lab) -> bool:
    """Whether what ``fit`` outlines, of a token's colour ``colour_lab``, is print: its colour goes on round it
    (``PRINT_ROUND`` of a ring past the blur; a card back's pattern round its emblem, a token's plastic stands on
    something else) and it does not stand out from the table (less than ``STANDS_OUT`` of it in the foreground: the
    median of a card's middle is the card's print, while a piece standing up stands out of what it stands on)."""
    if _colour_round(fg, fit, colour_lab) < PRINT_ROUND:
        return False
    px = fit.outline_px
    h, w = fg.mask.shape
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(px.max(axis=0)).astype(int) + 1, (w, h))
    inside = outline_mask(px, (int(x0), int(y0), int(x1), int(y1))) > 0
    return not inside.any() or float((fg.mask[y0:y1, x0:x1][inside] > 0).mean()) < STANDS_OUT


def _colour_round(fg: Foreground, fit: Fit, colour_lab, ring: tuple[int, int] = COLOUR_RING) -> float:
    """The share of a ring round the outline ``fit`` (from ``ring[0]`` to ``ring[1]`` pixels of the smaller
    frame out) that has the colour ``colour_lab`` (within ``COLOUR_GATE`` of the token reach)."""
    edge, far = ring
    h, w = fg.mask.shape
    px = fit.outline_px
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - far, 0)
    x1, y1 = np.minimum(np.ceil(px.max(axis=0)).astype(int) + far + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = outline_mask(px, (int(x0), int(y0), int(x1), int(y1)))
    outer = cv2.dilate(inside, np.ones((2 * far + 1,) * 2, np.uint8)) > 0
    near = cv2.dilate(inside, np.ones((2 * edge + 1,) * 2, np.uint8)) > 0
    around = outer & ~near
    if not around.any():
        return 0.0
    distance = tokens_module.colour_distance(fg.lab[y0:y1, x0:x1][around], colour_lab)
    return float((distance < COLOUR_GATE * tokens_module.REACH).mean())


def _size_confidence(margin: float, iou: float) -> float:
    """How sure a pyramid's size is: from how much better its outline fits than the next size's, and how well."""
    return float(np.clip(0.5 + margin * 5, 0.5, 1.0)) * float(np.clip((iou - 0.4) / 0.3, 0, 1))


def _body_colour(fg: Foreground, fit: Fit) -> np.ndarray:
    """Median Lab inside a fitted outline, shrunk away from its edge."""
    px = fit.outline_px
    h, w = fg.mask.shape
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(px.max(axis=0)).astype(int) + 1, (w, h))
    m = outline_mask(px, (int(x0), int(y0), int(x1), int(y1)))
    inner = cv2.erode(m, np.ones((5, 5), np.uint8))
    sel = (inner if inner.sum() > 10 else m).astype(bool)
    return np.median(fg.lab[y0:y1, x0:x1][sel], axis=0).astype(np.float32)


def read_pieces(image: np.ndarray, calibration: TableCalibration, tokens: TokenRegistry | None = None,
                palette: Palette | None = None) -> PiecesReading:
    """One frame's pyramids, dice and tokens (builds a :class:`PieceReader`; keep one for a stream of frames)."""
    return PieceReader(calibration, tokens, palette).read(image)
