"""Deck Town 1.1: build a town of Decktet cards and control a poker block with your pyramids.

Rules engine: not yet implemented (this module describes the game and its variants).
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
        Option("fly-eviction", "a suit-matched fly may evict one resident of the flown card", False),
        Option("fly-removal", "with the second set of Aces: a suit-matched fly removes an unoccupied card "
               "from the board instead", False),
        Option("attack-pip-difference", "attacks are penalised or credited by the attacker/defender pip difference",
               False),
        Option("attack-superior-only", "only superior forces may attack", False),
    ),
)
