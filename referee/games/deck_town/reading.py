"""Reading a change at the table as Deck Town actions, legal or not.

The camera sees the board (each card with the pyramids on it, grouped by colour), the face-up
discard pile, the supplies, the revealed opening cards and how many cards each hand holds. From
the difference between the view the referee expects and the one it saw, this module proposes the
actions that could explain it (a new card with no pyramid is a build, a card gone from one cell
and present at another with an Ace on the pile is a fly, a pyramid gone from a card with attack
cards on the pile is an attack, ...), keeps those whose predicted view matches what was seen, and
returns each with its verdict, so an illegal move is named with the rule it breaks.

Other players' hands may have grown (in the draw-each-turn variant the next player's draw is a
later, separate change at the table), never shrunk: a card gone from another hand was played by
its holder, so the action is not the one seen.
"""

from __future__ import annotations

from collections import Counter

from referee.decktet import ACE, CATALOGUE
from referee.game import Reading
from referee.pyramids import Pyramid
from referee.view import View
from referee.games.deck_town.effects import freeze as _freeze
from referee.games.deck_town.actions import (Attack, Build, Discard, Draw, Fly, Grow, Hatch, Move, Remove,
                                             Reveal, Spawn)


def interpret(state, after: View) -> tuple[Reading, ...]:
    before = state.view()
    if before == after or state.phase in ("deal", "over") or not _all_known(after):
        return ()
    readings = []
    seen = set()
    for action in _candidates(state, before, after):
        if action in seen:
            continue
        seen.add(action)
        try:
            predicted = _as_actor(state, action)._apply(action).view()
        except (ValueError, KeyError, IndexError, TypeError):
            continue  # the action cannot even be carried out on this table
        if _same(state, action, predicted, after):
            readings.append(Reading(action, state.check(action)))
    readings.sort(key=lambda r: (not r.verdict.legal, str(r.action)))
    return tuple(readings)


def _as_actor(state, action):
    """The state as if it were the acting player's turn, to predict what an out-of-turn action does."""
    actor = state.index(getattr(action, "player", None) or "")
    if actor is None or (actor == state.turn and state.phase != "reveal"):
        return state
    fields = _freeze(state._fields())
    fields.update(turn=actor, phase="play" if state.phase in ("hatch", "discard") else state.phase)
    return type(state)(state.game, **fields)


def _same(state, action, predicted: View, after: View) -> bool:
    actor = getattr(action, "player", None)
    places = set(predicted) | set(after)
    for place in places:
        if place.startswith("hand/") and place != f"hand/{actor}" and actor is not None:
            if len(after.get(place, ())) < len(predicted.get(place, ())):
                return False  # their own card played: not this action (trial 16: ann's fly read as bob's)
            continue
        if place == "deck":
            continue
        if predicted.get(place) != after.get(place):
            return False
    return True


def _all_known(view: View) -> bool:
    """Whether every thing in ``view`` is a Deck Town thing: a Decktet card or a back where cards lie,
    pyramids (``red1+red2``) elsewhere. A thing vision could not name (``?``), or a standard card,
    explains no move: the referee then reads the table another way, or not at all."""
    for place, contents in view.items():
        for n, item in enumerate(contents):
            if place in ("discard", "deck") or place.startswith(("hand/", "reveal/")) or (
                    place.startswith("board/") and n == 0):
                if item != "back" and item not in CATALOGUE:
                    return False
                continue
            try:
                for part in item.split("+"):
                    Pyramid.parse(part)
            except ValueError:
                return False
    return True


def _board(view: View) -> dict[str, tuple[str, Counter]]:
    """cell -> (card, Counter of pyramids) from a view."""
    board = {}
    for place, contents in view.items():
        if place.startswith("board/"):
            pyramids = Counter(p for stack in contents[1:] for p in stack.split("+"))
            board[place[len("board/"):]] = (contents[0], pyramids)
    return board


def _candidates(state, before: View, after: View):
    players = state.players
    mover = state.players[state.turn] if state.phase in ("hatch", "play", "discard") else players[0]
    if state.phase == "reveal":
        cards = tuple(after.get(f"reveal/{p}", ("?",))[0] for p in players)
        if all(c != "?" for c in cards):
            yield Reveal(cards)
        return
    old, new = _board(before), _board(after)
    pile_before, pile_after = before.get("discard"), after.get("discard")
    spent = pile_after[len(pile_before):] if pile_after[:len(pile_before)] == pile_before else ()

    def owner(colour: str) -> str | None:
        i = state.colour_owner(colour)
        return players[i] if i is not None else None

    def actors(*colours: str):
        names = [mover] + [owner(c) for c in colours if owner(c)]
        return list(dict.fromkeys(names))

    appeared = {cell: new[cell] for cell in new if cell not in old}
    vanished = {cell: old[cell] for cell in old if cell not in new}
    aces = [c for c in spent if c in CATALOGUE and CATALOGUE[c].rank == ACE] or list(spent[:1])

    # cards arriving or leaving: hatch, build, fly, remove
    for cell, (card, pyramids) in appeared.items():
        sources = [c for c, (k, _) in vanished.items() if k == card]
        for origin in sources:
            evicted = old[origin][1] - pyramids
            evict = next(iter(evicted)) if len(list(evicted.elements())) == 1 else None
            for name in actors(*(Pyramid.parse(p).colour for p in pyramids)):
                for ace in aces:
                    yield Fly(name, ace, origin, cell, evict)
        if not sources:
            small = [p for p in pyramids.elements() if p.endswith("1")]
            if len(list(pyramids.elements())) == 1 and small:
                yield Hatch(owner(Pyramid.parse(small[0]).colour) or mover, card, cell)
            for name in actors():
                yield Build(name, card, cell)
    if not appeared:
        for cell, (card, _) in vanished.items():
            for ace in aces:
                yield Remove(mover, ace, cell)

    # pyramids changing on cards that stayed put
    removed, added = [], []
    for cell in set(old) & set(new):
        if old[cell][0] != new[cell][0]:
            continue
        removed += [(cell, p) for p in (old[cell][1] - new[cell][1]).elements()]
        added += [(cell, p) for p in (new[cell][1] - old[cell][1]).elements()]
    for cell, gone in removed:
        g = Pyramid.parse(gone)
        for to, came in added:
            c = Pyramid.parse(came)
            if c.colour == g.colour and c.size == g.size and to != cell:
                yield Move(owner(g.colour) or mover, cell, g.pips, to)
            if c.colour == g.colour and to == cell and c.pips == g.pips + 1:
                yield Grow(owner(g.colour) or mover, cell, g.pips)
        attack_cards = tuple(c for c in spent if c in CATALOGUE and CATALOGUE[c].rank not in (ACE,))
        for name in actors():
            if owner(g.colour) == name:
                continue
            attacker = state.index(name)
            replace = any(to == cell and Pyramid.parse(p) == Pyramid(state.colours[attacker], g.size)
                          for to, p in added)
            drawn = len(after.get(f"hand/{name}")) - (len(before.get(f"hand/{name}")) - len(attack_cards))
            yield Attack(name, cell, gone, attack_cards, replace, max(0, drawn))
    for cell, came in added:
        c = Pyramid.parse(came)
        if c.pips == 1:
            yield Spawn(owner(c.colour) or mover, cell)

    # hands and the pile only: draw or end-of-turn discard
    if not appeared and not vanished and not removed and not added:
        # a discard before the next player's draw from an empty deck: the pile is shuffled into a
        # new deck at once (deck-town-1.1/deck/reshuffle), the card is gone from sight, and any card
        # the hand may hold leaves the same table and state (the log names the first of them)
        shuffled = bool(pile_before) and not pile_after and not before.get("deck") and after.get("deck")
        for name in players:
            grew = len(after.get(f"hand/{name}")) - len(before.get(f"hand/{name}"))
            if grew > 0:
                yield Draw(name)
            if grew == -1 and len(spent) == 1:
                yield Discard(name, spent[0])
            if grew == -1 and shuffled:
                yield from (Discard(name, card) for card, copies in sorted(state.unseen.items()) if copies > 0)
