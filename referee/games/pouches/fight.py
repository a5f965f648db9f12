"""Scoring a fight: the weapon's height, +1 for a fighter holding any Club, Hearts break ties.

>>> decide("ann", "9H", ("9H", "2S"), "bob", "9S", ("9S",))
('ann', 'bob', 'ann 9 beats bob 9: the Heart breaks the tie')
>>> decide("ann", "8S", ("8S", "AC"), "bob", "9S", ("9S",))[2]
'a draw, ann 9 (with a Club) and bob 9'
"""

from __future__ import annotations

from referee.games.pouches.heap import HEIGHT


def score(card: str, pouch: tuple[str, ...]) -> int:
    """The weapon's height, plus 1 if the fighter's pouch (weapon included) holds any Club."""
    return HEIGHT[card] + (1 if any(c.endswith("C") for c in pouch) else 0)


def decide(a: str, card_a: str, pouch_a: tuple[str, ...], b: str, card_b: str,
           pouch_b: tuple[str, ...]) -> tuple[str | None, str | None, str]:
    """(winner, loser, text), or (None, None, text) for a draw. Pouches are as held before the fight."""
    sa, sb = score(card_a, pouch_a), score(card_b, pouch_b)

    def shown(name: str, value: int, card: str, pouch: tuple[str, ...]) -> str:
        return f"{name} {value}" + (" (with a Club)" if value != HEIGHT[card] else "")

    left, right = shown(a, sa, card_a, pouch_a), shown(b, sb, card_b, pouch_b)
    if sa != sb:
        return (a, b, f"{left} beats {right}") if sa > sb else (b, a, f"{right} beats {left}")
    hearts_a, hearts_b = card_a.endswith("H"), card_b.endswith("H")
    if hearts_a and hearts_b:
        high = a if HEIGHT[card_a] > HEIGHT[card_b] else b
        low = b if high == a else a
        return high, low, f"{high} {sa} beats {low} {sa}: the higher Heart breaks the tie"
    if hearts_a != hearts_b:
        high, low = (a, b) if hearts_a else (b, a)
        return high, low, f"{high} {sa} beats {low} {sa}: the Heart breaks the tie"
    return None, None, f"a draw, {left} and {right}"
