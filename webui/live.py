"""The live game API: start a game, drive it with snapshots and corrections, follow it as it happens.

    POST /api/games                      start a game -> its id
    GET  /api/games/<id>                 the state as players see it, to move, the open problem, the log
    POST /api/games/<id>/snapshot        {"snapshot": TableSnapshot JSON, "frame": base64 JPEG} -> events
    POST /api/games/<id>/relabel|choose|enter|overrule|undo   the players' corrections -> events
    POST /api/games/<id>/camera/start|stop   referee the game from its camera, or stop (webui.camera_runner)
    POST /api/games/<id>/tokens|colours  register a token or pyramid colour shown alone to the camera
    GET  /api/games/<id>/pieces/<name>   the picture a token or colour was registered from
    GET  /api/games/<id>/frame.jpg       the latest camera picture; /video/<id> the same as MJPEG
    GET  /api/games/<id>/sightings       the last snapshot's cards placed on that picture (the overlay)
    GET  /api/games/<id>/frames/<name>   the picture logged with an event
    GET  /events[?game=<id>&since=<seq>] server-sent events, one JSON object per event

Every endpoint is documented in ``docs/api.md``. Requests are checked here (``webui.api_input``);
what the referee refuses comes back as 409 (does not fit the moment) or 422 (the rules refuse it).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import functools
import json
import queue
import re
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, request

from referee import games
from referee.action import ActionParseError
from referee.game import CHANCE, GameConfigError
from referee.log import LogError, frames_folder
from referee.session import SessionError
from referee.snapshot import SnapshotError, TableSnapshot
from referee.verdict import IllegalAction
from vision.capture import CaptureError, open_source
from webui.api_input import ApiError, bool_field, int_field, json_object, only_fields, text_field
from webui.event_stream import public_event
from webui.live_games import GAME_ID, LiveGame, Seating, UnknownGame
from webui.registered_pieces import HEIGHT_MM, RADIUS_MM, SHAPES, ShowingRefused, show_colour, show_token
from webui.rules import explain_rule

bp = Blueprint("live", __name__)

KEEPALIVE_S = 15.0  # an SSE comment this often, so a vanished browser is noticed and proxies keep the line
FRAME_NAME = re.compile(r"\d{6}\.jpg")
JPEG_MAGIC = b"\xff\xd8\xff"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}|[a-z]{3,20}")
COLOUR_NAME = re.compile(r"[a-z]{3,20}")  # a pyramid colour: one lower-case word (referee.pyramids)


def live_games():
    return current_app.extensions["tableside.games"]


def hub():
    return current_app.extensions["tableside.hub"]


def cameras():
    return current_app.extensions["tableside.cameras"]


def _demo_status(live) -> dict | None:
    """The demo table's status where it plays this game (it stands in for the camera)."""
    runner = current_app.extensions["tableside.demos"].get(live.id)
    return None if runner is None else runner.status()


# -- errors: one JSON shape, a status that says whose move it is --
@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=error.message), error.status


@bp.errorhandler(UnknownGame)
def _unknown_game(error: UnknownGame):
    return jsonify(error=str(error.args[0])), 404


@bp.errorhandler(SessionError)
def _session_error(error: SessionError):
    return jsonify(error=str(error)), 409


@bp.errorhandler(IllegalAction)
def _illegal(error: IllegalAction):
    return jsonify(error=f"the rules refuse {error.action}; send overrule: true to play it anyway",
                   verdict=verdict_json(error.verdict.to_json())), 422


@bp.errorhandler(ShowingRefused)
def _showing_refused(error: ShowingRefused):
    return jsonify(error=str(error)), error.status


@bp.errorhandler(LogError)
def _log_error(error: LogError):
    return jsonify(error=f"the game's log cannot be used: {error}"), 409


# -- starting and listing --
@bp.post("/api/games")
def start_game():
    data = json_object()
    only_fields(data, {"game", "edition", "options", "players", "setup", "camera", "run_camera"})
    name = text_field(data, "game")
    edition = text_field(data, "edition", default=None)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(400, "options is an object of option name -> value")
    names, colours = _players(data.get("players"))
    camera = _camera(data.get("camera"))
    run_camera = camera is not None and bool_field(data, "run_camera", default=True)
    try:
        game = games.get(name, edition, names, options)
    except GameConfigError as exc:
        raise ApiError(400, str(exc)) from None
    source = _open_camera(camera) if run_camera else None  # a camera that cannot be opened: no game
    try:
        live = live_games().start(game, data.get("setup"), Seating(colours, camera, run_camera))
    except (GameConfigError, ValueError, TypeError, KeyError) as exc:  # the game's own check of its setup
        if source is not None:
            source.close()
        if isinstance(exc, GameConfigError):
            raise ApiError(400, str(exc)) from None
        raise ApiError(400, f"the setup does not fit {game.type.title}: {exc}") from None
    if source is not None:
        cameras().start(live, source)
    return jsonify(id=live.id, url=f"/api/games/{live.id}", page=f"/play/{live.id}"), 201


@bp.get("/api/games")
def list_games():
    out = []
    for game_id in live_games().live_ids():
        live = live_games().get(game_id)
        out.append(summary(live))
    return jsonify(out)


@bp.get("/api/games/<game_id>")
def game_state(game_id: str):
    live = live_games().get(game_id)
    with live.still():  # one consistent picture while the camera may be refereeing
        body = {**summary(live), "moves": list(live.session.moves),
                "log": [public_event(live.id, e) for e in live.session.log.events()]}
    body["last_seq"] = body["log"][-1]["seq"] if body["log"] else 0
    return jsonify(body)


def summary(live: LiveGame) -> dict:
    session, game = live.session, live.game
    state = session.state
    outcome = state.outcome()
    to_move = state.to_move
    return {
        "id": live.id, "game": game.to_json(), "title": game.type.title,
        "players": [{"name": p, "seat": i, "colour": live.seating.colours.get(p)} for i, p in enumerate(game.players)],
        "camera_source": live.seating.camera,
        "camera": cameras().status(live) or _demo_status(live),
        "view": state.view().to_json(),
        "to_move": "table" if to_move == CHANCE else to_move,
        "pending": pending_json(live),
        "said": [{"seq": s.seq, "notation": str(s.action), **verdict_json(s.verdict.to_json())}
                 for s in live.session.said],
        "outcome": None if outcome is None else {**outcome.to_json(), "rule_url": _rule(outcome.rule).get("url")},
        "frame": f"/api/games/{live.id}/frame.jpg" if live.latest_frame() is not None else None,
        "pieces": pieces_json(live),
    }


def pieces_json(live: LiveGame) -> dict:
    """The tokens and colours shown to the camera, each with its picture, and what went wrong with them."""
    if live.pieces is None:
        return {"tokens": [], "colours": [], "problems": []}
    shown = live.pieces.to_json()
    for showing in shown["tokens"] + shown["colours"]:
        showing["picture"] = f"/api/games/{live.id}/pieces/{showing['picture']}"
    runner = cameras().get(live.id)
    problems = ([live.pieces.problem] if live.pieces.problem else []) + (runner.pieces_problems() if runner else [])
    return {**shown, "problems": problems}


def pending_json(live: LiveGame) -> dict | None:
    pending = live.session.pending
    if pending is None:
        return None
    payload = pending.event.payload
    return {"kind": pending.kind, "seq": pending.event.seq, "why": payload.get("why"),
            "readings": [{"index": i, "notation": r["notation"], **verdict_json(r["verdict"])}
                         for i, r in enumerate(payload.get("readings", []))],
            "changes": payload.get("changes", []), "unplaced": payload.get("unplaced", [])}


def verdict_json(verdict: dict) -> dict:
    """A verdict with each reason's rule explained: statement, ruling and the page that has it."""
    return {"legal": verdict.get("legal"),
            "reasons": [{"rule": r.get("rule"), "text": r.get("text"), **_rule(r.get("rule"))}
                        for r in verdict.get("reasons", [])]}


@functools.lru_cache(maxsize=512)
def _rule(rule_id: str) -> dict:
    """The rule's words and link (rule books do not change while the server runs)."""
    explained = explain_rule(rule_id)
    return {"statement": explained.get("statement"), "ruling": explained.get("ruling"), "url": explained.get("url")}


# -- driving a game --
@bp.post("/api/games/<game_id>/snapshot")
def snapshot(game_id: str):
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"snapshot", "frame"})
    if "snapshot" not in data:
        raise ApiError(400, "snapshot is required: a TableSnapshot as JSON (see docs/api.md)")
    try:
        seen = TableSnapshot.from_json(data["snapshot"])
    except (SnapshotError, ValueError, TypeError) as exc:
        raise ApiError(400, f"snapshot: {exc}") from None
    return _events(live, live.observe(seen, _frame(data.get("frame"))))


@bp.post("/api/games/<game_id>/relabel")
def relabel(game_id: str):
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"sighting", "label"})
    return _events(live, live.relabel(text_field(data, "sighting"), text_field(data, "label")))


@bp.post("/api/games/<game_id>/choose")
def choose(game_id: str):
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"index"})
    return _events(live, live.choose(int_field(data, "index")))


@bp.post("/api/games/<game_id>/enter")
def enter(game_id: str):
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"action", "overrule", "wait"})
    notation, anyway = text_field(data, "action"), bool_field(data, "overrule")
    wait = bool_field(data, "wait")
    if anyway and wait:
        raise ApiError(400, "overrule and wait: choose one (play it now against the rules, or wait until they allow it)")
    try:
        action = live.game.actions.parse(notation)
    except (ActionParseError, ValueError) as exc:
        raise ApiError(400, f"action: {exc}") from None
    return _events(live, live.enter(action, anyway, wait))


@bp.post("/api/games/<game_id>/unsay")
def unsay(game_id: str):
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"said"})
    return _events(live, live.unsay(int_field(data, "said")))


@bp.post("/api/games/<game_id>/overrule")
def overrule(game_id: str):
    live = live_games().get(game_id)
    data = json_object(optional=True)
    only_fields(data, {"index"})
    return _events(live, live.overrule(int_field(data, "index", default=0)))


@bp.post("/api/games/<game_id>/undo")
def undo(game_id: str):
    live = live_games().get(game_id)
    only_fields(json_object(optional=True), set())
    return _events(live, live.undo())


# -- the camera runner --
@bp.post("/api/games/<game_id>/camera/start")
def camera_start(game_id: str):
    """Referee the game from its camera (again): 400 when it cannot be opened, 409 when the game
    has no camera or is over."""
    live = live_games().get(game_id)
    only_fields(json_object(optional=True), set())
    if not live.seating.camera:
        raise ApiError(409, "this game was started without a camera: start a new game with one")
    if live.session.state.is_over():
        raise ApiError(409, "the game is over: there is nothing left to referee")
    runner = cameras().get(live.id)
    if runner is None or not runner.is_alive():
        source = _open_camera(live.seating.camera)
        live_games().set_seating(live, dataclasses.replace(live.seating, run_camera=True))
        cameras().start(live, source)
    return jsonify(camera=cameras().status(live))


@bp.post("/api/games/<game_id>/camera/stop")
def camera_stop(game_id: str):
    """Stop refereeing from the camera (snapshots and corrections still work); kept when the game resumes."""
    live = live_games().get(game_id)
    only_fields(json_object(optional=True), set())
    cameras().stop(live.id, "stopped by the players")
    if live.seating.run_camera:
        live_games().set_seating(live, dataclasses.replace(live.seating, run_camera=False))
    return jsonify(camera=cameras().status(live))


# -- the players' pieces, shown to the camera (webui.registered_pieces) --
@bp.post("/api/games/<game_id>/tokens")
def register_token(game_id: str):
    """A player's token, standing alone in the camera's latest picture: 201 with the pieces shown
    so far; 422 when the picture does not show it alone, 409 when there is no picture or calibration."""
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"label", "shape", "radius_mm", "height_mm"})
    label = text_field(data, "label", max_length=40)
    if label not in live.game.players:
        raise ApiError(400, f"label is the player whose token it is: one of {', '.join(live.game.players)}; "
                            f"got {label!r}")
    shape = text_field(data, "shape", default="pawn")
    if shape not in SHAPES:
        raise ApiError(400, f"shape is {' or '.join(SHAPES)}, got {shape!r}")
    radius = _mm_field(data, "radius_mm", 8.0, RADIUS_MM)
    height = _mm_field(data, "height_mm", 22.0, HEIGHT_MM)
    runner = cameras().get(live.id)
    showing = show_token(live, runner, Path(current_app.instance_path), label, shape, radius, height)
    if runner is not None:
        runner.pieces_changed()
    return jsonify(registered=showing.to_json(), pieces=pieces_json(live)), 201


@bp.post("/api/games/<game_id>/colours")
def register_colour(game_id: str):
    """A pyramid colour the players brought, one pyramid of it alone in the camera's latest
    picture: 201 with the pieces shown so far; 422 / 409 as for tokens."""
    live = live_games().get(game_id)
    data = json_object()
    only_fields(data, {"name"})
    name = text_field(data, "name", max_length=20)
    if not COLOUR_NAME.fullmatch(name):
        raise ApiError(400, f"name is the colour's name, one lower-case word such as olive; got {name!r}")
    runner = cameras().get(live.id)
    showing = show_colour(live, runner, Path(current_app.instance_path), name)
    if runner is not None:
        runner.pieces_changed()
    return jsonify(registered=showing.to_json(), pieces=pieces_json(live)), 201


@bp.get("/api/games/<game_id>/pieces/<name>")
def shown_picture(game_id: str, name: str):
    """The picture a token or colour was registered from."""
    live = live_games().get(game_id)
    try:
        data = live.pieces.picture(name)
    except (OSError, AttributeError):
        raise ApiError(404, f"game {game_id} has no picture {name!r} of a shown piece") from None
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _mm_field(data: dict, name: str, default: float, limits: tuple[float, float]) -> float:
    value = data.get(name, default)
    low, high = limits
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ApiError(400, f"{name} is a number of millimetres from {low:g} to {high:g}, got {json.dumps(value)[:40]}")
    return float(value)


def _open_camera(camera: str):
    """The camera opened, or a 400 saying why it cannot be."""
    try:
        return open_source(camera)
    except CaptureError as exc:
        raise ApiError(400, f"camera {camera!r} cannot be opened: {exc}") from None


def _events(live: LiveGame, events) -> Response:
    return jsonify(events=[public_event(live.id, e) for e in events], state=summary(live))


# -- pictures --
@bp.get("/api/games/<game_id>/frame.jpg")
def latest_frame(game_id: str):
    frame = live_games().get(game_id).latest_frame()
    if frame is None:
        raise ApiError(404, "no picture yet: the camera (or a snapshot with a frame) has not sent one")
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/games/<game_id>/sightings")
def sightings(game_id: str):
    """The last snapshot's cards on the latest picture, for the overlay the players click to relabel."""
    from webui.sightings import overlay

    return jsonify(overlay(live_games().get(game_id), Path(current_app.instance_path)))


@bp.get("/api/games/<game_id>/frames/<name>")
def logged_frame(game_id: str, name: str):
    """A picture kept with an event; served from the games folder, so past games need no session."""
    games = live_games()
    if not FRAME_NAME.fullmatch(name):
        raise ApiError(404, f"no frame {name!r}: frames are named like 000007.jpg")
    try:
        path = frames_folder(games.log_path(_checked_id(game_id))) / name
        data = path.read_bytes()
    except OSError:
        raise ApiError(404, f"game {game_id} has no frame {name}") from None
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "max-age=86400"})


@bp.get("/video/<game_id>")
def video(game_id: str):
    """The latest pictures as MJPEG (``multipart/x-mixed-replace``), which an <img> plays as video."""
    live = live_games().get(game_id)

    def parts():
        number = 0
        while True:
            number, frame = live.next_frame(number, KEEPALIVE_S)
            if frame is not None:
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(frame)).encode()
                       + b"\r\n\r\n" + frame + b"\r\n")

    return Response(parts(), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})


# -- server-sent events --
@bp.get("/events")
def events():
    game_id = request.args.get("game")
    since = request.args.get("since")
    if game_id is not None and request.headers.get("Last-Event-ID"):
        since = request.headers["Last-Event-ID"]  # a browser reconnecting: on from the last event it got
    live = live_games().get(game_id) if game_id is not None else None
    if since is not None and live is None:
        raise ApiError(400, "since= needs game=<id>: events are numbered per game")
    if since is not None and not since.isdigit():
        raise ApiError(400, f"since is an event number (0 for all), got {since!r}")
    events_hub = hub()  # the stream runs after the request context is gone
    listener = events_hub.subscribe(game_id)  # before reading the log, so nothing falls between the two

    def stream():
        sent = 0
        try:
            yield "retry: 2000\n\n"
            if live is not None and since is not None:
                for event in live.session.log.events(since=int(since)):
                    sent = event.seq
                    yield _sse(public_event(live.id, event), per_game=True)
            while not listener.dropped:
                try:
                    item = listener.events.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    yield ": keep-alive\n\n"
                    continue
                if live is not None and "seq" in item:  # camera news has no number
                    if item["seq"] <= sent:
                        continue  # already sent from the log
                    sent = item["seq"]
                yield _sse(item, per_game=live is not None)
        finally:
            events_hub.unsubscribe(listener)

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _sse(item: dict, per_game: bool) -> str:
    """One event in the SSE wire format; its id lets a reconnecting browser resume (Last-Event-ID).
    Camera news, which the log does not keep, goes without an id."""
    data = f"data: {json.dumps(item, separators=(',', ':'))}\n\n"
    if "seq" not in item:
        return data
    event_id = item["seq"] if per_game else f"{item['game']}/{item['seq']}"
    return f"id: {event_id}\n{data}"


# -- input checks --
def _players(value) -> tuple[list[str], dict[str, str]]:
    """Player names in seat order, and their colours, from ``["ann", ...]`` or ``[{"name", "seat", "colour"}]``."""
    if not isinstance(value, list) or not value:
        raise ApiError(400, 'players is a list of names in seat order, or of {"name", "seat", "colour"} objects')
    seated = []
    for number, item in enumerate(value):
        where = f"players[{number}]"
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict):
            raise ApiError(400, f"{where} is a name or an object with name, seat and colour")
        only_fields(item, {"name", "seat", "colour"})
        name = text_field(item, "name", max_length=40)
        seat = int_field(item, "seat", default=number)
        colour = text_field(item, "colour", default=None, max_length=20)
        if colour is not None and not COLOUR.fullmatch(colour):
            raise ApiError(400, f"{where}: colour is a colour name (red) or #rrggbb, got {colour!r}")
        seated.append((seat, name, colour))
    seats = sorted(s for s, _, _ in seated)
    if seats != list(range(len(seated))):
        raise ApiError(400, f"seats are numbered 0 to {len(seated) - 1}, each once; got {seats}")
    seated.sort()
    return [name for _, name, _ in seated], {name: colour for _, name, colour in seated if colour}


def _camera(value) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > 500:
        raise ApiError(400, "camera is text: a webcam number (0), a video file, a folder of images, "
                            "a camera URL (rtsp://, http://) or demo:<game>")
    return value.strip()


def _frame(value) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "frame is a JPEG picture encoded as base64 text")
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, "frame is not valid base64") from None
    if not data.startswith(JPEG_MAGIC):
        raise ApiError(400, "frame is not a JPEG (it must start FF D8 FF): encode the picture as JPEG first")
    return data


def _checked_id(game_id: str) -> str:
    if not GAME_ID.fullmatch(game_id):
        raise UnknownGame(f"no game {game_id!r}")
    return game_id
