"""The 3D pieces as flat facets: Looney pyramids, a d6 and player tokens.

Every piece becomes a list of :class:`Facet` (a planar convex polygon in table millimetres, z up
being negative as in :mod:`vision.synth.camera`) with its colour, opacity, outward normal and the
pips printed on it. The renderer culls, shades, sorts and fills them; nothing here draws.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from referee.dice import Die
from referee.pyramids import STANDARD_COLOURS, Stack
from vision.synth.scene import ClutterObject, DieObject, PyramidObject, TokenObject

# Plastic colours (BGR) of the Rainbow and Xeno sets plus pink.
PYRAMID_BGR = {"red": (45, 40, 205), "yellow": (40, 215, 240), "green": (70, 170, 40), "blue": (190, 100, 25),
               "black": (35, 35, 35), "cyan": (215, 195, 40), "orange": (30, 130, 245), "purple": (140, 45, 115),
               "clear": (235, 235, 230), "white": (240, 240, 240), "pink": (185, 140, 250)}
PIP_RADIUS_MM = 1.3


@dataclass
class Facet:
    points: np.ndarray  # k x 3, table mm, counter-clockwise seen from outside
    colour: tuple[float, float, float]
    alpha: float  # 1 opaque; translucent plastic lets the light through tinted
    owner: int  # which object of the scene this belongs to (its truth index)
    pips: list[np.ndarray] = field(default_factory=list)  # polygons (k x 3) lying on the facet
    pip_colour: tuple[float, float, float] = (30, 30, 30)
    normal: np.ndarray | None = None  # outward unit normal; computed from the points when None
    rim: bool = False  # a hard edge that catches the light (a pyramid's or a die's), not a curved surface

    def __post_init__(self) -> None:
        if self.normal is None:
            p = self.points
            n = np.cross(p[1] - p[0], p[2] - p[0])
            self.normal = n / (np.linalg.norm(n) + 1e-12)


def pyramid_colour(colour: str) -> tuple[tuple[float, float, float], float]:
    """BGR colour and opacity of a pyramid colour; colours we do not know get a stable made-up one."""
    if colour in PYRAMID_BGR:
        bgr = PYRAMID_BGR[colour]
    else:
        digest = hashlib.sha1(colour.encode()).digest()
        bgr = (40 + digest[0] % 200, 40 + digest[1] % 200, 40 + digest[2] % 200)
    translucent = STANDARD_COLOURS.get(colour, False)
    return bgr, (0.35 if colour == "clear" else 0.62) if translucent else 1.0


def stack_levels(stack: Stack) -> list[tuple[int, float]]:
    """(index, base height in mm) of each pyramid a camera sees in the stack, bottom to top.

    A pyramid of the same size or larger slides over the one below and stands on its base level
    (a nest); a smaller one perches where the one below is as wide as its own base (a tree).
    """
    levels, bases = [], []
    for i, p in enumerate(stack.pyramids):
        if not bases:
            base = 0.0
        else:
            below, below_base = stack.pyramids[i - 1], bases[-1]
            if p.size >= below.size:
                base = below_base
            else:
                base = below_base + below.size.height_mm * (1 - p.size.base_mm / below.size.base_mm)
        bases.append(base)
        levels.append((i, base))
    shown = []
    biggest_above = 0
    for i in reversed(range(len(stack.pyramids))):
        if stack.pyramids[i].size > biggest_above:
            shown.append(levels[i])
        biggest_above = max(biggest_above, stack.pyramids[i].size)
    return sorted(shown)


def pyramid_facets(obj: PyramidObject, owner: int) -> list[Facet]:
    if obj.lying:
        return _lying_pyramid_facets(obj, owner)
    stack = Stack.parse(obj.stack)
    facets = []
    a = math.radians(obj.angle)
    ex, ey = np.array([math.cos(a), math.sin(a), 0.0]), np.array([-math.sin(a), math.cos(a), 0.0])
    centre = np.array([obj.x, obj.y, 0.0])
    for index, base in stack_levels(stack):
        p = stack.pyramids[index]
        half, height = p.size.base_mm / 2, p.size.height_mm
        z0 = np.array([0, 0, -base])
        corners = [centre + z0 + half * (sx * ex + sy * ey) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        apex = centre + z0 + np.array([0, 0, -height])
        colour, alpha = pyramid_colour(p.colour)
        pip_colour = tuple(c * 0.55 for c in colour) if alpha == 1.0 or p.colour != "clear" else (150, 150, 150)
        for k in range(4):
            a_, b_ = corners[k], corners[(k + 1) % 4]
            # a_, apex, b_ winds outward for a base listed clockwise in the (x, y-down) table frame
            tri = np.array([a_, b_, apex])
            facet = Facet(tri, colour, alpha, owner, _pyramid_pips(a_, b_, apex, p.pips), pip_colour, rim=True)
            if facet.normal[2] > 0:  # make the normal point out of the solid
                facet.points, facet.normal = tri[::-1].copy(), -facet.normal
            facets.append(facet)
    return facets


def lying_footprint(obj: PyramidObject) -> tuple[float, float, float]:
    """(length along the tip's direction, width, height above the table) of a lying pyramid."""
    p = Stack.parse(obj.stack).visible()[-1]
    b, h = p.size.base_mm, p.size.height_mm
    slant = math.hypot(h, b / 2)
    return slant, b, b * h / slant


def _lying_pyramid_facets(obj: PyramidObject, owner: int) -> list[Facet]:
    """A pyramid lying on one face, its tip along ``obj.angle``.

    The face on the table is a triangle: its base edge across the tip's direction, the tip a slant
    height (``s``) further on. The base square stands tilted over that edge: its far edge at
    ``b * h / s`` above the table, ``b**2 / (2 s)`` towards the tip (the base is square to the
    pyramid's axis, which runs from the base's middle to the tip)."""
    p = Stack.parse(obj.stack).visible()[-1]  # a nest looks like its outer pyramid
    b, h = p.size.base_mm, p.size.height_mm
    s = math.hypot(h, b / 2)
    a = math.radians(obj.angle)
    u = np.array([math.cos(a), math.sin(a), 0.0])  # towards the tip
    v = np.array([-math.sin(a), math.cos(a), 0.0])
    up = np.array([0.0, 0.0, -1.0])  # table frame: height is -z
    edge_mid = np.array([obj.x, obj.y, 0.0]) - u * s / 2
    A, B = edge_mid - v * b / 2, edge_mid + v * b / 2
    raised = edge_mid + u * b * b / (2 * s) + up * b * h / s
    C, D = raised + v * b / 2, raised - v * b / 2
    tip = edge_mid + u * s
    inside = (A + B + C + D) / 4 * 0.75 + tip * 0.25
    colour, alpha = pyramid_colour(p.colour)
    pip_colour = tuple(c * 0.55 for c in colour) if alpha == 1.0 or p.colour != "clear" else (150, 150, 150)
    facets = []
    for pts, pips in ((np.array([A, B, C, D]), []),
                      *((np.array([e0, e1, tip]), _pyramid_pips(e0, e1, tip, p.pips)) for e0, e1 in
                        ((A, B), (B, C), (C, D), (D, A)))):
        facet = Facet(pts, colour, alpha, owner, pips, pip_colour, rim=True)
        if np.dot(facet.normal, pts.mean(axis=0) - inside) < 0:  # make the normal point out of the solid
            facet.points, facet.normal = pts[::-1].copy(), -facet.normal
        facets.append(facet)
    return facets


def _pyramid_pips(a: np.ndarray, b: np.ndarray, apex: np.ndarray, count: int) -> list[np.ndarray]:
    """The pips moulded near the base of each face, side by side."""
    mid = (a + b) / 2
    up = apex - mid
    slant = np.linalg.norm(up)
    up /= slant
    along = (b - a) / np.linalg.norm(b - a)
    spacing = PIP_RADIUS_MM * 2.6
    centres = [mid + up * (slant * 0.12 + PIP_RADIUS_MM) + along * spacing * (i - (count - 1) / 2)
               for i in range(count)]
    return [_circle(c, along, up, PIP_RADIUS_MM) for c in centres]


# A die's pips in face coordinates (-1..1): standard Western layouts.
_DIE_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def die_facets(obj: DieObject, owner: int) -> list[Facet]:
    """A cube whose faces carry the numbers of ``obj.orientation``: top, north (-y), east (+x)."""
    die = Die.parse(obj.orientation)
    s = obj.size_mm
    a = math.radians(obj.angle)
    east = np.array([math.cos(a), math.sin(a), 0.0])
    south = np.array([-math.sin(a), math.cos(a), 0.0])
    up = np.array([0.0, 0.0, -1.0])
    centre = np.array([obj.x, obj.y, -s / 2])
    faces = {"top": (up, east, south, die.top), "N": (-south, east, up, die.north), "S": (south, -east, up, die.south),
             "E": (east, -south, up, die.east), "W": (-east, south, up, die.west)}
    facets = []
    for normal, u, v, value in faces.values():
        c = centre + normal * s / 2
        quad = np.array([c + (su * u + sv * v) * s / 2 for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        if np.dot(np.cross(quad[1] - quad[0], quad[2] - quad[0]), normal) < 0:
            quad = quad[::-1].copy()
        pips = [_circle(c + (px * u + py * v) * s * 0.27, u, v, s * 0.09) for px, py in _DIE_PIPS[value]]
        facets.append(Facet(quad, obj.colour, 1.0, owner, pips, obj.pip_colour, normal, rim=True))
    return facets


def token_facets(obj: TokenObject, owner: int, segments: int = 20) -> list[Facet]:
    """A disc (a short cylinder) or a pawn (base, tapering body and a round head)."""
    r, h = obj.radius_mm, obj.height_mm
    centre = np.array([obj.x, obj.y, 0.0])
    if obj.shape == "disc":
        return _frustum(centre, r, r, 0, h, obj.colour, owner, segments)
    facets = _frustum(centre, r, r, 0, h * 0.22, obj.colour, owner, segments, top=False)
    facets += _frustum(centre, r * 0.72, r * 0.32, h * 0.22, h * 0.78, obj.colour, owner, segments, top=False)
    facets += _ball(centre + np.array([0, 0, -h * 0.78 - r * 0.2]), r * 0.45, obj.colour, owner)
    return facets


def clutter_facets(obj: ClutterObject, owner: int) -> list[Facet]:
    """A box, a cylinder or a sheet of paper (a box 0.3 mm high) standing on the table."""
    length, width, height = obj.size_mm
    if obj.shape == "cylinder":
        return _frustum(np.array([obj.x, obj.y, 0.0]), width / 2, width / 2, 0, height, obj.colour, owner, 28)
    if obj.shape == "sheet":
        height = 0.3
    a = math.radians(obj.angle)
    ex = np.array([math.cos(a), math.sin(a), 0.0]) * length / 2
    ey = np.array([-math.sin(a), math.cos(a), 0.0]) * width / 2
    up = np.array([0.0, 0.0, -height])
    centre = np.array([obj.x, obj.y, 0.0])
    base = [centre + sx * ex + sy * ey for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    facets = [Facet(np.array([p + up for p in base]), obj.colour, 1.0, owner, normal=np.array([0.0, 0.0, -1.0]))]
    if obj.shape == "box":
        for k in range(4):
            p, q = base[k], base[(k + 1) % 4]
            side = np.array([p, q, q + up, p + up])
            outward = (p + q) / 2 - centre
            facets.append(Facet(side, obj.colour, 1.0, owner, normal=outward / np.linalg.norm(outward), rim=True))
    return facets


def _frustum(centre, r0, r1, z0, z1, colour, owner, segments, top=True) -> list[Facet]:
    t = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = np.column_stack([np.cos(t), np.sin(t), np.zeros_like(t)])
    lower = centre + ring * r0 + [0, 0, -z0]
    upper = centre + ring * r1 + [0, 0, -z1]
    facets = []
    for i in range(segments):
        j = (i + 1) % segments
        quad = np.array([lower[i], lower[j], upper[j], upper[i]])
        mid = ring[i] + ring[j]
        normal = np.array([mid[0], mid[1], -(r0 - r1) / max(z1 - z0, 1e-6)])
        facets.append(Facet(quad, colour, 1.0, owner, normal=normal / np.linalg.norm(normal)))
    if top:
        facets.append(Facet(upper[::-1].copy(), colour, 1.0, owner, normal=np.array([0.0, 0.0, -1.0])))
    return facets


def _ball(centre, radius, colour, owner, rings: int = 6, segments: int = 12) -> list[Facet]:
    facets = []
    phi = np.linspace(0, np.pi, rings + 1)
    theta = np.linspace(0, 2 * np.pi, segments + 1)

    def point(p, t):
        return centre + radius * np.array([math.sin(p) * math.cos(t), math.sin(p) * math.sin(t), -math.cos(p)])

    for i in range(rings):
        for j in range(segments):
            quad = np.array([point(phi[i], theta[j]), point(phi[i + 1], theta[j]), point(phi[i + 1], theta[j + 1]),
                             point(phi[i], theta[j + 1])])
            mid = quad.mean(axis=0) - centre
            facets.append(Facet(quad, colour, 1.0, owner, normal=mid / np.linalg.norm(mid)))
    return facets


def _circle(centre: np.ndarray, u: np.ndarray, v: np.ndarray, radius: float, n: int = 10) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return centre + radius * (np.cos(t)[:, None] * u + np.sin(t)[:, None] * v)
