"""The referee's position in a game of Deck Town, and the rules that move it on.

The game runs in phases. ``deal``: the table deals (three each, then one more each while anyone
lacks a number card) and reports who holds a number card. ``reveal``: everyone shows a number card
at once (one joint action) and the highest card goes first. ``hatch``: from the first player
clockwise, each hatches their revealed card. ``play``: each turn one of the eight actions, then
``discard`` down to five cards, one card at a time. The game is ``over`` the moment someone
controls a winning block.

Hidden information: hands and the deck are counts only. A card a player plays must be one whose
copies are not all already seen (board, discard pile, revealed cards). Draws are not chance
events: the referee learns nothing from them but the counts.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property, lru_cache
from typing import Any

from referee.decktet import CATALOGUE
from referee.game import CHANCE, GameConfigError, Outcome, State
from referee.pyramids import Pyramid, Size
from referee.rules import RuleBook
from referee.view import View
from referee.games.deck_town.actions import ACTIONS
from referee.games.deck_town.board import Cell, cell_name, parse_cell
from referee.games.deck_town.cards import composition, title
from referee.games.deck_town.checks import Checks
from referee.games.deck_town.common import DEFAULT_COLOURS, PHASES, Piece
from referee.games.deck_town.effects import Effects
from referee.games.deck_town.moves import Moves


@lru_cache(maxsize=None)
def _book() -> RuleBook:
    return RuleBook.load("deck-town-1.1")


class DeckTownState(Moves, Checks, Effects, State):
    ACTIONS = ACTIONS

    def __init__(self, game, *, colours: tuple[str, ...], phase: str, turn: int, hands: tuple[int, ...],
                 numbers: tuple[bool, ...], revealed: tuple[str | None, ...], deck: int, discard: tuple[str, ...],
                 board: dict[Cell, str], pieces: dict[Cell, tuple[Piece, ...]], supply: tuple[tuple[int, ...], ...],
                 redeals: int = 0, result: tuple | None = None):
        super().__init__(game)
        self.colours, self.phase, self.turn = colours, phase, turn
        self.hands, self.numbers, self.revealed = hands, numbers, revealed
        self.deck, self.discard = deck, discard
        self.board, self.pieces, self.supply = board, pieces, supply  # never mutated once built
        self.redeals, self.result = redeals, result

    # ------------------------------------------------------------------ setup
    @classmethod
    def initial(cls, game, setup: Any = None) -> DeckTownState:
        """``setup`` may give the player colours: ``{"colours": {"ann": "red", "bob": "blue"}}``
        (or a list in seat order); by default red, yellow, green, blue, purple."""
        players = game.players
        colours = DEFAULT_COLOURS[:len(players)]
        if setup is not None:
            if not isinstance(setup, dict) or set(setup) - {"colours"}:
                raise GameConfigError(f"Deck Town's setup is {{'colours': {{player: colour}}}}, got {setup!r}")
            given = setup.get("colours", colours)
            if isinstance(given, dict):
                if set(given) != set(players):
                    raise GameConfigError(f"setup colours must name every player ({', '.join(players)}), "
                                          f"got {', '.join(map(str, given))}")
                given = [given[p] for p in players]
            given = tuple(given)
            if len(given) != len(players) or len(set(given)) != len(given):
                raise GameConfigError(f"each of the {len(players)} players needs a colour of their own, got {given}")
            for colour in given:
                try:
                    Pyramid(colour, Size.SMALL)
                except ValueError as exc:
                    raise GameConfigError(f"bad setup: {exc}") from None
            colours = given
        n = len(players)
        return cls(game, colours=colours, phase="deal", turn=0, hands=(0,) * n, numbers=(False,) * n,
                   revealed=(None,) * n, deck=sum(cls._composition(game).values()), discard=(), board={},
                   pieces={}, supply=((3, 3, 3),) * n)

    @classmethod
    def rulebook(cls, game) -> RuleBook:
        return _book()

    @staticmethod
    def _composition(game) -> Counter:
        return composition(game.option("deck"), game.option("fly-removal"))

    # ------------------------------------------------------------------ knowledge
    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    def index(self, player: str) -> int | None:
        try:
            return self.players.index(player)
        except ValueError:
            return None

    @cached_property
    def unseen(self) -> Counter:
        """Copies of each id that may be in a hand or the deck: the deck minus everything visible."""
        seen = Counter(self.board.values())
        seen.update(self.discard)
        seen.update(c for c in self.revealed if c)
        return self._composition(self.game) - seen

    @cached_property
    def occupants(self) -> dict[Cell, frozenset[int]]:
        return {cell: frozenset(p for p, _ in stack) for cell, stack in self.pieces.items() if stack}

    def occupies(self, p: int, cell: Cell) -> bool:
        return p in self.occupants.get(cell, ())

    def controls(self, p: int, cell: Cell) -> bool:
        return self.occupants.get(cell) == frozenset((p,))

    def controlled(self, p: int) -> set[Cell]:
        return {cell for cell, who in self.occupants.items() if who == frozenset((p,))}

    def on_board(self, p: int) -> bool:
        return any(p in who for who in self.occupants.values())

    def colour_owner(self, colour: str) -> int | None:
        return self.colours.index(colour) if colour in self.colours else None

    def describe_cell(self, cell: Cell) -> str:
        return f"{title(self.board[cell])} on {cell_name(cell)}" if cell in self.board else cell_name(cell)

    # ------------------------------------------------------------------ turn structure
    @property
    def to_move(self) -> str | None:
        if self.phase == "over":
            return None
        if self.phase == "deal":
            return CHANCE
        if self.phase == "reveal":
            return self.players[0]
        return self.players[self.turn]

    # ------------------------------------------------------------------ outcome
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winners, rule, text = self.result
        return Outcome(tuple(winners), rule, text)

    # ------------------------------------------------------------------ camera
    def view(self) -> View:
        """What the camera sees. ``board/x,y``: the card, then the pyramids on it grouped by owner
        colour (``red1+red2``). ``discard``: the face-up pile, bottom first; the players keep it
        fanned so spent cards can be read (a camera seeing only the top could not tell which two
        Pawns paid for an attack). ``deck``: a back while cards remain. ``hand/<player>``: one back
        per card held. ``reveal/<player>``: an opening card shown and not yet hatched.

        The supplies are not watched: every pyramid is on the town or back in its owner's supply
        (deck-town-1.1/setup gives each player nine, an attacked piece returns to its owner), so
        the town says what each supply holds, and a supply's pyramids stand packed together,
        touching, which the camera counts worst of all (:meth:`supply_of` names them)."""
        places: dict[str, tuple[str, ...]] = {}
        for cell, card_id in self.board.items():
            places[f"board/{cell_name(cell)}"] = (card_id, *self._stacks(cell))
        places["discard"] = self.discard
        places["deck"] = ("back",) if self.deck else ()
        for i, player in enumerate(self.players):
            places[f"hand/{player}"] = ("back",) * self.hands[i]
            if self.revealed[i]:
                places[f"reveal/{player}"] = (self.revealed[i],)
        return View(places)

    def supply_of(self, player: str) -> tuple[str, ...]:
        """The pyramids in ``player``'s supply, small to large: ``red1``, ``red1``, ``red2``, ..."""
        i = self.players.index(player)
        return tuple(f"{self.colours[i]}{s}" for s in (1, 2, 3) for _ in range(self.supply[i][s - 1]))

    def pyramid_colours(self) -> frozenset[str]:
        """The players' colours: their pyramids may all be in the supplies, which the view leaves out."""
        return frozenset(self.colours)

    def _stacks(self, cell: Cell) -> list[str]:
        """The pyramids on a card grouped by owner colour, small to large: ``blue3``, ``red1+red2``."""
        by_colour: dict[str, list[str]] = {}
        for p, s in self.pieces.get(cell, ()):
            by_colour.setdefault(self.colours[p], []).append(f"{self.colours[p]}{s}")
        return sorted("+".join(sorted(v)) for v in by_colour.values())

    def interpret(self, after: View):
        from referee.games.deck_town.reading import interpret
        return interpret(self, after)

    def is_spoken(self, action) -> bool:
        # a deal: the cards go face down into hands and each player says whether they hold a number card
        return self.phase == "deal" or super().is_spoken(action)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        return {
            "colours": list(self.colours), "phase": self.phase, "turn": self.turn, "hands": list(self.hands),
            "numbers": list(self.numbers), "revealed": list(self.revealed), "deck": self.deck,
            "discard": list(self.discard),
            "board": {cell_name(c): self.board[c] for c in sorted(self.board)},
            "pieces": {cell_name(c): [f"{self.colours[p]}{s}" for p, s in self.pieces[c]] for c in sorted(self.pieces)},
            "supply": [list(s) for s in self.supply], "redeals": self.redeals,
            "result": None if self.result is None else {"winners": list(self.result[0]), "rule": self.result[1],
                                                        "text": self.result[2]},
        }

    @classmethod
    def from_json(cls, game, data: Any) -> DeckTownState:
        try:
            return cls._from_json(game, data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, GameConfigError):
                raise
            raise ValueError(f"malformed Deck Town state: {exc!r}") from None

    @classmethod
    def _from_json(cls, game, data: dict) -> DeckTownState:
        n = len(game.players)
        colours = tuple(data["colours"])
        if len(colours) != n:
            raise ValueError(f"{len(colours)} colours for {n} players")
        if data["phase"] not in PHASES:
            raise ValueError(f"phase {data['phase']!r} is not one of {', '.join(PHASES)}")
        board = {parse_cell(k): v for k, v in data["board"].items()}
        for card_id in list(board.values()) + list(data["discard"]) + [c for c in data["revealed"] if c]:
            if card_id not in CATALOGUE:
                raise ValueError(f"unknown card {card_id!r}")
        pieces = {}
        for k, stack in data["pieces"].items():
            parsed = [Pyramid.parse(s) for s in stack]
            pieces[parse_cell(k)] = tuple(sorted((colours.index(p.colour), p.pips) for p in parsed))
        result = data["result"]
        if result is not None:
            result = (tuple(result["winners"]), result["rule"], result["text"])
        lengths = {len(data["hands"]), len(data["numbers"]), len(data["revealed"]), len(data["supply"])}
        if lengths != {n}:
            raise ValueError(f"per-player lists must have {n} entries")
        return cls(game, colours=colours, phase=data["phase"], turn=int(data["turn"]),
                   hands=tuple(int(h) for h in data["hands"]), numbers=tuple(bool(b) for b in data["numbers"]),
                   revealed=tuple(data["revealed"]), deck=int(data["deck"]), discard=tuple(data["discard"]),
                   board=board, pieces=pieces, supply=tuple(tuple(int(x) for x in s) for s in data["supply"]),
                   redeals=int(data["redeals"]), result=result)
