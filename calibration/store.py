"""The calibration file: ``calibration.json`` in the instance folder, loaded at start.

Errors say what to do: a missing file (print a mat, or click four corners), a corrupt one (its
path and the problem), a stale one (made for another camera resolution or mat). A failed load
never replaces a calibration in use; the caller keeps the last good one.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from calibration.homography import TableCalibration
from calibration.intrinsics import CameraIntrinsics

FILENAME = "calibration.json"
VERSION = 1


class CalibrationFileError(ValueError):
    """The calibration file is missing, corrupt or stale; the message says which and what to do."""


class CalibrationMissing(CalibrationFileError):
    pass


class CalibrationCorrupt(CalibrationFileError):
    pass


class CalibrationStale(CalibrationFileError):
    pass


def save(calibration: TableCalibration, folder: str | Path) -> Path:
    """Write atomically (a crash mid-write leaves the old file intact)."""
    path = Path(folder) / FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "version": VERSION,
        "saved": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "image_size": list(calibration.image_size),
        "image_from_table": calibration.image_from_table.tolist(),
        "rms_px": calibration.rms_px,
        "mat": list(calibration.mat) if calibration.mat else None,
        "intrinsics": calibration.intrinsics.to_json() if calibration.intrinsics else None,
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".calibration-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)
    return path


def load(folder: str | Path, image_size: tuple[int, int] | None = None,
         mat: tuple[str, str] | None = None) -> TableCalibration:
    """Read the calibration, checking it suits the camera resolution and mat in use (when given)."""
    path = Path(folder) / FILENAME
    if not path.exists():
        raise CalibrationMissing(f"no calibration at {path}: print a mat with `tableside mat GAME` and show it to "
                                 "the camera, or click four corners of a known-size area in the dashboard")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationCorrupt(f"{path} cannot be read ({exc}); delete it and calibrate again") from None
    try:
        if data.get("version") != VERSION:
            raise CalibrationStale(f"{path} is a version {data.get('version')!r} calibration; this Tableside writes "
                                   f"version {VERSION}: calibrate again")
        H = np.array(data["image_from_table"], np.float64)
        if H.shape != (3, 3) or not np.isfinite(H).all() or abs(np.linalg.det(H)) < 1e-12:
            raise ValueError("image_from_table is not an invertible 3x3 matrix")
        size = tuple(int(v) for v in data["image_size"])
        if len(size) != 2 or min(size) <= 0:
            raise ValueError("image_size must be [width, height]")
        intrinsics = CameraIntrinsics.from_json(data["intrinsics"]) if data.get("intrinsics") else None
        saved_mat = tuple(data["mat"]) if data.get("mat") else None
        calibration = TableCalibration(H, size, intrinsics, saved_mat, float(data.get("rms_px", 0.0)))
    except CalibrationStale:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CalibrationCorrupt(f"{path} is damaged ({exc}); delete it and calibrate again") from None
    if image_size is not None and tuple(image_size) != size:
        raise CalibrationStale(f"{path} was made at {size[0]}x{size[1]} but the camera now delivers "
                               f"{image_size[0]}x{image_size[1]}: calibrate again")
    if mat is not None and saved_mat is not None and tuple(mat) != saved_mat:
        raise CalibrationStale(f"{path} was made with the {saved_mat[0]} mat ({saved_mat[1]}), not the {mat[0]} mat "
                               f"({mat[1]}): calibrate again with this game's mat")
    return calibration


CAMERA_FILENAME = "camera.json"


def save_intrinsics(intrinsics: CameraIntrinsics, folder: str | Path) -> Path:
    path = Path(folder) / CAMERA_FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": VERSION, **intrinsics.to_json()}, indent=2))
    return path


def load_intrinsics(folder: str | Path) -> CameraIntrinsics | None:
    """The camera's lens model, or None when the camera was never calibrated (it is optional)."""
    path = Path(folder) / CAMERA_FILENAME
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        intrinsics = CameraIntrinsics.from_json(data)
        if intrinsics.K.shape != (3, 3) or not np.isfinite(intrinsics.K).all():
            raise ValueError("K is not a 3x3 matrix")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CalibrationCorrupt(f"{path} is damaged ({exc}); delete it and run `tableside calibrate camera` "
                                 "again") from None
    return intrinsics
