"""The Decktet: its six suits, its 45 cards, and the decks games build from them.

The Decktet (P. D. Magnus) has six suits in a *natural order* (the order the suit icons appear on
a card, top to bottom): Moons, Suns, Waves, Leaves, Wyrms, Knots. Number cards (2-9) carry two
suits, Aces and Crowns one, Pawns and Courts three, the Excuse none. Card ids are lower-case
words such as ``ace-moons``, ``mountain`` or ``light-keeper``.

>>> card("mountain").suits
(<Suit.MOONS: 0>, <Suit.SUNS: 1>)
>>> len(extended_deck()), len(myrmex_deck())
(45, 72)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import IntEnum

from referee.cards import UnknownCard


class Suit(IntEnum):
    """Decktet suits; the integer value is the natural suit order (Moons first)."""

    MOONS = 0
    SUNS = 1
    WAVES = 2
    LEAVES = 3
    WYRMS = 4
    KNOTS = 5

    @property
    def title(self) -> str:
        return self.name.capitalize()


ACE, CROWN, PAWN, COURT, EXCUSE = "Ace", "Crown", "Pawn", "Court", "Excuse"
NUMBER_RANKS = tuple(str(n) for n in range(2, 10))
RANKS = (ACE, *NUMBER_RANKS, CROWN, PAWN, COURT, EXCUSE)


@dataclass(frozen=True)
class DecktetCard:
    id: str
    name: str
    rank: str
    suits: tuple[Suit, ...]  # in natural suit order

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBER_RANKS

    @property
    def value(self) -> int | None:
        """Ace 1, numbers 2-9, Crown 10; Pawns, Courts and the Excuse have no numeric value."""
        if self.rank == ACE:
            return 1
        if self.rank == CROWN:
            return 10
        return int(self.rank) if self.is_number else None

    def shares_suit(self, other: DecktetCard) -> bool:
        """A *suit match*: the two cards have at least one suit in common."""
        return bool(set(self.suits) & set(other.suits))

    def __str__(self) -> str:
        return self.id


# id | name | rank | suits -- the published card list (checked against ../shared/data/decktet/cards.csv).
_TABLE = """
ace-moons|Ace of Moons|Ace|Moons
ace-suns|Ace of Suns|Ace|Suns
ace-waves|Ace of Waves|Ace|Waves
ace-leaves|Ace of Leaves|Ace|Leaves
ace-wyrms|Ace of Wyrms|Ace|Wyrms
ace-knots|Ace of Knots|Ace|Knots
author|The Author|2|Moons Knots
desert|The Desert|2|Suns Wyrms
origin|The Origin|2|Waves Leaves
journey|The Journey|3|Moons Waves
painter|The Painter|3|Suns Knots
savage|The Savage|3|Leaves Wyrms
mountain|The Mountain|4|Moons Suns
sailor|The Sailor|4|Waves Leaves
battle|The Battle|4|Wyrms Knots
forest|The Forest|5|Moons Leaves
discovery|The Discovery|5|Suns Waves
soldier|The Soldier|5|Wyrms Knots
lunatic|The Lunatic|6|Moons Waves
penitent|The Penitent|6|Suns Wyrms
market|The Market|6|Leaves Knots
chance-meeting|The Chance Meeting|7|Moons Leaves
castle|The Castle|7|Suns Knots
cave|The Cave|7|Waves Wyrms
diplomat|The Diplomat|8|Moons Suns
mill|The Mill|8|Waves Leaves
betrayal|The Betrayal|8|Wyrms Knots
pact|The Pact|9|Moons Suns
darkness|The Darkness|9|Waves Wyrms
merchant|The Merchant|9|Leaves Knots
huntress|The Huntress|Crown|Moons
bard|The Bard|Crown|Suns
sea|The Sea|Crown|Waves
end|The End|Crown|Leaves
calamity|The Calamity|Crown|Wyrms
windfall|The Windfall|Crown|Knots
harvest|The Harvest|Pawn|Moons Suns Leaves
watchman|The Watchman|Pawn|Moons Wyrms Knots
light-keeper|The Light Keeper|Pawn|Suns Waves Knots
borderland|The Borderland|Pawn|Waves Leaves Wyrms
consul|The Consul|Court|Moons Waves Knots
rite|The Rite|Court|Moons Leaves Wyrms
island|The Island|Court|Suns Waves Wyrms
window|The Window|Court|Suns Leaves Knots
excuse|The Excuse|Excuse|
"""


def _parse_table() -> dict[str, DecktetCard]:
    cards = {}
    for line in _TABLE.strip().splitlines():
        card_id, name, rank, suits = line.split("|")
        parsed = tuple(sorted(Suit[s.upper()] for s in suits.split()))
        cards[card_id] = DecktetCard(card_id, name, rank, parsed)
    return cards


CATALOGUE: dict[str, DecktetCard] = _parse_table()
BACK = "back"


def card(card_id: str) -> DecktetCard:
    """The catalogue entry for a Decktet card id."""
    try:
        return CATALOGUE[card_id]
    except KeyError:
        raise UnknownCard(f"{card_id!r} is not a Decktet card id (such as 'ace-moons', 'mountain', 'excuse')") from None


def _ids(*ranks: str) -> tuple[str, ...]:
    return tuple(c.id for c in CATALOGUE.values() if c.rank in ranks)


def basic_deck() -> tuple[str, ...]:
    """The 36-card basic deck: Aces, number cards and Crowns."""
    return _ids(ACE, *NUMBER_RANKS, CROWN)


def extended_deck() -> tuple[str, ...]:
    """All 45 cards: the basic deck plus Pawns, Courts and the Excuse."""
    return tuple(CATALOGUE)


def double_deck(extended: bool = True) -> tuple[str, ...]:
    """Two decks shuffled together: the same ids twice (a camera cannot tell the copies apart)."""
    single = extended_deck() if extended else basic_deck()
    return single + single


# The Myrmex deck (Deck Town): a double extended deck without both Excuses, one set of Aces and of
# Crowns, and both copies of one Pawn and one Court, leaving six of each (house ruling in RULINGS.md:
# the Light Keeper and the Rite go).
MYRMEX_REMOVED = ("excuse", "excuse", *_ids(ACE), *_ids(CROWN), "light-keeper", "light-keeper", "rite", "rite")


def myrmex_deck() -> tuple[str, ...]:
    """The 72-card Myrmex deck: 48 number cards and six each of Aces, Crowns, Pawns and Courts."""
    return tuple((Counter(double_deck()) - Counter(MYRMEX_REMOVED)).elements())
