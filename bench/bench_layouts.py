"""Layout figures: reading a 30-card table (cards in table mm) as a game's view.

The tables are laid as a sloppy player would (cards up to a sixth of a card off their spot, turned
up to 13 degrees, uneven gaps): Greedy Devils' 5x5 heap of 25 piles with five pouch cards and
three tokens round it, and a 30-card Deck Town (a town of 24 cards with pyramids on some, a hand
and a discard pile). Each figure is the time of one ``layout.read(snapshot, state)``.
"""

from __future__ import annotations

import math
import random
import time

from bench import benchmark, percentiles
from referee import games, layouts
from referee.cards import standard_deck
from referee.layouts import seats
from referee.pyramids import Pyramid
from referee.snapshot import CardSighting, PyramidSighting, TableSnapshot, TokenSighting

W, H = 63.0, 88.0
SAMPLES = 200


def _card(label: str, centre, angle: float) -> CardSighting:
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    corners = tuple((centre[0] + dx * c - dy * s, centre[1] + dx * s + dy * c)
                    for dx, dy in ((-W / 2, -H / 2), (W / 2, -H / 2), (W / 2, H / 2), (-W / 2, H / 2)))
    return CardSighting(label, label != "back", centre, corners, angle, 0.97)


def _spot(rng: random.Random, cell, middle=(136.5, 89.0)):
    return (middle[0] + cell[0] * (W + 9) + rng.uniform(-W / 6, W / 6),
            middle[1] + cell[1] * (H + 9) + rng.uniform(-H / 6, H / 6))


def _pouches_table(rng: random.Random):
    game = games.get("pouches", edition="1.3", players=3)
    deck = list(standard_deck())
    rng.shuffle(deck)
    tops = {f"{c},{r}": deck[5 * r + c] for r in range(5) for c in range(5)}
    state = game.new_state({"tops": tops, "spots": {"p1": "-1,0", "p2": "2,5", "p3": "5,1"}})
    cards = [_card(pile[-1], _spot(rng, (c - 2, r - 2)), rng.uniform(-13, 13)) for (c, r), pile in state.heap.items()]
    bearing = math.radians(seats.bearings(3)[0])
    for i, label in enumerate(deck[25:30]):  # five cards in front of the camera-side player
        cards.append(_card(label, (136.5 + (i - 2) * 20, 89.0 + math.sin(bearing) * 600), rng.uniform(-8, 8)))
    tokens = tuple(TokenSighting(p, _spot(rng, (cell[0] - 2, cell[1] - 2)), 0.95)
                   for p, cell in state.spots.items() if cell is not None)
    rng.shuffle(cards)
    return game, state, TableSnapshot(0.0, tuple(cards), tokens=tokens)


def _deck_town_table(rng: random.Random):
    game = games.get("deck-town", players=2)
    state = game.new_state()
    names = ["mountain", "sailor", "castle", "forest", "battle", "pact", "cave", "author", "painter",
             "desert", "soldier", "darkness"]
    board = {(c, r): names[(c * 5 + r) % len(names)] for c in range(-3, 3) for r in range(-2, 2)}
    data = state.to_json()
    data.update(phase="play", board={f"{c},{r}": v for (c, r), v in board.items()})
    try:
        state = game.state_from_json(data)
    except (ValueError, KeyError, TypeError):
        pass  # the figure is the layout's time: a state with the right board is a convenience
    cards = [_card(label, _spot(rng, cell), rng.uniform(-13, 13)) for cell, label in board.items()]
    cards += [_card("back", (136.5 + i * 18, 89.0 - 480), 0.0) for i in range(3)]
    cards += [_card(label, (136.5 - 600 + i * 12, 89.0 + 60), 0.0) for i, label in enumerate(names[:3])]
    standing = tuple(PyramidSighting((Pyramid("red", 1 + i % 3),), _spot(rng, ((i % 6) - 3, (i // 6) - 2)), 0.9)
                     for i in range(8))
    return game, state, TableSnapshot(0.0, tuple(cards), standing)  # (the state has no pyramids: timing only)


def _timings(build) -> dict[str, float]:
    rng = random.Random(1)
    times = []
    for _ in range(SAMPLES):
        game, state, snapshot = build(rng)
        layout = layouts.for_game(game)
        started = time.perf_counter()
        layout.read(snapshot, state)
        times.append((time.perf_counter() - started) * 1000)
    return percentiles(times)


@benchmark("layout_read_pouches_30_cards", "ms", "Pouches layout.read of a 30-card table (25 piles, a pouch, tokens)")
def pouches() -> dict[str, float]:
    return _timings(_pouches_table)


@benchmark("layout_read_deck_town_30_cards", "ms", "Deck Town layout.read of a 30-card table (24-card town, pyramids)")
def deck_town() -> dict[str, float]:
    return _timings(_deck_town_table)
