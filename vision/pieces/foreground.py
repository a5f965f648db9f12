"""What stands out from the table: pixels that differ from their surroundings, and what the table looks like there.

Pieces are small next to the table, the mat and the cards, so a median over a window a few pieces
wide shows the picture without them (a median keeps straight edges, such as a card's, and drops
anything smaller than half its window). Pixels far from that background in Lab are foreground; a
shadow (darker, same hue as the table under it) is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CHROMA_BAR = 12.0  # a Lab (a, b) distance that sets a coloured part apart from the table (and from another part)
SHRINK = 2  # the background is estimated on a picture this many times smaller: the median is costly


@dataclass
class Foreground:
    lab: np.ndarray  # the frame in Lab (uint8, OpenCV scaling), full size
    background: np.ndarray  # the table without pieces, Lab, full size
    mask: np.ndarray  # uint8 0/255: things standing out
    illuminant: np.ndarray  # mean Lab of the brightest tenth of the table: the light's colour, roughly

    @classmethod
    def of(cls, image: np.ndarray, piece_px: float, threshold: float = 16.0) -> Foreground:
        """``piece_px``: about how many pixels the largest piece spans, which sets the median's window."""
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        small = cv2.resize(lab, (image.shape[1] // SHRINK, image.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
        k = int(np.clip(1.5 * piece_px / SHRINK, 5, 121)) | 1
        small_bg = cv2.medianBlur(small, k)
        background = cv2.resize(small_bg, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
        # a shadow dims the table but keeps its chromaticity (the share of blue, green and red)
        bgr_bg = cv2.cvtColor(background, cv2.COLOR_LAB2BGR).astype(np.float32) + 4
        bgr = image.astype(np.float32) + 4
        total, total_bg = bgr.sum(axis=2), bgr_bg.sum(axis=2)
        chroma = np.abs(bgr / total[..., None] - bgr_bg / total_bg[..., None]).sum(axis=2)
        ratio = total / total_bg
        diff = lab.astype(np.int16) - background.astype(np.int16)
        score = np.abs(diff[..., 0]) + 1.5 * (np.abs(diff[..., 1]) + np.abs(diff[..., 2]))
        shadow = (ratio > 0.45) & (ratio < 1.0) & (chroma < 0.06)
        # a patterned table (knit, wood grain) differs from its own median everywhere: raise the bar there
        score8 = np.clip(np.where(shadow, 0, score), 0, 255).astype(np.uint8)
        small_score = cv2.resize(score8, small.shape[1::-1], interpolation=cv2.INTER_AREA)
        texture = cv2.resize(cv2.medianBlur(small_score, k), score8.shape[1::-1], interpolation=cv2.INTER_LINEAR)
        bar = threshold + 2.0 * texture.astype(np.float32)
        # nothing on a table gets brighter in a shadow: a lit die or white plastic needs less of a difference
        lit = (ratio > 1.06) & (score > 0.5 * bar)
        mask = ((((score > bar) & ~shadow) | lit) * 255).astype(np.uint8)
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
        bright = small_bg.reshape(-1, 3)
        top = bright[bright[:, 0] >= np.percentile(bright[:, 0], 90)]
        return cls(lab, background, mask, top.mean(axis=0).astype(np.float32))

    def colour_parts(self, box: tuple[int, int, int, int], blob_mask: np.ndarray, min_area: int = 12) -> list:
        """The parts of a blob (``blob_mask`` 0/1 over ``box``) whose hue stands out from the table's: a
        coloured piece that merged with something grey (a mat's marker, a card's border, the paper's edge)
        comes apart from it. Each part is (box, mask) like the blob; none when nothing in it is coloured."""
        x0, y0, x1, y1 = box
        d = self.lab[y0:y1, x0:x1, 1:].astype(np.float32) - self.background[y0:y1, x0:x1, 1:].astype(np.float32)
        coloured = ((np.hypot(d[..., 0], d[..., 1]) > CHROMA_BAR) & (blob_mask > 0)).astype(np.uint8)
        coloured = cv2.morphologyEx(coloured, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(coloured, connectivity=8)
        parts, hues = [], []
        for i in range(1, n):
            px, py, pw, ph, area = stats[i]
            if area >= min_area:
                part = (labels[py:py + ph, px:px + pw] == i).astype(np.uint8)
                parts.append(((x0 + int(px), y0 + int(py), x0 + int(px + pw), y0 + int(py + ph)), part))
                hues.append(np.median(self.lab[y0:y1, x0:x1, 1:][labels == i], axis=0).astype(np.float32))
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

