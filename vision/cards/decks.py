"""Teaching Tableside a deck it has never seen, in minutes, without retraining.

The classifier ends in an embedding: 96 numbers that describe a corner index (what the rank looks
like, which symbol, which colour). A learned deck is a set of *prototypes*, the mean embedding of
each card's indices in the teaching photos. Recognition with a learned
deck names an index by its nearest prototype (cosine similarity through a softmax), while the
base classifier still decides whether a crop is an index at all.

Teaching photos show one card each and are named by the card's id (``QH.jpg``, ``QH-2.jpg``,
``queen_of_hearts.png``, ``mountain.jpg``), so nothing has to be clicked. A learned deck lives in
the instance folder as ``decks/<name>.npz`` and is used from then on by name
(``tableside recognize --deck <name>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.cards.classes import CLASSES, DECKS, INDEX, NONE
from vision.cards.recognise import CardRecogniser, CardSeen, merge

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
SHARPNESS = 20.0  # cosine similarities times this go through the softmax: 0.1 apart is e^2 more likely


class DeckError(ValueError):
    """A deck that cannot be learned or loaded; the message says what to do."""


@dataclass(frozen=True)
class LearnedDeck:
    name: str
    ids: tuple[str, ...]
    prototypes: np.ndarray  # len(ids) x embedding, unit length
    photos: int

    def save(self, instance: str | Path) -> Path:
        folder = Path(instance) / "decks"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.npz"
        np.savez(path, ids=np.array(self.ids), prototypes=self.prototypes, photos=self.photos)
        return path

    @classmethod
    def load(cls, instance: str | Path, name: str) -> LearnedDeck:
        path = Path(instance) / "decks" / f"{name}.npz"
        if not path.is_file():
            known = sorted(p.stem for p in (Path(instance) / "decks").glob("*.npz"))
            raise DeckError(f"no learned deck {name!r} in {path.parent}" +
                            (f"; learned decks: {', '.join(known)}" if known else "; teach one with `tableside deck learn`"))
        try:
            with np.load(path) as data:
                return cls(name, tuple(str(i) for i in data["ids"]), data["prototypes"].astype(np.float32),
                           int(data["photos"]))
        except (OSError, KeyError, ValueError) as exc:
            raise DeckError(f"the learned deck {path} is damaged ({exc}); teach it again") from None

    def recognise(self, recogniser: CardRecogniser, image: np.ndarray) -> list[CardSeen]:
        """Every card of this deck in ``image``: the base detector finds indices, the prototypes name them."""
        indices, backs = recogniser.detect(image)
        base, embeddings = recogniser.classify(image, indices)
        probs = np.zeros((len(indices), len(CLASSES)), np.float32)
        if len(indices):
            similarity = embeddings @ self.prototypes.T * SHARPNESS
            p = np.exp(similarity - similarity.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            for j, card_id in enumerate(self.ids):
                probs[:, INDEX[card_id]] += p[:, j]
            probs *= (1 - base[:, INDEX[NONE]])[:, None]
            probs[:, INDEX[NONE]] = base[:, INDEX[NONE]]
        cards = merge(indices, probs)
        cards += [CardSeen("back", b["score"], _box_polygon(b["box"])) for b in backs]
        return cards


def learn(recogniser: CardRecogniser, name: str, photos: list[tuple[str, np.ndarray]], progress=print) -> LearnedDeck:
    """A deck from teaching photos ``(card id, image)``, one card per photo."""
    if not NAME.fullmatch(name) or name in DECKS or name == "auto":
        raise DeckError(f"a deck name is 1-40 lower-case letters, digits, '-' or '_', and not auto/standard/decktet; "
                        f"got {name!r}")
    embeddings: dict[str, list[np.ndarray]] = {}
    for k, (card_id, image) in enumerate(photos):
        if card_id not in INDEX or card_id == NONE:
            raise DeckError(f"{card_id!r} is not a card id Tableside knows (standard like 'QH', or a Decktet card)")
        indices, _ = recogniser.detect(image)
        if not indices:
            progress(f"  no corner index found on the photo of {card_id}: skipped (photo it closer or in better light)")
            continue
        best = sorted(indices, key=lambda i: -i["score"])[:2]  # one card: its two corners at most
        _, e = recogniser.classify(image, best)
        embeddings.setdefault(card_id, []).extend(e)
        if (k + 1) % 10 == 0:
            progress(f"  {k + 1}/{len(photos)} photos")
    if not embeddings:
        raise DeckError("no card index was found on any teaching photo")
    ids = tuple(sorted(embeddings, key=CLASSES.index))
    prototypes = np.stack([np.mean(embeddings[i], axis=0) for i in ids])
    prototypes /= np.linalg.norm(prototypes, axis=1, keepdims=True)
    return LearnedDeck(name, ids, prototypes.astype(np.float32), len(photos))


def teaching_photos(paths: list[str | Path]) -> list[tuple[str, Path]]:
    """Photos (files, or folders of them) and the card id each one's name gives (``QH-2.jpg`` -> QH)."""
    from vision.synth.faces import card_id_of_file

    found = []
    for path in map(Path, paths):
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if path.is_dir() else [path]
        for f in files:
            stem = re.sub(r"[-_ ]\d+$", "", f.stem)
            card_id = card_id_of_file(stem)
            if card_id is None or card_id == "back":
                raise DeckError(f"{f}: the file name does not name a card (expected e.g. QH.jpg, QH-2.jpg, "
                                "queen_of_hearts.png, mountain.jpg)")
            found.append((card_id, f))
    if not found:
        raise DeckError("no teaching photos given (JPEG or PNG files named by card id)")
    return found


def _box_polygon(box) -> list[list[float]]:
    x0, y0, x1, y1 = box
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
