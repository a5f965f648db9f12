"""The camera's view, reading changes of view as actions, notation and JSON."""

from __future__ import annotations

import json

import pytest

from referee import ActionParseError, View
from referee.games.deck_town.actions import Attack, Build, Discard, Draw, Fly, Grow, Hatch, Move, Reveal, Spawn

BOARD = {"0,0": "mountain red1", "1,0": "sailor yellow2", "0,1": "forest red2 yellow1", "2,0": "battle"}


@pytest.fixture
def state(two, position):
    return position(two, BOARD, discard=("sea",))


def test_view_shows_cards_stacks_by_colour_pile_and_hands_not_supplies(state):
    view = state.view()
    assert view["board/0,0"] == ("mountain", "red1")
    assert view["board/0,1"] == ("forest", "red2", "yellow1")
    assert view["board/2,0"] == ("battle",)
    assert view["discard"] == ("sea",) and view["deck"] == ("back",)
    assert view["hand/ann"] == ("back",) * 4
    # the supplies are no place: the town says what they hold
    assert not any(place.startswith("supply/") for place in view)
    assert state.supply_of("ann") == ("red1", "red1", "red2", "red2", "red3", "red3", "red3")
    assert state.pyramid_colours() == {"red", "yellow"}
    grown = state.apply(Spawn("ann", "0,1")).view()
    assert grown["board/0,1"] == ("forest", "red1+red2", "yellow1")


def change(state, edits: dict) -> View:
    places = dict(state.view())
    places.update(edits)
    return View(places)


def test_a_build_is_read_from_a_new_card(state):
    after = change(state, {"board/-1,0": ("lunatic",), "hand/ann": ("back",) * 3})
    (reading,) = state.interpret(after)
    assert reading.action == Build("ann", "lunatic", "-1,0") and reading.verdict.legal


def test_an_illegal_build_is_read_with_its_reason(state):
    after = change(state, {"board/1,1": ("sea",), "hand/ann": ("back",) * 3})
    (reading,) = state.interpret(after)
    assert reading.action == Build("ann", "sea", "1,1") and not reading.verdict.legal
    text = str(reading.verdict)
    assert "only number cards" in text
    assert "a build must touch a card you control; 1,1 is not adjacent to any card ann controls" in text
    assert "deck-town-1.1/action/build" in reading.verdict.rules


def test_pyramid_changes_are_read_as_move_grow_spawn(state):
    moved = change(state, {"board/0,0": ("mountain",), "board/1,0": ("sailor", "red1", "yellow2")})
    assert [r.action for r in state.interpret(moved)] == [Move("ann", "0,0", 1, "1,0")]
    grown = change(state, {"board/0,0": ("mountain", "red2")})
    assert [r.action for r in state.interpret(grown)] == [Grow("ann", "0,0", 1)]
    spawned = change(state, {"board/0,0": ("mountain", "red1+red1")})
    assert [r.action for r in state.interpret(spawned)] == [Spawn("ann", "0,0")]
    # bob moving on ann's turn: read, and refused by turn order
    bob = change(state, {"board/1,0": ("sailor",), "board/2,0": ("battle", "yellow2")})
    (reading,) = state.interpret(bob)
    assert reading.action == Move("bob", "1,0", 2, "2,0") and reading.verdict.rules == ("deck-town-1.1/turn/order",)


def test_attack_and_fly_are_read_with_the_spent_cards(state):
    attacked = change(state, {"board/1,0": ("sailor", "red2"), "discard": ("sea", "bard"), "hand/ann": ("back",) * 3})
    (reading,) = state.interpret(attacked)
    assert reading.action == Attack("ann", "1,0", "yellow2", ("bard",), True, 0)
    assert reading.verdict.rules == ("deck-town-1.1/attack/replace",) and "the Bard shares none" in str(reading.verdict)
    flown = dict(state.view())
    del flown["board/0,0"]
    flown.update({"board/-1,1": ("mountain", "red1"), "discard": ("sea", "ace-wyrms"), "hand/ann": ("back",) * 3})
    (reading,) = state.interpret(View(flown))
    assert reading.action == Fly("ann", "ace-wyrms", "0,0", "-1,1") and reading.verdict.legal


def test_a_card_gone_from_another_hand_rules_out_an_action_by_the_player_to_move(state):
    # ann's hand and bob's both one card short, a new card on the town: not ann's build (bob played a
    # card too), nor bob's (so did ann): Deck Town trial 16's fly by ann was read as bob's, evicting
    # her pyramid, while bob's hand was read one short
    built = change(state, {"board/-1,0": ("lunatic",), "hand/ann": ("back",) * 3})
    assert [r.action for r in state.interpret(built)] == [Build("ann", "lunatic", "-1,0")]
    assert state.interpret(View({**built, "hand/bob": ("back",) * 3})) == ()
    # another hand grown is the draw-each-turn variant's next draw, a later change: still ann's build
    assert [r.action for r in state.interpret(View({**built, "hand/bob": ("back",) * 5}))] == [
        Build("ann", "lunatic", "-1,0")]


def test_draw_discard_hatch_and_reveal_are_read(two, position, make_game):
    state = position(two, BOARD, hands=(5, 4))
    drawn = change(state, {"hand/ann": ("back",) * 8})
    assert [r.action for r in state.interpret(drawn)] == [Draw("ann")]
    over = state.apply(Draw("ann"))
    tossed = change(over, {"hand/ann": ("back",) * 7, "discard": ("end",)})
    assert [r.action for r in over.interpret(tossed)] == [Discard("ann", "end")]
    lonely = position(two, {"0,0": "mountain yellow1", "1,0": "sailor yellow1"})
    hatched = change(lonely, {"board/-1,0": ("pact", "red1"), "hand/ann": ("back",) * 3})
    assert Hatch("ann", "pact", "-1,0") in [r.action for r in lonely.interpret(hatched) if r.verdict.legal]
    reveal = make_game().new_state().apply(__import__("referee.games.deck_town.actions", fromlist=["Deal"]).Deal(
        (True, True)))
    shown = change(reveal, {"reveal/ann": ("pact",), "reveal/bob": ("author",), "hand/ann": ("back",) * 2,
                            "hand/bob": ("back",) * 2})
    assert [r.action for r in reveal.interpret(shown)] == [Reveal(("pact", "author"))]
    assert state.interpret(state.view()) == ()
    assert state.interpret(change(state, {"board/9,9": ("mountain", "red1", "yellow1")})) == ()


def test_notation_round_trips(two):
    codec = two.actions
    for text in ["deal yes,no", "reveal mountain,sailor", "hatch ann mountain 0,0", "draw ann", "grow ann 0,1 1",
                 "spawn ann 0,1", "build ann sailor 1,-1", "move ann 0,1 2 0,2", "fly ann ace-moons 0,1 5,0 -",
                 "fly ann ace-moons 0,1 5,0 blue2", "remove ann ace-moons 0,1", "attack ann 0,1 blue2 sea no 1",
                 "attack ann 0,1 blue2 harvest,watchman yes 0", "discard ann sea"]:
        action = codec.parse(text)
        assert str(action) == text and codec.from_json(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(ActionParseError, match="'move' takes 4"):
        codec.parse("move ann 0,1 2")
    with pytest.raises(ActionParseError, match="size is a whole number"):
        codec.parse("grow ann 0,1 big")
    with pytest.raises(ActionParseError, match="attack.replace must be true or false"):
        codec.from_json({"kind": "attack", "player": "ann", "at": "0,1", "target": "blue2", "spent": ["sea"],
                         "replace": "yes", "draw": 0})


def test_states_round_trip_and_bad_json_is_refused(state, two):
    again = two.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.view() == state.view()
    data = state.to_json()
    for broken, message in [(dict(data, phase="lunch"), "phase 'lunch'"),
                            (dict(data, board={"north": "mountain"}), "not a board cell"),
                            (dict(data, board={"0,0": "joker"}), "unknown card 'joker'"),
                            (dict(data, hands=[1]), "per-player lists"),
                            ({k: v for k, v in data.items() if k != "deck"}, "malformed Deck Town state")]:
        with pytest.raises(ValueError, match=message):
            two.state_from_json(broken)


def test_every_played_action_is_read_back_from_the_change_it_makes(make_game):
    """Random games: each action's change of view is read as that action, with a legal verdict."""
    import random

    from referee.games.deck_town.common import NUMBER_IDS
    read = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = make_game([f"p{i}" for i in range(2 + seed % 4)],
                         **({"fly_eviction": True, "fly_removal": True} if seed % 2 else {}))
        state = game.new_state()
        for _ in range(120):
            if state.phase == "reveal":
                reveal = Reveal(tuple(rng.choice(NUMBER_IDS) for _ in game.players))
                state = state.apply(reveal) if state.check(reveal).legal else state
                continue
            legal = state.legal_actions()
            if not legal:
                break
            by_kind: dict = {}
            for action in legal:
                by_kind.setdefault(action.kind, []).append(action)
            action = rng.choice(by_kind[rng.choice(sorted(by_kind))])
            after = state.apply(action)
            if action.kind != "deal":  # who holds a number card is told by the table, not seen
                readings = state.interpret(after.view())
                assert any(r.action == action and r.verdict.legal for r in readings), (action, readings)
                read += 1
            state = after
    assert read > 1000


def test_an_illegal_reveal_is_read_with_its_reason(make_game):
    from referee.games.deck_town.actions import Deal
    state = make_game().new_state().apply(Deal((True, True)))
    shown = change(state, {"reveal/ann": ("sea",), "reveal/bob": ("author",), "hand/ann": ("back",) * 2,
                           "hand/bob": ("back",) * 2})
    (reading,) = state.interpret(shown)
    assert reading.action == Reveal(("sea", "author")) and reading.verdict.rules == ("deck-town-1.1/setup/reveal",)
    assert "ann must reveal a number card (2-9), not the Sea" in str(reading.verdict)


def test_a_discard_whose_pile_is_shuffled_into_the_empty_deck_at_once_is_read(make_game, position, covers):
    """Drawing each turn, bob's draw after ann's last discard finds the deck empty, so the pile
    becomes the new deck before the camera looks again (deck-town-1.1/deck/reshuffle): the
    discarded card is gone from sight. Every card ann may hold leaves that same table and state,
    so each reading is one answer."""
    covers("deck-town-1.1/deck/reshuffle")
    from referee.games.deck_town.cards import HAND_LIMIT, composition

    game = make_game(draw_each_turn=True)
    pile = ("sea", "end")
    rest = sum(composition(game.option("deck"), game.option("fly-removal")).values()) - len(BOARD) - len(pile)
    before = position(game, BOARD, discard=pile, hands=(HAND_LIMIT + 1, rest - HAND_LIMIT - 1), phase="discard")
    assert before.deck == 0
    played = next(a for a in before.legal_actions() if isinstance(a, Discard))
    after = before.apply(played)
    seen = after.view()
    assert "deck" in seen and not seen.get("discard") and after.players[after.turn] == "bob"
    readings = before.interpret(seen)
    assert played in [r.action for r in readings]
    assert all(isinstance(r.action, Discard) and r.action.player == "ann" and r.verdict.legal for r in readings)
    assert {before.apply(r.action) for r in readings} == {after}
