"""Names shared by the Deck Town modules: the rule-id prefix, phases, colours and card groups."""

from referee.decktet import ACE, CATALOGUE
from referee.games.deck_town.cards import attack_pips

R = "deck-town-1.1/"
DEFAULT_COLOURS = ("red", "yellow", "green", "blue", "purple")
PHASES = ("deal", "reveal", "hatch", "play", "discard", "over")
SIZE_WORDS = {1: "one-pip", 2: "two-pip", 3: "three-pip"}
NUMBER_IDS = tuple(c.id for c in CATALOGUE.values() if c.is_number)
ACE_IDS = tuple(c.id for c in CATALOGUE.values() if c.rank == ACE)
ATTACK_IDS = tuple(sorted((c.id for c in CATALOGUE.values() if attack_pips(c.id)), key=lambda i: -attack_pips(i)))

Piece = tuple[int, int]  # (player index, size)
