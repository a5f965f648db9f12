"""Rendered scenes for fitting and measuring the pieces reader, and the scoring of a reading against the truth.

Seeds split the work: the palette (``models/pieces/recipe.py``) is fitted on seeds from
:data:`FIT_SEEDS`; tests and benchmarks measure on :data:`MEASURE_SEEDS`, which fitting never uses.
Every scene varies the surface, the light (warm 2700 K to cool 7500 K bulbs, a lamp casting
shadows from anywhere) and the camera (30-75 cm away, up to 40 degrees of tilt, 1280x720).
"""

from __future__ import annotations

import math

import numpy as np

from calibration.homography import TableCalibration
from calibration.intrinsics import CameraIntrinsics
from calibration.mats import mat_layout
from referee.dice import Die
from referee.pyramids import STANDARD_COLOURS, Stack
from vision.pieces.reader import PieceReader
from vision.pieces.tokens import TokenRegistry
from vision.synth.random_scene import _effects, _Draw, _surface
from vision.synth.render import Rendering, camera_of, render
from vision.synth.scene import (Camera, CardObject, DieObject, Effects, Light, MatObject, PyramidObject, Scene,
                                TokenObject)

FIT_SEEDS = range(0, 100_000)  # fitting and choosing thresholds: any seed below the measured ones
MEASURE_SEEDS = range(100_000, 101_000)
COLOURS = list(STANDARD_COLOURS)


def calibration_of(scene: Scene) -> TableCalibration:
    """The exact table calibration of a scene's camera (what a perfect mat calibration would give)."""
    cam = camera_of(scene)
    intrinsics = CameraIntrinsics(cam.K, cam.dist, (cam.width, cam.height)) if np.any(cam.dist != 0) else None
    return TableCalibration(cam.image_from_table(), (cam.width, cam.height), intrinsics)


def _setting(r: _Draw, target: tuple[float, float]) -> dict:
    rng = r.rng
    camera = Camera(target_mm=target, distance_mm=r.u(300, 750), tilt_deg=r.u(0, 40), yaw_deg=r.u(-25, 25),
                    roll_deg=r.u(-3, 3), size=(1280, 720), hfov_deg=r.u(55, 75))
    light = Light(ambient=r.u(0.35, 0.7), strength=r.u(0.3, 0.8), azimuth_deg=r.u(0, 360), elevation_deg=r.u(30, 80),
                  kelvin=float(rng.choice([r.u(2700, 3500), r.u(4500, 5500), r.u(6500, 7500)])),
                  falloff=r.u(0, 0.3), shadow_softness_mm=r.u(2, 8))
    effects = _effects(r)
    effects = Effects(**{**effects.__dict__, "motion_blur_px": 0.0, "saturation": max(effects.saturation, 0.7),
                         "focus_blur_px": min(effects.focus_blur_px, 1.5), "jpeg_quality": 0 if effects.jpeg_quality
                         == 0 else max(effects.jpeg_quality, 70)})
    return {"surface": _surface(r), "camera": camera, "light": light, "effects": effects}


def random_stack(r: _Draw) -> str:
    """A single, a nest (its outer pyramid shows) or a tree of random colours."""
    rng = r.rng
    kind = rng.choice(["single", "nest", "tree"], p=[0.5, 0.15, 0.35])
    c = lambda: str(rng.choice(COLOURS))  # noqa: E731
    if kind == "single":
        return f"{c()}{int(rng.integers(1, 4))}"
    if kind == "nest":
        colour = c()
        return "+".join(f"{colour}{s}" for s in (1, 2, 3)[int(rng.integers(0, 2)):])
    sizes = [(3, 2), (3, 1), (2, 1), (3, 2, 1)][int(rng.integers(4))]
    colours = [c()]
    for _ in sizes[1:]:
        colours.append(str(rng.choice([x for x in COLOURS if x != colours[-1]])))
    return "+".join(f"{col}{s}" for col, s in zip(colours, sizes))


def piece_scene(seed: int, tokens: list[TokenObject] | None = None) -> Scene:
    """Pyramid stacks, a die and the given tokens spread on a grid (5 cm apart) on a random table."""
    r = _Draw(np.random.default_rng(seed))
    rng = r.rng
    spots = [(60.0 + 55 * i + r.u(-4, 4), 60.0 + 55 * j + r.u(-4, 4)) for j in range(3) for i in range(4)]
    order = rng.permutation(len(spots))
    spots = [spots[k] for k in order]
    n_tokens = len(tokens or [])
    pyramids = [PyramidObject(random_stack(r), *spots[k], angle=r.u(0, 90)) for k in range(7 - n_tokens)]
    die = DieObject(str(Die.orientations()[int(rng.integers(24))]), *spots[7], angle=r.u(0, 90), size_mm=r.u(14, 18))
    placed = [TokenObject(t.label, *spots[8 + k], colour=t.colour, shape=t.shape, radius_mm=t.radius_mm,
                          height_mm=t.height_mm) for k, t in enumerate(tokens or [])]
    return Scene(**_setting(r, (142.0, 115.0)), pyramids=pyramids, dice=[die], tokens=placed, seed=seed)


def _near_middles(layout, r: _Draw):
    """Where a hand puts a piece on one of the mat's places: within 4 mm of its middle."""
    zones = {z.name: z for z in layout.zones}

    def centre(name: str) -> tuple[float, float]:
        z = zones[name]
        return z.x_mm + z.w_mm / 2 + r.u(-4, 4), z.y_mm + z.h_mm / 2 + r.u(-4, 4)
    return centre


def pungo_setup_scene(seed: int) -> Scene:
    """Pungo's opening as the rules set it up, on the A3 mat: the four red stacks of the setup picture on the
    middle row (two nests, a tree, a nest of two) and the die on the roll grid's centre, 1 up."""
    from referee.games.pungo.setup import ONE_COLOUR_SETUP

    r = _Draw(np.random.default_rng(seed))
    layout = mat_layout("pungo", "A3")
    centre = _near_middles(layout, r)

    cells = ("arena/r2c1", "arena/r2c2", "arena/r2c3", "arena/r2c4")
    pyramids = [PyramidObject(s, *centre(c), angle=r.u(0, 90)) for c, s in zip(cells, ONE_COLOUR_SETUP)]
    die = DieObject(str(Die.orientations(top=1)[int(r.rng.integers(4))]), *centre("roll/r2c2"), angle=r.u(0, 90))
    ox, oy = layout.origin_on_paper
    setting = _setting(r, (layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy))
    setting["camera"].distance_mm = r.u(550, 750)
    return Scene(**setting, mat=MatObject("pungo", "A3"), pyramids=pyramids, dice=[die], seed=seed)


def pungo_scene(seed: int) -> Scene:
    """A Pungo game under way on the A3 mat: eight stacks of two colours (singles, nests, trees) on the home
    rows, the die on the roll grid."""
    r = _Draw(np.random.default_rng(seed))
    layout = mat_layout("pungo", "A3")
    centre = _near_middles(layout, r)

    a, b = r.rng.choice(COLOURS, 2, replace=False)
    stacks = {"arena/r1c1": f"{a}3", "arena/r1c2": f"{a}1+{a}2", "arena/r1c3": f"{a}3+{b}1", "arena/r1c4": f"{a}2",
              "arena/r3c1": f"{b}3", "arena/r3c2": f"{b}2+{a}1", "arena/r3c3": f"{b}1", "arena/r3c4": f"{b}1+{b}2+{b}3"}
    pyramids = [PyramidObject(s, *centre(n), angle=r.u(0, 90)) for n, s in stacks.items()]
    die = DieObject(str(Die.orientations()[int(r.rng.integers(24))]), *centre("roll/r2c2"), angle=r.u(0, 90))
    ox, oy = layout.origin_on_paper
    setting = _setting(r, (layout.paper_mm[0] / 2 - ox, layout.paper_mm[1] / 2 - oy))
    setting["camera"].distance_mm = r.u(550, 750)
    return Scene(**setting, mat=MatObject("pungo", "A3"), pyramids=pyramids, dice=[die], seed=seed)


def deck_town_scene(seed: int) -> Scene:
    """A Deck Town board: six Decktet cards in a 3x2 grid, pyramids standing on them and beside them."""
    r = _Draw(np.random.default_rng(seed))
    ids = ["mountain", "sailor", "forest", "market", "origin", "battle"]
    cards = [CardObject(i, 60 + 70 * (k % 3) + r.u(-2, 2), 60 + 95 * (k // 3) + r.u(-2, 2), angle=r.u(-4, 4))
             for k, i in enumerate(ids)]
    a, b = r.rng.choice(COLOURS, 2, replace=False)
    stacks = [f"{a}3", f"{b}2", f"{a}1", f"{b}3+{a}1", f"{a}2", f"{b}1"]
    pyramids = [PyramidObject(s, c.x + r.u(-8, 8), c.y + r.u(-10, 10), angle=r.u(0, 90)) for s, c in zip(stacks, cards)]
    pyramids.append(PyramidObject(f"{a}3", 290.0, 90.0, angle=r.u(0, 90)))  # in a supply beside the board
    return Scene(**_setting(r, (150.0, 110.0)), cards=cards, pyramids=pyramids, seed=seed)


POUCHES_TOKENS = [TokenObject("ann", 0, 0, colour=(40, 40, 200), shape="pawn", radius_mm=8, height_mm=20),
                  TokenObject("bob", 0, 0, colour=(200, 90, 30), shape="disc", radius_mm=10, height_mm=8),
                  TokenObject("cat", 0, 0, colour=(40, 180, 60), shape="pawn", radius_mm=8, height_mm=20)]


def pouches_scene(seed: int) -> Scene:
    """A Pouches heap: a 3x3 grid of card piles with the players' tokens standing on some of them."""
    r = _Draw(np.random.default_rng(seed))
    ids = ["AS", "7H", "QD", "3C", "TS", "5H", "KC", "2D", "9S"]
    cards = [CardObject(i, 60 + 70 * (k % 3), 60 + 95 * (k // 3), angle=r.u(-3, 3), pile=int(r.rng.integers(1, 5)))
             for k, i in enumerate(ids)]
    where = r.rng.choice(len(cards), len(POUCHES_TOKENS), replace=False)
    tokens = [TokenObject(t.label, cards[k].x + r.u(-10, 10), cards[k].y + r.u(-15, 15), colour=t.colour,
                          shape=t.shape, radius_mm=t.radius_mm, height_mm=t.height_mm)
              for t, k in zip(POUCHES_TOKENS, where)]
    return Scene(**_setting(r, (130.0, 155.0)), cards=cards, tokens=tokens, seed=seed)


def pouches_registry() -> TokenRegistry:
    """The Pouches trial tokens, each registered from a picture of it alone (as players show them)."""
    registry = TokenRegistry()
    for k, token in enumerate(POUCHES_TOKENS):
        shown = token_showing(token, 7000 + k)
        PieceReader(calibration_of(shown), tokens=registry).register_token(
            render(shown).image, token.label, token.shape, token.radius_mm, token.height_mm)
    return registry


def token_showing(token: TokenObject, seed: int) -> Scene:
    """A token put down alone in front of the camera to register it ("this is Ann's token")."""
    r = _Draw(np.random.default_rng(seed))
    shown = TokenObject(token.label, 140.0, 100.0, colour=token.colour, shape=token.shape,
                        radius_mm=token.radius_mm, height_mm=token.height_mm)
    return Scene(**_setting(r, (140.0, 100.0)), tokens=[shown], seed=seed)


# -- scoring --

def match(found, truth, kind: str, within_mm: float = 15.0) -> list[tuple[object, object, float]]:
    """Pair truth objects of ``kind`` with sightings by nearest centre: (truth, sighting or None, distance)."""
    pairs, used = [], set()
    for o in truth:
        if o.kind != kind or o.visible < (0.6 if kind == "token" else 0.9):  # a pawn fills only part of its hull
            continue
        best, best_d = None, within_mm
        for k, s in enumerate(found):
            d = math.dist(s.center_mm, (o.pose["x"], o.pose["y"]))
            if k not in used and d < best_d:
                best, best_d = k, d
        if best is not None:
            used.add(best)
        pairs.append((o, found[best] if best is not None else None, best_d if best is not None else math.inf))
    return pairs


def visible_stack(label: str) -> str:
    return "+".join(str(p) for p in Stack.parse(label).pyramids)


def rendering_kinds(rendering: Rendering) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in rendering.objects:
        counts[o.kind] = counts.get(o.kind, 0) + 1
    return counts
