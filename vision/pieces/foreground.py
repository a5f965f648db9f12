"""What stands out from the table: pixels that differ from their surroundings, and what the table looks like there.

Pieces are small next to the table, the mat and the cards, so a median over a window a few pieces
wide shows the picture without them (a median keeps straight edges, such as a card's, and drops
anything smaller than half its window). Pixels far from that background in Lab are foreground; a
shadow (darker, same hue as the table under it) is not, unless nothing standing out beside it could have cast it
(grey, white or clear plastic in shade looks like shadow too). What was left out as shadow is kept (``shaded``):
the reader looks there for a grey pyramid under a coloured one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CHROMA_BAR = 12.0  # a Lab (a, b) distance that sets a coloured part apart from the table (and from another part)
CORE = 0.6  # a blob's core: pixels at least this share of its CORE_PERCENTILE (a, b) distance from the table
CORE_PERCENTILE = 90
# a blob over this many times (a large pyramid's height in pixels) squared, two large bases, may be a pack
PACK_AREA = 0.6
# the median chroma (Lab a, b distance from grey) of saturated plastic: a blob at least this saturated may be a pack of
# pieces; not pale cards on a coloured table, nor card backs whose pattern is mixed with white (set on 2026-11-22,
# session 7, on the Deck Town demo, for the reader's valley cut: see vision.pieces.reader)
PACK_CHROMA = 26.0
ROOM_WIDE = 2.0  # pieces: the wider closing that finds the room inside a ring of things that stood out left open
PACKED_ALIKE = 20.0  # Lab distance (lightness counted half) within which a pixel has its neighbour pieces' colour
SHRINK = 2  # the background is estimated on a picture this many times smaller: the median is costly
# a shadow dims the table but keeps its chromaticity (the share of blue, green and red): at least SHADOW_DIM[0] and
# less than SHADOW_DIM[1] of the table's brightness, its shares of the three within SHADOW_SHARE of the table's
SHADOW_DIM = (0.45, 1.0)
SHADOW_SHARE = 0.06
# what stands out but looks like shadow (dimmer than the table, of its chromaticity) is a piece when nothing else
# standing out lies within CASTER_GAP of a large pyramid's height of it (nothing there to cast it), and it covers at
# least SHADED_PIECE of a small pyramid's base squared (session 12: grey and clear pyramids on grey tables)
CASTER_GAP = 0.1
SHADED_PIECE = 0.5
TABLE_LIKE = 10.0  # Lab distance (lightness counted half) within which a blob's pixel looks like the table round it
# where print that goes on past a blob is looked for round it (Foreground.print_round), in pixels of the half-size
# frame: from past the blob's blurred edge (half piece, half table) to this far (past a pyramid's shadow); and the
# share of that ring a pixel's colour must cover there to be print: the Deck Town demo's Mountain art's edge covered a
# quarter, the blurred tips of a large pyramid a close camera sees (opened away from its blob) a hundredth
# (2026-11-23, session 10)
PRINT_RING = (1, 4)
PRINT_SHARE_OF_RING = 0.1


@dataclass
class Foreground:
    lab: np.ndarray  # the frame in Lab (uint8, OpenCV scaling), full size
    background: np.ndarray  # the table without pieces, Lab, full size
    mask: np.ndarray  # uint8 0/255: things standing out
    illuminant: np.ndarray  # mean Lab of the brightest tenth of the table: the light's colour, roughly
    # uint8 0/255: what stands out but was left out as shadow (dimmer than the table, of its chromaticity), which grey
    # plastic also is; None when not known
    shaded: np.ndarray | None = None

    @classmethod
    def of(cls, image: np.ndarray, piece_px: float, threshold: float = 16.0) -> Foreground:
        """``piece_px``: about how many pixels the largest piece spans, which sets the median's window."""
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        small = cv2.resize(lab, (image.shape[1] // SHRINK, image.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
        k = int(np.clip(1.5 * piece_px / SHRINK, 5, 121)) | 1
        small_bg = cv2.medianBlur(small, k)
        mask, small_score, shaded = _stand_out(image, lab, small_bg, k, piece_px, threshold)
        bright = small_bg.reshape(-1, 3)
        top = bright[bright[:, 0] >= np.percentile(bright[:, 0], 90)]
        packed, small_bg = _packed_pieces(image, lab, small, small_bg, small_score, mask, k, piece_px, threshold)
        background = cv2.resize(small_bg, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
        return cls(lab, background, mask | packed, top.mean(axis=0).astype(np.float32), shaded & ~(mask | packed))

    def packed_parts(self, box: tuple[int, int, int, int], blob_mask: np.ndarray, min_area: int = 12) -> list:
        """The pieces of a blob of pieces packed close (a supply), as (box, mask) like the blob: each piece
        stands out from the table more than the narrow gaps between it and its neighbours, so the blob is
        cut where it stands out least (Otsu's split of its difference from the table), and each part that
        remains grows back to the blob's edge. One part or none: the blob is no pack of pieces. (A lone piece's
        blob can come apart too, along its shading: this is only for blobs no piece fits whole.)"""
        x0, y0, x1, y1 = box
        d = self.lab[y0:y1, x0:x1].astype(np.float32) - self.background[y0:y1, x0:x1].astype(np.float32)
        score = np.clip(np.abs(d[..., 0]) + 1.5 * (np.abs(d[..., 1]) + np.abs(d[..., 2])), 0, 255).astype(np.uint8)
        inside = blob_mask > 0
        if inside.sum() < 2 * min_area:
            return []
        bar, _ = cv2.threshold(score[inside].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        cores = cv2.erode(((score > bar) & inside).astype(np.uint8), np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=4)
        if n <= 2:
            return []
        # every pixel of the blob goes to the core it reaches first, climbing down the difference (watershed)
        markers = labels.astype(np.int32)
        markers[~inside] = -1
        grown = cv2.watershed(cv2.cvtColor(255 - score, cv2.COLOR_GRAY2BGR), markers.copy())
        parts = []
        for i in range(1, n):
            part = ((grown == i) & inside).astype(np.uint8)
            if stats[i, cv2.CC_STAT_AREA] >= 2 and part.sum() >= min_area:
                ys, xs = np.nonzero(part)
                px0, py0, px1, py1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
                parts.append(((x0 + int(px0), y0 + int(py0), x0 + int(px1), y0 + int(py1)), part[py0:py1, px0:px1]))
        return parts

    def table_round(self, box: tuple[int, int, int, int], blob_mask: np.ndarray, ring: int = 3) -> np.ndarray:
        """The table's colour just round a blob (``blob_mask`` 0/1 over ``box``): the median Lab of the pixels
        within ``ring`` of it that stand out from nothing. Inside a pack of pieces the background median has
        taken their colour; the table still shows round the pack."""
        x0, y0, x1, y1 = box
        h, w = self.mask.shape
        X0, Y0, X1, Y1 = max(x0 - ring, 0), max(y0 - ring, 0), min(x1 + ring, w), min(y1 + ring, h)
        blob = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
        blob[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = blob_mask
        near = cv2.dilate(blob, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)) > 0
        around = near & (self.mask[Y0:Y1, X0:X1] == 0)
        if around.sum() < 4:  # a blob walled in by others: whatever of the box is not the blob
            around = blob == 0
        return np.median(self.lab[Y0:Y1, X0:X1][around], axis=0).astype(np.float32)

    def without_table(self, box: tuple[int, int, int, int], blob_mask: np.ndarray) -> tuple | None:
        """The blob (``blob_mask`` 0/1 over ``box``) without its pixels that look like the table just round it
        (:meth:`table_round`, within ``TABLE_LIKE``): its largest part, holes filled, as (box, mask) like the blob.
        None when none of it looks like the table, or nothing is left.

        Between pieces standing close the background median takes their colour, so the bare table there stands
        out and joins the nearest piece's blob; the table round the blob still shows what the table looks like."""
        x0, y0, x1, y1 = box
        table = self.table_round(box, blob_mask)
        d = self.lab[y0:y1, x0:x1].astype(np.float32) - table
        alike = np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) < TABLE_LIKE
        inside = blob_mask > 0
        if not (alike & inside).any():
            return None
        return largest_part(box, inside & ~alike)

    def without_print(self, box: tuple[int, int, int, int], blob_mask: np.ndarray,
                      printed: np.ndarray | None = None) -> tuple | None:
        """The blob (``blob_mask`` 0/1 over ``box``) without the print round it that it took in
        (:meth:`print_round`, or ``printed`` when already found), and without its other pixels of that print's
        colours: its largest part, holes filled, as (box, mask) like the blob. None when it took in no print, or
        nothing is left. (A pyramid standing at the corner of a card's art joins the art's edge, which stands out
        there, into one blob that fits a larger pyramid.)"""
        printed = self.print_round(box, blob_mask) if printed is None else printed
        if not printed.any():
            return None
        # the print found round the blob goes on inside it, away from the ring: the blob's pixels of its colours
        x0, y0, x1, y1 = box
        weight = np.array([0.5, 1.0, 1.0], np.float32)
        lab = self.lab[y0:y1, x0:x1].astype(np.float32) * weight
        inside = blob_mask > 0
        ink = np.unique(np.round(lab[printed]), axis=0)
        alike = np.zeros(inside.shape, bool)
        alike[inside] = (((lab[inside][:, None, :] - ink[None, :, :]) ** 2).sum(-1) < TABLE_LIKE ** 2).any(axis=1)
        return largest_part(box, inside & ~(printed | alike))

    def _solid(self) -> np.ndarray:
        """The mask with every blob's holes filled (kept for the frame)."""
        solid = self.__dict__.get("_solid_mask")
        if solid is None:
            solid = self.mask.copy()
            contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(solid, contours, -1, 255, cv2.FILLED)
            self.__dict__["_solid_mask"] = solid
        return solid

    def print_round(self, box: tuple[int, int, int, int], blob_mask: np.ndarray) -> np.ndarray:
        """Which pixels of a blob (``blob_mask`` 0/1 over ``box``) are coloured print that goes on round it: the
        pixels whose colour is within ``TABLE_LIKE`` (Lab, lightness counted half) of a pixel just round the blob
        (``PRINT_RING``, past the blurred pixel at its edge) that stands out from nothing, and whose hue is more
        than ``CHROMA_BAR`` from the background's. A bool mask over ``box``.

        A card's art is smaller than the median's window, so where its panel meets the card's white border the
        background is paler than the print and the print's edge stands out; further in, the same print does not.
        A piece's plastic has a colour of its own: it is not found round it. (Grey or white plastic, or clear
        plastic showing the table, is never taken for print: its hue is the background's.)"""
        x0, y0, x1, y1 = box
        h, w = self.mask.shape
        inside = blob_mask > 0
        out = np.zeros(inside.shape, bool)
        coloured = inside & (self._chroma(box) > CHROMA_BAR)
        if not coloured.any():
            return out
        edge, far = PRINT_RING
        X0, Y0, X1, Y1 = max(x0 - far, 0), max(y0 - far, 0), min(x1 + far, w), min(y1 + far, h)
        blob = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
        blob[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = blob_mask
        outer = cv2.dilate(blob, np.ones((2 * far + 1,) * 2, np.uint8)) > 0
        blurred = cv2.dilate(blob, np.ones((2 * edge + 1,) * 2, np.uint8)) > 0
        # round it, outside everything that stands out, holes and all: a hole in a blob may be plastic that did not
        # stand out (the middle of a packed supply)
        ring = outer & ~blurred & (self._solid()[Y0:Y1, X0:X1] == 0)
        if not ring.any():
            return out
        weight = np.array([0.5, 1.0, 1.0], np.float32)
        # for each coloured pixel, the share of the ring round the blob that has its colour: worked out once per
        # colour on either side (a blob's thousands of pixels show some hundreds of colours; each pair was compared)
        ring_colours, ring_counts = _colours(self.lab[Y0:Y1, X0:X1][ring])
        colours, which = _colours(self.lab[y0:y1, x0:x1][coloured], inverse=True)
        alike = ((colours.astype(np.float32)[:, None, :] * weight - ring_colours.astype(np.float32)[None, :, :] * weight)
                 ** 2).sum(-1) < TABLE_LIKE ** 2
        share = (alike @ ring_counts) / ring_counts.sum()
        out[coloured] = share[which] >= PRINT_SHARE_OF_RING
        return out

    def colour_parts(self, box: tuple[int, int, int, int], blob_mask: np.ndarray, min_area: int = 12,
                     hues: int = 1) -> list:
        """The parts of a blob (``blob_mask`` 0/1 over ``box``) whose hue stands out from the table's: a
        coloured piece that merged with something grey (a mat's marker, a card's border, the paper's edge)
        comes apart from it. Each part is (box, mask) like the blob; none when nothing in it is coloured."""
        x0, y0, x1, y1 = box
        coloured = ((self._chroma(box) > CHROMA_BAR) & (blob_mask > 0)).astype(np.uint8)
        if hues > 1:
            coloured = _split_by_hue(self.lab[y0:y1, x0:x1, 1:], coloured, hues)
        coloured = _opened(coloured)
        labels, numbered = _parts(box, coloured, min_area)
        parts = [part for _, part in numbered]
        hues = [np.median(self.lab[y0:y1, x0:x1, 1:][labels == i], axis=0).astype(np.float32) for i, _ in numbered]
        # what the part merged with is grey beside it: the paper of a mat lying on a coloured table is
        # "coloured" against the table but has the hue of the marker's squares it touches
        rest = (blob_mask > 0) & (coloured == 0)
        if rest.sum() >= min_area:
            hues.append(np.median(self.lab[y0:y1, x0:x1, 1:][rest], axis=0).astype(np.float32))
        # a part with a twin of its hue in the same blob is print (a card back's pattern round its
        # emblem, a suit's pips), not a piece: only parts of a hue of their own are kept
        alone = [k for k in range(len(parts))
                 if all(np.hypot(*(hues[k] - hues[j])) > CHROMA_BAR for j in range(len(hues)) if j != k)]
        return [parts[k] for k in alone]

    def coloured_core(self, box: tuple[int, int, int, int], blob_mask: np.ndarray, min_area: int = 12) -> list:
        """The parts of a blob (``blob_mask`` 0/1 over ``box``) that stand out most in colour from the table: its
        pixels at least :data:`CORE` of the blob's :data:`CORE_PERCENTILE` in (a, b) distance from the background.
        A translucent pyramid casts a shadow of its own tint, less strong, and the blob of a small on a card takes
        it in with the card's print beside it; its core is the plastic. Each part is (box, mask) like the blob."""
        chroma, inside = self._chroma(box), blob_mask > 0
        if not inside.any():
            return []
        bar = max(CHROMA_BAR, CORE * float(np.percentile(chroma[inside], CORE_PERCENTILE)))
        return [part for _, part in _parts(box, _opened(((chroma >= bar) & inside).astype(np.uint8)), min_area)[1]]

    def _chroma(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """Each pixel's (a, b) distance from the background over ``box``: how far its colour stands out."""
        x0, y0, x1, y1 = box
        d = self.lab[y0:y1, x0:x1, 1:].astype(np.float32) - self.background[y0:y1, x0:x1, 1:].astype(np.float32)
        return np.hypot(d[..., 0], d[..., 1])


def _opened(keep: np.ndarray) -> np.ndarray:
    """``keep`` (0/1) without specks and threads under 2 px across."""
    return cv2.morphologyEx(keep, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))


def _parts(box: tuple[int, int, int, int], keep: np.ndarray, min_area: int) -> tuple[np.ndarray, list]:
    """``keep`` (0/1 over ``box``) taken apart: its labels over the box, and its parts of at least ``min_area``
    pixels as (label, (box, mask)) in the frame, like a blob."""
    x0, y0 = box[:2]
    _, labels, stats, _ = cv2.connectedComponentsWithStats(keep, connectivity=8)
    return labels, [(i, ((x0 + int(px), y0 + int(py), x0 + int(px + pw), y0 + int(py + ph)),
                         (labels[py:py + ph, px:px + pw] == i).astype(np.uint8)))
                    for i, (px, py, pw, ph, area) in enumerate(stats) if i and area >= min_area]


def _colours(pixels: np.ndarray, inverse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The distinct colours of ``pixels`` (N x 3, uint8), and how many pixels have each (or, with
    ``inverse``, which of them each pixel has)."""
    keys = (pixels[:, 0].astype(np.int32) << 16) | (pixels[:, 1].astype(np.int32) << 8) | pixels[:, 2]
    _, first, other = np.unique(keys, return_index=True, return_inverse=inverse, return_counts=not inverse)
    return pixels[first], other


def largest_part(box: tuple[int, int, int, int], keep: np.ndarray) -> tuple | None:
    """The largest part of ``keep`` (bool over ``box``) once opened, holes filled, as (box, mask); None if none."""
    x0, y0 = box[:2]
    rest = cv2.morphologyEx(keep.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    px, py, pw, ph = (int(v) for v in stats[i, :4])
    part = (labels[py:py + ph, px:px + pw] == i).astype(np.uint8)
    # a piece's own pixels that look like the table (a highlight on white plastic) stay: holes are filled
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(part, contours, -1, 1, cv2.FILLED)
    return (x0 + px, y0 + py, x0 + px + pw, y0 + py + ph), part


def shadow_of(bgr: np.ndarray, table_lab: np.ndarray) -> np.ndarray:
    """Which pixels of ``bgr`` (h x w x 3) are the table (``table_lab``, one Lab colour, OpenCV scaling) in shadow:
    dimmer than the table, with its chromaticity (``SHADOW_DIM``, ``SHADOW_SHARE``, as the foreground judges them)."""
    table = cv2.cvtColor(np.clip(np.round(table_lab), 0, 255).astype(np.uint8).reshape(1, 1, 3),
                         cv2.COLOR_LAB2BGR).reshape(3).astype(np.float32) + 4
    pixels = bgr.astype(np.float32) + 4
    total = pixels.sum(axis=-1)
    share = np.abs(pixels / total[..., None] - table / table.sum()).sum(axis=-1)
    ratio = total / table.sum()
    return (ratio > SHADOW_DIM[0]) & (ratio < SHADOW_DIM[1]) & (share < SHADOW_SHARE)


def _colour_groups(colours: np.ndarray, inside: np.ndarray, groups: int) -> np.ndarray | None:
    """The pixels ``inside`` (bool) grouped by ``colours`` (h x w x channels) into ``groups`` colours (k-means,
    seeded), groups less than ``CHROMA_BAR`` apart taken as one: a label per pixel (-1 outside), with the pixels
    where two groups meet cleared to -1. None when there are too few pixels."""
    if inside.sum() < 2 * groups:
        return None
    cv2.setRNGSeed(groups)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, found, centres = cv2.kmeans(colours[inside].astype(np.float32), groups, None, criteria, 3,
                                   cv2.KMEANS_PP_CENTERS)
    # groups closer than CHROMA_BAR are one colour: each takes the lowest label of its kind
    same = [min(j for j in range(groups) if np.linalg.norm(centres[i] - centres[j]) < CHROMA_BAR)
            for i in range(groups)]
    label = np.full(inside.shape, -1, np.float32)  # outside: lower than any group, for the largest round
    label[inside] = np.array(same, np.float32)[found.ravel()]
    square = np.ones((3, 3), np.uint8)
    # (a pixel is on an edge when the largest and the smallest group round it differ; outside counts for neither)
    edge = cv2.dilate(label, square) != cv2.erode(np.where(inside, label, groups).astype(np.float32), square)
    label[edge] = -1
    return label


def _split_by_hue(ab: np.ndarray, coloured: np.ndarray, hues: int) -> np.ndarray:
    """``coloured`` (0/1) without the pixels where two of its ``hues`` colours meet: its pixels grouped by their
    (a, b) (:func:`_colour_groups`), so that a yellow pyramid standing on a card's teal print comes apart from the
    print it touches."""
    label = _colour_groups(ab, coloured > 0, hues)
    return coloured if label is None else (label >= 0).astype(np.uint8)


def _packed_pieces(image, lab, small, small_bg, small_score, mask, k, piece_px, threshold):
    """Pieces packed close (a supply of pyramids) that the median took for the table: a 0/255 mask, and the
    background (``small_bg`` with the table filled in under them).

    Where pieces fill more than half the median's window, the median takes their colour and only a
    ring of them stands out. Under what stood out and inside the ring (what closing it over a piece
    and a half fills), the table is estimated again by filling it in from the table around. A pixel
    inside the ring is a piece when it stands out from that table *and* has the colour of the
    pieces that stood out beside it. Round a lone piece the closing adds nothing, and the colour
    condition keeps card art (which stands out from a table filled in from the card's border) to
    the patches already found."""
    h, w = small.shape[:2]
    found = (cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA) > 127).astype(np.uint8)
    if not found.any():
        return np.zeros_like(mask), small_bg
    grow = max(3, int(piece_px / SHRINK)) | 1
    enclosed = _enclosed(found, small, grow)
    # a ring with room for a piece inside adds a region at least half a piece wide (the gaps closed between
    # pieces in a row add only slivers): with none, nothing is packed
    _, _, added, _ = cv2.connectedComponentsWithStats((enclosed > found).astype(np.uint8), connectivity=8)
    rooms = added[1:][added[1:, cv2.CC_STAT_AREA] >= (grow // 2) ** 2]
    if not len(rooms):
        return np.zeros_like(mask), small_bg
    # the colour of what stood out nearby: a mean over the found pixels only
    weight = cv2.blur(found.astype(np.float32), (grow, grow))
    colour = cv2.blur(small.astype(np.float32) * found[..., None], (grow, grow)) / np.maximum(weight, 1e-3)[..., None]
    # pieces were missed because the median took their colour: where the median has the colour of what stood out
    # nearby
    d = small_bg.astype(np.float32) - colour
    taken = (np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) < PACKED_ALIKE).astype(np.uint8)
    # the rest is worked out only round each room (rooms close together at once): what is added lies in them,
    # the table under them is filled in from a piece round them, and the texture is a median over a window
    margin = grow + k // 2 + 4
    packed = np.zeros_like(mask)
    whole = np.zeros_like(mask)  # the same, not cut between the things that stood out
    table = small_bg.copy()
    for x0, y0, x1, y1 in _merged_boxes(rooms, margin, w, h):
        small_roi, roi = np.s_[y0:y1, x0:x1], np.s_[y0 * SHRINK:y1 * SHRINK, x0 * SHRINK:x1 * SHRINK]
        packed[roi], table[small_roi], whole[roi] = _packed_round(
            image[roi], lab[roi], small_bg[small_roi], small_score[small_roi], mask[roi], found[small_roi],
            enclosed[small_roi], colour[small_roi], taken[small_roi], grow, k, piece_px, threshold)
    # only where it makes a blob of more than two large pyramids: a lone piece's blob is left as it was
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask | packed, connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] > PACK_AREA * piece_px ** 2
    big[0] = False
    keep = big[labels]
    # ... or where, with what was added before it was cut, it makes one of saturated plastic (PACK_CHROMA): a pack
    # seen from above shows the gaps round its outer pieces, each of which stood out as a blob of its own, and what
    # was added between them was cut into parts too small to keep (a card's art that came apart so is paler, as is a
    # card on a coloured table)
    n, whole_labels, stats, _ = cv2.connectedComponentsWithStats(mask | whole, connectivity=8)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] > PACK_AREA * piece_px ** 2:
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            part = whole_labels[y:y + bh, x:x + bw] == i
            ab = lab[y:y + bh, x:x + bw, 1:][part & (mask[y:y + bh, x:x + bw] > 0)].astype(np.float32) - 128.0
            if len(ab) and np.median(np.hypot(ab[:, 0], ab[:, 1])) >= PACK_CHROMA:
                keep[y:y + bh, x:x + bw] |= part
    packed[~keep] = 0
    # the table under pieces found this way is the filled-in one (the median there has the pieces' colour)
    under = cv2.resize(packed, (w, h), interpolation=cv2.INTER_AREA) > 0
    return packed, np.where(under[..., None], table, small_bg)


def _enclosed(found: np.ndarray, small: np.ndarray, grow: int) -> np.ndarray:
    """``found`` (0/1, of ``small``: Lab) with the inside of each ring of things that stood out, as 0/1: what closing
    it over a piece and a half adds (nothing round a lone piece). A supply close to the table's colour shows only
    some of its outer pieces and the ring they make is open: closing its saturated plastic (``PACK_CHROMA``) over
    ``ROOM_WIDE`` pieces also adds what lies beyond that where at least half a piece wide (closing wider everywhere
    moved the rooms of supplies the narrow closing finds whole, and joined the mat's markers and edge to a token
    beside them)."""
    def closed(ring, width):
        size = int(width * grow) | 1
        return cv2.morphologyEx(ring, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))

    enclosed = closed(found, 1.5)
    ab = small[..., 1:].astype(np.float32) - 128.0
    saturated = found & (np.hypot(ab[..., 0], ab[..., 1]) >= PACK_CHROMA).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(closed(saturated, ROOM_WIDE) & ~enclosed, connectivity=8)
    room = stats[:, cv2.CC_STAT_AREA] >= (grow // 2) ** 2
    room[0] = False
    return enclosed | room[labels].astype(np.uint8)


def _merged_boxes(stats: np.ndarray, margin: int, w: int, h: int) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1) of connected components (their ``stats`` rows) grown by ``margin`` and
    kept within w x h, those that overlap merged into one."""
    boxes = [(max(x - margin, 0), max(y - margin, 0), min(x + bw + margin, w), min(y + bh + margin, h))
             for x, y, bw, bh in stats[:, :4].tolist()]
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def _packed_round(image, lab, small_bg, small_score, mask, found, enclosed, colour, taken, grow, k, piece_px,
                  threshold):
    """:func:`_packed_pieces` in one box round a ring: the pixels of pieces packed inside it (0/255, the size of
    ``image``), the table filled in under what stood out there (Lab, the size of ``small_bg``), and the same pixels
    before they were cut between the things that stood out apart. ``colour``: the colour of what stood out nearby;
    ``taken``: where the median has it."""
    covered = cv2.dilate(found, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))) | enclosed
    table = cv2.inpaint(small_bg, covered, 3, cv2.INPAINT_TELEA)
    texture = cv2.inpaint(small_score, covered, 3, cv2.INPAINT_TELEA)
    again, _, _ = _stand_out(image, lab, table, k, piece_px, threshold, texture)
    size = image.shape[1::-1]
    colour = cv2.resize(colour, size, interpolation=cv2.INTER_LINEAR)
    d = lab.astype(np.float32) - colour
    alike = np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) < PACKED_ALIKE
    alike &= cv2.resize(taken, size, interpolation=cv2.INTER_NEAREST) > 0
    near = cv2.resize(enclosed, size, interpolation=cv2.INTER_NEAREST) > 0
    packed = np.where(near & alike, again, 0).astype(np.uint8)
    whole = packed.copy()
    # what is added never joins two things that stood out apart (a row of pieces, each its own blob): it is
    # cut where the nearest of them changes
    _, nearest = cv2.distanceTransformWithLabels(np.where(mask > 0, 0, 255).astype(np.uint8), cv2.DIST_L2, 3,
                                                 labelType=cv2.DIST_LABEL_CCOMP)
    nearest = nearest.astype(np.float32)
    square = np.ones((3, 3), np.uint8)
    packed[(cv2.dilate(nearest, square) != cv2.erode(nearest, square)) & (mask == 0)] = 0
    return packed, table, whole


_SUM = np.ones((1, 3), np.float32)
_SCORE = np.array([[1.0, 1.5, 1.5]], np.float32)  # |dL| + 1.5 (|da| + |db|)


def _uncast(mask: np.ndarray, shaded: np.ndarray, piece_px: float) -> np.ndarray:
    """What of ``shaded`` (bool: pixels that stand out but are dimmer than the table, of its chromaticity) cannot be
    a shadow, as a 0/255 mask: its parts of at least a small pyramid's base (``SHADED_PIECE`` of it) with nothing
    standing out beside them (within ``CASTER_GAP`` of ``piece_px``). A shadow is cast by something standing on the
    table beside it; grey or white plastic, and clear plastic over a grey table, dimmed by shading, has the table's
    chromaticity too, and alone stands out only so. (A grey piece's own shadow, touching it, goes with it.)"""
    if not shaded.any():
        return np.zeros_like(mask)
    gap = max(3, int(round(CASTER_GAP * piece_px))) | 1
    near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gap, gap))) > 0
    parts = cv2.morphologyEx(shaded.astype(np.uint8), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                                                 (3, 3)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(parts, connectivity=8)
    if n < 2:
        return np.zeros_like(mask)
    cast = np.zeros(n, bool)
    cast[np.unique(labels[near & (parts > 0)])] = True
    small_base = (SHADED_PIECE * piece_px * 14.3 / 44.5) ** 2  # (a small pyramid's base against a large's height)
    keep = ~cast & (stats[:, cv2.CC_STAT_AREA] >= small_base)
    keep[0] = False
    return (keep[labels] * 255).astype(np.uint8)


def _stand_out(image: np.ndarray, lab: np.ndarray, small_bg: np.ndarray, k: int, piece_px: float,
               threshold: float, small_texture: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 0/255 mask of pixels of ``image`` (BGR; ``lab`` its Lab) that stand out from the background
    ``small_bg`` (Lab, SHRINK times smaller): not a shadow, above the table's own texture, solid. Also the
    difference score, SHRINK times smaller, from which the texture is measured (``small_texture``: a
    texture score to use instead), and the 0/255 mask of what stands out but was taken for shadow."""
    background = cv2.resize(small_bg, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    # a shadow dims the table but keeps its chromaticity (the share of blue, green and red)
    # (sums over the three channels by cv2.transform, and OpenCV's division: numpy's are slower, for the same bits)
    bgr_bg = cv2.cvtColor(background, cv2.COLOR_LAB2BGR).astype(np.float32) + 4
    bgr = image.astype(np.float32) + 4
    total, total_bg = cv2.transform(bgr, _SUM), cv2.transform(bgr_bg, _SUM)
    share = cv2.subtract(cv2.divide(bgr, cv2.merge([total] * 3)), cv2.divide(bgr_bg, cv2.merge([total_bg] * 3)))
    chroma = cv2.transform(np.abs(share), _SUM)
    ratio = total / total_bg
    score = cv2.transform(cv2.absdiff(lab, background).astype(np.float32), _SCORE)
    shadow = (ratio > SHADOW_DIM[0]) & (ratio < SHADOW_DIM[1]) & (chroma < SHADOW_SHARE)
    # a patterned table (knit, wood grain) differs from its own median everywhere: raise the bar there
    score8 = np.clip(np.where(shadow, 0, score), 0, 255).astype(np.uint8)
    small_score = cv2.resize(score8, small_bg.shape[1::-1], interpolation=cv2.INTER_AREA)
    source = small_score if small_texture is None else small_texture
    texture = cv2.resize(cv2.medianBlur(source, k), score8.shape[1::-1], interpolation=cv2.INTER_LINEAR)
    bar = threshold + 2.0 * texture.astype(np.float32)
    # nothing on a table gets brighter in a shadow: a lit die or white plastic needs less of a difference
    lit = (ratio > 1.06) & (score > 0.5 * bar)
    mask = ((((score > bar) & ~shadow) | lit) * 255).astype(np.uint8)
    shaded = (score > bar) & shadow
    mask |= _uncast(mask, shaded, piece_px)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    # a piece is solid; a card's white border or a mat's line is a thin band: open away what is thinner than
    # half the smallest pyramid's base
    thin = max(3, int(piece_px * 0.5 * 14.3 / 44.5)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (thin, thin)))
    # a blob's holes (a die's pips, a pyramid's dark pips) belong to it
    # (only holes smaller than a piece: a ring of card borders round a heap is not a piece)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        holes = [c for c, h in zip(contours, hierarchy[0])
                 if h[3] >= 0 and cv2.contourArea(c) < (0.5 * piece_px) ** 2]
        cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
    return mask, small_score, (shaded * 255).astype(np.uint8)
