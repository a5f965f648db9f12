"""Past playthroughs: the list, a replay step by step, export and import, statistics per game and player.

Everything is read from the logs in the games folder (``<instance>/games/<id>.sqlite``), opened
read-only, so a game still being played can be looked at too. A log that cannot be read is listed
with its problem rather than hidden.

    GET  /history                         the list          GET /api/history          the same as JSON
    GET  /history/<id>                    the replay page   GET /api/history/<id>/at/<seq>  the state after an event
    GET  /history/<id>/export.jsonl       JSON Lines        POST /api/history/import  a JSON Lines export -> a new game
    GET  /history/stats                   wins and game lengths as charts
"""

from __future__ import annotations

import datetime
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from referee.game import CHANCE
from referee.log import LogError, PlaythroughLog, export_jsonl, import_jsonl, replay
from webui.api_input import ApiError
from webui.event_stream import public_event
from webui.live_games import GAME_ID, Seating

bp = Blueprint("history", __name__)

@dataclass(frozen=True)
class Playthrough:
    """One logged game as the history lists it."""

    id: str
    game: str  # the game's name (pouches)
    title: str  # what players call it (Pouches of Destiny 1.9)
    players: tuple[str, ...]
    started: str | None  # ISO 8601, UTC
    winners: tuple[str, ...] | None  # None while unfinished; () for a draw
    result: str  # in words
    moves: int
    minutes: float | None  # from the first event to the last
    problem: str | None = None  # why the log stops being readable, if it does


def folder() -> Path:
    return current_app.extensions["tableside.games"].folder


def read(game_id: str) -> tuple[tuple, Playthrough]:
    """The events of a logged game (as far as they can be read) and its summary."""
    path = folder() / f"{game_id}.sqlite"
    problem = None
    try:
        with PlaythroughLog.open(path, readonly=True) as log:
            events = log.events()
    except LogError as exc:
        events, problem = exc.kept, str(exc)
    if not events:
        return (), Playthrough(game_id, "?", "unreadable log", (), None, None, problem or "empty log", 0, None, problem)
    try:
        replayed = replay(events, partial=True)
    except LogError as exc:
        return events, Playthrough(game_id, "?", "unreadable log", (), None, None, str(exc), 0, None, str(exc))
    game, state = replayed.game, replayed.state
    outcome = state.outcome()
    if outcome is None:
        result = f"not finished: {state.to_move} to move" if state.to_move else "not finished"
    else:
        result = (f"{' and '.join(outcome.winners)} won" if outcome.winners else "a draw") + f": {outcome.text}"
    minutes = (events[-1].wall_time - events[0].wall_time) / 60 if len(events) > 1 else 0.0
    problem = problem or (str(replayed.problem) if replayed.problem else None)
    title = game.type.title + (f" {game.edition}" if len(game.type.editions) > 1 else "")
    return replayed.events, Playthrough(
        game_id, game.type.name, title, game.players, events[0].payload.get("started"),
        None if outcome is None else tuple(outcome.winners), result, len(replayed.history), round(minutes, 1), problem)


def playthroughs() -> list[Playthrough]:
    """Every logged game, newest first."""
    if not folder().is_dir():
        return []
    paths = sorted(folder().glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True)
    return [read(p.stem)[1] for p in paths if GAME_ID.fullmatch(p.stem)]


def _existing(game_id: str) -> str:
    if not GAME_ID.fullmatch(game_id) or not (folder() / f"{game_id}.sqlite").is_file():
        raise ApiError(404, f"no logged game {game_id!r}")
    return game_id


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    if request.path.startswith("/api/"):
        return jsonify(error=error.message), error.status
    return render_template("404.html"), error.status


# -- the list --
@bp.get("/history")
def index():
    return render_template("history.html", playthroughs=playthroughs())


@bp.get("/api/history")
def api_index():
    return jsonify([asdict(p) for p in playthroughs()])


# -- one game, step by step --
@bp.get("/history/<game_id>")
def replay_page(game_id: str):
    events, summary = read(_existing(game_id))
    steps = [public_event(game_id, e) for e in events]
    colours = Seating.load(folder() / f"{game_id}.json").colours
    options = events[0].payload.get("game", {}).get("options", {}) if events else {}
    return render_template("replay.html", summary=summary, steps=steps, colours=colours, options=options)


@bp.get("/api/history/<game_id>/at/<int:seq>")
def state_at(game_id: str, seq: int):
    """The game as it stood just after event ``seq``: the view, who moves, the outcome."""
    events, _ = read(_existing(game_id))
    if not 1 <= seq <= len(events):
        raise ApiError(404, f"game {game_id} has events 1 to {len(events)}, not {seq}")
    replayed = replay(events[:seq], partial=True)
    state = replayed.state
    outcome = state.outcome()
    return jsonify(seq=seq, view=state.view().to_json(), to_move="table" if state.to_move == CHANCE else state.to_move,
                   moves=[notation for _, _, notation in replayed.history],
                   outcome=None if outcome is None else outcome.to_json())


# -- export and import --
@bp.get("/history/<game_id>/export.jsonl")
def export(game_id: str):
    """The log as JSON Lines (the frames stay on this machine; the export names them)."""
    path = folder() / f"{_existing(game_id)}.sqlite"
    with tempfile.TemporaryDirectory(prefix="tableside-export-") as scratch:
        target = Path(scratch) / f"{game_id}.jsonl"
        with PlaythroughLog.open(path, readonly=True) as log:
            export_jsonl(log, target)
        data = target.read_bytes()
    return Response(data, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})


@bp.post("/api/history/import")
def import_playthrough():
    """A JSON Lines export in the body (Content-Type application/x-ndjson) becomes a new logged game."""
    if request.mimetype not in ("application/x-ndjson", "application/jsonl"):
        raise ApiError(415, "send the export as the body with Content-Type: application/x-ndjson")
    body = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: Flask answers 413
    if not body.strip():
        raise ApiError(400, "the body is empty: send the .jsonl file an export wrote")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    with tempfile.TemporaryDirectory(prefix="tableside-import-") as scratch:
        source = Path(scratch) / "import.jsonl"
        source.write_bytes(body)
        game_id = f"imported-{stamp}-{os.urandom(2).hex()}"
        target = folder() / f"{game_id}.sqlite"
        folder().mkdir(parents=True, exist_ok=True)
        try:
            log, _ = import_jsonl(source, target)
        except LogError as exc:
            for leftover in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
                leftover.unlink(missing_ok=True)  # a refused import leaves nothing behind
            message = str(exc).replace(str(source), "the export")
            raise ApiError(400, f"the export was not imported: {message}") from None
        events = len(log.events())
        log.close()
    return jsonify(id=game_id, events=events, page=f"/history/{game_id}"), 201


# -- statistics --
@dataclass
class Tally:
    plays: int = 0
    finished: int = 0
    moves: int = 0
    minutes: float = 0.0


def statistics(games: list[Playthrough]) -> dict:
    """Per game: plays, average length; per game and player: games played and won."""
    per_game: dict[str, Tally] = {}
    wins: dict[str, dict[str, list[int]]] = {}  # title -> player -> [played, won]
    for p in games:
        if p.problem and p.game == "?":
            continue
        tally = per_game.setdefault(p.title, Tally())
        tally.plays += 1
        if p.winners is None:
            continue
        tally.finished += 1
        tally.moves += p.moves
        tally.minutes += p.minutes or 0.0
        for player in p.players:
            record = wins.setdefault(p.title, {}).setdefault(player, [0, 0])
            record[0] += 1
            record[1] += player in p.winners
    return {
        "games": {title: {"plays": t.plays, "finished": t.finished,
                          "average_moves": round(t.moves / t.finished, 1) if t.finished else None,
                          "average_minutes": round(t.minutes / t.finished, 1) if t.finished else None}
                  for title, t in per_game.items()},
        "players": {title: {player: {"played": r[0], "won": r[1]} for player, r in sorted(by.items())}
                    for title, by in wins.items()},
    }


def charts(stats: dict) -> list[dict]:
    """The statistics as bar charts: game lengths, then each game's wins per player (of games played)."""
    out = []
    lengths = [(title, g["average_moves"], None) for title, g in stats["games"].items() if g["average_moves"] is not None]
    if lengths:
        out.append({"title": "Average game length", "unit": " moves", "rows": lengths,
                    "top": max(v for _, v, _ in lengths)})
    for title, players in stats["players"].items():
        rows = [(player, r["won"], r["played"]) for player, r in players.items()]
        out.append({"title": f"{title}: wins per player", "unit": "", "rows": rows,
                    "top": max(total for _, _, total in rows)})
    return out


@bp.get("/history/stats")
def stats_page():
    return render_template("stats.html", charts=charts(statistics(playthroughs())))


@bp.get("/api/history/stats")
def api_stats():
    return jsonify(statistics(playthroughs()))
