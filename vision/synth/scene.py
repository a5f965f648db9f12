"""A table scene as plain data: surface, camera, light, sensor effects and the objects on the table.

A :class:`Scene` is everything the renderer needs and nothing else, so a scene written as JSON
renders the same picture anywhere (every random choice the renderer makes comes from
``Scene.seed``). Positions are in the table frame (millimetres, origin at the mat's top-left
marker, x right, y away from the camera-side player); angles are degrees turning +x towards +y
(clockwise in a top-down picture, where y points down the image).

>>> scene = Scene(cards=[CardObject("QH", 120, 80, angle=10)])
>>> Scene.from_json(scene.to_json()) == scene
True
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field

from referee import decktet
from referee.cards import is_standard_id
from referee.dice import Die
from referee.pyramids import Stack

SURFACES = ("wood", "felt", "cloth", "knit", "light", "dark")
CLUTTER_SHAPES = ("box", "cylinder", "sheet")
CARD_MM = (63.0, 88.0)  # poker size
CARD_THICKNESS_MM = 0.3


class SceneError(ValueError):
    """A scene description that cannot be rendered; the message names the field at fault."""


@dataclass
class Surface:
    """The table top: a procedural texture of one of :data:`SURFACES`."""

    kind: str = "light"
    colour: tuple[int, int, int] = (200, 200, 200)  # base colour, BGR
    scale_mm: float = 10.0  # size of the texture's main feature (a grain line, a stitch, a weave cell)
    contrast: float = 0.5  # 0 flat .. 1 strong pattern


@dataclass
class Camera:
    """A webcam looking at ``target_mm`` from ``distance_mm``, tilted from straight down."""

    target_mm: tuple[float, float] = (140.0, 90.0)
    distance_mm: float = 800.0
    tilt_deg: float = 30.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    size: tuple[int, int] = (1280, 720)
    hfov_deg: float = 65.0
    distortion: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)  # k1 k2 p1 p2 k3


@dataclass
class Light:
    """Ambient light plus one directional light (a lamp or a window), and their colour."""

    ambient: float = 0.55  # share of the light that comes from everywhere
    strength: float = 0.6  # the directional light's share
    azimuth_deg: float = 45.0  # where the light comes from, in the table frame (0 = +x)
    elevation_deg: float = 55.0  # height of the light above the horizon
    kelvin: float = 5000.0  # colour temperature: 2700 warm bulb .. 6500 daylight
    falloff: float = 0.2  # how much brighter the lit side of the picture is (a lamp nearby)
    shadow_softness_mm: float = 4.0  # penumbra width at 10 cm above the table


@dataclass
class Effects:
    """What the camera adds: optics, motion, sensor noise, compression, colour balance."""

    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # gains on B, G, R (error of auto white balance)
    vignette: float = 0.2  # darkening at the corners, 0 none .. 1 strong
    focus_blur_px: float = 0.5
    motion_blur_px: float = 0.0
    motion_deg: float = 0.0
    noise: float = 2.0  # standard deviation of sensor noise in grey levels
    jpeg_quality: int = 0  # 0 writes no JPEG artefacts
    glare: float = 0.3  # gloss of cards: strength of the light's reflection
    haze: float = 0.0  # stray light in a cheap lens: lifts the blacks, lowers the contrast (0 .. 0.3)
    gamma: float = 1.0  # the camera's tone curve: above 1 brightens the mid-tones
    saturation: float = 1.0  # colour strength after processing: 0 is a grey-scale camera


@dataclass
class CardObject:
    """A card lying flat: ``id`` is a standard or Decktet id, or ``back``; ``pile`` cards stand under it."""

    id: str
    x: float
    y: float
    angle: float = 0.0
    face_up: bool = True
    pile: int = 1  # how many cards are in the pile, this one on top
    bend_mm: float = 0.0  # how far the card's middle rises above its ends
    back: str = "blue"  # the back design: a colour name of faces.BACK_COLOURS


@dataclass
class PyramidObject:
    """A stack of Looney pyramids standing on one spot, written bottom to top (``red3+blue1``).

    ``lying``: the pyramid (or a nest, which looks like its outer pyramid) lies on one of its faces
    with its tip pointing along ``angle``; (x, y) is then the middle of the footprint on the table.
    """

    stack: str
    x: float
    y: float
    angle: float = 0.0
    lying: bool = False


@dataclass
class DieObject:
    """A d6 whose orientation is its top, north and east faces (``132``), turned ``angle`` on the table."""

    orientation: str
    x: float
    y: float
    angle: float = 0.0
    size_mm: float = 16.0
    colour: tuple[int, int, int] = (235, 235, 235)
    pip_colour: tuple[int, int, int] = (30, 30, 30)


@dataclass
class TokenObject:
    """A player token: a disc or a pawn (``shape``) of a colour, identified by ``label``."""

    label: str
    x: float
    y: float
    colour: tuple[int, int, int] = (40, 40, 200)
    shape: str = "pawn"  # disc | pawn
    radius_mm: float = 8.0
    height_mm: float = 20.0


@dataclass
class ClutterObject:
    """Something else on the table, for recognition to ignore: a ``box`` (keyboard, phone, book),
    a ``cylinder`` (mug, coaster) or a ``sheet`` (paper, notebook), of real size."""

    shape: str
    x: float
    y: float
    angle: float = 0.0
    size_mm: tuple[float, float, float] = (120.0, 60.0, 20.0)  # length, width (diameter), height
    colour: tuple[int, int, int] = (90, 90, 90)


@dataclass
class MatObject:
    """A printed play mat from :mod:`calibration.mats`, lying where its table frame says;
    ``options`` are the mat's options written ``name:value,...`` (Pungo's ``arena:4x3,roll-grid:3x4``)."""

    game: str = "plain"
    paper: str = "A3"
    options: str = ""

    def option_values(self) -> dict[str, str]:
        """The options as a dict; a malformed list raises :class:`SceneError`."""
        values = {}
        for item in filter(None, (part.strip() for part in self.options.split(","))):
            name, colon, value = item.partition(":")
            if not colon or not name or not value:
                raise SceneError(f"mat.options: write name:value pairs joined by commas, not {self.options!r}")
            values[name] = value
        return values


@dataclass
class HandObject:
    """A hand and forearm over the table: fingertips at (x, y), the arm reaching in from ``angle``."""

    x: float
    y: float
    angle: float = 90.0  # direction from fingertips back to the elbow, table frame degrees
    height_mm: float = 80.0  # above the table
    skin: tuple[int, int, int] = (120, 150, 200)  # BGR
    width_mm: float = 85.0  # across the knuckles
    sleeve: tuple[int, int, int] | None = None  # a sleeve colour covers the forearm when given
    motion_px: float = 0.0  # blur along the arm's direction: hands move


@dataclass
class Scene:
    surface: Surface = field(default_factory=Surface)
    camera: Camera = field(default_factory=Camera)
    light: Light = field(default_factory=Light)
    effects: Effects = field(default_factory=Effects)
    mat: MatObject | None = None
    cards: list[CardObject] = field(default_factory=list)  # in the order they were laid: later on top
    pyramids: list[PyramidObject] = field(default_factory=list)
    dice: list[DieObject] = field(default_factory=list)
    tokens: list[TokenObject] = field(default_factory=list)
    hands: list[HandObject] = field(default_factory=list)
    clutter: list[ClutterObject] = field(default_factory=list)
    faces: str | None = None  # a folder of face images named by card id (or by the art set's names)
    seed: int = 0  # the renderer's noise and texture come from this

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Refuse what cannot be rendered, naming the field: unknown ids, bad sizes, bad choices."""
        if self.surface.kind not in SURFACES:
            raise SceneError(f"surface.kind: {self.surface.kind!r} is not one of {', '.join(SURFACES)}")
        w, h = self.camera.size
        if not (32 <= w <= 8192 and 32 <= h <= 8192):
            raise SceneError(f"camera.size: {w}x{h} is not a picture size between 32 and 8192 pixels")
        if not 10 <= self.camera.hfov_deg <= 150:
            raise SceneError(f"camera.hfov_deg: {self.camera.hfov_deg} is not between 10 and 150 degrees")
        if not 0 <= self.camera.tilt_deg < 80 or self.camera.distance_mm <= 0:
            raise SceneError("camera: the tilt must be 0-80 degrees and the distance positive")
        for i, card in enumerate(self.cards):
            if not is_card_id(card.id):
                raise SceneError(f"cards[{i}].id: {card.id!r} is not a card id (standard like 'QH', "
                                 "Decktet like 'mountain', or 'back')")
            if card.pile < 1:
                raise SceneError(f"cards[{i}].pile: a pile holds at least one card, not {card.pile}")
        for i, pyramid in enumerate(self.pyramids):
            try:
                stack = Stack.parse(pyramid.stack)
                if not stack:
                    raise ValueError("an empty stack")
            except ValueError as exc:
                raise SceneError(f"pyramids[{i}].stack: {exc}") from None
            if pyramid.lying and len(stack.visible()) != 1:
                raise SceneError(f"pyramids[{i}].lying: only one pyramid (or a nest) lies on its side, "
                                 f"not the tree {pyramid.stack}")
        for i, die in enumerate(self.dice):
            try:
                Die.parse(die.orientation)
            except ValueError as exc:
                raise SceneError(f"dice[{i}].orientation: {exc}") from None
        for i, token in enumerate(self.tokens):
            if token.shape not in ("disc", "pawn"):
                raise SceneError(f"tokens[{i}].shape: {token.shape!r} is not 'disc' or 'pawn'")
        for i, thing in enumerate(self.clutter):
            if thing.shape not in CLUTTER_SHAPES:
                raise SceneError(f"clutter[{i}].shape: {thing.shape!r} is not one of {', '.join(CLUTTER_SHAPES)}")
            if min(thing.size_mm) <= 0:
                raise SceneError(f"clutter[{i}].size_mm: sizes are positive millimetres, not {list(thing.size_mm)}")
        for i, hand in enumerate(self.hands):
            if hand.height_mm <= 0:
                raise SceneError(f"hands[{i}].height_mm: a hand floats above the table, not at {hand.height_mm}")
        if self.mat is not None:
            from calibration.mats import MatError, mat_layout
            try:
                mat_layout(self.mat.game, self.mat.paper, self.mat.option_values())
            except MatError as exc:
                raise SceneError(f"mat: {exc}") from None

    # -- JSON --
    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: object) -> Scene:
        return _build(cls, data, "")

    @classmethod
    def from_json(cls, text: str) -> Scene:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SceneError(f"not JSON: {exc}") from None
        return cls.from_dict(data)


def is_card_id(card_id: str) -> bool:
    """True for a standard id (``QH``, ``back``, jokers) or a Decktet id (``mountain``)."""
    return is_standard_id(card_id) or card_id in decktet.CATALOGUE


def _build(cls, data: object, path: str):
    """Build dataclass ``cls`` from JSON data, checking every field's type and naming the path of a bad one."""
    if not isinstance(data, dict):
        raise SceneError(f"{path or 'the scene'}: expected an object, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise SceneError(f"{path or 'the scene'}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(names))})")
    values = {}
    for f in dataclasses.fields(cls):
        where = f"{path}.{f.name}" if path else f.name
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SceneError(f"{where}: missing")
            continue
        values[f.name] = _value(hints[f.name], data[f.name], where)
    try:
        return cls(**values)
    except SceneError as exc:
        raise SceneError(f"{path}.{exc}" if path else str(exc)) from None


def _value(hint, value, path: str):
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _value(inner[0], value, path)
    if dataclasses.is_dataclass(hint):
        return _build(hint, value, path)
    if origin is list:
        if not isinstance(value, list):
            raise SceneError(f"{path}: expected a list")
        return [_value(args[0], item, f"{path}[{i}]") for i, item in enumerate(value)]
    if origin is tuple:
        if not isinstance(value, (list, tuple)) or len(value) != len(args):
            raise SceneError(f"{path}: expected a list of {len(args)} numbers")
        return tuple(_value(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SceneError(f"{path}: expected a number, got {value!r}")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SceneError(f"{path}: expected a whole number, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise SceneError(f"{path}: expected true or false, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise SceneError(f"{path}: expected a string, got {value!r}")
        return value
    raise SceneError(f"{path}: cannot read a {hint}")  # a field type this reader does not know
