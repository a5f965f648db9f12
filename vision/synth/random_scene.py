"""Random scenes: every parameter drawn over the range real tables and webcams show, from a seed.

The ranges come from looking at real webcam photos of card games: cameras from straight above to
45 degrees of tilt at 0.4-1.2 m, cheap lenses, warm bulbs and cold daylight, tables of wood,
cloth, knit and plain laminate, cards scattered, in overlapping columns, fanned and piled, hands
reaching in. The same seed gives the same scene, always.

>>> random_scene(7) == random_scene(7)
True
"""

from __future__ import annotations

import math

import numpy as np

from calibration.mats import PAPERS, mat_layout
from referee import decktet
from referee.cards import standard_deck
from referee.dice import Die
from referee.pyramids import STANDARD_COLOURS, Stack
from vision.synth.camera import PinholeCamera
from vision.synth.faces import BACK_COLOURS
from vision.synth.scene import (CARD_MM, Camera, CardObject, ClutterObject, DieObject, Effects, HandObject, Light,
                                MatObject, PyramidObject, Scene, Surface, TokenObject)

SIZES = ((640, 480), (800, 600), (1138, 640), (1280, 720), (1920, 1080))
SKINS = ((95, 125, 175), (120, 150, 200), (140, 170, 215), (60, 90, 140), (45, 65, 100), (110, 140, 190))


def random_scene(seed: int, size: tuple[int, int] | None = None, cards: int | None = None,
                 pyramids: int | None = None, hands: int | None = None, deck: str | None = None,
                 faces: list[str] | None = None) -> Scene:
    """A random scene; pin the picture ``size``, the number of ``cards``, pyramid stacks or hands,
    or the ``deck`` ('standard' or 'decktet') to control what varies. With ``faces`` (folders of
    face images), half the scenes take their card faces from one of them, drawn at random."""
    rng = np.random.default_rng(seed)
    r = _Draw(rng)
    size = tuple(size) if size else SIZES[int(rng.choice(len(SIZES), p=[0.15, 0.1, 0.25, 0.35, 0.15]))]
    mat = None
    if rng.random() < 0.3:
        game = str(rng.choice(["plain", "pouches", "mongoose", "deck-town", "pungo"]))
        paper = "A3" if game == "pungo" else str(rng.choice(list(PAPERS)))
        mat = MatObject(game, paper)
        layout = mat_layout(game, paper)
        ox, oy = layout.origin_on_paper
        target = (layout.paper_mm[0] / 2 - ox + r.u(-30, 30), layout.paper_mm[1] / 2 - oy + r.u(-30, 30))
    else:
        target = (r.u(50, 300), r.u(30, 200))
    # 0.4-1.2 m, and closer: the real webcam frames we measure on are taken from about 30-50 cm
    distance = float(rng.choice([r.u(280, 400), r.u(400, 700), r.u(700, 1200)], p=[0.3, 0.45, 0.25]))
    camera = Camera(target_mm=target, distance_mm=distance, tilt_deg=r.u(0, 45), yaw_deg=r.u(-35, 35),
                    roll_deg=r.u(-4, 4), size=size, hfov_deg=r.u(55, 80),
                    distortion=(r.u(-0.2, 0.05), r.u(-0.05, 0.05), 0.0, 0.0, 0.0) if rng.random() < 0.5 else (0.0,) * 5)
    view = PinholeCamera.looking_at(target, distance, camera.tilt_deg, camera.yaw_deg, size, camera.hfov_deg,
                                    roll_deg=camera.roll_deg)

    def spot(margin: float = 0.1) -> tuple[float, float]:
        """A random table point the camera sees."""
        px = [[r.u(margin, 1 - margin) * size[0], r.u(margin, 1 - margin) * size[1]]]
        x, y = view.table_points_of_pixels(np.array(px))[0]
        return float(x), float(y)

    deck_kind = deck or ("decktet" if rng.random() < 0.35 else "standard")
    ids = list(decktet.extended_deck() if deck_kind == "decktet" else standard_deck())
    rng.shuffle(ids)
    if cards is None:
        cards = int(rng.choice([0, 1, 3, 6, 9, 12, 16, 22, 30], p=[.04, .1, .14, .18, .18, .14, .1, .07, .05]))
    back = str(rng.choice(list(BACK_COLOURS)))
    laid = _lay_cards(r, spot, ids, cards, back)
    stacks = pyramids if pyramids is not None else (int(rng.integers(1, 10)) if rng.random() < 0.4 else 0)
    pyramid_objects = [PyramidObject(_random_stack(r), *spot(0.15), angle=r.u(0, 90)) for _ in range(stacks)]
    knocked = np.random.default_rng([seed, 11])  # its own draws, so everything else a seed gives stays put
    for p in pyramid_objects:  # now and then a lone pyramid (or a nest) lies on its side
        if knocked.random() < 0.15 and len(Stack.parse(p.stack).visible()) == 1:
            p.lying, p.angle = True, round(float(knocked.uniform(-180, 180)), 2)
    dice = [DieObject(str(Die.orientations()[int(rng.integers(24))]), *spot(0.15), angle=r.u(0, 90),
                      size_mm=r.u(12, 18))
            for _ in range(1 if rng.random() < 0.25 else 0)]
    tokens = [TokenObject(f"player-{i + 1}", *spot(0.15), colour=r.colour(30, 230),
                          shape=str(rng.choice(["pawn", "disc"])), radius_mm=r.u(6, 11), height_mm=r.u(6, 28))
              for i in range(int(rng.integers(1, 4)) if rng.random() < 0.3 else 0)]
    n_hands = hands if hands is not None else int(rng.choice([0, 1, 2], p=[0.6, 0.3, 0.1]))
    toward_camera = 90.0 + camera.yaw_deg
    hand_objects = [HandObject(*spot(0.2), angle=toward_camera + r.u(-60, 60), height_mm=r.u(15, 150),
                               skin=SKINS[int(rng.integers(len(SKINS)))], width_mm=r.u(75, 95),
                               sleeve=r.colour(20, 200) if rng.random() < 0.5 else None,
                               motion_px=r.u(0, 25) if rng.random() < 0.5 else 0.0)
                    for _ in range(n_hands)]
    clutter = [_clutter(r, spot) for _ in range(int(rng.integers(1, 4)) if rng.random() < 0.45 else 0)]
    folder = str(faces[int(rng.integers(len(faces)))]) if faces and rng.random() < 0.5 else None
    return Scene(surface=_surface(r), camera=camera, light=_light(r), effects=_effects(r), mat=mat, cards=laid,
                 pyramids=pyramid_objects, dice=dice, tokens=tokens, hands=hand_objects, clutter=clutter,
                 faces=folder, seed=int(seed))


class _Draw:
    """Rounded random numbers (scene files stay readable) from one generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def u(self, lo: float, hi: float) -> float:
        return round(float(self.rng.uniform(lo, hi)), 2)

    def colour(self, lo: int, hi: int) -> tuple[int, int, int]:
        return tuple(int(v) for v in self.rng.integers(lo, hi, 3))


def _lay_cards(r: _Draw, spot, ids: list[str], count: int, back: str) -> list[CardObject]:
    """Cards laid as players lay them: scattered, in overlapping columns, fanned, or in piles."""
    rng, laid, next_id = r.rng, [], iter(ids * 3)
    while len(laid) < count:
        style = rng.choice(["scatter", "column", "fan", "pile"], p=[0.3, 0.35, 0.2, 0.15])
        n = min(count - len(laid), int(rng.integers(1, 7)))
        x, y = spot(0.15)
        angle = r.u(-180, 180) if rng.random() < 0.3 else r.u(-25, 25)
        a = math.radians(angle)
        down = np.array([-math.sin(a), math.cos(a)])
        across = np.array([math.cos(a), math.sin(a)])
        for k in range(n):
            card_id = next(next_id)
            face_up = rng.random() > 0.12
            if style == "scatter":
                px, py, ang = *spot(0.1), r.u(-180, 180)
            elif style == "column":  # each card lower than the last, its top index showing
                step = r.u(15, 30)
                px, py = np.array([x, y]) + down * step * k + across * r.u(-3, 3)
                ang = angle + r.u(-4, 4)
            elif style == "fan":
                pivot = np.array([x, y]) + down * CARD_MM[1] * 0.45
                turn = math.radians((k - (n - 1) / 2) * r.u(8, 14))
                offset = -CARD_MM[1] * 0.45 * np.array([-math.sin(a + turn), math.cos(a + turn)])
                px, py = pivot + offset
                ang = angle + math.degrees(turn)
            else:
                px, py, ang = x + r.u(-2, 2), y + r.u(-2, 2), angle + r.u(-5, 5)
            pile = int(rng.integers(2, 25)) if style == "pile" else 1
            bend = r.u(0.5, 3.0) if rng.random() < 0.2 else 0.0
            laid.append(CardObject(card_id, round(float(px), 2), round(float(py), 2), round(float(ang), 2),
                                   face_up=bool(face_up), pile=pile, bend_mm=bend, back=back))
            if style == "pile" and k == 0:
                break
    return laid


def _clutter(r: _Draw, spot) -> ClutterObject:
    """A keyboard, phone, book, mug, coaster or sheet of paper, mostly near the picture's edges."""
    rng = r.rng
    x, y = spot(0.02) if rng.random() < 0.7 else spot(0.2)
    kind = str(rng.choice(["keyboard", "phone", "book", "mug", "coaster", "paper"]))
    grey = int(rng.integers(40, 230))
    muted = tuple(int(0.5 * c + 0.5 * grey) for c in r.colour(20, 240))
    size, shape, colour = {
        "keyboard": ((r.u(280, 440), r.u(110, 150), r.u(15, 30)), "box", (grey, grey, grey)),
        "phone": ((r.u(140, 165), r.u(68, 78), r.u(7, 10)), "box", (30, 30, 30)),
        "book": ((r.u(180, 260), r.u(120, 180), r.u(10, 40)), "box", muted),
        "mug": ((r.u(80, 90), r.u(80, 90), r.u(85, 105)), "cylinder", muted),
        "coaster": ((r.u(90, 105), r.u(90, 105), r.u(3, 6)), "cylinder", muted),
        "paper": ((r.u(200, 297), r.u(148, 210), 0.3), "sheet", (235, 238, 240)),
    }[kind]
    return ClutterObject(shape, x, y, angle=r.u(-180, 180), size_mm=size, colour=colour)


def _random_stack(r: _Draw) -> str:
    rng = r.rng
    colours = list(STANDARD_COLOURS)
    kind = rng.choice(["single", "nest", "tree", "pair"], p=[0.5, 0.2, 0.2, 0.1])
    colour = str(rng.choice(colours))
    if kind == "single":
        return f"{colour}{int(rng.integers(1, 4))}"
    if kind == "nest":
        return "+".join(f"{colour}{s}" for s in (1, 2, 3)[int(rng.integers(0, 2)):])
    if kind == "tree":
        return "+".join(f"{rng.choice(colours)}{s}" for s in (3, 2, 1)[:int(rng.integers(2, 4))])
    return f"{colour}3+{rng.choice(colours)}{int(rng.integers(1, 3))}"


def _surface(r: _Draw) -> Surface:
    rng = r.rng
    kind = str(rng.choice(["wood", "felt", "cloth", "knit", "light", "dark"], p=[0.2, 0.1, 0.14, 0.16, 0.3, 0.1]))
    if kind == "wood":
        colour = (int(rng.integers(40, 100)), int(rng.integers(80, 135)), int(rng.integers(120, 200)))
        return Surface(kind, colour, r.u(4, 14), r.u(0.3, 0.8))
    if kind == "felt":
        colour = tuple(int(c) for c in rng.choice([(50, 95, 40), (95, 70, 35), (40, 40, 105), (70, 70, 70)]))
        return Surface(kind, tuple(int(c * r.u(0.8, 1.3)) for c in colour), r.u(2, 6), r.u(0.3, 0.9))
    if kind in ("cloth", "knit"):  # household fabrics: mostly muted colours, often off-white
        grey = int(rng.integers(110, 235))
        vivid = 0.45 if rng.random() < 0.4 else 0.15
        colour = tuple(int(vivid * c + (1 - vivid) * grey) for c in r.colour(30, 240))
        return Surface(kind, colour, r.u(3, 9) if kind == "cloth" else r.u(6, 14), r.u(0.3, 0.9))
    if kind == "light":
        grey = int(rng.integers(170, 236))
        return Surface(kind, (grey - int(rng.integers(0, 20)), grey - int(rng.integers(0, 10)), grey), r.u(5, 30),
                       r.u(0.2, 1.0))
    return Surface(kind, r.colour(25, 80), r.u(5, 30), r.u(0.2, 1.0))


def _light(r: _Draw) -> Light:
    return Light(ambient=r.u(0.3, 0.8), strength=r.u(0.2, 0.9), azimuth_deg=r.u(0, 360), elevation_deg=r.u(25, 85),
                 kelvin=r.u(2700, 7500), falloff=r.u(0, 0.45), shadow_softness_mm=r.u(2, 12))


def _effects(r: _Draw) -> Effects:
    rng = r.rng
    moving = rng.random() < 0.25
    return Effects(exposure=r.u(0.75, 1.2), white_balance=(r.u(0.9, 1.1), 1.0, r.u(0.9, 1.1)),
                   vignette=r.u(0, 0.5), focus_blur_px=r.u(0.3, 1.8) if rng.random() < 0.85 else r.u(1.8, 3.5),
                   motion_blur_px=r.u(1, 8) if moving else 0.0, motion_deg=r.u(0, 180),
                   noise=r.u(1, 6), jpeg_quality=0 if rng.random() < 0.2 else int(rng.integers(40, 96)),
                   glare=r.u(0, 0.8), haze=r.u(0, 0.25), gamma=r.u(0.8, 1.25),
                   saturation=0.0 if rng.random() < 0.05 else r.u(0.6, 1.1))
