"""Tableside's Flask dashboard: the app factory.

It serves the catalogue (games and pieces), the rules and the what-if referee, the live games
(JSON API, server-sent events, camera pictures), the pages players use at the table, and the
history of past games. Flask is imported inside the factory: the ``tableside`` command line lives
in this package too, and most commands never need it.

Settings: ``ACCESS_TOKEN`` (None: only this machine may connect; see ``webui.security``),
``MAX_CONTENT_LENGTH`` (bytes in one request), ``CAMERA_TIMEOUT_S`` (how long a request waits
for a camera's picture, default 10) and ``GAMES_FOLDER`` (default ``<instance>/games``,
where each game's log is kept).
"""

from __future__ import annotations

import json
import os
import secrets

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


class ConfigError(ValueError):
    """The instance folder's settings cannot be read: says which file and why."""


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> Flask:
    """Build the app. Settings come from defaults, then ``<instance>/config.json``, then ``test_config``."""
    from flask import Flask
    from werkzeug.exceptions import HTTPException

    app = Flask(__name__, instance_relative_config=True, instance_path=instance_path)
    # A fresh key per process: nothing signed has to survive a restart yet.
    app.config.from_mapping(SECRET_KEY=secrets.token_hex(16), MAX_CONTENT_LENGTH=1_000_000)
    try:
        app.config.from_file("config.json", load=json.load, silent=True)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{os.path.join(app.instance_path, 'config.json')} is not valid JSON: {error}; "
                          "fix or remove it") from None
    if test_config is not None:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)

    from pathlib import Path

    from webui import calibrate, catalogue, history, live, pages, rules, security
    from webui.camera_runner import CameraRunners
    from webui.camera_stills import CameraStills
    from webui.event_stream import EventHub
    from webui.live_games import LiveGames

    if app.config.get("DEBUG"):
        raise ConfigError("debug mode lets any visitor run code on this machine: remove DEBUG from the settings")
    hub = EventHub()
    app.extensions["tableside.hub"] = hub
    app.extensions["tableside.games"] = LiveGames(
        Path(app.config.get("GAMES_FOLDER") or Path(app.instance_path) / "games"), hub)
    app.extensions["tableside.cameras"] = app.extensions["tableside.games"].cameras = CameraRunners(
        Path(app.instance_path))
    app.extensions["tableside.demos"] = {}  # game id -> the webui.demo.DemoRunner playing it
    app.extensions["tableside.stills"] = CameraStills(timeout_s=float(app.config.get("CAMERA_TIMEOUT_S", 10.0)))
    security.install(app)
    app.register_blueprint(catalogue.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(calibrate.bp)
    app.register_error_handler(HTTPException, _http_error)
    return app


def _http_error(error):
    """JSON errors under /api/ (scripts read them), a plain page for a missing HTML page."""
    from flask import current_app, jsonify, render_template, request
    from werkzeug.exceptions import NotFound

    if request.path == "/api" or request.path.startswith("/api/"):
        message = error.description
        if error.code == 404 and message == NotFound.description:
            endpoints = sorted(r.rule for r in current_app.url_map.iter_rules() if r.rule.startswith("/api/"))
            message = f"no API endpoint {request.path}; there are {', '.join(endpoints)}"
        return jsonify(error=message), error.code
    if error.code == 404:
        return render_template("404.html"), 404
    return error
