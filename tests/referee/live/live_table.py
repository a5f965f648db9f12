"""Test helpers for sessions: layouts that need no camera, and recorded games turned into tables.

``ScriptedLayout`` returns the SeenView given for each snapshot time; ``ZoneLayout`` really reads
card sightings, placing each by the zone its centre lies in and listing low-confidence cards as
uncertain places (enough to test relabels). ``mongoose_game()`` turns a recorded Mongoose
playthrough into the views the table shows after each action.
"""

from __future__ import annotations

from pathlib import Path

from referee import CardSighting, TableSnapshot, View
from referee.games import mongoose
from referee.game import configure
from referee.games.mongoose.deck import arranged
from referee.layouts import SeenView
from referee.snapshot import Alternative

ROOT = Path(__file__).resolve().parents[3]
MONGOOSE_GAMES = ROOT / "tests" / "referee" / "mongoose" / "playthroughs"
POUCHES_GAMES = ROOT / "tests" / "referee" / "pouches" / "playthroughs"
DECK_TOWN_GAMES = ROOT / "tests" / "referee" / "deck_town" / "playthroughs"
JPEG = b"\xff\xd8\xff\xe0" + b"\x00\x10JFIF\x00" + bytes(range(256)) * 4 + b"\xff\xd9"


class ScriptedLayout:
    """Reads a snapshot as whatever SeenView (or View) the script gives for its time ``t``."""

    def __init__(self, script=None):
        self.script = dict(script or {})
        self.reads = 0

    def show(self, t: float, seen) -> TableSnapshot:
        """Script time ``t`` to read as ``seen`` and return the snapshot that stands for it."""
        self.script[t] = seen if isinstance(seen, SeenView) else SeenView(View(seen) if not isinstance(seen, View) else seen)
        return TableSnapshot(t)

    def read(self, snapshot, state) -> SeenView:
        self.reads += 1
        return self.script[snapshot.t]


class ZoneLayout:
    """Cards placed by zone: ``zones`` maps a place to the x range (mm) of its strip of table.

    A card below ``threshold`` confidence makes its place uncertain, with the place's contents as
    they would be under each alternative."""

    def __init__(self, zones: dict[str, tuple[float, float]], threshold: float = 0.8):
        self.zones, self.threshold = zones, threshold

    def read(self, snapshot, state) -> SeenView:
        places: dict[str, list[str]] = {}
        doubts: dict[str, list[tuple[CardSighting, tuple[Alternative, ...]]]] = {}
        for card in snapshot.cards:
            place = next(p for p, (x0, x1) in self.zones.items() if x0 <= card.center_mm[0] < x1)
            places.setdefault(place, []).append(card.card)
            if card.confidence < self.threshold and card.alternatives:
                doubts.setdefault(place, []).append((card, card.alternatives))
        view = View({p: arranged(cs) for p, cs in places.items()})
        uncertain = {}
        for place, found in doubts.items():
            options = []
            for card, alternatives in found:
                for alt in alternatives:
                    contents = list(places[place])
                    contents[contents.index(card.card)] = alt.label
                    options.append(arranged(contents))
            uncertain[place] = tuple(options)
        return SeenView(view, uncertain)


def card(card_id: str, x: float, y: float = 50.0, confidence: float = 0.99, alternatives=()) -> CardSighting:
    corners = ((x - 31, y - 44), (x + 31, y - 44), (x + 31, y + 44), (x - 31, y + 44))
    return CardSighting(card_id, True, (x, y), corners, 0.0, confidence,
                        tuple(Alternative(label, p) for label, p in alternatives))


def mongoose_table():
    return configure(mongoose.GAME_TYPE, None, ["ann", "bob"], None, mongoose.STATE)


def _recorded(path):
    """(game, [action, ...], [state after 0, 1, ... actions], expected winners) of a recorded game."""
    from referee import playthrough

    recorded = playthrough.load(path)
    states = playthrough.replay(recorded).states
    actions = [recorded.game.actions.parse(line.action) for line in recorded.lines if line.illegal_rule is None]
    return recorded.game, actions, states, list(recorded.expected.winners)


def mongoose_game(name: str = "three-pairs"):
    """A recorded Mongoose game: (game, actions, states, expected winners)."""
    return _recorded(MONGOOSE_GAMES / f"{name}.txt")


def deck_town_game(name: str = "three-fours"):
    """A recorded Deck Town game: (game, actions, states, expected winners)."""
    return _recorded(DECK_TOWN_GAMES / f"{name}.txt")


def pouches_script(name: str):
    """(game, starting state, [action lines]) of a recorded Pouches game, without its refused attempts."""
    from referee import playthrough

    recorded = playthrough.load(POUCHES_GAMES / name)
    lines = [line.action for line in recorded.lines if line.illegal_rule is None]
    return recorded.game, recorded.game.new_state(recorded.setup), lines


def uphill(path):
    """A Pouches session at ``path`` with ann to move on bedrock at -1,1 (a recorded game's first 13 moves), its
    scripted layout, that state, and the table of her illegal move up to 0,1 (a 5 without a Diamond):
    (session, layout, state, uphill view)."""
    from referee import View
    from referee.log import PlaythroughLog
    from referee.session import Session

    game, state, lines = pouches_script("02-fight-bury-1.9.txt")
    for line in lines[:13]:
        state = state.apply(game.actions.parse(line))
    layout = ScriptedLayout()
    session = Session(game, state, layout, PlaythroughLog.create(path))
    seen = dict(state.view())
    seen["tokens/0,1"] = ("ann",)
    del seen["tokens/-1,1"]
    return session, layout, state, View(seen)


def play_mongoose(path, moves: int | None = None, frame: bytes | None = None):
    """A session at ``path`` that has played the first ``moves`` table changes of the recorded game
    (all of them by default); returns (session, states)."""
    from referee.session import Session

    game, _, states, _ = mongoose_game("three-pairs")
    layout = ScriptedLayout()
    session = Session.start(game, layout, path)
    for t, after in enumerate(states[1:moves + 1 if moves else None], start=1):
        session.observe(layout.show(float(t), after.view()), frame=frame)
    return session, states


def pungo_game(name: str = "standard-whole-turns"):
    """A recorded Pungo game written as whole turns, the way the camera reads them:
    (game, actions, states, expected winners)."""
    return _recorded(ROOT / "tests" / "referee" / "pungo" / "playthroughs" / f"{name}.txt")
