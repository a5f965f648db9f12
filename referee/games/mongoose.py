"""Mongoose: a two-player game of simultaneous plays that pull and push cards from a pool.

Both players play a card face down and reveal together; the suits played decide which pool cards
go to which collection. The best collection of pairs, threes and fours wins. Rules engine: not yet
implemented (this module describes the game).
"""

from referee.game import Dynamics, Edition, GameType, Information

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
