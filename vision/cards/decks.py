"""Teaching Tableside a deck it has never seen, in minutes, without retraining.

The classifier ends in an embedding: 96 numbers that describe a corner index (what the rank looks
like, which symbol, which colour). A learned deck is a small head fitted on those embeddings with
numpy (multinomial logistic regression, seconds): it names an index as one of the deck's cards, or
as no index of this deck at all, while the base classifier still has its say on whether a crop is
an index (an index is one where both allow it).

Teaching photos show one card each and are named by the card's id (``QH.jpg``, ``QH-2.jpg``,
``queen_of_hearts.png``, ``mountain.jpg``), so nothing has to be clicked. On each photo the card's
own indices are the two finds lying as one card's opposite corners (:func:`card_indices`), and
every other find there (a pip, the picture, a marker of the mat) is what this deck's index is not.
One photo is one view, and a table shows indices smaller, blurred, turned and lit otherwise: each
index is read in :data:`VIEWS` views made from the photo (:func:`views`: scaled down to the sizes a
table shows, blurred, lit and coloured otherwise, with noise, turned and boxed a little off), and
the head learns from all of them. A learned deck lives in the instance folder as
``decks/<name>.npz`` and is used from then on by name (``tableside recognize --deck <name>``).
"""

from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cards.classes import CLASSES, DECKS, INDEX, NONE
from vision.cards.recognise import CardRecogniser, CardSeen, merge

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
FORMAT = 3  # a saved deck's format: 1 (session 11 and before) kept one prototype per card, 2 (before session 30)
# did not say which classifier it was taught with; both are refused

# the views of each teaching index: its box's longer side in the view (pixels; the rendered tables'
# indices that the detector finds are 12 to 45 px long, the median 27), how much blur, light and colour
# change, sensor noise, and how far the crop's turn and box may be off (the detector's are that rough)
VIEWS = 24
VIEW_SIDES = (12.0, 44.0)
VIEW_BLUR = 1.5  # largest Gaussian sigma (pixels of the view)
VIEW_GAIN = (0.6, 1.3)
VIEW_TINT = 0.15  # each colour channel's gain within 1 +- this
VIEW_NOISE = 5.0  # largest noise sigma (0-255)
VIEW_TURN_DEG = 10.0  # sigma
VIEW_BOX = (0.8, 1.5)  # the box's size times this
VIEW_SHIFT = 0.08  # and moved by up to this share of its side

# the head: multinomial logistic regression on the embedding, fitted by full-batch gradient descent
FIT_STEPS = 400
FIT_RATE = 5.0
FIT_DECAY = 3e-5  # L2 weight
NEGATIVE_SHARE = 0.5  # the teaching photos' other finds (no index of this deck), all together, weigh this share
# of all the cards' views together (each card's views weigh alike, however many photos show it)


class DeckError(ValueError):
    """A deck that cannot be learned or loaded; the message says what to do."""


@dataclass(frozen=True)
class LearnedDeck:
    name: str
    ids: tuple[str, ...]
    weights: np.ndarray  # (embedding + 1) x (len(ids) + 1): logits of each card, then of 'no index of this deck'
    photos: int
    classifier: str  # CardRecogniser.classifier_id of the classifier whose embeddings the head was fitted on

    def save(self, instance: str | Path) -> Path:
        folder = Path(instance) / "decks"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.npz"
        np.savez(path, format=FORMAT, ids=np.array(self.ids), weights=self.weights, photos=self.photos,
                 classifier=self.classifier)
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
                if "format" not in data or int(data["format"]) != FORMAT:
                    raise DeckError(f"the learned deck {path} was taught by an older Tableside, which read taught "
                                    f"decks otherwise; teach it again with `tableside deck learn {name} PHOTOS`")
                deck = cls(name, tuple(str(i) for i in data["ids"]), data["weights"].astype(np.float32),
                           int(data["photos"]), str(data["classifier"]))
        except (OSError, KeyError, ValueError) as exc:
            if isinstance(exc, DeckError):
                raise
            raise DeckError(f"the learned deck {path} is damaged ({exc}); teach it again") from None
        if deck.weights.shape[1] != len(deck.ids) + 1:
            raise DeckError(f"the learned deck {path} is damaged (its head does not match its cards); teach it again")
        return deck

    def probabilities(self, embeddings: np.ndarray, base: np.ndarray) -> np.ndarray:
        """Class probabilities (over :data:`CLASSES`) of indices with these embeddings, read by the
        base classifier as ``base``: the head names the card; 'none' where either the head or the
        base classifier says it is no index (the chance that both allow it is the product)."""
        probs = np.zeros((len(embeddings), len(CLASSES)), np.float32)
        if not len(embeddings):
            return probs
        p = _softmax(_with_bias(embeddings) @ self.weights)
        index = (1 - p[:, -1]) * (1 - base[:, INDEX[NONE]])
        cards = p[:, :-1] / np.clip(p[:, :-1].sum(axis=1, keepdims=True), 1e-12, None)
        for j, card_id in enumerate(self.ids):
            probs[:, INDEX[card_id]] += cards[:, j] * index
        probs[:, INDEX[NONE]] = 1 - index
        return probs

    def check(self, recogniser: CardRecogniser) -> None:
        """Raise :class:`DeckError` unless this deck was taught with ``recogniser``'s classifier: the head
        reads the classifier's embeddings, which a rebuilt classifier gives otherwise."""
        if self.classifier != recogniser.classifier_id:
            raise DeckError(f"the learned deck {self.name!r} was taught with another card classifier "
                            f"({self.classifier}; the one in {recogniser.folder} is {recogniser.classifier_id}): "
                            f"teach it again with `tableside deck learn {self.name} PHOTOS`")

    def recognise(self, recogniser: CardRecogniser, image: np.ndarray) -> list[CardSeen]:
        """Every card of this deck in ``image``: the base detector finds indices, the head names them."""
        self.check(recogniser)
        indices, backs = recogniser.detect(image)
        base, embeddings = recogniser.classify(image, indices)
        cards = merge(indices, self.probabilities(embeddings, base))
        cards += [CardSeen("back", b["score"], _box_polygon(b["box"])) for b in backs]
        return cards


def learn(recogniser: CardRecogniser, name: str, photos: list[tuple[str, np.ndarray]], progress=print) -> LearnedDeck:
    """A deck from teaching photos ``(card id, image)``, one card per photo."""
    if not NAME.fullmatch(name) or name in DECKS or name == "auto":
        raise DeckError(f"a deck name is 1-40 lower-case letters, digits, '-' or '_', and not auto/standard/decktet; "
                        f"got {name!r}")
    for card_id, _ in photos:
        if card_id not in INDEX or card_id == NONE:
            raise DeckError(f"{card_id!r} is not a card id Tableside knows (standard like 'QH', or a Decktet card)")
    seen: dict[str, list[np.ndarray]] = {}
    others: list[np.ndarray] = []
    for k, (card_id, image) in enumerate(photos):
        indices, _ = recogniser.detect(image)
        probs, _ = recogniser.classify(image, indices) if indices else (None, None)
        own = card_indices(indices, probs) if indices else []
        if not own:
            progress(f"  no corner index found on the photo of {card_id}: skipped (photo it closer or in better light)")
            continue
        rest = [i for i in indices if not any(_one_find(i["box"], o["box"]) for o in own)]
        rng = np.random.default_rng(zlib.crc32(f"{card_id}/{k}".encode()))
        embeddings = views(recogniser, image, own + rest, rng)
        seen.setdefault(card_id, []).append(embeddings[:, :len(own)].reshape(-1, embeddings.shape[-1]))
        if rest:
            others.append(embeddings[:, len(own):].reshape(-1, embeddings.shape[-1]))
        if (k + 1) % 10 == 0 or k + 1 == len(photos):
            progress(f"  {k + 1}/{len(photos)} photos read")
    if not seen:
        raise DeckError("no card index was found on any teaching photo")
    ids = tuple(sorted(seen, key=CLASSES.index))
    x = [np.concatenate(seen[i]) for i in ids]
    y = [np.full(len(v), j) for j, v in enumerate(x)]
    w = [np.full(len(v), 1.0 / len(v)) for v in x]  # each card weighs alike, however many photos show it
    if others:
        negative = np.concatenate(others)
        x.append(negative)
        y.append(np.full(len(negative), len(ids)))
        w.append(np.full(len(negative), NEGATIVE_SHARE * len(ids) / len(negative)))
    progress(f"  fitting the head on {sum(len(v) for v in x)} views of {len(ids)} cards")
    weights = fit_head(np.concatenate(x), np.concatenate(y), np.concatenate(w), len(ids) + 1)
    return LearnedDeck(name, ids, weights, len(photos), recogniser.classifier_id)


def card_indices(indices: list[dict], probs: np.ndarray) -> list[dict]:
    """The indices of the one card a teaching photo shows, among the finds on it (read by the base
    classifier as ``probs``): the surest two lying as one card's opposite corners (turned about half
    round from each other, about a card's index diagonal apart), else the surest find read as an
    index (not surely none)."""
    live = [k for k in range(len(indices)) if probs[k, INDEX[NONE]] < 0.5]
    best, pair = -1.0, []
    for a in live:
        for b in live:
            if b <= a:
                continue
            i, j = indices[a], indices[b]
            turned = abs((i["turn"] - j["turn"] + 180) % 360 - 180)
            side = math.sqrt(_side(i["box"]) * _side(j["box"]))
            apart = math.dist(_middle(i["box"]), _middle(j["box"])) / side
            similar = max(_side(i["box"]), _side(j["box"])) <= 1.6 * min(_side(i["box"]), _side(j["box"]))
            if turned >= 135 and 2.0 <= apart <= 6.5 and similar and i["score"] + j["score"] > best:
                best, pair = i["score"] + j["score"], [i, j]
    if pair:
        return pair
    return [indices[max(live, key=lambda k: indices[k]["score"])]] if live else []


def views(recogniser: CardRecogniser, image: np.ndarray, finds: list[dict], rng: np.random.Generator,
          n: int = VIEWS) -> np.ndarray:
    """The classifier's embeddings (views x finds x embedding) of ``finds`` (with ``box`` and ``turn``)
    in ``n`` views of ``image``: scaled so the first find's box is a table's index size (drawn
    between :data:`VIEW_SIDES`), blurred, lit, tinted and noised, each find's crop turned and boxed
    a little off; the first view is the photo as it is. (Each find is worked on in a patch of the
    photo round it: noise over a whole photo, scaled up, cost five times the classifier's reads.)"""
    _, e = recogniser.read_turned(image, finds, np.array([f["turn"] for f in finds]))
    embeddings = [e]
    side = _side(finds[0]["box"])
    h, w = image.shape[:2]
    patches, boxes, patch_turns = [], [], []
    for _ in range(1, n):
        scale = math.exp(rng.uniform(*np.log(VIEW_SIDES))) / side
        sigma = rng.uniform(0, VIEW_BLUR)
        gain = rng.uniform(*VIEW_GAIN) * (1 + rng.uniform(-VIEW_TINT, VIEW_TINT, 3))
        noise = rng.uniform(0, VIEW_NOISE)
        turns = np.array([f["turn"] for f in finds]) + rng.normal(0, VIEW_TURN_DEG, len(finds))
        for f, turn in zip(finds, turns):
            x0, y0, x1, y1 = f["box"]
            r = 2 * _side(f["box"]) + 2
            px, py = int(max(0, (x0 + x1) / 2 - r)), int(max(0, (y0 + y1) / 2 - r))
            patch = image[py:int(min(h, (y0 + y1) / 2 + r)), px:int(min(w, (x0 + x1) / 2 + r))]
            size = (max(4, round(patch.shape[1] * scale)), max(4, round(patch.shape[0] * scale)))
            patch = cv2.resize(patch, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
            patch = patch.astype(np.float32)
            if sigma > 0.3:
                patch = cv2.GaussianBlur(patch, (0, 0), sigma)
            patch = patch * gain + rng.normal(0, noise, patch.shape)
            patches.append(np.clip(patch, 0, 255).astype(np.uint8))
            boxes.append(_jittered([(x0 - px) * scale, (y0 - py) * scale, (x1 - px) * scale, (y1 - py) * scale], rng))
            patch_turns.append(turn)
    # all the patches side by side in one picture, read in one run of the classifier (the recogniser's
    # own crop-and-read, as its ``classify`` reads an index at a turn; each patch's edge repeated round it)
    if not patches:
        return np.stack(embeddings).astype(np.float32)
    cell = (max(p.shape[0] for p in patches), max(p.shape[1] for p in patches))
    mosaic = np.concatenate([cv2.copyMakeBorder(p, 0, cell[0] - p.shape[0], 0, cell[1] - p.shape[1], cv2.BORDER_REPLICATE)
                             for p in patches], axis=1)
    at = [{"box": [b[0] + k * cell[1], b[1], b[2] + k * cell[1], b[3]]} for k, b in enumerate(boxes)]
    _, e = recogniser.read_turned(mosaic, at, np.array(patch_turns))
    embeddings += list(e.reshape(n - 1, len(finds), -1))
    return np.stack(embeddings).astype(np.float32)


def fit_head(x: np.ndarray, y: np.ndarray, weight: np.ndarray, classes: int) -> np.ndarray:
    """Multinomial logistic regression (weights (features + 1) x classes) of samples ``x`` (rows)
    with labels ``y`` weighed by ``weight``: full-batch gradient descent with momentum, L2 decay."""
    xb = _with_bias(x.astype(np.float64))
    target = np.eye(classes)[y]
    weight = weight / weight.sum()
    w = np.zeros((xb.shape[1], classes))
    velocity = np.zeros_like(w)
    for _ in range(FIT_STEPS):
        p = _softmax(xb @ w)
        grad = xb.T @ ((p - target) * weight[:, None]) + FIT_DECAY * w
        velocity = 0.9 * velocity - FIT_RATE * grad
        w += velocity
    return w.astype(np.float32)


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


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def _with_bias(x: np.ndarray) -> np.ndarray:
    return np.hstack([x, np.ones((len(x), 1), x.dtype)])


def _jittered(box, rng: np.random.Generator) -> list[float]:
    x0, y0, x1, y1 = box
    k = rng.uniform(*VIEW_BOX) / 2
    cx = (x0 + x1) / 2 + rng.uniform(-VIEW_SHIFT, VIEW_SHIFT) * (x1 - x0)
    cy = (y0 + y1) / 2 + rng.uniform(-VIEW_SHIFT, VIEW_SHIFT) * (y1 - y0)
    return [cx - k * (x1 - x0), cy - k * (y1 - y0), cx + k * (x1 - x0), cy + k * (y1 - y0)]


def _side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1.0)


def _middle(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _one_find(a, b) -> bool:
    """Whether two boxes are one find: the middle of either lies inside the other."""
    (ax, ay), (bx, by) = _middle(a), _middle(b)
    return (b[0] <= ax <= b[2] and b[1] <= ay <= b[3]) or (a[0] <= bx <= a[2] and a[1] <= by <= a[3])


def _box_polygon(box) -> list[list[float]]:
    x0, y0, x1, y1 = box
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
