"""Name the colour of a patch of plastic: nearest neighbours among patches seen on renders whose colour was known.

Translucent plastic shows the table through it, and the light's colour shifts everything, so a
patch is described by its own median Lab colour, the table's beside it, the colour of the light
(the brightest tenth of the table) and how much the patch's lightness varies (clear plastic shows
the table's pattern; white does not): ten numbers, weighted by :func:`embed` before comparing.
The table of examples is fitted by ``models/pieces/recipe.py`` on renders the measurements never
use and stored in ``models/pieces/palette.npz``. A patch further from every example than the
examples are from each other is unknown: low confidence, never a guess. A patch with the hue of a grey table
beside it has no hue of its own: it is white, clear or black when any of its neighbours is.

The neighbours' votes are not how often a reading is right: white plastic in dim light and clear plastic over a
pale table look alike, and all seven neighbours of one may be the other. Fitting also reads every example with the
examples of its own frame left out, and keeps how often a patch read as each colour was each colour
(:meth:`Palette.truths`); readers turn that into the sighting's confidence and alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

PALETTE_FILE = Path(__file__).resolve().parents[2] / "models" / "pieces" / "palette.npz"
NEIGHBOURS = 7
FEATURES = 10  # patch Lab, table Lab, light Lab, patch lightness spread
ILLUMINANT = slice(6, 9)  # the light's Lab: one frame's examples share it
# plastic with no hue of its own: white and black reflect the light as the table does, clear shows the table through it
ACHROMATIC = ("white", "clear", "black")
# a patch whose (a, b) is within ACHROMATIC_NEAR of a grey table's (itself within ACHROMATIC_GREY of neutral, Lab
# (a, b) = 128) has no hue: coloured plastic, opaque or translucent, would move it toward its own. Such a patch is
# one of ACHROMATIC whenever its neighbours include one (session 12: on 90 random tables' bands, the 48 to 58 such
# patches were all black, white or clear at 4 to 5; blue and purple came in from 6)
ACHROMATIC_NEAR = 5.0
ACHROMATIC_GREY = 12.0


def embed(features: np.ndarray) -> np.ndarray:
    """The space the neighbours are found in: lightness counts less than hue (the light varies it
    most), and the patch's hue is also taken relative to the light's (a warm bulb yellows everything)."""
    f = np.asarray(features, np.float32).reshape(-1, FEATURES)
    return np.hstack([f[:, :1] * 0.7, f[:, 1:3], f[:, 1:3] - f[:, 7:9], f[:, 3:4] * 0.7, f[:, 4:6] * 0.7, f[:, 9:10]])


class PaletteError(RuntimeError):
    """The fitted colour table is missing or unreadable: says how to rebuild it."""


@dataclass(frozen=True)
class Palette:
    features: np.ndarray  # n x FEATURES float32, as :func:`embed` weights them
    labels: np.ndarray  # n, str: colour names
    reach: float  # a patch further than this from all examples is unknown
    # colour read -> {colour it was: share}, over the examples read with their own frame's left out (fit); a colour
    # missing here (one registered at game start) is taken as always right
    confusion: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = PALETTE_FILE) -> Palette:
        try:
            data = np.load(path, allow_pickle=False)
            features = data["features"].astype(np.float32)
            if features.shape[1:] != (FEATURES,):
                raise ValueError(f"its examples have {features.shape[1:]} numbers, not {FEATURES}")
            colours = data["confusion_colours"].astype(str).tolist()
            shares = data["confusion"].astype(np.float64)
            if shares.shape != (len(colours), len(colours)):
                raise ValueError(f"its confusion table is {shares.shape} for {len(colours)} colours")
            confusion = {read: {was: round(float(v), 4) for was, v in zip(colours, row) if v > 0}
                         for read, row in zip(colours, shares) if row.sum() > 0}
            return cls(features, data["labels"].astype(str), float(data["reach"]), confusion)
        except (OSError, KeyError, ValueError) as exc:
            raise PaletteError(f"cannot read the pyramid colour table {path}: {exc}; rebuild it with "
                               "`python -m models.pieces.recipe`") from None

    def save(self, path: Path = PALETTE_FILE) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        colours = sorted({c for read, row in self.confusion.items() for c in (read, *row)})
        shares = np.array([[self.confusion.get(read, {}).get(was, 0.0) for was in colours] for read in colours],
                          np.float32).reshape(len(colours), len(colours))
        np.savez_compressed(path, features=self.features.astype(np.float32), labels=self.labels.astype(str),
                            reach=np.float32(self.reach), confusion=shares,
                            confusion_colours=np.array(colours, dtype=str))

    @classmethod
    def fit(cls, features: np.ndarray, labels: list[str]) -> Palette:
        """A table from labelled examples; its reach is set from how far examples lie from their own kind. Each
        example is also read by the examples of the other frames (a frame's examples share its light, the
        illuminant in their features), and how often a colour read was each colour is kept (:meth:`truths`)."""
        features = np.asarray(features, np.float32).reshape(-1, FEATURES)
        labels = np.asarray(labels, dtype=str)
        e = embed(features)
        nearest = [np.sort(np.sqrt(((e[i:i + 500, None, :] - e[None, :, :]) ** 2).sum(-1)), axis=1)[:, 1]
                   for i in range(0, len(e), 500)]
        reach = max(float(np.percentile(np.concatenate(nearest), 99)) * 2.0 if nearest else 40.0, 12.0)
        _, frames = np.unique(features[:, ILLUMINANT], axis=0, return_inverse=True)
        frames = frames.ravel()
        counts: dict[str, dict[str, float]] = {}
        for frame in np.unique(frames):
            others = cls(features[frames != frame], labels[frames != frame], reach)
            for i in np.flatnonzero(frames == frame):
                votes = others.classify(features[i])
                if votes:
                    row = counts.setdefault(votes[0][0], {})
                    row[str(labels[i])] = row.get(str(labels[i]), 0.0) + 1.0
        return cls(features, labels, reach, {read: _shares(row, read) for read, row in counts.items()})

    def truths(self, colour: str, among: frozenset[str] | None = None) -> dict[str, float]:
        """How often a patch read as ``colour`` was each colour, on the fitting's renders (``among``: only these
        colours can be there, shares renormalised); {colour: 1} when that is not known."""
        row = {c: v for c, v in self.confusion.get(colour, {colour: 1.0}).items() if among is None or c in among}
        total = sum(row.values())
        return {c: v / total for c, v in row.items()} if total > 0 else {colour: 1.0}

    @property
    def _embedded(self) -> np.ndarray:
        cached = self.__dict__.get("_embedded_cache")
        if cached is None:
            cached = embed(self.features)
            object.__setattr__(self, "_embedded_cache", cached)
        return cached

    @property
    def _examples64(self) -> tuple[np.ndarray, np.ndarray]:
        cached = self.__dict__.get("_examples64_cache")
        if cached is None:
            examples = self._embedded.astype(np.float64)
            cached = (examples, np.einsum("ij,ij->i", examples, examples))
            object.__setattr__(self, "_examples64_cache", cached)
        return cached

    def with_colour(self, name: str, examples: np.ndarray) -> Palette:
        """This table plus a colour registered at game start from a few example patches."""
        examples = np.asarray(examples, np.float32).reshape(-1, FEATURES)
        return Palette(np.vstack([self.features, examples]),
                       np.concatenate([self.labels, np.full(len(examples), name)]), self.reach, self.confusion)

    def classify(self, feature: np.ndarray) -> list[tuple[str, float]]:
        """Colours with probabilities, best first; empty when the patch is like nothing known."""
        if not len(self.features):
            return []
        # squared distances as |x|^2 - 2 x.f + |f|^2, in float64: one product over the examples, no copy of them
        # (einsum rather than a matrix product, which numpy may hand to OpenBLAS's threads)
        examples, lengths = self._examples64
        f = embed(feature).astype(np.float64).ravel()
        d = np.maximum(lengths - 2.0 * np.einsum("ij,j->i", examples, f) + f @ f, 0.0)
        nearest = np.argpartition(d, NEIGHBOURS)[:NEIGHBOURS] if len(d) > NEIGHBOURS else np.arange(len(d))
        order = nearest[np.argsort(d[nearest])]  # (sorting thousands of distances to keep seven cost more)
        d = np.sqrt(d)
        if d[order[0]] > self.reach:
            return []
        if _achromatic(feature):  # no hue: the neighbours of no hue speak, when there are any
            plain = [i for i in order if self.labels[i] in ACHROMATIC]
            order = np.array(plain) if plain else order
        votes: dict[str, float] = {}
        for i in order:
            votes[self.labels[i]] = votes.get(self.labels[i], 0.0) + 1.0 / (d[i] + 2.0)
        total = sum(votes.values())
        # confidence falls as the patch leaves the examples' neighbourhood
        near = float(np.clip(1.5 - d[order[0]] / self.reach, 0.0, 1.0))
        return sorted(((str(c), float(near * v / total)) for c, v in votes.items()), key=lambda cv: -cv[1])


# a reading is taken as right this many times more before counting (one read a few times only is not taken as wrong
# half the time from two mistakes), and a palette's shares under TRUTH_FLOOR are dropped
TRUTH_PRIOR = 2.0
TRUTH_FLOOR = 0.02


def truth_shares(counts: dict[str, float], read: str) -> dict[str, float]:
    """Counts of what a reading ``read`` was, as shares, with :data:`TRUTH_PRIOR` readings of it right added
    (colours here; sizes on cards in :mod:`vision.pieces.card_sizes`)."""
    row = {**counts, read: counts.get(read, 0) + TRUTH_PRIOR}
    total = sum(row.values())
    return {was: n / total for was, n in row.items()}


def _shares(counts: dict[str, float], read: str) -> dict[str, float]:
    """A palette's row: :func:`truth_shares`, likeliest first, rounded, those under :data:`TRUTH_FLOOR` dropped."""
    return {c: round(v, 4) for c, v in sorted(truth_shares(counts, read).items(), key=lambda cv: -cv[1])
            if v >= TRUTH_FLOOR}


def _achromatic(feature: np.ndarray) -> bool:
    """Whether a patch (its feature: patch Lab, table Lab, ...) has the hue of a grey table beside it: none."""
    f = np.asarray(feature, np.float32).ravel()
    return bool(np.hypot(f[1] - f[4], f[2] - f[5]) < ACHROMATIC_NEAR
                and np.hypot(f[4] - 128.0, f[5] - 128.0) < ACHROMATIC_GREY)
