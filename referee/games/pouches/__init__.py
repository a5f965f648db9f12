"""Pouches of Destiny 1.9 (with its Advanced Rules) and its earlier edition, Greedy Devils 1.3.

Marsupials climb a heap of card piles whose top card is the height, pick foods into a pouch of
five, and fight with a secretly chosen weapon card. The two editions share almost everything;
1.3 deals the whole deck as 5x5 piles, checks the win at the end of a round and rotates turns
differently.

Modules, one idea each: ``heap`` (cells, heights, swoosh paths), ``edition`` (where 1.9 and 1.3
differ), ``actions`` (the actions and their notation), ``fight`` (scoring), ``limits`` (the numbers),
``state`` (the position), ``legal`` / ``checks`` / ``flow`` (listing, checking and applying actions),
``reading`` (the camera view and reading a change of view as actions).
"""

from referee.game import Dynamics, Edition, GameType, Information, Option

GAME_TYPE = GameType(
    name="pouches",
    title="Pouches of Destiny",
    editions=(
        Edition("1.9", "Pouches of Destiny 1.9", "pouches-of-destiny-1.9.md"),
        Edition("1.3", "Greedy Devils 1.3", "greedy-devils-1.3.md"),
    ),
    min_players=2,
    max_players=5,
    dynamics=Dynamics.SIMULTANEOUS,  # fight weapons are chosen in secret and revealed together
    # Face-down piles are unknown to everyone (chance, not secrets); the Private Pouches option
    # hides pouches, and the state then tracks them as unknowns.
    information=Information.PERFECT,
    pieces="standard 52-card deck, one token per player",
    options=(
        Option("private-pouches", "Advanced Rules: pouches are kept hidden; a win needs the pouch shown",
               False, editions=("1.9",)),
        Option("steeper-hills", "Advanced Rules: largest uphill step without/with a Diamond",
               "4/5", choices=("4/5", "3/4", "2/3"), editions=("1.9",)),
        Option("relaxation", "Advanced Rules: after 10 rounds without a winner, ease the win step by step",
               False, editions=("1.9",)),
        Option("simultaneous-win", "when several devils qualify at the end of a round: share the win, "
               "or the first in turn order wins", "share", choices=("share", "first"), editions=("1.3",)),
    ),
)

from referee.games.pouches.state import PouchesState  # noqa: E402  (the rules need GAME_TYPE's module)

STATE = PouchesState
