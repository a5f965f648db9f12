"""Playing a demo into a dashboard game and checking that the referee followed it (the demo tests' helpers)."""

from __future__ import annotations

from referee.playthrough import follows, replay
from webui import create_app
from webui.demo import start_demo


def followed_to_the_end(tmp_path, game: str, **how):
    """Play ``demo:<game>`` into a dashboard game (``start_demo(..., **how)``, unpaced) and check that the
    referee followed it: every entry of the players taken, every state it reached one the script
    reached, in order, ending at the script's final state. Returns the runner's progress, the
    session's moves and the script's legal moves (in notation)."""
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    try:
        runner = start_demo(app, game, paced=False, **how)
        runner.join(timeout=900)
        progress = runner.progress
        assert progress.finished and progress.error is None and not progress.refused, progress.refused
        recorded = runner.source.demo.recorded
        script = [str(recorded.game.actions.parse(line.action)) for line in recorded.lines if line.illegal_rule is None]
        session = runner.live.session
        assert follows(recorded, list(session.moves)), "a state the script never reached, or not its end"
        assert session.state == replay(recorded).states[-1] and session.state.outcome() is not None
        return progress, list(session.moves), script
    finally:
        app.extensions["tableside.games"].close()


def rules_broken(progress, kind: str = "violation") -> list[list[str]]:
    """The rules each violation (or other held problem) of the demo cites, in order."""
    return [[r["rule"] for r in e.payload["readings"][0]["verdict"]["reasons"]] for e in progress.events if e.kind == kind]
