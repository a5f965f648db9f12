"""Rules and disputes: every rule in the project's own words, and the "what if" referee.

``/rules/<book>`` lists a rule book (anchors are rule ids, so a verdict links to
``/rules/pouches-1.9#pouches-1.9/move/uphill``). ``/whatif`` settles a dispute: describe a position
as a playthrough (``@game`` line, optional ``@setup``, the actions so far) and ask whether one more
action is legal; the answer cites the rules. ``POST /api/whatif`` does the same for scripts.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from referee import playthrough
from referee.playthrough import PlaythroughError
from referee.rules import RuleBook, RuleBookError, UnknownRule

bp = Blueprint("rules", __name__)

MAX_POSITION_CHARS = 100_000
EXAMPLE = """# A position: the game, its setup, and the actions so far (one per line).
@game pungo players=ann,bob
step ann r2c3 1 N
"""
EXAMPLE_ACTION = "roll bob W 5"


def book_names() -> list[str]:
    folder = resources.files("referee") / "rulebooks"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def rule_url(rule_id: str) -> str:
    """Where a rule is explained: its book's page, at the rule's anchor."""
    return url_for("rules.book", name=rule_id.split("/", 1)[0], _anchor=rule_id)


def explain_rule(rule_id: str) -> dict:
    """A rule as JSON for a verdict: its id, statement, source, ruling and where to read more."""
    try:
        rule = RuleBook.load(rule_id.split("/", 1)[0])[rule_id]
    except (RuleBookError, UnknownRule):
        return {"id": rule_id, "statement": None, "url": None}
    return {**rule.to_json(), "url": rule_url(rule_id)}


@bp.get("/rules")
def index():
    books = [(name, len(RuleBook.load(name))) for name in book_names()]
    return render_template("rules_index.html", books=books)


@bp.get("/rules/<name>")
def book(name: str):
    if name not in book_names():
        abort(404)
    return render_template("rulebook.html", name=name, rules=list(RuleBook.load(name)))


@dataclass
class Answer:
    legal: bool
    action: str
    reasons: list[dict]
    to_move: str | None
    outcome: str | None
    view: dict
    legal_actions: list[str]


class Dispute(ValueError):
    """A what-if question that cannot be answered as asked: says what to fix."""


def settle(position: str, action_text: str) -> Answer:
    """Replay the position, then check the action there."""
    if len(position) > MAX_POSITION_CHARS:
        raise Dispute(f"the position is too long (over {MAX_POSITION_CHARS} characters)")
    if not action_text.strip():
        raise Dispute("write the action to check, in the game's notation")
    try:
        state = playthrough.replay(playthrough.parse(position, "position"), round_trip=False).state
    except PlaythroughError as exc:
        raise Dispute(str(exc)) from None
    try:
        action = state.game.actions.parse(action_text)
    except ValueError as exc:
        raise Dispute(f"the action: {exc}") from None
    verdict = state.check(action)
    reasons = [{"rule": r.rule, "text": r.text, **{k: v for k, v in explain_rule(r.rule).items() if k != "id"}}
               for r in verdict.reasons]
    offered = []
    for legal in state.legal_actions():
        offered.append(str(legal))
        if len(offered) >= 40:
            break
    outcome = state.outcome()
    return Answer(verdict.legal, str(action), reasons, state.to_move, outcome.text if outcome else None,
                  state.view().to_json(), offered)


@bp.route("/whatif", methods=["GET", "POST"])
def whatif():
    position, action, answer, error = EXAMPLE, EXAMPLE_ACTION, None, None
    if request.method == "POST":
        position = request.form.get("position", "")
        action = request.form.get("action", "")
        try:
            answer = settle(position, action)
        except Dispute as exc:
            error = str(exc)
    return render_template("whatif.html", position=position, action=action, answer=answer, error=error,
                           status=400 if error else 200), 400 if error else 200


@bp.post("/api/whatif")
def api_whatif():
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("position"), str) or not isinstance(data.get("action"), str):
        return jsonify(error='send JSON {"position": "<playthrough text>", "action": "<notation>"}'), 400
    try:
        answer = settle(data["position"], data["action"])
    except Dispute as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(answer.__dict__)
