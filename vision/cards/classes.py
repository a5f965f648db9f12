"""What the card models see and name: the class list and the fixed geometry of their inputs.

Recognition runs in two stages (as Chesscog does for chess): a detector finds every printed
corner index (and every face-down card) in a picture scaled to :data:`DETECT_LONG_SIDE` pixels,
then a classifier names each index from a square crop around it. These constants are shared by
the training recipe (``models/cards``) and the runtime, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from referee import decktet
from referee.cards import standard_deck

DETECT_LONG_SIDE = 640  # the detector's picture: the long side scaled to this many pixels
STRIDE = 4  # the detector's output grid, in input pixels
CROP = 48  # the classifier's input: a CROP x CROP colour crop around one index
CROP_SCALE = 1.25  # the crop's side as a multiple of the index box's longer side: the index fills most of it

# A card's face (poker size) and where a printed index's middle sits on it, from the face's top-left corner
CARD_MM = (63.0, 88.0)
INDEX_CENTRE_MM = (6.5, 11.5)
DECKTET_INDEX_CENTRE_MM = (6.5, 22.5)  # a Decktet index runs down past its suit icons

NONE = "none"  # the classifier's "this is not a card index"
STANDARD = tuple(standard_deck())
DECKTET = tuple(decktet.extended_deck())
CLASSES = (*STANDARD, *DECKTET, NONE)
INDEX = {name: i for i, name in enumerate(CLASSES)}
DECKS = {"standard": frozenset(STANDARD), "decktet": frozenset(DECKTET)}
# the one Decktet card that prints no corner index (a blank corner): named from its whole face only, never
# from an index (any Decktet card's corner whose index is hidden reads as it)
EXCUSE = "excuse"


def as_no_card(probs: np.ndarray, classes: tuple[str, ...], hidden: Callable[[str], bool]) -> np.ndarray:
    """``probs`` (one row per read, over ``classes``) with the share of every class ``hidden`` says may not be
    named moved to 'none', not to the names left: a model's small shares are no guide (renormalised, a card of
    another deck read 0.99 as itself would be named by its runner-up surely)."""
    out = probs.copy()
    gone = [k for k, name in enumerate(classes) if name != NONE and hidden(name)]
    out[:, classes.index(NONE)] += out[:, gone].sum(axis=1)
    out[:, gone] = 0.0
    return out

# The whole-face stage (vision/cards/whole_face.py): a Decktet card named from its whole face, warped
# upright to a FACE_CROP (width, height) picture; its classes are the Decktet cards, a back, and 'none'
BACK = "back"
FACE_CROP = (48, 64)
FACE_CLASSES = (*DECKTET, BACK, NONE)
FACE_INDEX = {name: i for i, name in enumerate(FACE_CLASSES)}
