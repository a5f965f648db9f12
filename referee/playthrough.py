"""Recorded playthroughs: a whole game as text, one action a line, that replays and checks itself.

Every game's playthroughs use one format, so they can be written by hand, regenerated from a log
and diffed (as OpenSpiel does)::

    # Anything after '#' is a comment.
    @game pouches edition=1.9 players=ann,bob options=steeper-hills:3/4,relaxation:yes
    @setup {"first": "ann"}                      # JSON for Game.new_state (optional)
    reveal heap/0,0 AS                           # an action, in the game's own notation
    @illegal move ann 0,1 | pouches-1.9/move/diagonal    # must be refused, citing that rule
    @expect winners=ann rule=pouches-1.9/win/five-foods  # how it ends; winners=- is a draw;
    @expect ... text=ann wins: ...               # text=, when given, is the rest of the line

:func:`replay` checks every action as it goes: its notation reads back to the same text, the
referee accepts it, the game is not over yet, and (unless told otherwise) the state survives a JSON
round trip; every ``@illegal`` line is refused by ``apply`` with that rule among the reasons; at
the end the outcome is exactly the ``@expect`` line's.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from referee import games
from referee.game import Game, State
from referee.verdict import IllegalAction


class PlaythroughError(AssertionError):
    """A playthrough that does not replay as written: names the file, the line and what went wrong."""


@dataclass(frozen=True)
class Line:
    number: int
    action: str
    illegal_rule: str | None = None  # set for an @illegal line


@dataclass(frozen=True)
class Expected:
    winners: tuple[str, ...]
    rule: str
    text: str | None = None


@dataclass(frozen=True)
class Playthrough:
    source: str
    game: Game
    setup: object
    lines: tuple[Line, ...]
    expected: Expected | None


@dataclass
class Replay:
    """What replaying gave: the final state, every state along the way, and the refusals seen."""

    state: State
    states: list[State] = field(default_factory=list)
    refused: int = 0


def parse(text: str, source: str = "<playthrough>") -> Playthrough:
    game, setup, expected, lines = None, None, None, []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.split("#", 1)[0].split())
        if not line:
            continue
        where = f"{source}:{number}"
        if line.startswith("@game"):
            game = _game(line, where)
        elif line.startswith("@setup"):
            try:
                setup = json.loads(line[len("@setup"):])
            except json.JSONDecodeError as exc:
                raise PlaythroughError(f"{where}: @setup is not JSON ({exc})") from None
        elif line.startswith("@illegal"):
            action, bar, rule = line[len("@illegal"):].partition("|")
            if not bar or not rule.strip():
                raise PlaythroughError(f"{where}: write '@illegal <action> | <rule id>'")
            lines.append(Line(number, action.strip(), rule.strip()))
        elif line.startswith("@expect"):
            expected = _expected(raw.split("#", 1)[0] if "text=" not in raw else raw, where)
        elif line.startswith("@"):
            raise PlaythroughError(f"{where}: unknown directive {line.split()[0]!r} (@game, @setup, @illegal, @expect)")
        else:
            if game is None:
                raise PlaythroughError(f"{where}: an action before the @game line")
            lines.append(Line(number, line))
    if game is None:
        raise PlaythroughError(f"{source}: no @game line")
    return Playthrough(source, game, setup, tuple(lines), expected)


def load(path: str | Path) -> Playthrough:
    path = Path(path)
    return parse(path.read_text(), path.name)


def replay(playthrough: Playthrough, round_trip: bool = True) -> Replay:
    """Play the recorded game through the referee, checking everything the module docstring lists."""
    game = playthrough.game
    state = game.new_state(playthrough.setup)
    result = Replay(state, [state])
    for line in playthrough.lines:
        where = f"{playthrough.source}:{line.number}: {line.action}"
        try:
            action = game.actions.parse(line.action)
        except ValueError as exc:
            raise PlaythroughError(f"{where}: {exc}") from None
        if line.illegal_rule is not None:
            try:
                state.apply(action)
            except IllegalAction as exc:
                if line.illegal_rule not in exc.verdict.rules:
                    raise PlaythroughError(f"{where}: refused, but citing {exc.verdict.rules}, "
                                           f"not {line.illegal_rule}") from None
                result.refused += 1
                continue
            raise PlaythroughError(f"{where}: the referee accepted it, but it should be refused ({line.illegal_rule})")
        if str(action) != line.action:
            raise PlaythroughError(f"{where}: notation reads back as {str(action)!r}")
        if state.is_over():
            raise PlaythroughError(f"{where}: the game is already over ({state.outcome().text})")
        verdict = state.check(action)
        if not verdict.legal:
            raise PlaythroughError(f"{where}: refused: {verdict}")
        state = state.apply(action)
        if round_trip and game.state_from_json(json.loads(json.dumps(state.to_json()))) != state:
            raise PlaythroughError(f"{where}: the state changed in a JSON round trip")
        result.states.append(state)
    result.state = state
    expected = playthrough.expected
    if expected is not None:
        outcome = state.outcome()
        if outcome is None:
            raise PlaythroughError(f"{playthrough.source}: ends before the game does (to move: {state.to_move})")
        got = (outcome.winners, outcome.rule) + ((outcome.text,) if expected.text is not None else ())
        want = (expected.winners, expected.rule) + ((expected.text,) if expected.text is not None else ())
        if got != want:
            raise PlaythroughError(f"{playthrough.source}: ended {got}, expected {want}")
    return result


def write(game: Game, actions: list, setup: object = None, comments: tuple[str, ...] = (),
          expect: bool = True, state: State | None = None) -> str:
    """The text of a playthrough (to record a game, or regenerate a file and diff it)."""
    options = ",".join(f"{k}:{_word(v)}" for k, v in game.option_values)
    head = [f"# {c}" for c in comments]
    head.append(f"@game {game.type.name} edition={game.edition} players={','.join(game.players)}"
                + (f" options={options}" if options else ""))
    if setup is not None:
        head.append(f"@setup {json.dumps(setup)}")
    state = state or game.new_state(setup)
    for action in actions:
        head.append(str(action))
        state = state.apply(action)
    outcome = state.outcome()
    if expect and outcome is not None:
        head.append(f"@expect winners={','.join(outcome.winners) or '-'} rule={outcome.rule} text={outcome.text}")
    return "\n".join(head) + "\n"


def random_playthrough(game: Game, setup: object = None, seed: int = 0, max_actions: int = 400) -> Playthrough:
    """A seeded random game from ``setup``, written and read back as a playthrough: every action
    chosen uniformly among the legal ones (chance outcomes too), until the game ends or
    ``max_actions`` have been played (then it has no ``@expect``)."""
    rng = random.Random(seed)
    state, actions = game.new_state(setup), []
    while not state.is_over() and len(actions) < max_actions:
        action = rng.choice(list(state.legal_actions()))
        actions.append(action)
        state = state.apply(action)
    text = write(game, actions, setup, comments=(f"a random game, seed {seed}",))
    return parse(text, f"<random {game.type.name} game, seed {seed}>")


def follows(playthrough: Playthrough, moves: list[str]) -> bool:
    """Whether ``moves`` (notation, as a session logged them) follow the recorded game: every state
    they reach is one the game reached, in order, and they end at the game's last state. A session
    may read several recorded lines as one move (a Pungo turn), never a state the game did not pass."""
    states = replay(playthrough).states
    parse = playthrough.game.actions.parse
    reached = [states[0]]
    for move in moves:
        reached.append(reached[-1].apply(parse(move)))
    played = iter(states)
    return all(any(state == p for p in played) for state in reached) and reached[-1] == states[-1]


def _game(line: str, where: str) -> Game:
    words = line.split()
    if len(words) < 2 or "=" in words[1]:
        raise PlaythroughError(f"{where}: write '@game <name> edition=... players=a,b options=k:v,...'")
    fields = dict(word.split("=", 1) for word in words[2:] if "=" in word)
    options = dict(item.split(":", 1) for item in fields.get("options", "").split(",") if item)
    players = fields.get("players")
    try:
        return games.get(words[1], edition=fields.get("edition"),
                         players=players.split(",") if players else 2, options=options)
    except ValueError as exc:
        raise PlaythroughError(f"{where}: {exc}") from None


def _expected(line: str, where: str) -> Expected:
    body = line.strip()[len("@expect"):]
    body, _, text = body.partition("text=")
    fields = dict(word.split("=", 1) for word in body.split() if "=" in word)
    if "winners" not in fields or "rule" not in fields:
        raise PlaythroughError(f"{where}: write '@expect winners=a,b rule=<rule id>' (winners=- for a draw)")
    winners = () if fields["winners"] == "-" else tuple(fields["winners"].split(","))
    return Expected(winners, fields["rule"], text.strip() or None if text else None)


def _word(value) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
