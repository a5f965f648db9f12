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

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee.pyramids import Pyramid, Size
from referee.snapshot import Alternative, CardSighting, PyramidSighting

SIZES_FILE = Path(__file__).resolve().parents[2] / "models" / "pieces" / "card_sizes.json"
NOTHING = "nothing"  # the reading was card art: no pyramid stood there
# a size read is taken as right this many times more before counting (as vision.pieces.palette does for colours)
PRIOR = 2.0
RUNNER_UP = 0.95  # an offered size's probability is at most this share of the reading's own


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
        :data:`NOTHING`, with :data:`PRIOR` readings of it right added."""
        read = str(int(size))
        row = {**self.counts.get(read, {})}
        row[read] = row.get(read, 0) + PRIOR
        total = sum(row.values())
        return {was: n / total for was, n in row.items()}

    def weigh(self, sighting: PyramidSighting) -> PyramidSighting:
        """A lone pyramid read on a card, its confidence keeping the share its size was right and each other size
        it often was offered (a stack of several is left as read: which of its pyramids would change is not
        counted). The share that was print lowers the confidence too: the layouts then also try the place
        without it. The reading stands first: its alternatives keep their order below it (scaled as it is), and
        an offered size is a runner-up, just under it however often it was the truth. So the stabiliser, which
        names an object by its likeliest reading over frames, names it as read, and the referee tries the
        runner-up where the reading explains nothing: a small grown to a medium on a card is the medium read."""
        if len(sighting.stack) != 1:
            return sighting
        pyramid = sighting.stack[0]
        row = self.truths(pyramid.size)
        right = row[str(int(pyramid.size))]
        confidence = round(sighting.confidence * right, 4)
        below = round(confidence * RUNNER_UP, 4)
        kept = [dataclasses.replace(a, probability=round(a.probability * right, 4)) for a in sighting.alternatives]
        offered = [Alternative(str(Pyramid(pyramid.colour, Size(int(was)))),
                               min(round(sighting.confidence * share, 4), below))
                   for was, share in row.items() if was not in (NOTHING, str(int(pyramid.size)))]
        likeliest: dict[str, Alternative] = {}
        for a in (*kept, *offered):
            if a.probability > 0.001 and (a.label not in likeliest or a.probability > likeliest[a.label].probability):
                likeliest[a.label] = a
        alternatives = sorted(likeliest.values(), key=lambda a: -a.probability)[:4]
        return dataclasses.replace(sighting, confidence=confidence, alternatives=tuple(alternatives))

    def weigh_on_cards(self, pyramids, cards: list[CardSighting]) -> tuple[PyramidSighting, ...]:
        """``pyramids`` with each lone one standing on a face-up card of ``cards`` weighed (:meth:`weigh`)."""
        return tuple(self.weigh(p) if on_a_card(p.center_mm, cards) else p for p in pyramids)


def on_a_card(point, cards: list[CardSighting]) -> bool:
    """Whether ``point`` (table mm) lies on one of the face-up, named ``cards``."""
    return any(cv2.pointPolygonTest(np.float32(c.corners_mm), tuple(map(float, point)), False) >= 0
               for c in cards if c.face_up and c.card and c.corners_mm)
