"""Pouches of Destiny (and Greedy Devils): the heap in the middle, each player's pouch in front of them.

Places (see ``referee.games.pouches.reading``): ``heap/c,r`` the top card of a pile, ``tokens/c,r``
the marsupials standing there, ``pouch/<player>`` and ``weapon/<player>``.

Where things go, in cells of the heap's lattice (:mod:`.tabletop`), counted out from the box
around the piles the state knows:

* within 1.6 cells: the heap. Each card is the top of the pile on its cell (a card on a new cell
  beside the heap is a new pile). A token within 2.7 cells stands on its cell, on a pile or on
  bedrock (a pile it stood beside may have gone); where the grid's cards disagree about its cell
  (counted from the nearest card, or from the lattice alone), it may stand on either. A pile whose
  top card is not seen while tokens stand on it, or that holds several cards (no move takes them
  all), is in doubt: the tokens may hide the card or the camera missed it, and it is then read as
  the state has it.
* 1.6 to 2.7 cells out, in front of a seat: that player's weapon, put forward in a fight (outside a
  fight, a card of their pouch laid down close to the heap is read in the pouch).
* 2.7 to 12 cells out: that player's pouch, face up (face down under Private Pouches). A token
  out here is waiting to enter the heap, which the view does not show.
* anything further is off the play area: listed as unplaced.

A card read as one the edition takes out of the deck (1.9's kings and low cards) is the camera's
mistake however sure it is: its place is in doubt and its other readings are weighed.

Seats go round the heap from the camera side, clockwise on a top-down picture, in the order of
``game.players`` (:mod:`.seats`). The heap lies round the middle of the mat's ``play-area`` zone
(without zones, an A4 mat's); other zones are ignored.
"""

from __future__ import annotations

from referee.cards import BACK
from referee.layouts import SeenView, seats, tabletop
from referee.layouts.readout import DEFAULT_THRESHOLD, Item, Readout, add_cards, card_label, describe
from referee.snapshot import CardSighting, TableSnapshot


class PouchesLayout:
    def __init__(self, game, zones=None, threshold: float = DEFAULT_THRESHOLD):
        self.game, self.threshold = game, threshold
        self.players = tuple(game.players)
        self.middle = tabletop.table_middle(zones)

    def read(self, snapshot: TableSnapshot, state) -> SeenView:
        expected = {cell: BACK if pile[-1] == "?" else pile[-1] for cell, pile in state.heap.items()}
        survey = tabletop.survey(snapshot.cards, state.heap, expected, seats.bearings(len(self.players)),
                                  self.middle)
        out = Readout(self.threshold, impossible=state.removed)  # a card read as one taken out is misread
        places: dict[str, list[CardSighting]] = {}
        for card, where in zip(snapshot.cards, survey.places(snapshot.cards, expected)):
            if where.kind == "grid":
                place = f"heap/{where.cell[0]},{where.cell[1]}"
            elif where.kind == "near":
                player = self.players[where.seat]
                place = f"pouch/{player}" if _kept_close(card, player, state) else f"weapon/{player}"
            elif where.kind == "far":
                place = f"pouch/{self.players[where.seat]}"
            else:
                out.unplaced(describe("card", card_label(card), card.center_mm) + ": off the play area")
                continue
            places.setdefault(place, []).append(card)
        for place, cards in places.items():
            add_cards(out, place, cards, one=not place.startswith("pouch/"))
        between = []  # (player, the cell a token is read on, the other cell it may be on)
        for token in snapshot.tokens:
            where = survey.where(token.center_mm, reach=tabletop.NEAR_REACH)
            named = self.player(token.label)
            if named is None and not any(self.player(a.label) for a in token.alternatives):
                out.unplaced(describe("token", token.label, token.center_mm) + ": no player has this token")
            elif where.kind == "grid":
                out.add_sighting(f"tokens/{where.cell[0]},{where.cell[1]}", named, token.confidence,
                                 token.alternatives, kind="token", convert=self.player)
                other = survey.other_cell(token.center_mm)
                if named is not None and other is not None:
                    between.append((named, where.cell, other))
            elif where.kind == "off":
                out.unplaced(describe("token", token.label, token.center_mm) + ": off the play area")
            # a token in a player's area has not entered the heap yet: the view does not show it
        for player, cell, other in between:
            # the grid's cards disagree about the token's cell: it may stand on the other one
            here, there = (f"tokens/{c[0]},{c[1]}" for c in (cell, other))
            stays = [item.label for item in out.items[here]]
            stays.remove(player)
            out.doubt(here, tuple(sorted(stays)))
            out.doubt(there, tuple(sorted([*(item.label for item in out.items.get(there, ())), player])))
        for cell, top in expected.items():
            # a pile whose top card is not seen: tokens on it may hide it, or the camera missed it where
            # no move could have taken it (a pick takes one card and leaves the next, face down), so it
            # is in doubt: there as the state has it, or gone (a pick of its last card leaves nothing)
            place = f"heap/{cell[0]},{cell[1]}"
            if place not in out.items and (len(state.heap[cell]) > 1 or f"tokens/{cell[0]},{cell[1]}" in out.items):
                out.doubt(place, (top,))
        return out.seen(arrange)

    def player(self, label: str) -> str | None:
        """A token's label as a player's name, None when no player has that token."""
        return label if label in self.players else None


def arrange(place: str, items: list[Item]) -> tuple[str, ...]:
    labels = [item.label for item in items]
    return tuple(sorted(labels)) if place.startswith(("pouch/", "tokens/")) else tuple(labels)


def layout(game, zones, threshold: float = DEFAULT_THRESHOLD) -> PouchesLayout:
    return PouchesLayout(game, zones, threshold)


def _kept_close(card: CardSighting, player: str, state) -> bool:
    """Whether ``card``, lying in front of ``player`` where a weapon is put forward, is a card of their pouch
    laid down close to the heap: read as one the state has in that pouch, while no fight asks for weapons
    and none of theirs is down (a weapon comes forward only then)."""
    return (state.phase != "weapons" and card.face_up and card.card in state.pouches.get(player, ())
            and not state.view().get(f"weapon/{player}"))
