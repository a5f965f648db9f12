"""Winning blocks: straight flushes, three of a kind, turtle butts and bharg sets.

A *block* is three or more cards linked by shared sides. A player wins by *controlling* every card
of a block whose cards form the pattern the game's ending asks for:

* straight flush: at least four cards that all carry one suit (their other suits may differ) and
  whose ranks form a run of distinct consecutive values, laid out in any order;
* three of a kind: three cards of one rank, no suit appearing twice among them (so with a double
  deck, two copies of a card never make one);
* turtle butt (variant): cards showing all six suits between them;
* bharg set (variant): cards showing all six suits with no suit repeated (three number cards).

The pattern's cards must themselves form the block (house ruling): cards merely linked through
other controlled cards do not count. Every function takes ``cards`` (cell -> card id) and the
cells one player controls.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from referee.decktet import CATALOGUE, Suit
from referee.games.deck_town.board import Cell, components, neighbours

ALL_SUITS = frozenset(Suit)
ENDINGS = ("poker-block", "turtle-butt", "bharg-set")


def card_key(card_id: str) -> tuple:
    """Orders cards for ties: rank value, then the natural suit order (Moons highest)."""
    card = CATALOGUE[card_id]
    return (card.value or 0, tuple(-int(s) for s in card.suits))


def straight_flushes(cards: Mapping[Cell, str], controlled: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Every orthogonally connected set of 4+ controlled cards sharing a suit with ranks forming a run."""
    found: set[frozenset[Cell]] = set()
    for suit in Suit:
        nodes = {c for c in controlled if suit in CATALOGUE[cards[c]].suits and CATALOGUE[cards[c]].is_number}
        if len(nodes) < 4:
            continue
        rank = {c: CATALOGUE[cards[c]].value for c in nodes}
        # grow connected sets of distinct ranks, one card at a time; duplicates are never extended
        seen: set[frozenset[Cell]] = set()
        frontier = [frozenset([c]) for c in nodes]
        seen.update(frontier)
        while frontier:
            grown = []
            for group in frontier:
                ranks = {rank[c] for c in group}
                if len(group) >= 4 and max(ranks) - min(ranks) + 1 == len(group) and group not in found:
                    found.add(group)
                    yield group
                for c in group:
                    for n in neighbours(c):
                        if n in nodes and n not in group and rank[n] not in ranks:
                            bigger = group | {n}
                            if bigger not in seen:
                                seen.add(bigger)
                                grown.append(bigger)
            frontier = grown


def _triples(controlled: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Every orthogonally connected set of three cells (one of them touches the other two)."""
    seen: set[frozenset[Cell]] = set()
    for middle in controlled:
        links = [n for n in neighbours(middle) if n in controlled]
        for i in range(len(links)):
            for j in range(i + 1, len(links)):
                triple = frozenset((middle, links[i], links[j]))
                if triple not in seen:
                    seen.add(triple)
                    yield triple


def _disjoint_suits(cards: Mapping[Cell, str], triple: frozenset[Cell]) -> bool:
    suits = [set(CATALOGUE[cards[c]].suits) for c in triple]
    return sum(map(len, suits)) == len(set().union(*suits))


def threes_of_a_kind(cards: Mapping[Cell, str], controlled: set[Cell]) -> Iterator[frozenset[Cell]]:
    numbers = {c for c in controlled if CATALOGUE[cards[c]].is_number}
    for triple in _triples(numbers):
        if len({CATALOGUE[cards[c]].value for c in triple}) == 1 and _disjoint_suits(cards, triple):
            yield triple


def turtle_butts(cards: Mapping[Cell, str], controlled: set[Cell]) -> Iterator[frozenset[Cell]]:
    """A controlled group showing all six suits (the whole group is then the block)."""
    for group in components(controlled):
        if len(group) >= 3 and set().union(*(CATALOGUE[cards[c]].suits for c in group)) >= ALL_SUITS:
            yield frozenset(group)


def bharg_sets(cards: Mapping[Cell, str], controlled: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Three connected cards whose suits are all different and cover all six."""
    for triple in _triples(controlled):
        if _disjoint_suits(cards, triple) and set().union(*(CATALOGUE[cards[c]].suits for c in triple)) >= ALL_SUITS:
            yield triple


def winning_blocks(cards: Mapping[Cell, str], controlled: set[Cell], ending: str = "poker-block"
                   ) -> Iterator[tuple[str, frozenset[Cell]]]:
    """Yields (kind, cells) for every winning block among ``controlled`` under ``ending``."""
    if len(controlled) < 3:
        return
    if ending == "poker-block":
        yield from (("three of a kind", b) for b in threes_of_a_kind(cards, controlled))
        yield from (("straight flush", b) for b in straight_flushes(cards, controlled))
    elif ending == "turtle-butt":
        yield from (("turtle butt", b) for b in turtle_butts(cards, controlled))
    elif ending == "bharg-set":
        yield from (("bharg set", b) for b in bharg_sets(cards, controlled))
    else:
        raise ValueError(f"unknown ending {ending!r}; one of {', '.join(ENDINGS)}")


def best_card(cards: Mapping[Cell, str], blocks: list[tuple[str, frozenset[Cell]]]) -> tuple:
    """The tie-break key of the highest-ranked card in any of the blocks."""
    return max(card_key(cards[c]) for _, block in blocks for c in block)
