"""The registry of real games: every game of DESIGN.md is described, with editions and options."""

import pytest

from referee import Dynamics, Edition, GameConfigError, GameType, Information, games
from referee.games import Registry

EXPECTED = {"pouches": ("1.9", "1.3"), "mongoose": ("standard",), "deck-town": ("1.1",), "pungo": ("standard",)}


def test_every_game_and_edition_is_registered():
    assert {t.name: tuple(e.name for e in t.editions) for t in games.types()} == EXPECTED


def test_rule_sources_exist(shared):
    for game_type in games.types():
        for edition in game_type.editions:
            assert (shared / "rules" / edition.source).is_file(), edition


@pytest.mark.parametrize("game_type", games.types(), ids=lambda t: t.name)
def test_option_defaults_are_valid_choices(game_type):
    for option in game_type.options:
        assert option.validate(option.default) == option.default
        assert option.help and option.name == option.name.lower()
        assert not option.editions or set(option.editions) <= {e.name for e in game_type.editions}


def test_options_belong_to_their_edition():
    assert games.get("pouches", edition="1.9", players=3, options={"steeper-hills": "3/4"}).option("steeper-hills") == "3/4"
    with pytest.raises(GameConfigError, match="has no option steeper-hills"):
        games.get("pouches", edition="1.3", players=3, options={"steeper-hills": "3/4"})
    assert games.get("pungo", players=["ann", "bob"], options={"colours": "3"}).option("colours") == 3


def test_player_counts_follow_the_rules():
    with pytest.raises(GameConfigError, match="Mongoose is for 2 players, got 3"):
        games.get("mongoose", players=3)
    with pytest.raises(GameConfigError, match="Pouches of Destiny is for 2 to 5 players, got 6"):
        games.get("pouches", players=6)


def test_a_described_game_says_plainly_that_it_cannot_be_refereed_yet():
    registry = Registry()
    registry.register(GameType(
        name="solitaire", title="Solitaire", editions=(Edition("1", "Solitaire", "solitaire.md"),), min_players=1,
        max_players=1, dynamics=Dynamics.SEQUENTIAL, information=Information.IMPERFECT, pieces="a deck"))
    assert not registry.is_refereed("solitaire")
    with pytest.raises(GameConfigError, match="Solitaire is described but Tableside cannot referee it yet"):
        registry.get("solitaire", players=1).new_state()
