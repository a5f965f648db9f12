"""What a webcam does to the light it receives: colour, vignetting, blur, noise and JPEG.

:func:`develop` turns the renderer's linear picture (float, 0..255 for white paper in full light)
into the 8-bit frame a webcam delivers. Every step follows a cheap real cause: the light's colour
temperature only half corrected by auto white balance, lens vignetting, a lens slightly out of
focus, a hand-held or moving camera, photon and read noise, and the JPEG the camera streams.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.synth.scene import Effects, Light


def kelvin_bgr(kelvin: float) -> np.ndarray:
    """Relative B, G, R of a black body at ``kelvin``, green = 1 (Tanner Helland's fit)."""
    t = kelvin / 100
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    bgr = np.clip(np.array([b, g, r]), 1, 255) / 255
    return (bgr / bgr[1]).astype(np.float32)


def develop(linear: np.ndarray, effects: Effects, light: Light, seed: int,
            gain: np.ndarray | None = None) -> np.ndarray:
    """The finished uint8 BGR frame from a float32 linear picture; ``gain`` is a coarse map of
    how much more light falls on each part of the picture (resized to fit)."""
    h, w = linear.shape[:2]
    # Auto white balance corrects most of a warm or cold light, not all of it; its error stays.
    tint = kelvin_bgr(light.kelvin) / kelvin_bgr(5500.0)
    tint = tint ** 0.35 * np.asarray(effects.white_balance, np.float32) * effects.exposure
    # auto exposure pulls the picture's mean towards mid-grey, within what the camera can do
    mean = np.asarray(cv2.mean(linear)[:3], np.float32)
    tint *= float(np.clip(120.0 / max(float(mean.mean()), 1.0), 0.75, 1.8))
    # flare (haze): a veil of the picture's mean light over everything; one affine pass with the tint
    veil = mean * tint * effects.haze
    matrix = np.zeros((3, 4), np.float32)
    matrix[np.arange(3), np.arange(3)] = tint * (1 - effects.haze)
    matrix[:, 3] = veil
    image = cv2.transform(linear, matrix)
    falloff = np.ones((18, 32), np.float32) if gain is None else gain
    if effects.vignette > 0:
        falloff = falloff * _vignette(falloff.shape[1], falloff.shape[0], effects.vignette)
    gain_map = cv2.resize(falloff, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(image, cv2.cvtColor(gain_map, cv2.COLOR_GRAY2BGR), dst=image)
    frame = cv2.convertScaleAbs(image)  # rounds and saturates to 0..255
    if effects.focus_blur_px > 0.05:
        frame = cv2.GaussianBlur(frame, (0, 0), effects.focus_blur_px)
    if effects.motion_blur_px >= 1.0:
        frame = cv2.filter2D(frame, -1, motion_kernel(effects.motion_blur_px, effects.motion_deg))
    if effects.noise > 0:
        # sensor noise, seeded here (cv2.randn is fast); then the camera's tone curve lifts it with the mid-tones
        frame = cv2.addWeighted(frame, 1.0, _noise_crop(frame.shape, seed), effects.noise, 0.0, dtype=cv2.CV_8U)
    if effects.gamma != 1.0:
        frame = cv2.LUT(frame, _tone_curve(round(effects.gamma, 3)))
    if effects.saturation != 1.0:
        grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        frame = cv2.addWeighted(frame, effects.saturation, grey, 1 - effects.saturation, 0)
    if effects.jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


def _noise_crop(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Unit Gaussian noise for a frame: a window, placed by the seed, of a larger field drawn
    once per size (drawing fresh noise for every frame would cost more than the rest of the sensor)."""
    h, w = shape[:2]
    field = _noise_field(h, w)
    rng = np.random.default_rng(seed)
    y, x = int(rng.integers(0, field.shape[0] - h + 1)), int(rng.integers(0, field.shape[1] - w + 1))
    return field[y:y + h, x:x + w]


@lru_cache(maxsize=4)
def _noise_field(h: int, w: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal((h + 97, w + 131, 3)).astype(np.float32)


@lru_cache(maxsize=64)
def _tone_curve(gamma: float) -> np.ndarray:
    return np.clip(255 * (np.arange(256) / 255) ** (1 / gamma) + 0.5, 0, 255).astype(np.uint8)


def motion_kernel(length_px: float, angle_deg: float) -> np.ndarray:
    """A line of ``length_px`` at ``angle_deg``: the smear of a point moving during the exposure."""
    size = int(math.ceil(length_px)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle_deg)) * length_px / 2, math.sin(math.radians(angle_deg)) * length_px / 2
    cv2.line(kernel, (round((c - dx) * 16), round((c - dy) * 16)), (round((c + dx) * 16), round((c + dy) * 16)),
             1.0, 1, cv2.LINE_AA, 4)
    return kernel / max(kernel.sum(), 1e-6)


def _vignette(w: int, h: int, strength: float) -> np.ndarray:
    """Lens vignetting on a w x h grid covering the picture: corners of a 16:9 frame lose about
    strength x 60 % of their light."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((x - (w - 1) / 2) / (w / 2)) ** 2 + ((y - (h - 1) / 2) / (w / 2)) ** 2
    return np.clip(1 - strength * 0.45 * r2, 0.2, 1).astype(np.float32)
