"""The cards of the last snapshot, placed on the latest camera picture, for the live page's overlay.

Snapshots give each card's corners on the table, in millimetres; the players click cards on the
camera's picture. The picture's own markers give the homography back to pixels (the mat in view,
as :func:`webui.table_calibration.look_for_mat` finds it), or, with no mat in view, the
calibration saved in the instance folder (clicked corners) when it was made at the picture's size.
Without either, the sightings come with no pixels and the page lists them instead.

The picker offers the game's deck: the names a card sighting may be relabelled to.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from calibration.homography import TableCalibration
from calibration import store
from calibration.store import CalibrationFileError
from referee.game import Game
from vision.table_reader import GAME_DECKS
from webui.live_games import LiveGame
from webui.table_calibration import load_stored, look_for_mat


_placing_lock = threading.Lock()
_placed: dict[str, tuple[tuple, TableCalibration | None, str | None, list[int] | None]] = {}  # game -> by frame


def deck_for(game: Game) -> list[str]:
    """The card names a sighting of ``game`` may be relabelled to, in deck order, then ``back``."""
    build = GAME_DECKS.get(game.type.name)
    names = list(dict.fromkeys(build())) if build else []  # a double deck names each card once
    return names + ["back"]


def overlay(live: LiveGame, folder: Path) -> dict:
    """``{"image_size", "placed_by", "sightings": [{"sighting", "label", "confidence", "corners_px"}],
    "deck"}`` for the game's last snapshot and latest picture."""
    snapshot = live.last_snapshot()
    calibration, placed_by, size = _placing(live, folder)
    sightings = []
    for index, card in enumerate(snapshot.cards if snapshot is not None else ()):
        corners_px = None
        if calibration is not None:
            corners_px = [[round(float(x), 1), round(float(y), 1)]
                          for x, y in calibration.to_image(np.array(card.corners_mm, np.float64))]
        sightings.append({"sighting": f"cards/{index}", "label": card.card or "?", "face_up": card.face_up,
                          "confidence": card.confidence, "corners_px": corners_px})
    return {"image_size": size, "placed_by": placed_by, "sightings": sightings, "deck": deck_for(live.game)}


def _placing(live: LiveGame, folder: Path) -> tuple[TableCalibration | None, str | None, list[int] | None]:
    """The homography for the latest picture, worked out once per picture."""
    try:  # a calibration saved since counts as a new picture
        saved = (Path(folder) / store.FILENAME).stat().st_mtime_ns
    except OSError:
        saved = None
    number = (live.frame_number(), saved)
    with _placing_lock:
        known = _placed.get(live.id)
    if known is not None and known[0] == number:
        return known[1:]
    found: tuple = (None, None, None)
    data = live.latest_frame()
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is not None:
        size = [frame.shape[1], frame.shape[0]]
        seen = look_for_mat(frame)
        if seen.calibration is not None:
            found = (seen.calibration, f"the {seen.layout.game} mat's markers", size)
        else:
            try:
                found = (load_stored(folder, tuple(size)).calibration, "the saved calibration", size)
            except CalibrationFileError:
                found = (None, None, size)
    with _placing_lock:
        _placed[live.id] = (number, *found)
    return found
