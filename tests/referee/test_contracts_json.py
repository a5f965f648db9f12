"""Property-based JSON round trips of the contract types not covered by test_snapshot.py."""

import json

from hypothesis import given, strategies as st

from referee import Outcome, Reason, Verdict, View, games
from referee.game import Game

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8).filter(
    lambda w: w[0].isalpha())
places = st.builds(lambda a, b: f"{a}/{b}", words, st.text(alphabet="abc123,.-", min_size=1, max_size=6))
views = st.dictionaries(places, st.lists(words, max_size=4).map(tuple), max_size=6).map(View)
rule_ids = st.builds(lambda a, b: f"{a}/{b}", words, words)
reasons = st.builds(Reason, rule_ids, st.text(max_size=40))
verdicts = st.one_of(st.lists(reasons, min_size=1, max_size=3).map(lambda rs: Verdict.illegal(*rs)),
                     st.lists(reasons, max_size=3).map(lambda rs: Verdict.ok(*rs)))
outcomes = st.builds(Outcome, st.lists(words, max_size=3, unique=True).map(tuple), rule_ids, st.text(max_size=40))


def _text(data):
    return json.loads(json.dumps(data))


@given(views)
def test_views_round_trip(view):
    assert View.from_json(_text(view.to_json())) == view


@given(verdicts)
def test_verdicts_round_trip(verdict):
    assert Verdict.from_json(_text(verdict.to_json())) == verdict


@given(outcomes)
def test_outcomes_round_trip(outcome):
    assert Outcome.from_json(_text(outcome.to_json())) == outcome


def _values(option) -> tuple:
    if option.choices:
        return option.choices
    return (False, True) if isinstance(option.default, bool) else (option.default,)


@st.composite
def configured_games(draw) -> Game:
    game_type = draw(st.sampled_from(games.types()))
    edition = draw(st.sampled_from(game_type.editions)).name
    count = draw(st.integers(game_type.min_players, game_type.max_players))
    names = draw(st.lists(words, min_size=count, max_size=count, unique=True))
    options = {o.name: draw(st.sampled_from(_values(o))) for o in game_type.options_for(edition) if draw(st.booleans())}
    return games.get(game_type.name, edition, names, options)


@given(configured_games())
def test_games_round_trip(game):
    assert games.from_json(_text(game.to_json())) == game


@given(configured_games(), st.randoms(use_true_random=False))
def test_first_actions_of_every_game_round_trip(game, rng):
    state = game.new_state() if game.type.name != "pouches" else game.new_state({"first": game.players[0]})
    actions = state.legal_actions()
    offered = []
    for action in actions:  # some games offer their opening lazily (Deck Town's joint reveal)
        offered.append(action)
        if len(offered) >= 50:
            break
    action = rng.choice(offered)
    assert game.actions.from_json(_text(action.to_json())) == action
    assert game.actions.parse(str(action)) == action
    after = state.apply(action)
    assert game.state_from_json(_text(after.to_json())) == after
