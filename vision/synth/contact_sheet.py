"""A contact sheet: 24 random renders (left) beside 24 real photos (right), to judge by eye.

    python -m vision.synth.contact_sheet                 # writes docs/renders-vs-real.jpg
    python -m vision.synth.contact_sheet --seed 100 -o /tmp/sheet.jpg

The real photos are read from ``../shared/data/cards_real/dev/images`` (webcam frames first, then
phone photos); the sheet shows them as small labelled thumbnails with their attribution.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.synth.random_scene import random_scene
from vision.synth.render import render

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "data" / "cards_real" / "dev" / "images"
THUMB = (240, 135)
COLUMNS, ROWS = 4, 6
HEADER = 34


def sheet(seed: int = 0, real_folder: Path = REAL) -> np.ndarray:
    count = COLUMNS * ROWS
    renders = [render(random_scene(seed + i)).image for i in range(count)]
    photos = _real_photos(real_folder, count)
    left = _grid(renders, [f"seed {seed + i}" for i in range(count)])
    right = _grid([p for _, p in photos], [name for name, _ in photos])
    gap = np.full((left.shape[0], 12, 3), 255, np.uint8)
    body = np.hstack([left, gap, right])
    header = np.full((HEADER, body.shape[1], 3), 255, np.uint8)
    cv2.putText(header, f"RENDERED: vision.synth random scenes, seeds {seed}-{seed + count - 1}", (8, 23),
                cv2.FONT_HERSHEY_DUPLEX, 0.6, (20, 20, 20), 1, cv2.LINE_AA)
    cv2.putText(header, "REAL: cards_real/dev photos (CC BY 4.0, cadyzedevelopmenthub)",
                (left.shape[1] + 20, 23), cv2.FONT_HERSHEY_DUPLEX, 0.6, (20, 20, 20), 1, cv2.LINE_AA)
    return np.vstack([header, body])


def _real_photos(folder: Path, count: int) -> list[tuple[str, np.ndarray]]:
    if not folder.is_dir():
        raise FileNotFoundError(f"real photos not found at {folder} (../shared/data beside the project)")
    names = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    webcam = [p for p in names if p.name.startswith("tabletop-")]
    phone = [p for p in names if not p.name.startswith("tabletop-")]
    # two thirds webcam frames (the setting Tableside works in), a third phone photos, spread evenly
    picked = _spread(webcam, count * 2 // 3) + _spread(phone, count - count * 2 // 3)
    photos = []
    for path in picked:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            photos.append((path.stem.replace("_Pro", "")[-24:], image))
    return photos


def _spread(items: list, n: int) -> list:
    if len(items) <= n:
        return list(items)
    return [items[round(i * (len(items) - 1) / max(1, n - 1))] for i in range(n)]


def _grid(images: list[np.ndarray], labels: list[str]) -> np.ndarray:
    w, h = THUMB
    out = np.full((ROWS * (h + 4), COLUMNS * (w + 4), 3), 255, np.uint8)
    for i, (image, label) in enumerate(zip(images, labels)):
        r, c = divmod(i, COLUMNS)
        tile = _fit(image)
        cv2.putText(tile, label, (4, h - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(tile, label, (4, h - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (255, 255, 255), 1, cv2.LINE_AA)
        out[r * (h + 4):r * (h + 4) + h, c * (w + 4):c * (w + 4) + w] = tile
    return out


def _fit(image: np.ndarray) -> np.ndarray:
    """The image scaled to fit a thumbnail, centred on grey."""
    w, h = THUMB
    scale = min(w / image.shape[1], h / image.shape[0])
    small = cv2.resize(image, (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA)
    tile = np.full((h, w, 3), 60, np.uint8)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    tile[y:y + small.shape[0], x:x + small.shape[1]] = small
    return tile


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed of the random scenes (default 0)")
    parser.add_argument("-o", "--output", default=str(ROOT / "docs" / "renders-vs-real.jpg"))
    args = parser.parse_args(argv)
    try:
        image = sheet(args.seed)
    except FileNotFoundError as exc:
        print(f"contact_sheet: {exc}", file=sys.stderr)
        return 2
    cv2.imwrite(args.output, image, [cv2.IMWRITE_JPEG_QUALITY, 82])
    print(f"wrote {args.output} ({Path(args.output).stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
