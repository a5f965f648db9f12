"""Who starts and who wins: the opening reveal's order, and the judgement of winning blocks."""

from __future__ import annotations

from referee.games.deck_town import blocks
from referee.games.deck_town.board import Cell
from referee.games.deck_town.cards import title
from referee.games.deck_town.common import R


def first_player(cards: tuple[str, ...]) -> int | None:
    """Who goes first after the reveal: the highest card (rank, then the natural suit order); among
    identical cards (a double deck), the one whose left-hand neighbour revealed the higher card;
    None when even that ties (redeal)."""
    keys = [blocks.card_key(c) for c in cards]
    best = max(keys)
    tied = [i for i, k in enumerate(keys) if k == best]
    if len(tied) == 1:
        return tied[0]
    left = {i: keys[(i + 1) % len(keys)] for i in tied}
    best_left = max(left.values())
    tied = [i for i in tied if left[i] == best_left]
    return tied[0] if len(tied) == 1 else None


def first_player_text(players: tuple[str, ...], cards: tuple[str, ...]) -> str:
    first = first_player(cards)
    if first is None:
        return "the highest cards are identical and so are their left-hand neighbours' cards: redeal"
    return f"{players[first]} goes first with {title(cards[first])}"


def judge(game, players: tuple[str, ...], board: dict[Cell, str], pieces: dict) -> tuple | None:
    """The result once someone controls a winning block: (winners, rule, text), or None."""
    ending = game.option("ending")
    owners: dict[int, set[Cell]] = {}
    for cell, stack in pieces.items():
        who = {p for p, _ in stack}
        if len(who) == 1:
            owners.setdefault(who.pop(), set()).add(cell)
    found = {}
    for p, cells in owners.items():
        if len(cells) >= 3:
            won = list(blocks.winning_blocks(board, cells, ending))
            if won:
                found[p] = won
    if not found:
        return None
    rule = R + ("end/poker-block" if ending == "poker-block" else f"end/{ending}")

    def describe(p: int) -> str:
        kind, cells = found[p][0]
        names = ", ".join(title(board[c]) for c in sorted(cells))
        return f"{players[p]} controls a {kind} ({names})"

    if len(found) == 1:
        (p,) = found
        return ((players[p],), rule, describe(p))
    keys = {p: blocks.best_card(board, won) for p, won in found.items()}
    best = max(keys.values())
    top = sorted(p for p, k in keys.items() if k == best)
    claims = "; ".join(describe(p) for p in sorted(found))
    if len(top) == 1:
        return ((players[top[0]],), R + "end/tie", f"{claims}: {players[top[0]]} holds the highest-ranked card "
                f"in a winning block")
    return (tuple(players[p] for p in top), R + "end/tie", f"{claims}: the highest cards are copies of one card, "
            "so it is a tie")
