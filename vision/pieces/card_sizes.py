"""How often a pyramid's size read on a face-up card was each size, and a sighting weighed by it.

A pyramid standing on a Decktet card's art merges with the print round it: a small's blob takes in a patch of
art and fits a medium, and a patch of art alone can fit a large. The pieces reader cannot tell (it knows no
cards); the table reader can, so it weighs each lone pyramid it read on a face-up card by how often that size,
read on a card, was each size, or nothing at all, on Deck Town trial tables the trials never play
(``models/pieces/card_sizes.py`` counts them into ``card_sizes.json``). Read so, a medium was a small about
as often as a medium: its confidence falls under the layouts' threshold and the small is offered, which the
referee tries where the medium explains nothing legal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee.pyramids import Pyramid, Size
from referee.snapshot import Alternative, CardSighting, PyramidSighting
from vision.pieces.palette import truth_shares
from vision.pieces.stacks import weighed

SIZES_FILE = Path(__file__).resolve().parents[2] / "models" / "pieces" / "card_sizes.json"
NOTHING = "nothing"  # the reading was card art: no pyramid stood there


class CardSizesError(RuntimeError):
    """The counts are missing or unreadable: says how to rebuild them."""


@dataclass(frozen=True)
class CardSizes:
    counts: dict[str, dict[str, int]]  # size read ("1", "2", "3") -> {size it was, or NOTHING: how many readings}

    @classmethod
    def load(cls, path: Path = SIZES_FILE) -> CardSizes:
        try:
            data = json.loads(Path(path).read_text())
            counts = {str(read): {str(was): int(n) for was, n in row.items()} for read, row in data["counts"].items()}
        except (OSError, KeyError, ValueError, TypeError, AttributeError) as exc:
            raise CardSizesError(f"cannot read the sizes read on cards {path}: {exc}; rebuild them with "
                                 "`python -m models.pieces.card_sizes`") from None
        return cls(counts)

    def save(self, path: Path = SIZES_FILE, about: str = "") -> None:
        Path(path).write_text(json.dumps({"about": about, "counts": self.counts}, indent=1, sort_keys=True) + "\n")

    def truths(self, size: Size) -> dict[str, float]:
        """How often a pyramid read as ``size`` on a card was each size (``"1"``, ``"2"``, ``"3"``) or
        :data:`NOTHING` (:func:`~vision.pieces.palette.truth_shares`, as for colours)."""
        read = str(int(size))
        return truth_shares(self.counts.get(read, {}), read)

    def weigh(self, sighting: PyramidSighting) -> PyramidSighting:
        """A lone pyramid read on a card, its confidence keeping the share its size was right and each other size
        it often was offered as a runner-up (:func:`~vision.pieces.stacks.weighed`: a small grown to a medium on a
        card is still the medium read, and the referee tries the small where the medium explains nothing). A stack
        of several is left as read: which of its pyramids would change is not counted. The share that was print
        lowers the confidence too: read under the layouts' threshold, the pyramid does not count against what the
        state has on the card (``referee.layouts.deck_town``)."""
        if len(sighting.stack) != 1:
            return sighting
        pyramid = sighting.stack[0]
        row = self.truths(pyramid.size)
        offered = [Alternative(str(Pyramid(pyramid.colour, Size(int(was)))), round(sighting.confidence * share, 4))
                   for was, share in row.items() if was not in (NOTHING, str(int(pyramid.size)))]
        return weighed(sighting, row[str(int(pyramid.size))], offered)

    def weigh_on_cards(self, pyramids, cards: list[CardSighting]) -> tuple[PyramidSighting, ...]:
        """``pyramids`` with each lone one standing on a face-up card of ``cards`` weighed (:meth:`weigh`)."""
        return tuple(self.weigh(p) if on_a_card(p.center_mm, cards) else p for p in pyramids)


def on_a_card(point, cards: list[CardSighting]) -> bool:
    """Whether ``point`` (table mm) lies on one of the face-up, named ``cards``."""
    return any(cv2.pointPolygonTest(np.float32(c.corners_mm), tuple(map(float, point)), False) >= 0
               for c in cards if c.face_up and c.card and c.corners_mm)
