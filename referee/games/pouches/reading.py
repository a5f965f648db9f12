"""The camera's side: what a state looks like, and reading a change of view as actions.

Places: ``heap/c,r`` holds a pile's top card (``back`` while the table has yet to show it; the
face-down cards beneath are invisible), ``tokens/c,r`` the marsupials standing there (on a pile or
on bedrock), ``pouch/<player>`` a pouch, sorted (all ``back`` under Private Pouches), and
``weapon/<player>`` a weapon played in a fight and not yet discarded.
"""

from __future__ import annotations

from collections import deque

from referee.game import CHANCE, Reading
from referee.games.pouches.actions import Discard, Move, Pick
from referee.games.pouches.heap import (NESW, UNKNOWN, add, bounds, cell_text, is_diagonal, is_nesw,
                                        lower_paths, parse_cell, path_text)
from referee.view import View


def view_of(state) -> View:
    places: dict[str, tuple[str, ...]] = {}
    for cell, pile in state.heap.items():
        places[f"heap/{cell_text(cell)}"] = ("back",) if pile[-1] == UNKNOWN else (pile[-1],)
    for player, cell in state.spots.items():
        if cell is not None:
            key = f"tokens/{cell_text(cell)}"
            places[key] = tuple(sorted(places.get(key, ()) + (player,)))
    revealed = set(state.ctx.get("shown", ()))  # Private Pouches: pouches shown to confirm a win
    for player, pouch in state.pouches.items():
        hidden = state.private and player not in revealed
        shown = ("back",) * len(pouch) if hidden else tuple(sorted("back" if c == UNKNOWN else c for c in pouch))
        places[f"pouch/{player}"] = shown
    for player, card in state.ctx.get("queue", ()):
        places[f"weapon/{player}"] = (card,)
    return View(places)


def token_spots(view: View) -> dict[str, str]:
    spots = {}
    for place, names in view.items():
        if place.startswith("tokens/"):
            for name in names:
                spots[name] = place[len("tokens/"):]
    return spots


def interpret(state, after: View) -> tuple[Reading, ...]:
    """Candidate actions for the change from ``state.view()`` to ``after``, legal or not.

    A token that moved and nothing else reads as a MOVE (a step, or the swooshes that could have
    carried it there; if none could, the shortest path, whose verdict says why not). Anything else
    is matched against the legal actions' results (a pile's top hidden under tokens may be any card). When the table must first reveal a card and shows
    it together with the next move (legal or not), the reveal is read; the session reads the move
    next, from its result. Failing that, a card that joined or left a pouch reads as a PICK or a
    DISCARD with the verdict that explains why it is not allowed.
    """
    before = state.view()
    if before == after:
        return ()
    changed = {c.place for c in before.diff(after)}
    if all(place.startswith("tokens/") for place in changed):
        old, new = token_spots(before), token_spots(after)
        movers = [p for p in state.game.players if old.get(p) != new.get(p)]
        if len(movers) == 1 and movers[0] in new and movers[0] in old:
            return _move_readings(state, movers[0], parse_cell(old[movers[0]]), parse_cell(new[movers[0]]))
    legal = tuple(Reading(a, state.check(a)) for a in state.legal_actions() if _shows(before, after, state._apply(a).view()))
    if not legal and state.to_move == CHANCE:
        legal = tuple(_reveal_first(state, before, after))
    return legal or _card_readings(state, before, after)


def _shows(before: View, after: View, result: View) -> bool:
    """Whether the table ``after`` looks like ``result``, an action's result from ``before``. A pile
    whose top card is not seen while tokens stand on it may hold any card there: they can hide a
    card dropped onto it, so which card is a question for the players, not a mismatch. An action
    that changes nothing the table shows (a pass) explains no change, a hidden pile top included."""
    if result == before:
        return False
    for place in set(after) | set(result):
        if after.get(place) == result.get(place):
            continue
        hidden = place.startswith("heap/") and not after.get(place) and after.get(f"tokens/{place[len('heap/'):]}")
        if not (hidden and result.get(place)):
            return False
    return True


def _reveal_first(state, before: View, after: View):
    """The reveals that ``after`` shows made, where the rest of the change reads as a move from
    there (the card turned up and the next move, seen in one look)."""
    for action in state.legal_actions():
        result = state._apply(action)
        changed = {c.place for c in before.diff(result.view())}
        if changed and all(after.get(p) == result.view().get(p) for p in changed) and interpret(result, after):
            yield Reading(action, state.check(action))


def _card_readings(state, before: View, after: View) -> tuple[Reading, ...]:
    """No legal action explains the change: read a card that left or joined a pouch as a PICK or a
    DISCARD (with its verdict), so the players hear why it was wrong."""
    readings = []
    for player in state.game.players:
        old, new = list(before.get(f"pouch/{player}")), list(after.get(f"pouch/{player}"))
        gained = [c for c in new if c not in old]
        lost = [c for c in old if c not in new]
        here = state.spots.get(player)
        if here is None or state.private:
            continue
        if len(gained) == 1 and not lost:
            card = gained[0]
            tops = [p for p, v in before.items() if p.startswith("heap/") and v == (card,)]
            cells = [t[len("heap/"):] for t in tops] or [cell_text(add(here, d)) for d in NESW
                                                         if add(here, d) in state.heap]
            readings += [Reading(a, state.check(a)) for a in (Pick(player, c) for c in cells)]
        elif len(lost) == 1 and not gained:
            card = lost[0]
            lands = [p[len("heap/"):] for p, v in after.items() if p.startswith("heap/") and v == (card,)
                     and before.get(p) != (card,)]
            for text in lands:
                end = parse_cell(text)
                if end == here:
                    candidates = [Discard(player, card, "drop")]
                elif is_nesw(here, end):
                    candidates = [Discard(player, card, "throw", text)]
                else:
                    candidates = [Discard(player, card, "throw", path_text((add(here, d),) + p))
                                  for d in NESW for p in lower_paths(state.heap, add(here, d)) if p[-1] == end]
                    candidates = candidates or [Discard(player, card, "throw", text)]
                readings += [Reading(a, state.check(a)) for a in candidates]
    return tuple(readings)


def _move_readings(state, player: str, start, end) -> tuple[Reading, ...]:
    if is_nesw(start, end) or is_diagonal(start, end):
        candidates = [Move(player, cell_text(end))]
        candidates += [Move(player, path_text(p)) for p in lower_paths(state.heap, start)
                       if len(p) >= 2 and p[-1] == end]
    else:
        candidates = [Move(player, path_text(p)) for p in lower_paths(state.heap, start) if p[-1] == end]
        if not candidates:
            candidates = [Move(player, path_text(_shortest(start, end)))]
    return tuple(Reading(a, state.check(a)) for a in candidates)


def _shortest(start, end) -> tuple:
    """A shortest NESW path from start to end (the reading of an impossible jump)."""
    c0, r0, c1, r1 = bounds([start, end])
    seen, queue = {start: None}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell == end:
            break
        for d in NESW:
            nxt = add(cell, d)
            if nxt not in seen and c0 <= nxt[0] <= c1 and r0 <= nxt[1] <= r1:
                seen[nxt] = cell
                queue.append(nxt)
    path, cell = [], end
    while cell != start:
        path.append(cell)
        cell = seen[cell]
    return tuple(reversed(path))
