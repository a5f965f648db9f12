"""Read a d6: find its top face by its pips, warp it flat, and name it by the pip pattern it matches best.

A white die on a white mat hardly differs from it in colour, and its shaded sides look like a
shadow, but its pips are dark spots of a known size. So dice are found two ways: a blob whose
outline fits a cube (:mod:`vision.pieces.reader`), or a cluster of pip-sized dark spots
(:func:`pip_spots`). Either gives a rough spot; :func:`search_top_face` then tries poses of the top
face around it (position, turn, edge 12-18 mm), warps each flat and compares it with the six
standard faces by normalised correlation. Matching whole patterns rather than counting spots keeps
a pip on a side face, or a shading edge, from being counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from referee.snapshot import Alternative, DieSighting
from vision.pieces.camera import TableCamera

FACE_PX = 32  # the top face is warped to this many pixels square
EDGES_MM = (12.0, 14.0, 16.0, 18.0)
PIP_OFFSET = 0.27  # pip centres sit this share of the edge from the face's centre (see vision.synth.solids)
PIP_RADIUS = 0.09
MIN_MATCH = 0.65  # a face correlating less than this with every pattern is no die face
COARSE_MM = 1.5  # the coarse search's step over positions
DIE_LIKE = 0.45  # below this nothing near looks like a die face at all: not worth a finer search
# standard Western layouts in face coordinates (-1..1)
LAYOUTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
           5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


@cache
def templates() -> tuple[tuple[int, np.ndarray], ...]:
    """Each face's pattern as a zero-mean, unit-norm picture; 2, 3 and 6 also turned a quarter."""
    out = []
    for face, layout in LAYOUTS.items():
        for turned in ((False, True) if face in (2, 3, 6) else (False,)):
            picture = np.ones((FACE_PX, FACE_PX), np.float32)
            for px, py in layout:
                if turned:
                    px, py = -py, px
                centre = ((0.5 + PIP_OFFSET * px) * FACE_PX - 0.5, (0.5 + PIP_OFFSET * py) * FACE_PX - 0.5)
                cv2.circle(picture, (round(centre[0] * 16), round(centre[1] * 16)), round(PIP_RADIUS * FACE_PX * 16),
                           0.0, -1, cv2.LINE_AA, 4)
            picture = cv2.GaussianBlur(picture, (0, 0), 0.8)
            picture -= picture.mean()
            out.append((face, picture / np.linalg.norm(picture)))
    return tuple(out)


@cache
def _pattern_matrix() -> tuple[tuple[int, ...], np.ndarray]:
    return tuple(v for v, _ in templates()), np.stack([t.ravel() for _, t in templates()])


@dataclass
class DieReading:
    x: float
    y: float
    angle: float
    edge_mm: float
    face: int
    match: float  # correlation with the face's pattern
    runner_up: tuple[int, float]


def top_face(grey: np.ndarray, camera: TableCamera, x: float, y: float, angle: float, edge_mm: float) -> np.ndarray:
    """The top face of a die standing at (x, y) seen from straight above (FACE_PX square)."""
    return _faces(grey, camera, np.array([[x, y, angle, edge_mm]]))[0]


def _faces(grey: np.ndarray, camera: TableCamera, poses: np.ndarray) -> np.ndarray:
    """Flat views (N x FACE_PX x FACE_PX) of the top faces of dice at poses (N x 4: x, y, angle, edge)."""
    x, y, a, e = poses.T
    c, s = np.cos(np.radians(a)), np.sin(np.radians(a))
    signs = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    # corner = centre + e/2 * (sx * (c, s) + sy * (-s, c)), clockwise in the table frame
    cx = x[:, None] + e[:, None] / 2 * (signs[:, 0] * c[:, None] - signs[:, 1] * s[:, None])
    cy = y[:, None] + e[:, None] / 2 * (signs[:, 0] * s[:, None] + signs[:, 1] * c[:, None])
    corners3d = np.stack([cx, cy, -np.repeat(e[:, None], 4, axis=1)], axis=-1).reshape(-1, 3)
    corners = camera.project(corners3d).reshape(-1, 4, 2).astype(np.float32)
    square = np.array([[0, 0], [FACE_PX, 0], [FACE_PX, FACE_PX], [0, FACE_PX]], np.float32)
    out = np.empty((len(poses), FACE_PX, FACE_PX), np.float32)
    for i, quad in enumerate(corners):
        M = cv2.getPerspectiveTransform(quad, square)
        out[i] = cv2.warpPerspective(grey, M, (FACE_PX, FACE_PX), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def _match(faces: np.ndarray) -> np.ndarray:
    """Correlation (N x 6) of each flat face with each face value's pattern (best variant)."""
    f = faces.reshape(len(faces), -1)
    f = f - f.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", f, f))  # (np.linalg.norm costs more than the product below)
    values, patterns = _pattern_matrix()
    # OpenCV's product, not numpy's: a product this small gains nothing from BLAS threads, which on a busy
    # machine wait for cores and cost ten times the work
    corr = cv2.gemm(f, patterns, 1.0, None, 0.0, flags=cv2.GEMM_2_T) / np.maximum(norm, 1e-3 * f.shape[1])[:, None]
    out = np.full((len(faces), 6), -1.0, np.float32)
    for k, v in enumerate(values):
        out[:, v - 1] = np.maximum(out[:, v - 1], corr[:, k])
    return out


def _scan(grey: np.ndarray, camera: TableCamera, x: float, y: float, turns, edges,
          offsets_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Poses (N x 4: x, y, angle, edge) of dice at every turn and edge with their top face's centre at every
    pair of ``offsets_mm`` (along the face's own axes) round (x, y), and how each pose's top face, seen flat,
    correlates with the face patterns (N x 6).

    For each turn and edge, the plane of the top face round (x, y) is warped flat once, at FACE_PX pixels
    per edge, and each pose's face is a window of it: one warp instead of one per pose (a search looks
    at hundreds of poses)."""
    turn, edge = (v.ravel() for v in np.meshgrid(np.asarray(turns, np.float64), np.asarray(edges, np.float64),
                                                 indexing="ij"))
    reach = float(np.max(np.abs(offsets_mm)))
    scale = FACE_PX / edge  # pixels of a flat plane per mm
    shift = np.round((np.asarray(offsets_mm)[None, :] + reach) * scale[:, None]).astype(int)  # windows, flat px
    side = FACE_PX + shift.max(axis=1)
    # flat pixel u lies (u / scale - edge / 2 - reach) mm along the face's axis from (x, y), as in _faces
    near, far = -edge / 2 - reach, side / scale - edge / 2 - reach
    local = np.stack([np.column_stack([near, near]), np.column_stack([far, near]), np.column_stack([far, far]),
                      np.column_stack([near, far])], axis=1)  # planes x 4 corners x 2
    c, s = np.cos(np.radians(turn))[:, None], np.sin(np.radians(turn))[:, None]
    corners = np.stack([x + local[..., 0] * c - local[..., 1] * s, y + local[..., 0] * s + local[..., 1] * c,
                        np.repeat(-edge[:, None], 4, axis=1)], axis=-1)
    quads = camera.project(corners.reshape(-1, 3)).reshape(-1, 4, 2).astype(np.float32)
    n = shift.shape[1]
    faces = np.empty((len(turn), n, n, FACE_PX, FACE_PX), np.float32)
    for k, quad in enumerate(quads):
        size = int(side[k])
        square = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        flat = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(quad, square), (size, size),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        windows = np.lib.stride_tricks.as_strided(flat, (size - FACE_PX + 1, size - FACE_PX + 1, FACE_PX, FACE_PX),
                                                  flat.strides * 2, writeable=False)
        faces[k] = windows[shift[k][:, None], shift[k][None, :]]  # [v offset, u offset]
    du = shift / scale[:, None] - reach  # the offsets the rounded windows really have
    dv, du = np.broadcast_to(du[:, :, None], (len(turn), n, n)), np.broadcast_to(du[:, None, :], (len(turn), n, n))
    c, s = c[:, :, None], s[:, :, None]
    poses = np.stack([x + du * c - dv * s, y + du * s + dv * c, np.broadcast_to(turn[:, None, None], du.shape),
                      np.broadcast_to(edge[:, None, None], du.shape)], axis=-1).reshape(-1, 4)
    return poses, _match(faces.reshape(-1, FACE_PX, FACE_PX))


def search_top_face(grey: np.ndarray, camera: TableCamera, x: float, y: float, reach_mm: float = 6.0,
                    edges=EDGES_MM) -> DieReading | None:
    """The die pose near (x, y) whose top face best matches a face pattern: a coarse grid, then a finer one."""
    # the coarse grid's positions are at most COARSE_MM apart: a face missed by more than a pip's offset
    # correlates with no pattern, and the refinement below would start from a side face
    steps = int(np.ceil(2 * reach_mm / COARSE_MM)) + 1
    poses, scores = _scan(grey, camera, x, y, np.arange(0.0, 90.0, 15.0), edges,
                          np.linspace(-reach_mm, reach_mm, steps))
    ranked = np.argsort(-scores.max(axis=1))
    if scores[ranked[0]].max() < DIE_LIKE:  # nothing like a die face anywhere near: not worth refining
        return _reading(poses[ranked[0]], scores[ranked[0]])
    # refine the three best coarse poses: the coarse grid may rank a side face above a slightly missed top face
    best_pose, best_scores = None, None
    for start in ranked[:3]:
        bx, by, ba, be = poses[start]
        candidates, found = _scan(grey, camera, bx, by, ba + np.linspace(-7.5, 7.5, 5), be + np.array([-1.0, 0, 1.0]),
                                  np.linspace(-1.5, 1.5, 5))
        k = int(np.argmax(found.max(axis=1)))
        if best_scores is None or found[k].max() > best_scores.max():
            best_pose, best_scores = candidates[k], found[k]
    return _reading(best_pose, best_scores)


def _reading(pose: np.ndarray, scores: np.ndarray) -> DieReading:
    order = np.argsort(-scores)
    return DieReading(float(pose[0]), float(pose[1]), float(pose[2]) % 90, float(pose[3]), int(order[0]) + 1,
                      float(scores[order[0]]), (int(order[1]) + 1, float(scores[order[1]])))


def sighting(reading: DieReading) -> DieSighting | None:
    """A die sighting from a top-face reading, or None when no face pattern matched well."""
    if reading is None or reading.match < MIN_MATCH:
        return None
    margin = reading.match - reading.runner_up[1]
    confidence = float(np.clip(margin / 0.25, 0.0, 1.0) * np.clip((reading.match - 0.4) / 0.4, 0.0, 1.0))
    other = Alternative(str(reading.runner_up[0]), round(float(np.clip(1 - confidence, 0, 1)) * 0.5, 4))
    return DieSighting(reading.face, (round(reading.x, 2), round(reading.y, 2)), round(confidence, 4), (other,))


def pip_spots(grey: np.ndarray, camera: TableCamera) -> list[np.ndarray]:
    """Table spots (x, y) where clusters of pip-sized dark spots suggest a die: the middle of each cluster."""
    return [group.mean(axis=0) for group in pip_groups(grey, camera)]


def pip_groups(grey: np.ndarray, camera: TableCamera) -> list[np.ndarray]:
    """Clusters of pip-sized dark spots that suggest a die, each as its spots' table positions (n x 2) taken
    at a die's top (the side faces' pips, lower down, land a little further from the camera)."""
    h, w = grey.shape
    centre = camera.to_table(np.array([[w / 2, h / 2]]))[0]
    mm = camera.px_per_mm(tuple(centre))
    pip_px = 2 * PIP_RADIUS * 16.0 * mm  # a pip's diameter on a 16 mm die
    # dark spots of a pip's size: peaks of a difference of Gaussians tuned to the pip's radius (a line, such as
    # a mat's grid, gives a weaker ridge, and a large dark area none)
    sigma = max(0.8, pip_px / 2 / 1.414)
    g = grey.astype(np.float32)
    response = cv2.GaussianBlur(g, (0, 0), 1.6 * sigma) - cv2.GaussianBlur(g, (0, 0), sigma)
    peaks = (response == cv2.dilate(response, np.ones((5, 5), np.uint8))) & (response > 14.0)
    ys, xs = np.nonzero(peaks)
    pips = list(np.column_stack([xs, ys]).astype(np.float64))
    if not pips:
        return []
    table = camera.to_plane(np.array(pips), 16.0)
    # pips of one die lie within an edge or so of each other: group them, keep groups of two or more
    # (each spot joins the first group it comes within 13 mm of, in the order the groups were started)
    group_of = np.empty(len(table), np.int64)
    started = 0
    for i, p in enumerate(table):
        close = group_of[:i][np.hypot(*(table[:i] - p).T) < 13.0]
        if len(close):
            group_of[i] = close.min()
        else:
            group_of[i], started = started, started + 1
    groups = [np.flatnonzero(group_of == g) for g in range(started)]
    # a die shows at most 6 + 5 + 4 pips over a few centimetres; print (a mat's small text) is more, or spread wider
    return [table[g] for g in groups if 2 <= len(g) <= 15 and np.ptp(table[g], axis=0).max() < 30.0]
