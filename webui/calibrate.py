"""Checking the calibration before a game: the page, its JSON and pictures, and printable mats.

    GET  /play/calibrate?camera=<source>&game=<name>   the page (linked from the start and live pages)
    GET  /api/calibration/status?camera=...[&game=...]  markers seen, the mat they name, the calibration in use
    GET  /api/calibration/view.jpg?camera=...          the picture with the markers outlined and numbered
    GET  /api/calibration/rectified.jpg?camera=...     the picture warped to the table plane, places drawn
    POST /api/calibration/corners                      {camera, corners: [[x, y] x 4], width_mm, height_mm}
    GET  /mats/<game>.<pdf|png|svg>?paper=A4           a mat to print

The camera is opened for each new picture and closed again (``webui.camera_stills``): a source
that cannot be opened is a 400, one that gives no picture in time a 503, never a hung request.
What is seen is worked out by ``webui.table_calibration``; documented in ``docs/api.md``.
"""

from __future__ import annotations

import math
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from calibration.homography import CalibrationError, from_corners
from calibration.mats import MAT_GAMES, PAPERS, MatError, mat_layout
from calibration.store import CalibrationFileError, CalibrationMissing
from referee import games
from referee.game import GameConfigError
from webui.api_input import ApiError, json_object, only_fields
from webui.camera_stills import CameraUnavailable, Still
from webui.table_calibration import (MatSeen, StoredCalibration, default_px_per_mm, jpeg, load_stored,
                                     look_for_mat, marker_picture, rectified_picture, save_corners, table_area)

bp = Blueprint("calibrate", __name__)

MAX_AREA_MM = 5000.0  # a play area wider than 5 m is a typing mistake
MAX_RECTIFIED_PIXELS = 6_000_000
MAT_FORMATS = {"pdf": "application/pdf", "png": "image/png", "svg": "image/svg+xml"}
USES = ("auto", "mat", "stored")


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=error.message), error.status


@bp.errorhandler(CameraUnavailable)
def _camera_error(error: CameraUnavailable):
    return jsonify(error=error.message), error.status


# -- the page --
@bp.get("/play/calibrate")
def page():
    registry = games.registry()
    refereed = [{"name": t.name, "title": t.title} for t in registry.types() if registry.is_refereed(t.name)]
    return render_template("calibrate.html", games=refereed, papers=list(PAPERS), mat_games=MAT_GAMES,
                           camera=request.args.get("camera", ""), game=request.args.get("game", ""),
                           back=_local_path(request.args.get("back")))


# -- what the camera sees --
@bp.get("/api/calibration/status")
def status():
    camera, options, game = _camera_arg(), *_game_arg()
    still = _still(camera, fresh=request.args.get("fresh") == "1")
    seen = look_for_mat(still.frame, options)
    stored, stored_problem = _stored(still)
    source = _chosen(seen, stored, "auto")
    height, width = still.frame.shape[:2]
    mat = None
    if seen.layout is not None:
        mat = {"game": seen.layout.game, "paper": seen.layout.paper, "title": seen.layout.title,
               "markers_seen": list(seen.seen), "markers_total": len(seen.layout.markers),
               "fits_game": None if game is None else seen.layout.game == game}
    calibration = None
    if source is not None:
        cal = source.calibration if isinstance(source, StoredCalibration) else source
        calibration = {"source": _source_name(source), "rms_px": round(cal.rms_px, 3),
                       "mat": list(cal.mat) if cal.mat else None,
                       "camera": source.camera if isinstance(source, StoredCalibration) else camera}
    message = seen.message
    if mat is not None and mat["fits_game"] is False:
        message += f"; this is not the {game} mat: print the right one below"
    if seen.calibration is None and stored is not None:
        message += "; the clicked corners saved earlier are in use" if stored.area_mm else \
                   "; the calibration saved earlier is in use"
    return jsonify(camera=camera, image_size=[width, height], message=message, mat=mat,
                   markers=[{"id": m.id, "mine": m.id in seen.seen,
                             "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in m.corners_px]}
                            for m in seen.markers],
                   strangers=list(seen.strangers), calibration=calibration, stored_problem=stored_problem,
                   view=_url("calibrate.view", camera),
                   rectified=_url("calibrate.rectified", camera) if source is not None else None)


@bp.get("/api/calibration/view.jpg")
def view():
    camera, options, _ = _camera_arg(), *_game_arg()
    still = _still(camera)
    seen = look_for_mat(still.frame, options)
    stored, _ = _stored(still)
    outline = None
    if seen.calibration is None and stored is not None and stored.area_mm is not None:
        x, y, w, h = stored.area_mm
        outline = stored.calibration.to_image([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    return _jpeg_response(marker_picture(still.frame, seen, outline))


@bp.get("/api/calibration/rectified.jpg")
def rectified():
    camera, options, _ = _camera_arg(), *_game_arg()
    use = request.args.get("use", "auto")
    if use not in USES:
        raise ApiError(400, f"use is one of {', '.join(USES)}, got {use!r}")
    still = _still(camera)
    seen = look_for_mat(still.frame, options)
    stored, problem = _stored(still)
    source = _chosen(seen, stored, use)
    if source is None:
        if use == "stored":
            raise ApiError(409, problem or "no calibration is saved: click four corners first")
        raise ApiError(409, f"no calibration for this picture: {seen.message}"
                            + (f" ({problem})" if problem and use == "auto" else ""))
    if isinstance(source, StoredCalibration):
        calibration, area, layout = source.calibration, source.area_mm, None
        if area is None:  # saved from a mat by the command line
            layout = mat_layout(*calibration.mat)
    else:
        calibration, area, layout = source, None, seen.layout
    area = table_area(calibration, area)
    px_per_mm = _px_per_mm(area)
    return _jpeg_response(rectified_picture(still.frame, calibration, area, px_per_mm, layout))


@bp.post("/api/calibration/corners")
def corners():
    data = json_object()
    only_fields(data, {"camera", "corners", "width_mm", "height_mm"})
    camera = _camera_text(data.get("camera"))
    points = _corners(data.get("corners"))
    width, height = _length(data, "width_mm"), _length(data, "height_mm")
    still = _still(camera)
    h, w = still.frame.shape[:2]
    outside = [i + 1 for i, (x, y) in enumerate(points) if not (0 <= x <= w and 0 <= y <= h)]
    if outside:
        raise ApiError(400, f"corner {', '.join(map(str, outside))} lies outside the {w}x{h} picture: "
                            "click the corners on the camera's picture")
    try:
        calibration = from_corners(points, width, height, (w, h))
    except CalibrationError as exc:
        raise ApiError(400, str(exc)) from None
    save_corners(_folder(), camera, calibration, points, width, height)
    return jsonify(camera=camera, image_size=[w, h], rms_px=round(calibration.rms_px, 3),
                   area_mm=[0.0, 0.0, width, height],
                   rectified=_url("calibrate.rectified", camera, use="stored")), 201


# -- mats to print --
@bp.get("/mats/<game>.<fmt>")
def mat_file(game: str, fmt: str):
    if fmt not in MAT_FORMATS:
        raise ApiError(404, f"mats come as {', '.join(MAT_FORMATS)}, not {fmt!r}: /mats/{game}.pdf")
    paper = request.args.get("paper", "A4")
    options = {}
    for item in request.args.getlist("option"):
        name, sep, value = item.partition("=")
        if not sep:
            raise ApiError(400, f"option is NAME=VALUE (option=arena=3x4), got {item!r}")
        options[name] = value
    try:
        layout = mat_layout(game, paper, options)
    except MatError as exc:
        raise ApiError(404 if game not in MAT_GAMES else 400, str(exc)) from None
    drawing = layout.drawing()
    body = {"pdf": drawing.to_pdf, "png": lambda: drawing.to_png(300), "svg": lambda: drawing.to_svg().encode()}[fmt]()
    name = f"{game}-mat-{paper}.{fmt}"
    return Response(body, mimetype=MAT_FORMATS[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "max-age=3600"})


# -- helpers --
def _still(camera: str, fresh: bool = False) -> Still:
    return current_app.extensions["tableside.stills"].still(camera, fresh)


def _folder() -> Path:
    return Path(current_app.instance_path)


def _stored(still: Still) -> tuple[StoredCalibration | None, str | None]:
    """The saved calibration if it suits this picture, else None and why not."""
    try:
        return load_stored(_folder(), (still.frame.shape[1], still.frame.shape[0])), None
    except CalibrationMissing:
        return None, None  # nothing saved: not a problem, the mat may do
    except CalibrationFileError as exc:
        return None, str(exc)


def _chosen(seen: MatSeen, stored: StoredCalibration | None, use: str):
    """The calibration to show: the mat in view first (as the live pipeline does), else the saved one."""
    if use in ("auto", "mat") and seen.calibration is not None:
        return seen.calibration
    if use in ("auto", "stored"):
        return stored
    return None


def _source_name(source) -> str:
    if not isinstance(source, StoredCalibration):
        return "mat"
    return "corners" if source.area_mm is not None else "saved"


def _camera_arg() -> str:
    return _camera_text(request.args.get("camera"))


def _camera_text(value) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ApiError(400, "camera is required: a webcam number (0), a video file, a folder of images, "
                            "a camera URL (rtsp://, http://) or demo:<game>")
    if not isinstance(value, str) or len(value) > 500:
        raise ApiError(400, "camera is text of at most 500 characters: a webcam number (0), a video file, "
                            "a folder of images, a camera URL or demo:<game>")
    return value.strip()


def _game_arg() -> tuple[dict | None, str | None]:
    """The game chosen on the page, if any: its mat's options (a Pungo arena's size) and its name."""
    name = request.args.get("game") or None
    if name is None:
        return None, None
    try:
        game_type = games.registry().game_type(name)
    except GameConfigError as exc:  # its message names the games there are
        raise ApiError(400, f"game: {exc}") from None
    options = {o.name: str(o.default) for o in game_type.options if o.name in ("arena", "roll-grid")}
    return options, game_type.name


def _corners(value) -> list[tuple[float, float]]:
    shape = "corners is a list of four [x, y] picture points, clockwise from the play area's top-left"
    if not isinstance(value, list):
        raise ApiError(400, shape)
    if len(value) != 4:
        raise ApiError(400, f"{shape}; got {len(value)} point{'s' if len(value) != 1 else ''}")
    points = []
    for i, point in enumerate(value):
        numbers = isinstance(point, list) and len(point) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in point)
        if not numbers:
            raise ApiError(400, f"corners[{i}] is [x, y] in picture pixels (two numbers), got {str(point)[:40]}")
        points.append((float(point[0]), float(point[1])))
    return points


def _length(data: dict, name: str) -> float:
    value = data.get(name)
    if value is None:
        raise ApiError(400, f"{name} is required: the play area's size in millimetres")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ApiError(400, f"{name} is a number of millimetres, got {str(value)[:40]!r}")
    if not 10 <= value <= MAX_AREA_MM:
        raise ApiError(400, f"{name} must be between 10 and {MAX_AREA_MM:g} mm, got {value:g}")
    return float(value)


def _px_per_mm(area) -> float:
    text = request.args.get("px_per_mm")
    if text is None:
        return default_px_per_mm(area)
    try:
        value = float(text)
    except ValueError:
        raise ApiError(400, f"px_per_mm is a number (pixels per millimetre), got {text!r}") from None
    if not 0.1 <= value <= 10 or area[2] * area[3] * value * value > MAX_RECTIFIED_PIXELS:
        raise ApiError(400, f"px_per_mm must lie between 0.1 and 10 and keep the picture under "
                            f"{MAX_RECTIFIED_PIXELS:,} pixels; got {text}")
    return value


def _url(endpoint: str, camera: str, **more) -> str:
    game = request.args.get("game")
    return url_for(endpoint, camera=camera, **({"game": game} if game else {}), **more)


def _local_path(value: str | None) -> str | None:
    """A link back to a page of this site only (never to another site)."""
    if value and value.startswith("/") and not value.startswith("//"):
        return value
    return None


def _jpeg_response(image) -> Response:
    return Response(jpeg(image), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
