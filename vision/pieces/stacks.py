"""Read a standing pyramid stack: its bottom size from the outline, then what stands on it from colour bands.

A tree (a smaller pyramid perched on a larger one's tip) has the outline of its bottom pyramid:
the perched one sits exactly where the bottom narrows to its base width and shares its slopes.
So the outline gives the bottom size, and the stack is read by cutting that outline at the heights
where a perched medium (9.8 mm up a large) or small (19.4 mm up a large, 9.7 mm up a medium)
would begin, and naming the colour of each band: where the colour changes, a new pyramid begins.
A pyramid perched on one of its own colour (a same-colour tree) shows no change of colour: it is
read where :mod:`vision.pieces.perches` sees its own pips across the faces below (higher up a large
when it rides on a small hidden inside it), and otherwise the stack reads as its bottom pyramid. A
nest shows only its outer pyramid: the camera cannot see inside, the referee remembers. Clear plastic perched on a
coloured pyramid shows that colour washed out (lighter, of its hue, with less of its chroma): such a band is read
clear (:func:`_washed`), whatever the colour table, which learned clear plastic over tables, says.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy as np

from referee.pyramids import Pyramid, Size, Stack
from referee.snapshot import Alternative, PyramidSighting
from vision.pieces.camera import TableCamera
from vision.pieces.fitting import Fit
from vision.pieces.foreground import Foreground
from vision.pieces.palette import Palette
from vision.pieces.solids import outline_mask, pyramid_points

UNKNOWN = "unknown"  # the colour reported for plastic like none the palette knows


def perch_height(below: Size, above: Size) -> float:
    """How far up ``below`` a smaller ``above`` rests: where ``below`` is as wide as ``above``'s base."""
    return below.height_mm * (1 - above.base_mm / below.base_mm)


def band_cuts(bottom: Size) -> list[float]:
    """Heights above the table where the bands of a stack with this bottom begin."""
    if bottom == Size.LARGE:
        return [0.0, perch_height(Size.LARGE, Size.MEDIUM), perch_height(Size.LARGE, Size.SMALL)]
    if bottom == Size.MEDIUM:
        return [0.0, perch_height(Size.MEDIUM, Size.SMALL)]
    return [0.0]


def band_features(fit: Fit, bottom: Size, camera: TableCamera, fg: Foreground) -> list[np.ndarray | None]:
    """The colour feature of each band of the fitted outline, bottom first."""
    cuts = band_cuts(bottom)
    outlines = [camera.project(pyramid_points(fit.x, fit.y, fit.angle, bottom, bottom_mm=c)) for c in cuts]
    allpx = np.vstack(outlines)
    h, w = fg.mask.shape
    x0, y0 = np.maximum(np.floor(allpx.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(allpx.max(axis=0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return [None] * len(cuts)
    box = (int(x0), int(y0), int(x1), int(y1))
    masks = [outline_mask(px, box) for px in outlines]
    features = []
    kernel = np.ones((3, 3), np.uint8)
    for i, m in enumerate(masks):
        band = m & (1 - masks[i + 1]) if i + 1 < len(masks) else m
        inner = cv2.erode(band, kernel)
        if inner.sum() >= 6:
            band = inner
        if band.sum() < 3:
            features.append(None)
            continue
        sel = band.astype(bool)
        patch = fg.lab[y0:y1, x0:x1][sel]
        table = fg.background[y0:y1, x0:x1][sel]
        features.append(np.concatenate([np.median(patch, axis=0), np.median(table, axis=0), fg.illuminant,
                                        [np.std(patch[:, 0])]]).astype(np.float32))
    return features


def outline_feature(outline_px: np.ndarray, fg: Foreground) -> np.ndarray | None:
    """The colour feature (as a band's) of everything inside one outline: a pyramid lying on its side
    shows one colour all over."""
    h, w = fg.mask.shape
    x0, y0 = np.maximum(np.floor(outline_px.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(outline_px.max(axis=0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return None
    m = outline_mask(outline_px, (int(x0), int(y0), int(x1), int(y1)))
    inner = cv2.erode(m, np.ones((3, 3), np.uint8))
    sel = (inner if inner.sum() >= 6 else m).astype(bool)
    if sel.sum() < 3:
        return None
    patch, table = fg.lab[y0:y1, x0:x1][sel], fg.background[y0:y1, x0:x1][sel]
    return np.concatenate([np.median(patch, axis=0), np.median(table, axis=0), fg.illuminant,
                           [np.std(patch[:, 0])]]).astype(np.float32)


def read_lying(fit: Fit, size: Size, fg: Foreground, palette: Palette, size_confidence: float) -> PyramidSighting:
    """The sighting of a pyramid lying on its side, fitted with its tip along ``fit.angle``."""
    feature = outline_feature(fit.outline_px, fg)
    votes = palette.classify(feature) if feature is not None else []
    colour, p = votes[0] if votes else (UNKNOWN, 0.2)
    confidence = p * size_confidence
    alternatives = tuple(Alternative(_label((Pyramid(c, size),)), round(q * size_confidence, 4)) for c, q in votes[1:3])
    return PyramidSighting((Pyramid(colour, size),), (round(fit.x, 2), round(fit.y, 2)),
                           round(float(min(confidence, 0.2) if colour == UNKNOWN else confidence), 4),
                           round(float((fit.angle + 180) % 360 - 180), 2), alternatives)


# Which bands each pyramid of a stack shows, for each stack a bottom size can carry: a group of
# bands is one pyramid (A is the bottom band). The first group is the bottom pyramid.
STRUCTURES = {
    Size.LARGE: [((0, 1, 2),), ((0,), (1, 2)), ((0, 1), (2,)), ((0,), (1,), (2,))],
    Size.MEDIUM: [((0, 1),), ((0,), (1,))],
    Size.SMALL: [((0,),)],
}
EXTRA_PYRAMID = 1.5  # log-odds a reading pays for each perched pyramid: a plain pyramid is more common
# a pip dip (perches.pip_dip) that reads as a perched pyramid of the same colour: above the most a face with no pyramid
# perched there showed (0.042) on fit seeds 0-15 of the piece tables and 0-9 of the Pungo games and openings and on
# the Pungo demo, but for one small fitted as a medium (0.080); perched ones of the same colour showed 0.049 to 0.14
# on those seeds, 0.14 to 0.26 on the demo (chosen on them, 2026-11-22 session 6)
PIP_DIP = 0.05
# log-odds a perched pyramid seen by perches.py counts for: added to a reading that has it, taken from one that reads
# its bands as part of the pyramid below (set by hand, 2026-11-22 session 6: with 1.0, and nothing taken, a
# red3+red2+red1 seen plainly was read at confidence 0.53, under the layouts' 0.6, and flickered in the live demo)
PERCH_SEEN = 1.5
# a medium put over a small perched on a large's tip rides on the small, higher than it perches on the large alone,
# and hides it (a small perched on the medium rides as high): on a large, a medium's pips are looked for this much
# higher too, and a small's where a medium is seen (perches.pip_dip's lift). On fit seeds 100-139 of the Pungo trial
# games (2026-11-23, session 16; 4,318 stacks on still tables), 25 of 364 mediums on a large were such riders and
# went unseen at their own perch (read as the large alone, or with a small); at these lifts every medium on a large
# showed a dip of 0.075 or more, a large alone or with a small on its tip 0.03 at most (at 9.6 mm, the rider's height
# in the renderer, a small on a large's tip showed 0.11); a small at these lifts above its perch on a large, 0.034 at
# most where there was none
RIDES_MM = (2.5, 5.0, 7.5)
FLOOR = 0.03  # the least probability a band's reading gives any colour (neighbour votes are coarse)
# clear plastic perched on a coloured pyramid shows that colour washed with the light it reflects: the band is no
# darker, of the hue below (within CLEAR_HUE degrees) and keeps CLEAR_WASH of its chroma (opaque white or grey
# plastic keeps next to none; the same plastic keeps all of it, its faces being the same planes). Set on 2026-11-23,
# session 12, on 90 random tables' stacks with a coloured band below (chroma at least CLEAR_BELOW): the same colour
# kept 0.74 or more (5 % under 0.74, one of them a darker band), clear 0.14 to 0.79, 17 of 23 within 0.3 to 0.7
CLEAR_BELOW = 16.0
CLEAR_WASH = (0.3, 0.7)
CLEAR_HUE = 30.0
CLEAR_VOTE = 0.8  # the share of a washed band's vote given to clear


def read_stack(fit: Fit, bottom: Size, camera: TableCamera, fg: Foreground, palette: Palette,
               size_confidence: float, size_alternatives: list[tuple[Size, float]],
               pips_at=None) -> tuple[PyramidSighting, list]:
    """The sighting of a stack whose bottom pyramid has been fitted; also the bands' features (for fitting palettes).

    Every way of grouping the bands into pyramids is scored by how well one colour per group
    explains its bands, less a toll per perched pyramid; the best is the reading, the next ones its
    alternatives, with probabilities from the scores. A pyramid perched on one of its own colour
    is read only where :mod:`vision.pieces.perches` sees its pips: ``pips_at(top, height, lift)``
    measures those of a ``top`` perched ``height`` up, riding ``lift`` higher
    (:func:`~vision.pieces.perches.pip_dip`).
    """
    features = band_features(fit, bottom, camera, fg)
    votes = [dict(palette.classify(f)) if f is not None else {} for f in features]
    for k in range(1, len(features)):
        if (_washed(features[0], features[k]) or _washed(features[k - 1], features[k])) and votes[k]:
            rest = {c: v * (1 - CLEAR_VOTE) for c, v in votes[k].items() if c != "clear"}
            votes[k] = {**rest, "clear": max(votes[k].get("clear", 0.0), CLEAR_VOTE)}
    colours = sorted({c for v in votes for c in v})
    cuts = band_cuts(bottom)

    @functools.cache
    def perched(top: Size, height: float) -> bool:
        """Whether a ``top`` of the colour below perches ``height`` up, or on a large rides higher (a medium; a
        small where a medium is seen) (measured once per place)."""
        may_ride = bottom == Size.LARGE and (top == Size.MEDIUM or perched(Size.MEDIUM, cuts[1]))
        lifts = (0.0, *RIDES_MM) if may_ride else (0.0,)
        return pips_at is not None and any(pips_at(top, height, lift) > PIP_DIP for lift in lifts)

    readings = []
    for groups in STRUCTURES[bottom]:
        score, stack = 0.0, []
        for k, group in enumerate(groups):
            # a pyramid seen perching where this reading has one pyramid's bands go on counts against it
            score -= PERCH_SEEN * sum(perched(_perching(bottom, b), cuts[b]) for b in group[1:])
            shown = [votes[b] for b in group if votes[b]]
            if not shown:  # nothing readable here: unknown plastic
                best, gain = UNKNOWN, math.log(FLOOR) * len(group)
            else:
                best, gain = max(((c, sum(math.log(max(v.get(c, 0.0), FLOOR)) for v in shown)) for c in colours),
                                 key=lambda cg: cg[1])
            size = bottom if k == 0 else _perching(bottom, group[0])
            if stack and best == stack[-1].colour:
                if best != UNKNOWN and perched(size, cuts[group[0]]):
                    score += EXTRA_PYRAMID + PERCH_SEEN  # it shows: a pyramid of the same colour perches here
                else:
                    score = -math.inf  # a perched pyramid of the same colour reads as the one below it
            stack.append(Pyramid(best, size))
            score += gain - (EXTRA_PYRAMID if k else 0.0)
        if math.isfinite(score):
            readings.append((score, tuple(stack)))
    readings.sort(key=lambda r: -r[0])
    top = readings[0][0]
    weights = [math.exp(r[0] - top) for r in readings]
    total = sum(weights)
    stack = readings[0][1]
    unknown = any(p.colour == UNKNOWN for p in stack)
    confidence = (weights[0] / total) * min((max(v.values()) if v else 0.0) for v in votes) * size_confidence
    confidence = min(confidence, 0.2) if unknown else confidence
    alternatives = [Alternative(_label(r[1]), round(float(w / total) * size_confidence, 4))
                    for r, w in zip(readings[1:], weights[1:])]
    alternatives += [Alternative(_label((Pyramid(stack[0].colour, size),)), round(min(p, 1.0), 4))
                     for size, p in size_alternatives]
    alternatives = sorted((a for a in alternatives if a.probability > 0.001), key=lambda a: -a.probability)[:4]
    sighting = PyramidSighting(stack, (round(fit.x, 2), round(fit.y, 2)), round(float(confidence), 4), None,
                               tuple(alternatives))
    return sighting, features


def with_truths(sighting: PyramidSighting, palette: Palette, colours: frozenset[str] | None = None) -> PyramidSighting:
    """``sighting`` with its colours weighed by how often the palette's readings of them were right
    (:meth:`~vision.pieces.palette.Palette.truths`, among ``colours``, the game's, when given): the confidence keeps
    the share its colours were right, and each colour's other likely colours are offered (:func:`weighed`). A white
    pyramid in dim light read as clear then offers white. The pyramids of one colour in a stack are one question
    (what makes white look clear, the light and the table, is the same for all of them): a white tree may be a
    clear one, not white below and clear on top. Alternatives with a colour the game has not are dropped."""
    rows = {c: palette.truths(c, colours) for c in dict.fromkeys(p.colour for p in sighting.stack)}
    right = math.prod(row.get(c, 0.0) for c, row in rows.items())
    own = tuple(a for a in sighting.alternatives
                if colours is None or all(q.colour in colours for q in Stack.parse(a.label).pyramids))
    offered = []
    for read, row in rows.items():
        kept = right / row[read] if row.get(read) else 0.0
        for colour, share in row.items():
            if colour != read:
                other = tuple(Pyramid(colour, p.size) if p.colour == read else p for p in sighting.stack)
                offered.append(Alternative(_label(other), round(sighting.confidence * kept * share, 4)))
    return weighed(dataclasses.replace(sighting, alternatives=own), right, offered)


# an offered reading's probability is at most this share of the reading's own: it is a runner-up
RUNNER_UP = 0.95


def weighed(sighting: PyramidSighting, right: float, offered) -> PyramidSighting:
    """``sighting``, read right this share of the time, with ``offered`` other readings (:class:`Alternative`s)
    added. Its confidence and its own alternatives are scaled by ``right`` (they keep their order below it), and an
    offered reading is a runner-up, at most :data:`RUNNER_UP` of the reading however often it was the truth: the
    stabiliser, which names an object by its likeliest reading over frames, names it as read, and the referee
    tries the runner-up where the reading explains nothing. One alternative per label (the likeliest), the four
    likeliest kept."""
    confidence = round(sighting.confidence * right, 4)
    below = round(confidence * RUNNER_UP, 4)
    likeliest: dict[str, Alternative] = {}
    for a in (*(dataclasses.replace(a, probability=round(a.probability * right, 4)) for a in sighting.alternatives),
              *(dataclasses.replace(a, probability=min(a.probability, below)) for a in offered)):
        if a.probability > 0.001 and (a.label not in likeliest or a.probability > likeliest[a.label].probability):
            likeliest[a.label] = a
    alternatives = sorted(likeliest.values(), key=lambda a: -a.probability)[:4]
    return dataclasses.replace(sighting, confidence=confidence, alternatives=tuple(alternatives))


def _washed(below: np.ndarray | None, band: np.ndarray | None) -> bool:
    """Whether a band (its feature: median Lab first) looks like clear plastic over the coloured band ``below``."""
    if below is None or band is None:
        return False
    a, b = np.asarray(below, np.float32), np.asarray(band, np.float32)
    ca, cb = float(np.hypot(a[1] - 128, a[2] - 128)), float(np.hypot(b[1] - 128, b[2] - 128))
    if ca < CLEAR_BELOW or b[0] < a[0] or not CLEAR_WASH[0] * ca <= cb <= CLEAR_WASH[1] * ca:
        return False
    turn = math.degrees(math.atan2(b[2] - 128, b[1] - 128) - math.atan2(a[2] - 128, a[1] - 128))
    turn = abs((turn + 180) % 360 - 180)
    return turn <= CLEAR_HUE


def _perching(bottom: Size, band: int) -> Size:
    """The size of a pyramid whose lowest band is ``band`` (of :func:`band_cuts`) on a stack with this bottom."""
    return Size.SMALL if band == 2 or bottom == Size.MEDIUM else Size.MEDIUM


def _label(stack) -> str:
    return "+".join(str(p) for p in stack)
