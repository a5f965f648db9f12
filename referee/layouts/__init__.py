"""Layouts: from what the camera saw (a :class:`~referee.snapshot.TableSnapshot`, in table mm) to what a
game's state looks like (a :class:`~referee.view.View` of its places).

Each game has a layout that knows its places: grid cells inferred from where cards lie (tolerant of
sloppy placement), mat zones where a printed mat defines them (given as plain rectangles, so the
referee never imports calibration), player areas by seat. A layout never guesses: a place whose
reading rests on a low-confidence sighting is listed in ``uncertain`` with the other readings its
sightings allow, so the session can prefer a legal reading and ask the players when still unsure.

    layout = layouts.for_game(game, zones={"pool": (x, y, w, h), ...})
    seen = layout.read(snapshot, state)     # SeenView(view, uncertain, unplaced)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from referee.game import Game, State
from referee.snapshot import TableSnapshot
from referee.view import View

Rect = tuple[float, float, float, float]  # x, y, width, height in table mm


@dataclass(frozen=True)
class SeenView:
    """What a snapshot shows, as a game's view.

    ``view`` is the most likely reading. ``uncertain`` maps each place whose contents rest on a
    sighting below the confidence threshold to the other contents it might have (most likely
    first). ``unplaced`` lists sightings that fall in no place of the game (a card off the table
    area, say), in words, for the players to see.
    """

    view: View
    uncertain: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    unplaced: tuple[str, ...] = ()

    def alternatives(self, limit: int = 16):
        """Views to try, best first: the most likely one, then each uncertain place changed in turn
        (one place at a time, so the number of views stays small)."""
        yield self.view
        produced = 1
        for place, options in self.uncertain.items():
            for contents in options:
                if produced >= limit:
                    return
                places = dict(self.view)
                places[place] = contents
                yield View(places)
                produced += 1

    def pairs(self, limit: int = 48):
        """Views with two uncertain places changed at once, likeliest options first: for a table
        on which two places are misread together (a small unseen on one card while another is
        read a size up), which no view of :meth:`alternatives` shows."""
        places = list(self.uncertain.items())
        combos = [(i + j, (a, x), (b, y)) for n, (a, xs) in enumerate(places) for b, ys in places[n + 1:]
                  for i, x in enumerate(xs) for j, y in enumerate(ys)]
        combos.sort(key=lambda c: c[0])  # stable: the layout's order of places breaks ties
        for _, (a, x), (b, y) in combos[:limit]:
            yield View({**self.view, a: x, b: y})


class Layout(Protocol):
    def read(self, snapshot: TableSnapshot, state: State) -> SeenView: ...


def for_game(game: Game, zones: dict[str, Rect] | None = None, threshold: float = 0.6) -> Layout:
    """The layout for a configured game; ``zones`` are the printed mat's places, when there is a mat;
    a sighting below ``threshold`` confidence makes its place uncertain."""
    import importlib

    module = importlib.import_module(f"referee.layouts.{game.type.name.replace('-', '_')}")
    return module.layout(game, zones or {}, threshold=threshold)
