"""Procedural table tops: wood, felt, cloth, knit, and plain light or dark surfaces.

Each surface is a square tile that repeats seamlessly (its noise is filtered in the frequency
domain, which is periodic by construction), so the renderer lays it over any table area with a
single perspective warp that wraps at the tile's edges.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.synth.scene import Surface

TILE_PX = 512
FEATURE_TEXELS = 16.0  # a surface's main feature (Surface.scale_mm) spans this many texels of its tile
VARIANTS = 4  # patterns drawn per kind and contrast; scenes share them (drawing one costs ~20 ms)


def tile(surface: Surface, seed: int, px_per_mm: float) -> tuple[np.ndarray, float]:
    """A seamless BGR uint8 tile of ``surface`` and its texels per millimetre, made no finer than
    about the picture's ``px_per_mm`` (a texture much finer than the pixels would alias)."""
    texels = FEATURE_TEXELS / max(surface.scale_mm, 0.5)
    halvings = 0
    while texels > 2 * px_per_mm and TILE_PX >> halvings > 64:
        halvings += 1
        texels /= 2
    value = _shrunk_pattern(surface.kind, round(surface.contrast, 1), seed % VARIANTS, halvings)
    # one channel at a time, scaled and saturated by OpenCV: a tenth of numpy's broadcast
    texture = cv2.merge([cv2.convertScaleAbs(value, alpha=float(c)) for c in surface.colour])
    return texture, texels


@lru_cache(maxsize=64)
def _shrunk_pattern(kind: str, contrast: float, seed: int, halvings: int) -> np.ndarray:
    """The pattern halved ``halvings`` times (exact halving keeps the tile seamless)."""
    value = _pattern(kind, contrast, seed)
    for _ in range(halvings):
        value = cv2.resize(value, (value.shape[1] // 2, value.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return value


@lru_cache(maxsize=64)
def _pattern(kind: str, contrast: float, seed: int) -> np.ndarray:
    """The surface's brightness pattern around 1 (float32, TILE_PX square)."""
    rng = np.random.default_rng(seed)
    n = TILE_PX
    scale = FEATURE_TEXELS
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n  # 0..1, periodic at 1
    if kind == "wood":
        # Planks along x: grain lines bent by long, stretched noise; every plank has its own tone.
        warp = _noise(rng, n, scale * 6, stretch=(6.0, 1.0))
        rings = np.abs(np.sin(np.pi * (yy * n / scale + 1.5 * warp))) ** 0.6
        fine = _noise(rng, n, 1.5, stretch=(6.0, 1.0))
        blotch = _noise(rng, n, scale * 4)
        per_plank = max(1, round(n / (scale * 9)))
        planks = np.floor(yy * per_plank)
        tone = 1 + 0.1 * np.sin(planks * 12.9898 + seed)
        value = tone * (1 + contrast * (0.16 * rings + 0.06 * fine + 0.08 * blotch))
        value = np.where((yy * per_plank) % 1 < 0.01, value * 0.7, value)  # the gaps between planks
    elif kind == "felt":
        value = 1 + contrast * (0.06 * _noise(rng, n, 1.5) + 0.08 * _noise(rng, n, scale * 6))
    elif kind == "cloth":
        period = max(2, round(scale / 2))
        weave = np.sin(2 * np.pi * xx * n / period) * np.sin(2 * np.pi * yy * n / period)
        stripes = np.sin(2 * np.pi * xx * round(n / (scale * 4))) > 0.6
        value = 1 + contrast * (0.1 * weave + 0.05 * _noise(rng, n, 1.2)) - contrast * 0.25 * stripes
    elif kind == "knit":
        # Chunky stitches: columns of V-shaped loops, each a bright bump with dark gaps around it,
        # and the whole blanket rippling in soft folds.
        columns = max(4, round(n / scale))
        rows = round(columns * 1.3)
        u, v = xx * columns, yy * rows
        lean = np.abs((u % 1) - 0.5) * 2  # 1 at a column's edges, 0 in its middle
        loop = np.cos(np.pi * 2 * (v + 0.35 * lean))
        bump = np.clip(loop, 0, 1) ** 0.7 * np.sin(np.pi * (u % 1)) ** 0.5
        folds = _noise(rng, n, scale * 6)
        value = (0.75 + contrast * 0.45 * bump) * (1 + 0.12 * contrast * folds) + 0.04 * _noise(rng, n, 1.0)
    else:  # plain light or dark: paint or laminate with faint blotches
        value = 1 + contrast * (0.03 * _noise(rng, n, scale * 10) + 0.02 * _noise(rng, n, 1.0))
    return value.astype(np.float32)


def _noise(rng: np.random.Generator, n: int, feature_px: float, stretch=(1.0, 1.0)) -> np.ndarray:
    """Periodic smooth noise of unit standard deviation with features about ``feature_px`` across."""
    white = rng.standard_normal((n, n))
    fy = np.fft.fftfreq(n)[:, None] * stretch[1]  # stretching a direction keeps only its low frequencies
    fx = np.fft.fftfreq(n)[None, :] * stretch[0]
    sigma = max(feature_px, 0.5)
    gain = np.exp(-2 * (np.pi * sigma) ** 2 * (fx ** 2 + fy ** 2))
    smooth = np.real(np.fft.ifft2(np.fft.fft2(white) * gain))
    return ((smooth - smooth.mean()) / (smooth.std() + 1e-9)).astype(np.float32)
