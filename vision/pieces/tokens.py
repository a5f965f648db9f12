"""Players' tokens: a registry built at game start by showing each token, and recognition by nearest signature.

"This is Ann's token": the token is put down where the camera sees it, and its *signature* is
taken from that frame: its shape and size (a disc or a pawn of some radius and height, which the
reader fits to outlines) and its colour (median Lab of its body). Later, a piece whose outline
fits a registered shape is named by the nearest colour, but only with a margin: when two
registered tokens are about as near, or none is near, it stays unknown. A pyramid can be a token
too: register its stack (``red1``) and a sighting of that stack is reported as the token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.pyramids import Stack
from referee.snapshot import Alternative, TokenSighting

REACH = 30.0  # Lab distance beyond which a colour is nobody's
MARGIN = 6.0  # the nearest signature must beat the next by this much to be sure
# how much darker or lighter (in L*, about the cube root of the light) a token may look than when it was shown:
# a green pawn shown from the side (L* 34) reads L* 61 on its lit top seen from above
SHADE = (0.55, 2.0)


class TokenError(ValueError):
    """A token that cannot be registered: says why and what to do."""


def colour_distance(colours: np.ndarray, signature) -> np.ndarray | float:
    """How different the Lab colours ``colours`` (any shape ending in 3; OpenCV's 8-bit Lab) look from a token's
    ``signature`` colour: hue and chroma count fully, lightness a quarter (the light at game start is seldom the
    light later).

    Shade is forgiven: a pawn shown from the side shows mostly its shaded flanks, and seen from above its lit top,
    several times brighter. More or less light of one colour scales L*, a* and b* about alike (each follows the
    cube root of the light), so the signature is first scaled by the factor that fits best, within SHADE. The two
    are compared at the brighter one's light: in the dark every colour nears black, and black print must stay far
    from a dark green pawn.
    """
    colours = np.asarray(colours)
    flat = np.ascontiguousarray(colours.reshape(-1, 1, 3), np.float32)
    g = np.asarray(signature, np.float64) - (0.0, 128.0, 128.0)
    w = np.array([0.25, 1.0, 1.0])
    wg = w * g
    gg = max(float(wg @ wg), 1e-6)
    # per pixel, with OpenCV's per-pixel products (numpy's wait on BLAS threads on a busy machine): the weighted
    # colour wc, its length squared and its projection on the weighted signature
    wc = cv2.transform(flat, np.hstack([np.diag(w), (-w * (0.0, 128.0, 128.0))[:, None]]).astype(np.float32))
    cc = cv2.transform(cv2.multiply(wc, wc), np.ones((1, 3), np.float32))
    cg = cv2.transform(wc, wg[None, :].astype(np.float32))
    # the least-squares factor for the weighted colours, held within what shade can do
    k = np.clip(cg / gg, *SHADE)
    squared = np.maximum(cc - 2 * k * cg + k * k * gg, 0.0)
    distance = (np.sqrt(squared) / np.minimum(k, 1.0)).reshape(colours.shape[:-1])
    return float(distance) if distance.ndim == 0 else distance


@dataclass(frozen=True)
class TokenSignature:
    label: str
    shape: str  # disc | pawn | pyramid
    radius_mm: float = 0.0
    height_mm: float = 0.0
    colour_lab: tuple[float, float, float] = (0.0, 0.0, 0.0)
    stack: str = ""  # for a pyramid token


@dataclass
class TokenRegistry:
    signatures: list[TokenSignature] = field(default_factory=list)

    def add(self, signature: TokenSignature) -> None:
        if not signature.label:
            raise TokenError("a token needs a label, such as the player's name")
        if any(s.label == signature.label for s in self.signatures):
            raise TokenError(f"token {signature.label!r} is already registered; remove it first to show it again")
        self.signatures.append(signature)

    def register_pyramid(self, label: str, stack: str) -> None:
        """A pyramid stack (``red1``) that serves as ``label``'s token."""
        try:
            parsed = Stack.parse(stack)
        except ValueError as exc:
            raise TokenError(f"token {label!r}: {exc}") from None
        if not parsed:
            raise TokenError(f"token {label!r}: an empty stack cannot be a token")
        self.add(TokenSignature(label, "pyramid", stack=str(parsed)))

    def shaped(self) -> list[TokenSignature]:
        return [s for s in self.signatures if s.shape != "pyramid"]

    def pyramid_token(self, stack_label: str) -> TokenSignature | None:
        return next((s for s in self.signatures if s.shape == "pyramid" and s.stack == stack_label), None)

    def identify(self, colour_lab: np.ndarray, shape_fits: dict[str, float], centre_mm: tuple[float, float],
                 ) -> TokenSighting | None:
        """Name a token from its body colour; ``shape_fits`` says how well each label's shape fits (IoU)."""
        shaped = self.shaped()
        if not shaped:
            return None
        d = np.array([colour_distance(colour_lab, s.colour_lab) for s in shaped])
        # a poor outline fit counts as distance too: a pawn is not a disc
        d = d + np.array([25.0 * max(0.0, 0.8 - shape_fits.get(s.label, 0.0)) for s in shaped])
        order = np.argsort(d)
        best = shaped[order[0]]
        nearest = float(d[order[0]])
        second = float(d[order[1]]) if len(order) > 1 else REACH * 2
        closeness = float(np.clip(1.2 - nearest / REACH, 0.0, 1.0))
        margin = float(np.clip((second - nearest) / MARGIN, 0.0, 1.0))
        confidence = round(closeness * (0.5 + 0.5 * margin), 4)
        alternatives = tuple(Alternative(shaped[i].label, round(float(np.clip(1.2 - d[i] / REACH, 0, 1)) * 0.5, 4))
                             for i in order[1:3] if d[i] < 2 * REACH)
        return TokenSighting(best.label, (round(centre_mm[0], 2), round(centre_mm[1], 2)), confidence,
                             tuple(a for a in alternatives if a.probability > 0))
