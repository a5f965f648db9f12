"""Packs of pieces: a player's supply of pyramids beside the board, touching, read one piece at a time.

Pieces packed close merge into one blob of foreground that no single outline fits.
:meth:`Foreground.packed_parts` cuts such a blob where it stands out least (the gaps between
pieces); the reader (:meth:`vision.pieces.reader.PieceReader._read_pack`) reads each part and
uses the helpers here:

* :func:`holes_filled` first gives the blob back the pieces the foreground lost in its middle.
  Where pieces fill the background median's window, the median takes their colour, and the middle
  piece of a column of three stands out from nothing. The hole it leaves does not show the table,
  unlike a real gap, so a hole whose colour is not the table's round the blob is a piece.
* :func:`clusters` takes apart a part that no piece fits: two or more pieces touching with no gap
  seen between them (from a camera at an angle, a pyramid's tip lies over the one behind it).
  Its pixels are grouped by position into k compact clusters, for each k the part has room for.
  :func:`cut_edge` says whether the lines between clusters follow an edge of the picture, as
  between pieces that touch, or cut across print (a card back's pattern).
* :func:`valley_parts` cuts a pack on the full-size frame instead, where the gaps between pieces, a pixel or
  two wide, still show as narrow valleys of its difference from the table; :func:`chroma` says whether a blob is
  saturated plastic, the only kind cut so (pale cards and card backs have valleys in their print too).
* :func:`hue_apart` tells a piece standing on print (a pyramid on a card) from the print itself:
  a piece has a colour of its own, print cut into parts has the colour of the rest of the print.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.pieces.fitting import Blob
from vision.pieces.foreground import CHROMA_BAR, Foreground, shadow_of

MAX_CLUSTERS = 6  # a part of a pack is taken apart into at most this many pieces
SLIVER = 6  # a cluster of fewer pixels is a scrap of an edge, not a piece
# the lines between clusters must change lightness at least this many times as much as the part's inside
# (chosen on the Deck Town demo, see models/pieces/README.md)
CUT_EDGE = 1.0
# valley_parts: a pixel of a pack is a piece's when it differs from the table by more than PACK_BODY of the pack's
# median difference, and lies in no valley deeper than VALLEY of it (the narrow gaps between pieces are valleys of
# the difference). Chosen on 2026-11-22, session 7, on the Deck Town demo's 23 shots (of 414 pyramids read right:
# PACK_BODY 0.3 / 0.4 / 0.5 gave 297 / 306 / 303, VALLEY 0.1 / 0.15 / 0.25 gave 309 / 306 / 306)
PACK_BODY = 0.4
VALLEY = 0.15
# blobs of one saturated colour this far apart or less are one pack: the gap the foreground leaves where it loses a
# pack's middle (a whole row of a supply, at times). Chosen on 2026-11-23, session 9, on the Deck Town demo's 23
# shots: pyramid recall 0.78 unjoined; joined within 4 / 6 / 8 / 12 mm, 0.79 / 0.81 / 0.86 / 0.87; with the
# session's other changes, 8 / 12 / 16 / 25 mm gave 363 / 366 / 364 / 351 of 414 (precision 0.88 / 0.89 / 0.88 /
# 0.83): under half a large pyramid's base, and the supplies' rows are 30 mm apart
JOIN_GAP_MM = 12.0


def holes_filled(fg: Foreground, blob: Blob) -> Blob:
    """``blob`` with its holes filled, those whose colour is not the table's round the blob (the median took
    a piece's colour there): more than ``CHROMA_BAR`` away in Lab, lightness counted half (a hole in the shade
    between pieces is darker table, not a piece)."""
    mask = blob.mask.astype(np.uint8)
    outside = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, None, (0, 0), 1)
    holes = (outside[1:-1, 1:-1] == 0).astype(np.uint8)
    if not holes.any():
        return blob
    table = fg.table_round(blob.box, blob.mask)
    x0, y0, x1, y1 = blob.box
    lab = fg.lab[y0:y1, x0:x1].astype(np.float32)
    n, labels = cv2.connectedComponents(holes, connectivity=4)
    filled = mask.copy()
    for i in range(1, n):
        inside = labels == i
        d = np.median(lab[inside], axis=0) - table
        if np.hypot(0.5 * d[0], np.hypot(d[1], d[2])) > CHROMA_BAR:
            filled[inside] = 1
    return Blob(blob.box, filled)


def chroma(fg: Foreground, blob: Blob) -> float:
    """The median chroma (Lab a, b distance from grey) of ``blob``'s pixels: how saturated it is."""
    x0, y0, x1, y1 = blob.box
    ab = fg.lab[y0:y1, x0:x1, 1:][blob.mask > 0].astype(np.float32) - 128.0
    return float(np.median(np.hypot(ab[:, 0], ab[:, 1]))) if len(ab) else 0.0


def clusters(blob: Blob, k: int) -> list[Blob]:
    """``blob``'s pixels in ``k`` compact groups by position (k-means, seeded for the same answer every time),
    each as a blob; groups of fewer than ``SLIVER`` pixels are left out."""
    ys, xs = np.nonzero(blob.mask)
    if len(xs) < k:
        return []
    cv2.setRNGSeed(k)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(np.column_stack([xs, ys]).astype(np.float32), k, None, criteria, 3,
                              cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    out = []
    for c in range(k):
        cx, cy = xs[labels == c], ys[labels == c]
        if len(cx) < SLIVER:
            continue
        mask = np.zeros((cy.max() - cy.min() + 1, cx.max() - cx.min() + 1), np.uint8)
        mask[cy - cy.min(), cx - cx.min()] = 1
        x0, y0 = blob.box[0] + int(cx.min()), blob.box[1] + int(cy.min())
        out.append(Blob((x0, y0, x0 + mask.shape[1], y0 + mask.shape[0]), mask))
    return out


def hue_apart(fg: Foreground, blob: Blob, parts: list[Blob]) -> list[bool]:
    """For each of ``parts`` (blobs within ``blob``), whether its hue (median Lab a, b) lies more than
    ``CHROMA_BAR`` from the hue of the rest of ``blob``: a piece standing on a card has a colour of its own,
    print cut into parts has the colour of the print round it."""
    x0, y0, x1, y1 = blob.box
    rest = blob.mask > 0
    for part in parts:
        px0, py0, px1, py1 = part.box
        rest[py0 - y0:py1 - y0, px0 - x0:px1 - x0] &= part.mask == 0
    if not rest.any():
        return [False] * len(parts)
    rest_hue = np.median(fg.lab[y0:y1, x0:x1, 1:][rest], axis=0).astype(np.float32)
    apart = []
    for part in parts:
        px0, py0, px1, py1 = part.box
        hue = np.median(fg.lab[py0:py1, px0:px1, 1:][part.mask > 0], axis=0).astype(np.float32)
        apart.append(bool(np.hypot(*(hue - rest_hue)) > CHROMA_BAR))
    return apart


def cut_edge(fg: Foreground, blob: Blob, parts: list[Blob]) -> float:
    """How much more the picture's lightness changes along the lines between ``parts`` (clusters of ``blob``)
    than inside them: pieces touching meet at an edge, print cut up is cut across its pattern."""
    x0, y0, x1, y1 = blob.box
    labels = np.zeros(blob.mask.shape, np.float32)
    for k, part in enumerate(parts, 1):
        px0, py0, px1, py1 = part.box
        labels[py0 - y0:py1 - y0, px0 - x0:px1 - x0][part.mask > 0] = k
    inside = labels > 0
    square = np.ones((3, 3), np.uint8)
    # where the cluster a pixel or its neighbour belongs to changes (outside the blob counts as no change)
    line = (cv2.dilate(labels, square) != cv2.erode(np.where(inside, labels, 255).astype(np.float32), square)) & inside
    line &= cv2.erode(blob.mask.astype(np.uint8), square) > 0  # not the blob's own edge
    grey = fg.lab[y0:y1, x0:x1, 0].astype(np.float32)
    grad = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    grad = cv2.dilate(grad, square)  # the cut lies a pixel or so off the edge
    core = inside & ~line & (cv2.erode(blob.mask.astype(np.uint8), square) > 0)
    if not line.any() or not core.any():
        return 0.0
    return float(grad[line].mean() / max(grad[core].mean(), 1e-3))


def valley_parts(image: np.ndarray, fg: Foreground, blob: Blob, scale: int, piece_px: float) -> list[Blob]:
    """A pack's pieces cut at its gaps on the full-size frame (``image``, BGR; ``blob`` and the parts returned are
    on the frame ``scale`` times smaller that ``fg`` holds, where a large pyramid spans ``piece_px``).

    Each pixel's difference from the table round the pack (Lab, lightness counted half) is high on the pieces
    and drops in the gaps between them, which are a pixel or two wide in the full-size frame and blur away in
    the smaller one. The gaps are the narrow valleys of that difference: what a closing over a sixth of a large
    pyramid fills in. What is left of the pack (its convex hull: the background median may have lost its middle)
    apart from the valleys falls into one core per piece, and each core grows back over the pack (watershed), but
    not over the pieces' shadows (the table darker, of its chromaticity: :func:`foreground.shadow_of`).
    Pieces touching with no gap between them (a column of larges, the tip of one over the base of the next) stay
    one part; a pack with no valley at all is one part. Nothing when nothing of the pack stands out."""
    table = fg.table_round(blob.box, blob.mask)
    x0, y0, x1, y1 = blob.box
    pad = 2
    hull = np.zeros((y1 - y0 + 2 * pad, x1 - x0 + 2 * pad), np.uint8)
    contours, _ = cv2.findContours(blob.mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=(pad, pad))
    cv2.fillPoly(hull, [cv2.convexHull(np.vstack(contours))], 1)
    X0, Y0 = (x0 - pad) * scale, (y0 - pad) * scale
    H, W = image.shape[:2]
    region = cv2.resize(hull, (hull.shape[1] * scale, hull.shape[0] * scale), interpolation=cv2.INTER_NEAREST)
    # the part of the padded box that lies within the frame
    cx0, cy0 = max(X0, 0), max(Y0, 0)
    cx1, cy1 = min(X0 + region.shape[1], W), min(Y0 + region.shape[0], H)
    region = region[cy0 - Y0:cy1 - Y0, cx0 - X0:cx1 - X0]
    lab = cv2.cvtColor(image[cy0:cy1, cx0:cx1], cv2.COLOR_BGR2LAB).astype(np.float32) - table
    diff = cv2.GaussianBlur(np.sqrt((0.5 * lab[..., 0]) ** 2 + lab[..., 1] ** 2 + lab[..., 2] ** 2), (3, 3), 0)
    # the pieces' shadows on the table are no part of them: a camera looking down sees them beside every piece
    inside = (region > 0) & ~shadow_of(image[cy0:cy1, cx0:cx1], table)
    if inside.sum() < 16:
        return []
    typical = float(np.median(diff[inside]))
    k = max(3, int(piece_px * scale / 6)) | 1
    valley = cv2.morphologyEx(diff, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) - diff
    body = inside & (diff > PACK_BODY * typical)
    cores = cv2.erode((body & (valley < VALLEY * typical)).astype(np.uint8), np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(cores, connectivity=4)
    if n < 2:  # no core
        return []
    markers = labels.astype(np.int32)
    markers[~body] = -1
    elevation = np.clip(valley * (255.0 / max(typical, 1e-3)), 0, 255).astype(np.uint8)
    grown = cv2.watershed(cv2.cvtColor(elevation, cv2.COLOR_GRAY2BGR), markers)
    parts = []
    for i in range(1, n):
        full = ((grown == i) & body).astype(np.uint8)
        ys, xs = np.nonzero(full)
        if len(xs) < 4 * scale * scale:
            continue
        # back onto the smaller frame: a pixel there is the part's when most of it is
        fx0, fy0 = (cx0 + xs.min()) // scale, (cy0 + ys.min()) // scale
        fx1, fy1 = (cx0 + xs.max()) // scale + 1, (cy0 + ys.max()) // scale + 1
        canvas = np.zeros(((fy1 - fy0) * scale, (fx1 - fx0) * scale), np.uint8)
        canvas[cy0 + ys - fy0 * scale, cx0 + xs - fx0 * scale] = 1
        small = cv2.resize(canvas.astype(np.float32), (fx1 - fx0, fy1 - fy0), interpolation=cv2.INTER_AREA) >= 0.5
        if small.sum() >= 4:
            parts.append(Blob((int(fx0), int(fy0), int(fx1), int(fy1)), small.astype(np.uint8)))
    return parts


def pack_blobs_joined(fg: Foreground, mask: np.ndarray, min_chroma: float,
                      gap: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The blobs of ``mask`` (0/255, the smaller frame) as connected components, ``(count, labels, stats)`` like
    ``cv2.connectedComponentsWithStats`` (stats rows: x, y, width, height, area), but with blobs of saturated
    plastic (median chroma at least ``min_chroma``) of one hue (within ``CHROMA_BAR``) that lie within ``gap``
    pixels of each other made one (``JOIN_GAP_MM``).

    Inside a pack the background median takes the pieces' colour, and the pixels found again there
    (:func:`vision.pieces.foreground._packed_pieces`) are cut where the nearest blob that stood out changes:
    a piece in the pack's middle can end up half in one blob and half in the next, and neither half fits it
    (the middle medium of a yellow supply on a light table, in the Deck Town demo). Made one blob, the pack is
    cut again at its own gaps (:func:`valley_parts`). Pieces of different colours standing close stay apart."""
    n, labels, boxes, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 3:
        return n, labels, boxes
    ab = fg.lab[..., 1:].astype(np.float32) - 128.0
    hues, saturated = {}, np.zeros(n, bool)
    for i in range(1, n):
        x, y, w, h = boxes[i, :4]
        px = ab[y:y + h, x:x + w][labels[y:y + h, x:x + w] == i]
        hue = np.median(px, axis=0)
        if np.median(np.hypot(px[:, 0], px[:, 1])) >= min_chroma:
            saturated[i], hues[i] = True, hue
    if saturated.sum() < 2:
        return n, labels, boxes
    # which saturated blobs come within ``gap`` of each other: those that one dilated blob's ring touches
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))
    for i in np.flatnonzero(saturated):
        x, y, w, h = boxes[i, :4]
        X0, Y0 = max(x - gap, 0), max(y - gap, 0)
        X1, Y1 = min(x + w + gap, mask.shape[1]), min(y + h + gap, mask.shape[0])
        near = labels[Y0:Y1, X0:X1]
        grown = cv2.dilate((near == i).astype(np.uint8), ring) > 0
        for j in np.unique(near[grown]):
            if j > i and saturated[j] and np.hypot(*(hues[i] - hues[j])) <= CHROMA_BAR:
                parent[root(j)] = root(i)
    roots = np.array([root(i) for i in range(n)])
    if (roots == np.arange(n)).all():
        return n, labels, boxes
    _, relabel = np.unique(roots, return_inverse=True)  # background (0) stays 0: it is its own root, the least
    count = int(relabel.max()) + 1
    # each joined blob's box spans its parts' boxes, and its area is theirs together
    x0 = np.full(count, np.iinfo(np.int32).max, np.int64)
    y0 = x0.copy()
    x1 = np.zeros(count, np.int64)
    y1 = x1.copy()
    np.minimum.at(x0, relabel, boxes[:, 0])
    np.minimum.at(y0, relabel, boxes[:, 1])
    np.maximum.at(x1, relabel, boxes[:, 0] + boxes[:, 2])
    np.maximum.at(y1, relabel, boxes[:, 1] + boxes[:, 3])
    area = np.bincount(relabel, weights=boxes[:, 4], minlength=count).astype(np.int64)
    stats = np.column_stack([x0, y0, x1 - x0, y1 - y0, area])
    return count, relabel[labels].astype(np.int32), stats
