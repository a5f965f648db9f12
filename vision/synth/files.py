"""Scene files in, pictures and ground truth out: what ``tableside render`` reads and writes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.synth.render import Rendering
from vision.synth.scene import Scene, SceneError


def load_scene(path: str | Path) -> Scene:
    """Read a scene JSON file; a missing, unreadable or malformed file raises :class:`SceneError`."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise SceneError(f"cannot read the scene file {path}: {exc.strerror or exc}") from None
    try:
        return Scene.from_json(text)
    except SceneError as exc:
        raise SceneError(f"{path}: {exc}") from None


def write_rendering(rendering: Rendering, image_path: str | Path, truth_path: str | Path | None = None,
                    masks_path: str | Path | None = None) -> None:
    """Write the picture (by its extension: .png, .jpg), the truth as JSON and the instance image
    as a 16-bit PNG (pixel value = object index, 0 the table)."""
    image_path = Path(image_path)
    if image_path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
        raise SceneError(f"cannot write a picture to {image_path.name}: use a .png or .jpg file name")
    _write_image(image_path, rendering.image)
    if truth_path is not None:
        try:
            Path(truth_path).write_text(json.dumps(rendering.truth(), indent=1))
        except OSError as exc:
            raise SceneError(f"cannot write {truth_path}: {exc.strerror or exc}") from None
    if masks_path is not None:
        if rendering.instances is None:
            raise SceneError("no instance image: render with masks=True")
        _write_image(Path(masks_path), rendering.instances.astype(np.uint16))


def _write_image(path: Path, image: np.ndarray) -> None:
    try:
        jpeg = path.suffix.lower() in (".jpg", ".jpeg")
        ok = cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 95] if jpeg else [])
    except cv2.error:
        ok = False
    if not ok:
        raise SceneError(f"cannot write {path}: is the folder there and writable?")
