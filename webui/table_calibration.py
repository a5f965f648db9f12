"""What a camera picture says about the table's calibration, and the pictures that show it.

Two ways to know where the table is (``docs/calibration.md``):

* **A printed mat** in view: its ArUco markers name the mat (:func:`calibration.mats.identify`)
  and give the homography (:func:`calibration.homography.fit_markers`). :func:`look_for_mat`
  finds the mat most of the visible markers belong to.
* **Four clicked corners** of a known-size area (:func:`calibration.homography.from_corners`),
  saved as ``calibration.json`` in the instance folder, where ``tableside calibrate table``
  saves and the live pipeline's tools load (:mod:`calibration.store`; there is one per
  instance, not one per camera). The area's size and the camera it was clicked on go beside it
  in ``calibration-area.json``, since the calibration file keeps only the homography.

:func:`marker_picture` outlines the markers on the camera picture with their ids and the mat's
places; :func:`rectified_picture` warps the picture to the table plane (top-down, a fixed number
of pixels per millimetre) and draws the places on it.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration import store
from calibration.homography import CalibrationError, TableCalibration, fit_markers
from calibration.markers import DetectedMarker, detect_markers
from calibration.mats import MARKERS_PER_MAT, MatError, MatLayout, identify, mat_layout
from calibration.rectify import rectify, table_to_rectified

AREA_FILENAME = "calibration-area.json"
OURS, STRANGER, PLACE, AREA = (60, 200, 60), (0, 140, 255), (230, 170, 40), (255, 0, 255)  # BGR
MAX_RECTIFIED_PX = 900  # the rectified picture's longer side, unless asked otherwise


@dataclass(frozen=True)
class MatSeen:
    """The markers in one picture and the mat they name."""

    markers: tuple[DetectedMarker, ...]
    layout: MatLayout | None  # the mat most visible markers belong to, None when no mat's marker shows
    seen: tuple[int, ...]  # that mat's markers in view
    strangers: tuple[int, ...]  # markers of other mats, or of no mat
    calibration: TableCalibration | None  # fitted to ``seen``

    @property
    def message(self) -> str:
        if not self.markers:
            return "no marker in view: show the printed mat to the camera, or click four corners of the play area"
        if self.layout is None:
            return f"markers {_ids(self.strangers)} are in view but belong to no Tableside mat"
        mat = f"the {self.layout.game} mat ({self.layout.paper})"
        text = f"{mat}: {len(self.seen)} of its {MARKERS_PER_MAT} markers seen"
        if self.strangers:
            text += f"; markers {_ids(self.strangers)} belong to another mat"
        if self.calibration is None:
            text += "; they give no usable calibration (too small or too slanted): move the camera closer"
        return text


def look_for_mat(frame: np.ndarray, game_options: dict | None = None) -> MatSeen:
    """Detect markers, name the mat most of them belong to, and fit the table to its markers.
    ``game_options`` shape the mat's places (Pungo's arena size), as ``tableside mat --option``."""
    markers = tuple(detect_markers(frame))
    mats = Counter(identify(m.id) for m in markers)
    mats.pop(None, None)
    if not mats:
        return MatSeen(markers, None, (), tuple(m.id for m in markers), None)
    (game, paper), _ = mats.most_common(1)[0]
    try:
        layout = mat_layout(game, paper, game_options)
    except MatError:  # options that do not fit this mat: its places as printed by default
        layout = mat_layout(game, paper)
    seen = tuple(sorted({m.id for m in markers if identify(m.id) == (game, paper)}))
    strangers = tuple(sorted({m.id for m in markers} - set(seen)))
    try:
        calibration = fit_markers(markers, layout, (frame.shape[1], frame.shape[0]))
    except CalibrationError:
        calibration = None
    return MatSeen(markers, layout, seen, strangers, calibration)


# -- the clicked-corners calibration, kept in the instance folder --
@dataclass(frozen=True)
class StoredCalibration:
    calibration: TableCalibration
    camera: str | None  # the camera the corners were clicked on (None: saved by `tableside calibrate table`)
    area_mm: tuple[float, float, float, float] | None  # the clicked area (x, y, w, h), None for a mat's


def save_corners(folder: Path, camera: str, calibration: TableCalibration, corners_px, width_mm: float,
                 height_mm: float) -> None:
    """Save a clicked-corners calibration where the rest of Tableside looks for it, and what it covers."""
    store.save(calibration, folder)
    area = {"camera": camera, "area_mm": [0.0, 0.0, width_mm, height_mm],
            "corners_px": [[float(x), float(y)] for x, y in corners_px],
            "saved": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    (Path(folder) / AREA_FILENAME).write_text(json.dumps(area, indent=2), encoding="utf-8")


def load_stored(folder: Path, image_size: tuple[int, int]) -> StoredCalibration:
    """The instance's calibration for pictures of ``image_size``; raises
    :class:`calibration.store.CalibrationFileError` (missing, damaged, another resolution)."""
    calibration = store.load(folder, image_size=image_size)
    camera, area = None, None
    try:
        data = json.loads((Path(folder) / AREA_FILENAME).read_text(encoding="utf-8"))
        if calibration.mat is None:  # the side file describes a corners calibration only
            camera, area = data.get("camera"), tuple(float(v) for v in data["area_mm"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # saved by the command line: no clicked area
    return StoredCalibration(calibration, camera, area)


# -- pictures --
def table_area(calibration: TableCalibration, area_mm=None) -> tuple[float, float, float, float]:
    """The table rectangle worth showing: a clicked area, or a mat's sheet with every place on or beside it."""
    if area_mm is not None:
        return tuple(area_mm)
    if calibration.mat is None:
        raise CalibrationError("this calibration has neither a mat nor a clicked area to show")
    layout = mat_layout(*calibration.mat)
    ox, oy = layout.origin_on_paper
    boxes = [(-ox, -oy, layout.paper_mm[0] - ox, layout.paper_mm[1] - oy)]
    boxes += [(z.x_mm, z.y_mm, z.x_mm + z.w_mm, z.y_mm + z.h_mm) for z in layout.zones]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return x0, y0, x1 - x0, y1 - y0


def default_px_per_mm(area_mm) -> float:
    return MAX_RECTIFIED_PX / max(area_mm[2], area_mm[3])


def rectified_picture(frame: np.ndarray, calibration: TableCalibration, area_mm, px_per_mm: float,
                      layout: MatLayout | None = None) -> np.ndarray:
    """The table seen from straight above, ``px_per_mm`` pixels per millimetre, with the mat's
    places (or the clicked area's outline) and a 100 mm bar to check the scale by."""
    image = rectify(frame, calibration, area_mm, px_per_mm)
    thick = max(1, round(image.shape[1] / 600))

    def box(x, y, w, h, colour, label="", below=False):
        (a, b), (c, d) = table_to_rectified(np.array([[x, y], [x + w, y + h]]), area_mm, px_per_mm)
        cv2.rectangle(image, (round(a), round(b)), (round(c), round(d)), colour, thick, cv2.LINE_AA)
        if label:
            _label(image, label, (round(a), round(d) + 3) if below else (round(a) + 4, round(b) + 4), colour,
                   scale=0.45)

    if layout is not None:
        for zone in layout.zones:
            box(zone.x_mm, zone.y_mm, zone.w_mm, zone.h_mm, PLACE, zone.label or zone.name)
        for marker in layout.markers:  # outlined just outside, labelled below: the marker itself stays readable
            box(marker.x_mm - 2, marker.y_mm - 2, marker.size_mm + 4, marker.size_mm + 4, OURS, f"#{marker.id}",
                below=True)
    else:
        box(area_mm[0], area_mm[1], area_mm[2], area_mm[3], AREA)
    bar = 100 * px_per_mm
    x, y = 10, image.shape[0] - 12
    if bar < image.shape[1] - 20:
        cv2.rectangle(image, (x, y - 4), (round(x + bar), y), (255, 255, 255), -1)
        cv2.rectangle(image, (x, y - 4), (round(x + bar), y), (0, 0, 0), 1)
        _label(image, "100 mm", (x, y - 26), (255, 255, 255), scale=0.45)
    return image


def marker_picture(frame: np.ndarray, seen: MatSeen, outline=None) -> np.ndarray:
    """The camera picture with each marker outlined and numbered (green: the mat's, orange: others),
    the mat's places where its calibration puts them, and ``outline`` (image points, a clicked area)."""
    image = frame.copy()
    thick = max(1, round(image.shape[1] / 640))
    if seen.calibration is not None:
        for zone in seen.layout.zones:
            corners = seen.calibration.to_image(zone.polygon_mm())
            cv2.polylines(image, [np.round(corners).astype(np.int32)], True, PLACE, thick, cv2.LINE_AA)
    for marker in seen.markers:
        colour = OURS if marker.id in seen.seen else STRANGER
        corners = np.round(marker.corners_px).astype(np.int32)
        cv2.polylines(image, [corners], True, colour, thick + 1, cv2.LINE_AA)
        cv2.circle(image, tuple(int(v) for v in corners[0]), thick + 2, colour, -1, cv2.LINE_AA)  # the top-left
        top = corners[:, 1].min()
        _label(image, f"#{marker.id}", (int(corners[:, 0].min()), int(top) - 22), colour)
    if outline is not None:
        cv2.polylines(image, [np.round(np.asarray(outline)).astype(np.int32)], True, AREA, thick + 1, cv2.LINE_AA)
    return image


def jpeg(image: np.ndarray, quality: int = 85) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode the picture as JPEG")
    return data.tobytes()


def _label(image: np.ndarray, text: str, at: tuple[int, int], colour, scale: float = 0.6) -> None:
    """Text on a dark box, legible on any background; ``at`` is the box's top-left corner."""
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x, y = max(0, at[0]), max(0, at[1])
    cv2.rectangle(image, (x, y), (x + w + 6, y + h + base + 6), (30, 30, 30), -1)
    cv2.putText(image, text, (x + 3, y + h + 3), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def _ids(ids) -> str:
    return ", ".join(str(i) for i in ids)
