"""Deck Town 1.1: build a town of Decktet cards and control a poker block with your pyramids.

Modules: ``actions`` (the action vocabulary and notation), ``board`` (cells, adjacency,
connectivity), ``cards`` (deck composition and what the referee can know of hands), ``blocks``
(straight flushes, three of a kind and the variant endings), ``state`` (phases, checks and
effects), ``reading`` (interpreting a change of view). Rules: ``referee/rulebooks/deck-town-1.1.toml``.
"""

from referee.game import Dynamics, Edition, GameType, Information, Option

GAME_TYPE = GameType(
    name="deck-town",
    title="Deck Town",
    editions=(Edition("1.1", "Deck Town 1.1", "deck-town-1.1.md"),),
    min_players=2,
    max_players=5,
    dynamics=Dynamics.SIMULTANEOUS,  # the opening reveal of number cards is simultaneous
    information=Information.IMPERFECT,  # hands are hidden
    pieces="Myrmex deck (double Decktet subset), nine pyramids per player (three of each size)",
    options=(
        Option("deck", "which deck: the Myrmex deck, or a single or double extended Decktet",
               "myrmex", choices=("myrmex", "single-extended", "double-extended")),
        Option("draw-each-turn", "draw a card at the start of every turn, as in Zark City", False),
        Option("ending", "the block that wins: a poker block, a turtle butt (all six suits) or a bharg set "
               "(all six suits, none repeated)", "poker-block", choices=("poker-block", "turtle-butt", "bharg-set")),
        Option("fly-suit-match", "flying needs the spent Ace to match the flown card's suit: never, always, "
               "or only when you do not control the card", "never", choices=("never", "always", "uncontrolled")),
        Option("fly-eviction", "a suit-matched fly may evict one other player's pyramid from the flown card", False),
        Option("fly-removal", "the Myrmex deck gets its second set of Aces, and an Ace that suit-matches an "
               "unoccupied card may remove it from the board", False),
        Option("attack-pip-difference", "an attack costs the target's pips plus the defender's pips on the card "
               "minus the attacker's pips on and next to it (at least 1)", False),
        Option("attack-superior-only", "only an attacker whose pips on and next to the card exceed the "
               "defender's pips on it may attack", False),
    ),
)

from referee.games.deck_town.state import DeckTownState  # noqa: E402  (needs GAME_TYPE's module loaded)

STATE = DeckTownState
