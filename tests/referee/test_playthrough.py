"""The shared playthrough format: parsing, replaying with checks, and writing games back out."""

from pathlib import Path

import pytest

from referee import playthrough
from referee.playthrough import PlaythroughError

PUNGO = Path(__file__).parent / "pungo" / "playthroughs"
GAMES = sorted(Path(__file__).parent.glob("*/playthroughs/*.txt"))


# every game keeps at least this many recorded playthroughs, each of at least this many actions
MINIMUM = {"pouches": (3, 11), "mongoose": (2, 1), "deck_town": (2, 1), "pungo": (5, 1)}


def test_every_game_keeps_its_recorded_playthroughs():
    counts = {game: sum(1 for p in GAMES if p.parent.parent.name == game) for game in MINIMUM}
    assert all(counts[game] >= files for game, (files, _) in MINIMUM.items()), counts


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_recorded_game_replays_to_its_outcome_and_writes_back_the_same(path):
    recorded = playthrough.load(path)
    assert recorded.expected is not None, "a recorded game ends with its @expect line"
    result = playthrough.replay(recorded)  # every step checked, the ending compared with @expect
    assert result.state.is_over() and len(result.states) - 1 >= MINIMUM[path.parent.parent.name][1]
    played = [recorded.game.actions.parse(line.action) for line in recorded.lines if line.illegal_rule is None]
    text = playthrough.write(recorded.game, played, setup=recorded.setup, comments=("regenerated",))
    again = playthrough.replay(playthrough.parse(text, "regenerated"))
    assert again.state == result.state
    assert text.splitlines()[-1].startswith(f"@expect winners={','.join(result.state.outcome().winners) or '-'} ")


@pytest.mark.parametrize("text, message", [
    ("move ann N", "an action before the @game line"),
    ("# nothing", "no @game line"),
    ("@game pungo players=ann,bob\n@teleport ann", "unknown directive '@teleport'"),
    ("@game pungo players=ann,bob\n@illegal step ann r2c3 1 N", "write '@illegal <action> | <rule id>'"),
    ("@game pungo players=ann,bob\n@expect ann", "write '@expect winners=a,b rule=<rule id>'"),
    ("@game pungo players=ann,bob\n@setup {oops", "@setup is not JSON"),
    ("@game chess players=ann,bob", "t:1: no game named 'chess'"),
    ("@game players=ann,bob", "write '@game <name>"),
])
def test_malformed_playthroughs_say_where_and_what(text, message):
    with pytest.raises(PlaythroughError, match=message):
        playthrough.parse(text, "t")


def _chaos_with(extra_line: str, after: int = 3) -> str:
    lines = (PUNGO / "chaos.txt").read_text().splitlines()
    first_action = next(i for i, line in enumerate(lines) if line and not line.startswith(("#", "@")))
    lines.insert(first_action + after, extra_line)
    return "\n".join(lines)


def test_a_refused_action_is_reported_with_its_line():
    with pytest.raises(PlaythroughError, match=r"chaos:\d+: step bob r2c2 3 N: refused: illegal"):
        playthrough.replay(playthrough.parse(_chaos_with("step bob r2c2 3 N"), "chaos"))


def test_an_illegal_line_that_the_referee_accepts_fails():
    text = _chaos_with("@illegal show 5 | pungo/roll/chaos", after=1)
    with pytest.raises(PlaythroughError, match="accepted it, but it should be refused"):
        playthrough.replay(playthrough.parse(text, "chaos"))


def test_an_illegal_line_must_cite_the_right_rule():
    text = _chaos_with("@illegal step bob r2c2 3 N | pungo/win/symmetry")
    with pytest.raises(PlaythroughError, match="citing .* not pungo/win/symmetry"):
        playthrough.replay(playthrough.parse(text, "chaos"))


def test_a_different_ending_fails():
    text = (PUNGO / "chaos.txt").read_text().replace("@expect winners=ann", "@expect winners=bob")
    with pytest.raises(PlaythroughError, match="ended .*'ann'.* expected .*'bob'"):
        playthrough.replay(playthrough.parse(text, "chaos"))


def test_moves_follow_a_recorded_game_only_through_its_states_to_its_end():
    recorded = playthrough.load(Path(__file__).parent / "pungo" / "playthroughs" / "standard-whole-turns.txt")
    lines = [line.action for line in recorded.lines if line.illegal_rule is None]
    assert playthrough.follows(recorded, lines)
    assert not playthrough.follows(recorded, lines[:-1])  # stops short of the end
    states = playthrough.replay(recorded).states
    other = next(a for a in states[0].legal_actions() if states[0].apply(a) != states[1])
    assert not playthrough.follows(recorded, [str(other)])  # a state the game never passed
