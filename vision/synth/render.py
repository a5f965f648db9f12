"""Render a :class:`~vision.synth.scene.Scene` into a webcam frame with exact ground truth.

The picture is painted back to front on a float canvas in the camera's *undistorted* image
(plus a margin where a lens distortion will pull pixels in from outside the frame):

1. the table top (a seamless tile warped by the table-to-image homography) and the mat;
2. the cards in the order they were laid, each casting a soft contact shadow on what is under it,
   piles showing the edges of the cards below, glossy cards catching the light;
3. the shadows of the 3D pieces, then their facets (pyramids, dice, tokens), far to near, shaded
   by the light, translucent plastic tinting what is behind it;
4. hands and arms, their soft shadows first, blurred along their motion;
5. one remap through the lens distortion, then the light's gain (brighter towards the lamp) and
   the sensor (:mod:`vision.synth.sensor`).

Every object gets an index; an instance image records which object each pixel shows, so the
ground truth (polygon, visible fraction, corner index boxes) is measured on what was drawn.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import cached_property, lru_cache

import cv2
import numpy as np

from referee.pyramids import Stack
from vision.synth import faces as card_faces
from vision.synth.camera import PinholeCamera
from vision.synth.hands import hand_parts
from vision.synth.scene import CARD_MM, CARD_THICKNESS_MM, CardObject, Scene
from vision.synth.sensor import develop
from vision.synth.solids import Facet, clutter_facets, die_facets, pyramid_facets, stack_levels, token_facets
from vision.synth.surfaces import tile

NEAR_MM = 30.0  # nothing is drawn closer to the lens than this
_S = 8  # fixed-point bits for sub-pixel polygons


@dataclass
class ObjectTruth:
    """What is where: one object of the scene as the camera saw it."""

    index: int  # its value in the instance image
    kind: str  # card | pyramid | die | token | hand | mat
    label: str  # card id as seen ('back' face down), visible stack, die top face, token label
    pose: dict  # table frame: x, y (mm), angle (degrees), and what else fixes it
    polygon: list  # outline in the picture, pixels (card: its four corners, top-left of the face first)
    visible: float  # share of the object's outline that is in the picture and not hidden by others
    extra: dict = field(default_factory=dict)


@dataclass
class Rendering:
    image: np.ndarray  # uint8 BGR
    objects: list[ObjectTruth]
    instances: np.ndarray | None = None  # uint16: 0 the table, i the object with index i

    def truth(self) -> dict:
        """The ground truth as JSON-ready data."""
        h, w = self.image.shape[:2]
        return {"size": [w, h], "objects": [asdict(o) for o in self.objects]}


def camera_of(scene: Scene) -> PinholeCamera:
    c = scene.camera
    return PinholeCamera.looking_at(tuple(c.target_mm), c.distance_mm, c.tilt_deg, yaw_deg=c.yaw_deg,
                                    size=tuple(c.size), hfov_deg=c.hfov_deg, dist=tuple(c.distortion),
                                    roll_deg=c.roll_deg)


def render(scene: Scene, masks: bool = False, supersample: int = 1) -> Rendering:
    """Render ``scene``; with ``masks`` the per-pixel instance image comes back too.

    ``supersample`` > 1 paints at that many times the resolution and averages it down: slower,
    with edges closer to what a sensor integrates.
    """
    return _Painter(scene, supersample).paint(masks)


class _Painter:
    def __init__(self, scene: Scene, supersample: int) -> None:
        self.scene = scene
        self.camera = camera_of(scene)
        self.ss = max(1, int(supersample))
        big = self.camera.scaled(self.ss) if self.ss > 1 else self.camera
        self.distorted = bool(np.any(np.asarray(scene.camera.distortion) != 0))
        pad = _distortion_margin(big) if self.distorted else (0, 0)
        self.pad = pad
        K = big.K.copy()
        K[0, 2] += pad[0]
        K[1, 2] += pad[1]
        self.K, self.R, self.t = K, big.R, big.t
        self.w, self.h = big.width + 2 * pad[0], big.height + 2 * pad[1]
        self.centre = -self.R.T @ self.t
        self.big = big
        light = scene.light
        az, el = math.radians(light.azimuth_deg), math.radians(light.elevation_deg)
        self.to_light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
        self.flat = light.ambient + light.strength * math.sin(el)
        self.dir_share = light.strength * math.sin(el) / max(self.flat, 1e-6)
        # pixels per millimetre around the target: sets texture detail and blur widths
        self.px_per_mm = self.K[0, 0] / scene.camera.distance_mm
        self.canvas = np.empty((0, 0, 3), np.float32)  # the table paints all of it first
        self.labels = np.zeros((self.h, self.w), np.uint16)
        self.objects: list[ObjectTruth] = []
        self.face_source = _face_folder(scene.faces) if scene.faces else None
        self.gloss = self._gloss_map()

    # -- geometry --
    def project(self, points: np.ndarray) -> np.ndarray:
        """Canvas pixels (undistorted) of 3D table points (N x 3); points behind NEAR_MM are clamped."""
        cam = points @ self.R.T + self.t
        z = np.maximum(cam[:, 2:3], NEAR_MM)
        return (cam[:, :2] / z) * [self.K[0, 0], self.K[1, 1]] + self.K[:2, 2]

    def clip_near(self, points: np.ndarray) -> np.ndarray:
        """The part of a convex polygon in front of the near plane (Sutherland-Hodgman, one plane)."""
        depth = (points @ self.R.T + self.t)[:, 2] - NEAR_MM
        if (depth >= 0).all():
            return points
        out = []
        for i in range(len(points)):
            p, q, dp, dq = points[i], points[(i + 1) % len(points)], depth[i], depth[(i + 1) % len(points)]
            if dp >= 0:
                out.append(p)
            if (dp >= 0) != (dq >= 0):
                out.append(p + (q - p) * (dp / (dp - dq)))
        return np.array(out) if out else np.zeros((0, 3))

    def truth_points(self, points: np.ndarray) -> np.ndarray:
        """Output pixels (with lens distortion) of 3D table points: where the truth says things are.

        Far outside the picture a polynomial lens model folds back on itself, which would put a
        point beyond the edge inside the frame; there the distortion is held at its value at the
        frame's rim, so outlines that leave the picture stay outside it.
        """
        cam = self.camera
        points = np.asarray(points, np.float64).reshape(-1, 3)
        px, _ = cv2.projectPoints(points.reshape(-1, 1, 3), self._rvec, cam.t, cam.K, cam.dist)
        px = px.reshape(-1, 2)
        if not self.distorted:
            return px
        c = points @ cam.R.T + cam.t
        xy = c[:, :2] / np.maximum(c[:, 2:3], NEAR_MM)
        r2 = (xy ** 2).sum(axis=1)
        rim = self._rim_r2
        far = r2 > rim
        if far.any():
            k1, k2, _, _, k3 = (list(cam.dist) + [0.0] * 5)[:5]
            factor = 1 + k1 * rim + k2 * rim ** 2 + k3 * rim ** 3
            px[far] = xy[far] * factor * [cam.K[0, 0], cam.K[1, 1]] + cam.K[:2, 2]
        return px

    @cached_property
    def _rvec(self) -> np.ndarray:
        return cv2.Rodrigues(self.camera.R)[0]

    @cached_property
    def _rim_r2(self) -> float:
        """Squared normalised radius a little beyond the frame's corners."""
        cam = self.camera
        corners = np.array([[0, 0], [cam.width - 1, 0], [0, cam.height - 1], [cam.width - 1, cam.height - 1]],
                           np.float64)
        und = cv2.undistortPoints(corners.reshape(-1, 1, 2), cam.K, cam.dist).reshape(-1, 2)
        return float((und ** 2).sum(axis=1).max()) * 1.2

    # -- the picture --
    def paint(self, masks: bool) -> Rendering:
        scene = self.scene
        self._table()
        if scene.mat is not None:
            self._mat()
        # flat things (paper, coasters) lie under the cards; everything standing is drawn after them
        flat = [c for c in scene.clutter if c.shape == "sheet" or c.size_mm[2] <= 8]
        self._pieces(self._clutter(flat))
        for card in scene.cards:
            self._card(card)
        facets = []
        for p in scene.pyramids:
            stack = Stack.parse(p.stack)
            seen = "+".join(str(stack.pyramids[i]) for i, _ in stack_levels(stack))
            extra = {"stack": str(stack)}
            if p.lying:  # the truth's pointing direction, as a PyramidSighting writes it
                extra["pointing_deg"] = round((p.angle + 180) % 360 - 180, 3)
            index = self._new_object("pyramid", seen, _pose(p), extra)
            facets += pyramid_facets(p, index)
        for d in scene.dice:
            index = self._new_object("die", d.orientation[0], _pose(d), {"orientation": d.orientation})
            facets += die_facets(d, index)
        for t in scene.tokens:
            index = self._new_object("token", t.label, {"x": t.x, "y": t.y, "angle": 0.0}, {"shape": t.shape})
            facets += token_facets(t, index)
        facets += self._clutter([c for c in scene.clutter if all(c is not f for f in flat)])
        self._pieces(facets)
        for hand in scene.hands:
            self._hand(hand)
        linear, labels = self._lens()
        image = develop(linear, scene.effects, scene.light, scene.seed, gain=self._light_gain())
        self._measure(labels)
        return Rendering(image, self.objects, labels if masks else None)

    def _clutter(self, things: list) -> list[Facet]:
        facets = []
        for c in things:
            index = self._new_object("clutter", c.shape, _pose(c), {"size_mm": list(c.size_mm)})
            facets += clutter_facets(c, index)
        return facets

    def _pieces(self, facets: list[Facet]) -> None:
        """Draw solid pieces, far to near, and record their outlines (the hull of their corners)."""
        if not facets:
            return
        self._solids(facets)
        outlines: dict[int, list] = {}
        for facet in facets:
            outlines.setdefault(facet.owner, []).append(facet.points)
        for owner, pts in outlines.items():
            hull = cv2.convexHull(self.truth_points(np.vstack(pts)).astype(np.float32)).reshape(-1, 2)
            self.objects[owner - 1].polygon = hull.round(2).tolist()

    def _new_object(self, kind: str, label: str, pose: dict, extra: dict | None = None) -> int:
        index = len(self.objects) + 1
        self.objects.append(ObjectTruth(index, kind, label, pose, [], 0.0, extra or {}))
        return index

    def _table(self) -> None:
        surface = self.scene.surface
        texture, texels = tile(surface, self.scene.seed, self.px_per_mm)
        H = self._homography_mm() @ np.array([[1 / texels, 0, 0.5 / texels], [0, 1 / texels, 0.5 / texels], [0, 0, 1]])
        tiled = _tiled_cover(texture, H, (self.w, self.h))
        if tiled is None:
            table = cv2.warpPerspective(texture, H, (self.w, self.h), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_WRAP)
        else:  # the same picture, twice as fast: OpenCV's wrapping border is its slow path
            big, shift = tiled  # (it covers the frame, so no border is sampled: the constant one is the fast one)
            table = cv2.warpPerspective(big, H @ shift, (self.w, self.h), flags=cv2.INTER_LINEAR)
        self.canvas = table.astype(np.float32)

    def _homography_mm(self, height_mm: float = 0.0) -> np.ndarray:
        """Canvas pixels of table points (x, y) at a height above the table, as a homography."""
        R, t = self.R, self.t
        H = self.K @ np.column_stack([R[:, 0], R[:, 1], t + R[:, 2] * -height_mm])
        return H / H[2, 2]

    def _mat(self) -> None:
        from calibration.mats import mat_layout

        mat = self.scene.mat
        layout = mat_layout(mat.game, mat.paper, mat.option_values())
        ox, oy = layout.origin_on_paper
        index = self._new_object("mat", f"mat-{mat.game}-{mat.paper}", {"x": -ox, "y": -oy, "angle": 0.0})
        pw, ph = layout.paper_mm
        corners = np.array([[-ox, -oy, 0], [pw - ox, -oy, 0], [pw - ox, ph - oy, 0], [-ox, ph - oy, 0]])
        self._paste(_mat_paper(mat.game, mat.paper, mat.options), None, corners, index)
        truth = self.objects[index - 1]
        truth.polygon = self.truth_points(corners).round(2).tolist()
        truth.extra = {"game": mat.game, "paper": mat.paper,
                       "markers": [{"id": m.id, "corners": self.truth_points(
                           np.column_stack([m.corners_mm(), np.zeros(4)])).round(3).tolist()}
                                   for m in layout.markers]}

    # -- cards --
    def _card(self, card: CardObject) -> None:
        index = len(self.objects) + 1
        a = math.radians(card.angle)
        ex, ey = np.array([math.cos(a), math.sin(a), 0]), np.array([-math.sin(a), math.cos(a), 0])
        w, h = CARD_MM
        top = card.pile * CARD_THICKNESS_MM
        centre = np.array([card.x, card.y, 0.0])
        corners2 = np.array([centre + sx * w / 2 * ex + sy * h / 2 * ey
                             for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        up = np.array([0, 0, -1.0])
        self._contact_shadow(corners2, top + card.bend_mm * 0.5)
        if card.pile > 1:
            self._pile_edges(corners2, top - CARD_THICKNESS_MM, index)
        label = card.id if card.face_up else "back"
        image = self._face_image(card)
        strips = 4 if card.bend_mm > 0.05 else 1
        quads = []
        for k in range(strips):
            v0, v1 = k / strips, (k + 1) / strips
            z0 = top + card.bend_mm * 4 * v0 * (1 - v0)
            z1 = top + card.bend_mm * 4 * v1 * (1 - v1)
            tl = centre - w / 2 * ex + (v0 - 0.5) * h * ey + up * z0
            tr = centre + w / 2 * ex + (v0 - 0.5) * h * ey + up * z0
            br = centre + w / 2 * ex + (v1 - 0.5) * h * ey + up * z1
            bl = centre - w / 2 * ex + (v1 - 0.5) * h * ey + up * z1
            quads.append(np.array([tl, tr, br, bl]))
        face_h = image.shape[0]
        for k, quad in enumerate(quads):
            r0, r1 = round(face_h * k / strips), round(face_h * (k + 1) / strips)
            self._paste(image, card_faces.card_alpha(), quad, index, rows=(r0, r1), gloss=True, strip=strips > 1,
                        shade=self._shade(quad) if strips > 1 else 1.0)
        outline = np.array([quads[0][0], quads[0][1], quads[-1][2], quads[-1][3]])
        truth_poly = self.truth_points(outline)
        extra = {"id": card.id, "face_up": card.face_up, "pile": card.pile,
                 "corners_mm": outline[:, :2].round(3).tolist()}
        if card.face_up and card.id != "back":
            extra["index_boxes"] = self._index_boxes(quads, card_faces.index_box_mm(card.id))
        pose = {"x": card.x, "y": card.y, "angle": card.angle, "height_mm": top}
        self.objects.append(ObjectTruth(index, "card", label, pose, truth_poly.round(2).tolist(), 0.0, extra))

    def _face_image(self, card: CardObject) -> np.ndarray:
        card_id = card.id if card.face_up else "back"
        if self.face_source is not None:
            return self.face_source.face(card_id, card.back)
        return card_faces.face(card_id, card.back)

    def _shade(self, quad: np.ndarray) -> float:
        """How much brighter than the flat table a tilted planar piece is (a bent card's strips)."""
        n = np.cross(quad[1] - quad[0], quad[3] - quad[0])
        n /= np.linalg.norm(n) + 1e-12
        if n[2] > 0:
            n = -n  # the side facing up
        light = self.scene.light
        return (light.ambient + light.strength * max(0.0, float(n @ self.to_light))) / max(self.flat, 1e-6)

    def _index_boxes(self, quads: list[np.ndarray], index_box) -> list[dict]:
        """The two corner indices (top-left, bottom-right) as 3D points on the card, then as pixels."""
        x0, y0, x1, y1 = index_box
        W, Hc = CARD_MM
        corners = [(u, v) for box in ((x0, y0, x1, y1), (W - x1, Hc - y1, W - x0, Hc - y0))
                   for u, v in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))]
        uv = np.array(corners) / (W, Hc)
        px = self.truth_points(_on_card(quads, uv[:, 0], uv[:, 1]))
        boxes = []
        for quad in (px[:4], px[4:]):
            lo, hi = quad.min(axis=0), quad.max(axis=0)
            box = [float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])]
            boxes.append({"polygon": quad.round(2).tolist(), "box": box})
        return boxes

    def _contact_shadow(self, corners: np.ndarray, height: float) -> None:
        """Darken under a card: its shadow shifted away from the light, soft, plus a thin dark halo."""
        centre = corners.mean(axis=0)
        grown = centre + (corners - centre) * (1 + 1.2 / 60)
        shift = -self.to_light[:2] / max(-self.to_light[2], 0.2) * height
        shadow = grown.copy()
        shadow[:, :2] += shift
        poly = self.project(np.vstack([shadow, grown]))
        sigma = max(0.8, 0.7 * self.px_per_mm * self.ss)
        strength = 0.18 + 0.35 * self.dir_share * min(1.0, height / 2.0)
        self._darken([cv2.convexHull(poly.astype(np.float32)).reshape(-1, 2)], sigma, strength)

    def _pile_edges(self, corners: np.ndarray, height: float, index: int) -> None:
        """The side of a pile: the cards' edges, a light band with fine lines, under the top card."""
        lower = corners.copy()
        upper = corners + np.array([0, 0, -height])
        hull = cv2.convexHull(self.project(np.vstack([lower, upper])).astype(np.float32)).reshape(-1, 2)
        x0, y0, x1, y1 = _bbox(hull, self.w, self.h)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((hull - (x0, y0)) * (1 << _S)).astype(np.int32)], 255, cv2.LINE_AA, _S)
        a = mask.astype(np.float32) * (1 / 255)
        region = self.canvas[y0:y1, x0:x1]
        edge = np.full_like(region, 200.0)
        # fine dark lines between the cards' edges
        for level in np.linspace(0, height, max(2, min(12, int(height / CARD_THICKNESS_MM / 2)))):
            pts = self.project(corners + np.array([0, 0, -level])) - (x0, y0)
            cv2.polylines(edge, [np.round(pts * (1 << _S)).astype(np.int32)], True, (150, 150, 150), 1, cv2.LINE_AA, _S)
        _blend(region, edge, a)
        self.labels[y0:y1, x0:x1][mask > 127] = index

    def _paste(self, image: np.ndarray, alpha: np.ndarray | None, quad3d: np.ndarray, index: int,
               rows: tuple[int, int] | None = None, gloss: bool = False, strip: bool = False,
               shade: float = 1.0) -> None:
        """Lay ``image`` (rows ``rows`` of it; ``alpha`` its outline, 0..1) onto the canvas where
        the 3D quad appears. ``strip``: a piece of a bent card, whose cut edges must join exactly."""
        dst = self.project(quad3d)
        x0, y0, x1, y1 = _bbox(dst, self.w, self.h, grow=2)
        if x1 <= x0 or y1 <= y0:
            return
        r0, r1 = rows if rows else (0, image.shape[0])
        src_w = image.shape[1]
        # a pre-shrunk copy of the face when it will be much smaller on screen (no aliasing)
        on_screen = max(np.linalg.norm(dst[1] - dst[0]), np.linalg.norm(dst[2] - dst[3]), 1.0)
        level = 0
        while src_w / (2 ** (level + 1)) >= on_screen * 1.2 and level < 3:
            level += 1
        img = _shrunk(_with_alpha(image, alpha), level)  # colour and outline warp together, in one pass
        f = 2 ** level
        src = np.float32([[0, r0 / f], [src_w / f, r0 / f], [src_w / f, r1 / f], [0, r1 / f]]) - 0.5
        H = cv2.getPerspectiveTransform(src, (dst - (x0, y0)).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        # beyond the face's rows a strip samples its neighbours' rows, so strips join without a seam
        warped = cv2.warpPerspective(img, H, size, flags=cv2.INTER_LINEAR)
        # (OpenCV's channel shuffles here are four times as fast as numpy's strided copies)
        alpha8 = cv2.extractChannel(warped, 3)
        if strip:  # the strip's own quad bounds it, so neighbouring strips meet without a seam
            quad_mask = np.zeros(size[::-1], np.uint8)
            cv2.fillConvexPoly(quad_mask, np.round((dst - (x0, y0)) * (1 << _S)).astype(np.int32), 1, cv2.LINE_8, _S)
            alpha8 *= quad_mask
        a = np.multiply(alpha8, 1 / 255, dtype=np.float32)
        colour = cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR).astype(np.float32)
        if shade != 1.0:
            colour *= shade
        if gloss and self.gloss is not None:
            colour = cv2.add(colour, self.gloss[y0:y1, x0:x1])
        region = self.canvas[y0:y1, x0:x1]
        _blend(region, colour, a)
        self.labels[y0:y1, x0:x1][alpha8 > 127] = index

    def _gloss_map(self) -> np.ndarray | None:
        """The light's reflection on glossy cards, over the whole canvas: bright where the light,
        mirrored by a card lying flat, reaches the lens. None when no highlight is in view."""
        if self.scene.effects.glare <= 0:
            return None
        gw, gh = 40, 24
        grid = np.stack(np.meshgrid(np.linspace(0, self.w - 1, gw), np.linspace(0, self.h - 1, gh)), -1).reshape(-1, 2)
        Hinv = np.linalg.inv(self._homography_mm())
        table = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), Hinv).reshape(-1, 2)
        view = self.centre - np.column_stack([table, np.zeros(len(table))])
        view /= np.linalg.norm(view, axis=1, keepdims=True)
        bounced = self.to_light * np.array([-1, -1, 1])  # the light's ray after the mirror of the card
        cos = np.clip(view @ bounced, 0, 1)
        spec = self.scene.effects.glare * 255 * self.scene.light.strength * cos ** 40
        if spec.max() < 2:
            return None
        spec = cv2.resize(spec.reshape(gh, gw).astype(np.float32), (self.w, self.h), interpolation=cv2.INTER_LINEAR)
        return cv2.cvtColor(spec, cv2.COLOR_GRAY2BGR)  # white light: added to B, G and R alike

    def _darken(self, polygons: list[np.ndarray], sigma: float, strength: float) -> None:
        """Multiply the canvas by 1 - strength under the blurred union of ``polygons`` (canvas pixels)."""
        allpts = np.vstack(polygons)
        pad = int(3 * sigma) + 2
        x0, y0, x1, y1 = _bbox(allpts, self.w, self.h, grow=pad)
        if x1 <= x0 or y1 <= y0:
            return
        k = int(min(8, max(1, sigma // 1.5)))  # wide blurs are drawn and blurred small, then enlarged
        size = ((x1 - x0 + k - 1) // k, (y1 - y0 + k - 1) // k)
        mask = np.zeros(size[::-1], np.uint8)
        for poly in polygons:
            if len(poly) >= 3:
                cv2.fillPoly(mask, [np.round((poly - (x0, y0)) / k * (1 << _S)).astype(np.int32)], 255, cv2.LINE_AA, _S)
        if sigma >= 1.5:
            mask = _soften(mask, sigma / k)
        if k > 1:
            mask = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        factor = cv2.LUT(mask, _darkening(round(strength, 3)))  # 1 - strength x coverage, in one pass
        region = self.canvas[y0:y1, x0:x1]
        cv2.multiply(region, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), dst=region)

    # -- 3D pieces --
    def _solids(self, facets: list[Facet]) -> None:
        # Shadows first: every vertex slid along the light onto the table, hull per object.
        shadows: dict[int, list] = {}
        for facet in facets:
            shadows.setdefault(facet.owner, []).append(facet.points)
        polys = []
        for owner, pts in shadows.items():
            pts = np.vstack(pts)
            s = pts[:, 2] / self.to_light[2]
            on_table = pts - s[:, None] * self.to_light
            polys.append(cv2.convexHull(self.project(on_table).astype(np.float32)).reshape(-1, 2))
        softness = self.scene.light.shadow_softness_mm * 0.3 * self.px_per_mm * self.ss
        self._darken(polys, max(1.0, softness), 0.85 * self.dir_share)
        # Far to near; a facet turned away from the lens shows only through translucent plastic.
        depth = np.array([np.linalg.norm(f.points.mean(axis=0) - self.centre) for f in facets])
        for i in np.argsort(-depth):
            facet = facets[i]
            facing = np.dot(facet.normal, self.centre - facet.points.mean(axis=0)) > 0
            if not facing and facet.alpha >= 1.0:
                continue
            self._facet(facet, facing)

    def _facet(self, facet: Facet, facing: bool) -> None:
        light = self.scene.light
        lambert = max(0.0, float(np.dot(facet.normal, self.to_light)))
        shade = (light.ambient + light.strength * lambert) / max(self.flat, 1e-6)
        if not facing:
            shade *= 0.8
        pts = self.project(self.clip_near(facet.points))
        if len(pts) < 3:
            return
        x0, y0, x1, y1 = _bbox(pts, self.w, self.h, grow=1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = _coverage((y1 - y0, x1 - x0), [pts - (x0, y0)])
        colour = np.array(facet.colour, np.float32) * shade
        region = self.canvas[y0:y1, x0:x1]
        if facet.alpha >= 1.0:
            _blend(region, np.full_like(region, colour), mask)
        else:
            # translucent plastic: some light reflects in the plastic's colour, the rest passes tinted
            tint = np.array(facet.colour, np.float32) / 255
            seen = cv2.multiply(region, tuple(float(v) for v in (1 - facet.alpha) * (0.35 + 0.65 * tint)) + (0.0,))
            seen = cv2.add(seen, tuple(float(v) for v in facet.alpha * colour) + (0.0,))
            _blend(region, seen, mask)
        if facing:
            self.labels[y0:y1, x0:x1][mask > 0.5] = facet.owner
            pip_colour = tuple(float(c) * shade for c in facet.pip_colour)
            if facet.pips:  # all of a face's pips in one go: they are small and never overlap
                pips = self.project(np.vstack(facet.pips))
                self._fill(np.split(pips, np.cumsum([len(p) for p in facet.pips])[:-1]), pip_colour)
        if facing and facet.rim:  # a bright rim along the edges, where the plastic's bevel catches the light
            cv2.polylines(region, [np.round((pts - (x0, y0)) * (1 << _S)).astype(np.int32)], True,
                          tuple(float(min(255.0, c * 1.15 + 20)) for c in colour), 1, cv2.LINE_AA, _S)

    def _fill(self, polygons: list[np.ndarray], colour: tuple[float, float, float]) -> None:
        """Opaque anti-aliased convex polygons (canvas pixels) that do not overlap, blended over
        their common small box."""
        x0, y0, x1, y1 = _bbox(np.vstack(polygons), self.w, self.h, grow=1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = _coverage((y1 - y0, x1 - x0), [pts - (x0, y0) for pts in polygons])
        region = self.canvas[y0:y1, x0:x1]
        _blend(region, np.full_like(region, colour), mask)

    # -- hands --
    def _hand(self, hand) -> None:
        index = self._new_object("hand", "hand", _pose(hand), {"height_mm": hand.height_mm})
        parts = hand_parts(hand)
        skin = np.array(hand.skin, np.float32)
        sleeve = np.array(hand.sleeve if hand.sleeve is not None else hand.skin, np.float32)
        # the shadow on the table: the parts slid along the light, blurred with their height
        shadow_polys = []
        for pts, _ in parts:
            s = pts[:, 2] / self.to_light[2]
            on_table = pts - s[:, None] * self.to_light
            shadow_polys.append(self.project(on_table))
        # a hand high above the table casts a wide, faint shadow; near the table, a sharp dark one
        blur = max(2.0, (4 + self.scene.light.shadow_softness_mm * hand.height_mm / 40) * self.px_per_mm * self.ss)
        self._darken(shadow_polys, blur, (0.6 * self.dir_share + 0.1) * (1.2 - min(hand.height_mm, 200) / 250))
        polys = [(self.project(self.clip_near(pts)), is_sleeve) for pts, is_sleeve in parts]
        polys = [(p, sl) for p, sl in polys if len(p) >= 3]
        smear = int(hand.motion_px * self.ss) + 2
        x0, y0, x1, y1 = _bbox(np.vstack([p for p, _ in polys]), self.w, self.h, grow=smear) if polys else (0, 0, 0, 0)
        if x1 <= x0 or y1 <= y0:
            self.objects[index - 1].polygon = []
            return
        # a hand above the table is out of the focal plane (soft), and a moving one smears
        defocus = (0.4 + hand.height_mm / 70) * self.ss
        smear_px = hand.motion_px * self.ss if hand.motion_px >= 1 else 0.0
        # so blurred a hand loses nothing drawn at half the resolution, for a quarter of the work
        k = 2 if defocus >= 1.2 or smear_px >= 6 else 1
        size = (y1 - y0 + k - 1) // k, (x1 - x0 + k - 1) // k
        flat = np.zeros((*size, 3), np.uint8)  # colour x coverage (premultiplied): 0 off the hand
        outlines = []
        for poly, is_sleeve in polys:
            small = (poly - (x0, y0) + 0.5) / k - 0.5  # pixel centres of the full size, in small pixels
            outlines.append(small)
            cv2.fillConvexPoly(flat, np.round(small * (1 << _S)).astype(np.int32),
                               tuple(float(v) for v in (sleeve if is_sleeve else skin)), cv2.LINE_AA, _S)
        m = _coverage(size, outlines)
        # rounded limbs: darker towards their outline
        inside = cv2.distanceTransform((m > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
        radius = max(2.0, hand.width_mm * 0.12 * self.px_per_mm * self.ss / k)
        shading = (0.7 + 0.3 * np.sqrt(np.clip(inside / radius, 0, 1))).astype(np.float32)
        shading *= (self.scene.light.ambient + self.scene.light.strength * 0.8) / max(self.flat, 1e-6)
        c = cv2.multiply(flat.astype(np.float32), cv2.cvtColor(shading, cv2.COLOR_GRAY2BGR))
        c = cv2.GaussianBlur(c, (0, 0), defocus / k)
        m = cv2.GaussianBlur(m, (0, 0), defocus / k)
        if smear_px:
            kernel = _motion(smear_px / k, _image_angle(self, hand))
            c = cv2.filter2D(c, -1, kernel)
            m = cv2.filter2D(m, -1, kernel)
        if k > 1:
            full = (size[1] * k, size[0] * k)
            c = cv2.resize(c, full, interpolation=cv2.INTER_LINEAR)[:y1 - y0, :x1 - x0]
            m = cv2.resize(m, full, interpolation=cv2.INTER_LINEAR)[:y1 - y0, :x1 - x0]
        c = cv2.divide(c, cv2.cvtColor(np.maximum(m, 1e-3), cv2.COLOR_GRAY2BGR))
        region = self.canvas[y0:y1, x0:x1]
        _blend(region, c, m)
        self.labels[y0:y1, x0:x1][m > 0.5] = index
        hull = np.vstack([self.clip_near(p) for p, _ in parts])
        truth = self.objects[index - 1]
        hull_px = cv2.convexHull(self.truth_points(hull).astype(np.float32)).reshape(-1, 2)
        truth.polygon = hull_px.round(1).tolist()

    # -- light, lens, measurement --
    def _light_gain(self) -> np.ndarray:
        """The lamp is nearer one side of the table: a smooth gain over the output picture, brighter
        towards the light (computed on a coarse grid of the real, distorted view)."""
        light, cam = self.scene.light, self.camera
        gw, gh = 32, 18
        grid = np.stack(np.meshgrid(np.linspace(0, cam.width - 1, gw), np.linspace(0, cam.height - 1, gh)), -1)
        table = cam.table_points_of_pixels(grid.reshape(-1, 2))
        along = (table - np.asarray(self.scene.camera.target_mm)) @ self.to_light[:2] / max(
            np.linalg.norm(self.to_light[:2]), 1e-6) / self.scene.camera.distance_mm
        return np.clip(1 + light.falloff * np.tanh(along), 0.3, 2.0).reshape(gh, gw).astype(np.float32)

    def _lens(self) -> tuple[np.ndarray, np.ndarray]:
        """The canvas seen through the lens distortion, at the output size."""
        if not self.distorted and self.ss == 1:
            return self.canvas, self.labels
        if self.distorted:
            where = _distortion_maps(self.big, self.pad)
            image = cv2.remap(self.canvas, where, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            labels = cv2.remap(self.labels, where, None, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
        else:
            image, labels = self.canvas, self.labels
        if self.ss > 1:
            image = cv2.resize(image, (self.camera.width, self.camera.height), interpolation=cv2.INTER_AREA)
            c = self.ss // 2
            labels = labels[c::self.ss, c::self.ss][:self.camera.height, :self.camera.width]
        return image, labels

    def _measure(self, labels: np.ndarray) -> None:
        counts = np.bincount(labels.ravel(), minlength=len(self.objects) + 1)
        for truth in self.objects:
            poly = np.asarray(truth.polygon, np.float32)
            if len(poly) < 3:
                truth.visible = 0.0
                continue
            area = cv2.contourArea(cv2.convexHull(poly)) if truth.kind != "card" else cv2.contourArea(poly)
            truth.visible = round(float(min(1.0, counts[truth.index] / max(area, 1.0))), 4)
            for box in truth.extra.get("index_boxes", []):
                box["visible"] = _share(labels, np.asarray(box["polygon"]), truth.index)



@lru_cache(maxsize=256)
def _darkening(strength: float) -> np.ndarray:
    return (1 - strength * np.arange(256) / 255).astype(np.float32)


def _soften(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian-like blur of ``sigma`` pixels as three box blurs (a shadow's soft edge; a
    fifth of the cost of OpenCV's Gaussian on small 8-bit masks). Each box of odd width w adds
    (w^2 - 1) / 12 to the variance: the widths are picked, widest first, to sum to sigma^2."""
    need = sigma * sigma
    for left in (3, 2, 1):
        w = max(1, 2 * round((math.sqrt(12 * need / left + 1) - 1) / 2) + 1)
        if w > 1:
            mask = cv2.blur(mask, (w, w))
        need = max(0.0, need - (w * w - 1) / 12)
    return mask


def _coverage(shape: tuple[int, int], polygons: list[np.ndarray]) -> np.ndarray:
    """How much of each pixel (0..1, float32) convex ``polygons`` (pixels, sub-pixel precise)
    cover. Drawn in 8 bits: OpenCV anti-aliases only there (a float mask comes out jagged)."""
    mask = np.zeros(shape, np.uint8)
    for pts in polygons:
        cv2.fillConvexPoly(mask, np.round(pts * (1 << _S)).astype(np.int32), 255, cv2.LINE_AA, _S)
    return np.multiply(mask, 1 / 255, dtype=np.float32)


def _blend(region: np.ndarray, colour: np.ndarray, alpha: np.ndarray) -> None:
    """region = alpha * colour + (1 - alpha) * region, in place (OpenCV's blend: numpy's broadcast
    over colour channels is ten times slower here)."""
    region[:] = cv2.blendLinear(colour, region, alpha, 1 - alpha)


def _image_angle(painter: _Painter, hand) -> float:
    """The direction, in the picture, of the hand's arm: hands reaching in move along it."""
    a = math.radians(hand.angle)
    ends = painter.project(np.array([[hand.x, hand.y, -hand.height_mm],
                                     [hand.x + 50 * math.cos(a), hand.y + 50 * math.sin(a), -hand.height_mm]]))
    d = ends[1] - ends[0]
    return math.degrees(math.atan2(d[1], d[0]))


def _pose(obj) -> dict:
    return {"x": obj.x, "y": obj.y, "angle": obj.angle}


def _share(labels: np.ndarray, polygon: np.ndarray, index: int) -> float:
    """The share of a polygon's pixels (inside the picture or not) that show object ``index``."""
    h, w = labels.shape
    area = max(cv2.contourArea(polygon.astype(np.float32)), 1.0)
    x0, y0, x1, y1 = _bbox(polygon, w, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((polygon - (x0, y0)) * (1 << _S)).astype(np.int32), 1, cv2.LINE_8, _S)
    seen = np.count_nonzero((labels[y0:y1, x0:x1] == index) & (mask > 0))
    return round(float(min(1.0, seen / area)), 4)


def _on_card(quads: list[np.ndarray], u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The 3D points at face coordinates (u across, v down, 0..1; arrays) of a card made of strips."""
    n = len(quads)
    k = np.minimum((v * n).astype(int), n - 1)
    corners = np.asarray(quads)[k]  # each point's strip: tl, tr, br, bl
    f = (v * n - k)[:, None]
    top = corners[:, 0] + (corners[:, 1] - corners[:, 0]) * u[:, None]
    bottom = corners[:, 3] + (corners[:, 2] - corners[:, 3]) * u[:, None]
    return top + (bottom - top) * f


def _bbox(points: np.ndarray, w: int, h: int, grow: int = 1) -> tuple[int, int, int, int]:
    x0 = max(0, int(math.floor(points[:, 0].min())) - grow)
    y0 = max(0, int(math.floor(points[:, 1].min())) - grow)
    x1 = min(w, int(math.ceil(points[:, 0].max())) + grow + 1)
    y1 = min(h, int(math.ceil(points[:, 1].max())) + grow + 1)
    return x0, y0, x1, y1


def _tiled_cover(texture: np.ndarray, H: np.ndarray, size: tuple[int, int], most: int = 12_000_000
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The seamless ``texture`` repeated to cover all the texels the picture of ``size`` shows
    through the texel-to-pixel homography ``H``, and the shift that maps the big tile's texels to
    the small one's (so ``H @ shift`` warps it); None when that would take more than ``most``
    texels (a camera looking far across the table), where copying them costs more than it saves."""
    w, h = size
    frame = np.float64([[[0, 0], [w, 0], [w, h], [0, h]]])
    try:
        corners = cv2.perspectiveTransform(frame, np.linalg.inv(H))[0]
    except np.linalg.LinAlgError:
        return None
    if not np.isfinite(corners).all():
        return None
    th, tw = texture.shape[:2]
    lo = np.floor(corners.min(axis=0)) - 2
    hi = np.ceil(corners.max(axis=0)) + 2
    ox, oy = math.floor(lo[0] / tw) * tw, math.floor(lo[1] / th) * th
    cols, rows = int((hi[0] - ox) // tw) + 1, int((hi[1] - oy) // th) + 1
    if cols * rows * tw * th > most:
        return None
    shift = np.array([[1.0, 0, ox], [0, 1.0, oy], [0, 0, 1.0]])
    return np.tile(texture, (rows, cols, 1)), shift


def _motion(length: float, angle_deg: float) -> np.ndarray:
    from vision.synth.sensor import motion_kernel
    return motion_kernel(length, angle_deg)


_SHRUNK: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _shrunk(image: np.ndarray, level: int) -> np.ndarray:
    """``image`` halved ``level`` times (cached per image object: faces are cached and never change)."""
    if level == 0:
        return image
    return _cached(image, level, lambda: _halve(image, level))


def _halve(image: np.ndarray, level: int) -> np.ndarray:
    for _ in range(level):
        image = cv2.pyrDown(image)
    return image


def _with_alpha(image: np.ndarray, alpha: np.ndarray | None) -> np.ndarray:
    """A BGRA copy of a face (uint8), its outline in the alpha channel; cached per face."""
    def build():
        a = np.full(image.shape[:2], 255, np.uint8) if alpha is None else np.round(alpha * 255).astype(np.uint8)
        return np.dstack([np.clip(image, 0, 255).astype(np.uint8), a])
    return _cached(image, -1, build)


def _cached(image: np.ndarray, key: int, build) -> np.ndarray:
    entry = _SHRUNK.get((id(image), key))
    if entry is None or entry[0] is not image:  # an id may be reused once an image is gone
        if len(_SHRUNK) > 1024:
            _SHRUNK.clear()
        entry = (image, build())
        _SHRUNK[(id(image), key)] = entry
    return entry[1]


@lru_cache(maxsize=8)
def _mat_paper(game: str, paper: str, options: str = "") -> np.ndarray:
    """The printed mat at 4 px/mm, on slightly warm paper (BGR uint8)."""
    from calibration.mats import mat_layout

    from vision.synth.scene import MatObject

    grey = mat_layout(game, paper, MatObject(game, paper, options).option_values()).drawing().raster(4)
    grey = grey.astype(np.float32)
    return np.clip(grey[..., None] * np.array([0.97, 0.99, 1.0], np.float32), 0, 255).astype(np.uint8)


@lru_cache(maxsize=4)
def _face_folder(path: str):
    return card_faces.FaceFolder(path)


def _distortion_margin(camera: PinholeCamera) -> tuple[int, int]:
    """How far outside the frame the lens distortion reaches for pixels, so the canvas covers it."""
    w, h = camera.width, camera.height
    edge = np.array([(x, y) for x in np.linspace(0, w - 1, 17) for y in (0, h - 1)] +
                    [(x, y) for y in np.linspace(0, h - 1, 11) for x in (0, w - 1)], np.float64)
    und = cv2.undistortPoints(edge.reshape(-1, 1, 2), camera.K, camera.dist, P=camera.K).reshape(-1, 2)
    px = max(0.0, -und[:, 0].min(), und[:, 0].max() - (w - 1))
    py = max(0.0, -und[:, 1].min(), und[:, 1].max() - (h - 1))
    return min(int(math.ceil(px)) + 4, w // 2), min(int(math.ceil(py)) + 4, h // 2)


def _distortion_maps(camera: PinholeCamera, pad: tuple[int, int]) -> np.ndarray:
    """For every output pixel, where to sample the undistorted canvas (x, y in one two-channel
    map). The distortion is smooth: it is solved on a coarse grid, one sample at the middle of
    every step x step block plus a ring outside the frame, and enlarged by a plain linear resize,
    whose sample positions then fall exactly on the grid's (exact to a hundredth of a pixel)."""
    w, h = camera.width, camera.height
    step = 16
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
    xs = (np.arange(nx) - 0.5) * step - 0.5  # block centres, from one block before the frame
    ys = (np.arange(ny) - 0.5) * step - 0.5
    grid = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(grid, camera.K, camera.dist, P=camera.K,
                              criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9))
    und = (und.reshape(ny, nx, 2) + np.asarray(pad, np.float64)).astype(np.float32)
    fine = cv2.resize(und, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    return fine[step:step + h, step:step + w]
