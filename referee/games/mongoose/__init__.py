"""Mongoose: a two-player game of simultaneous plays that pull and push cards from a pool.

Both players play a card face down and reveal together; the suits played decide which pool cards
go to which collection. The best collection of pairs, threes and fours wins.

Modules, one idea each: ``deck`` (aces high, suit partners, pool order), ``actions`` (what the
table does), ``capture`` (the pull and push votes), ``ranking`` (collections compared and
explained), ``state`` (the referee's state machine with hidden hands), ``reading`` (a change of
view read as an action). Rules: ``referee/rulebooks/mongoose.toml``.
"""

from referee.game import Dynamics, Edition, GameType, Information
from referee.games.mongoose.state import MongooseState

GAME_TYPE = GameType(
    name="mongoose",
    title="Mongoose",
    editions=(Edition("standard", "Mongoose", "mongoose.txt"),),
    min_players=2,
    max_players=2,
    dynamics=Dynamics.SIMULTANEOUS,
    information=Information.IMPERFECT,  # hands are hidden
    pieces="standard 52-card deck",
)

STATE = MongooseState
