"""A standard deck of a design the card models never saw, for measuring deck teaching.

Four-colour suits (spades black, hearts red, diamonds blue, clubs green), cream paper and ranks in
a script hand: the shapes and colours a model trained on ordinary decks has not learned to read.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from referee.cards import Card, standard_deck
from vision.synth.faces import INDEX_BOX_MM, PX_PER_MM, face

INK = {"S": (30, 30, 30), "H": (40, 40, 200), "D": (190, 90, 20), "C": (40, 140, 30)}  # BGR
CREAM = np.array([200, 236, 248], np.float32)


def novel_face(card_id: str) -> np.ndarray:
    card = Card.parse(card_id)
    img = face(card_id).astype(np.float32)
    paper = img[5, img.shape[1] // 2].copy()
    ink_share = np.clip(np.abs(img - paper).max(axis=2, keepdims=True) / 120, 0, 1)  # 0 paper .. 1 ink
    out = CREAM * (1 - ink_share) + np.array(INK[card.suit], np.float32) * ink_share
    out = out.astype(np.uint8)
    k = PX_PER_MM
    x0, y0, x1, y1 = (round(v * k) for v in INDEX_BOX_MM)
    corner = out[y0:y1, x0:x1].copy()
    corner[: round(9.5 * k)] = CREAM.astype(np.uint8)  # the printed rank goes; the suit symbol stays
    rank = "10" if card.rank == "T" else card.rank
    scale = 1.5 if len(rank) == 1 else 1.1
    (tw, th), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_SCRIPT_COMPLEX, scale, 3)
    cv2.putText(corner, rank, (max(0, (corner.shape[1] - tw) // 2), round(1.0 * k + th)),
                cv2.FONT_HERSHEY_SCRIPT_COMPLEX, scale, INK[card.suit], 3, cv2.LINE_AA)
    h, w = out.shape[:2]
    out[y0:y1, x0:x1] = corner
    out[h - y1:h - y0, w - x1:w - x0] = corner[::-1, ::-1]
    return out


def write_novel_deck(folder: str | Path) -> Path:
    """Write the 52 faces as ``<id>.png`` into ``folder`` (for the renderer's ``faces``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for card_id in standard_deck():
        cv2.imwrite(str(folder / f"{card_id}.png"), novel_face(card_id))
    return folder
