"""The pages players use at the table: start a game, then follow it live.

Both pages are thin: the start page posts to ``POST /api/games``, and the live page draws what
``GET /api/games/<id>`` returns and redraws on every server-sent event from ``/events``
(``static/live.js``, plain JavaScript with nothing fetched from elsewhere).
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from referee import games
from referee.log import LogError
from webui.catalogue import game_json
from webui.live_games import UnknownGame
from vision.table_reader import GAME_DECKS, GAME_PIECES

bp = Blueprint("pages", __name__)

SEAT_COLOURS = ("red", "yellow", "green", "blue", "black")  # the pyramid colours, in the order players usually take them


@bp.get("/play")
def start():
    registry = games.registry()
    refereed = [game_json(t, True) for t in registry.types() if registry.is_refereed(t.name)]
    live = current_app.extensions["tableside.games"]
    running = []
    for game_id in live.live_ids():
        game = live.get(game_id)
        running.append({"id": game_id, "title": game.game.type.title, "players": game.game.players,
                        "over": game.session.state.is_over()})
    return render_template("start.html", games=refereed, colours=SEAT_COLOURS, running=running)


@bp.get("/play/<game_id>")
def live_page(game_id: str):
    try:
        live = current_app.extensions["tableside.games"].get(game_id)
    except UnknownGame:
        abort(404)
    except LogError as exc:  # a damaged log: say so; History lists its good part
        return render_template("refused.html", status=409, message=f"this game's log cannot be resumed: {exc}"), 409
    # the demo table plays itself (webui.demo) with its own pieces: no camera to stop, no token to show
    demo_table = (live.seating.camera or "").startswith("demo:") and \
        current_app.extensions["tableside.cameras"].get(live.id) is None
    return render_template("live.html", game_id=live.id, title=live.game.type.title, game_name=live.game.type.name,
                           camera=live.seating.camera, has_cards=live.game.type.name in GAME_DECKS,
                           demo_table=demo_table,
                           shows_tokens=live.game.type.name in GAME_PIECES and not demo_table,
                           shows_colours=GAME_PIECES.get(live.game.type.name, (0, False))[1],
                           players=live.game.players)
