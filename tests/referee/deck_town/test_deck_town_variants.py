"""Variants: decks, draw each turn, the turtle-butt and bharg-set endings, fly and attack variants."""

from __future__ import annotations

from referee.games.deck_town.actions import Attack, Draw, Fly, Move, Remove, Spawn

BOARD = {"0,0": "mountain red1", "1,0": "sailor yellow2", "0,1": "forest red2 yellow1", "2,0": "battle"}
# ann's red1 (Mountain) and red2 (Journey) both touch bob's yellow2 on the Sailor
FORCES = {"0,0": "mountain red1", "1,0": "sailor yellow2", "1,1": "journey red2"}


def test_extended_decks(make_game, position):
    single = make_game(deck="single-extended")  # deck-town-1.1/setup/deck
    state = single.new_state()
    assert state.deck == 45
    assert "all 1 copy are already on the table" in str(
        position(single, {"0,0": "mountain red1", "1,0": "sailor yellow1"}, discard=("sea",)).check(
            Attack("ann", "1,0", "yellow1", ("sea",))))
    double = make_game(deck="double-extended")
    assert double.new_state().deck == 90
    assert position(double, {"0,0": "mountain red1", "1,0": "sailor yellow1"}, discard=("light-keeper",)).check(
        Attack("ann", "1,0", "yellow1", ("light-keeper",))).legal  # the Myrmex deck has no Light Keeper


def test_draw_each_turn(make_game, position, covers):
    covers("deck-town-1.1/variant/draw-each-turn")
    game = make_game(draw_each_turn=True)
    state = position(game, BOARD, hands=(4, 4))
    after = state.apply(Spawn("ann", "0,0"))  # deck-town-1.1/variant/draw-each-turn: bob starts with a draw
    assert after.to_move == "bob" and after.hands == (4, 5) and after.deck == state.deck - 1
    plain = position(make_game(), BOARD, hands=(4, 4)).apply(Spawn("ann", "0,0"))
    assert plain.hands == (4, 4)


def test_turtle_butt_ending(make_game, position):
    game = make_game(ending="turtle-butt")
    # Mountain (Moons Suns), Sailor (Waves Leaves), Soldier (Wyrms Knots) and the Forest: all six suits
    board = {"0,0": "mountain red1", "1,0": "sailor red1", "2,0": "forest red1", "3,0": "soldier red2 yellow1",
             "3,1": "pact yellow1"}
    state = position(game, board, turn=1)
    after = state.apply(Move("bob", "3,0", 1, "3,1"))
    assert after.outcome().winners == ("ann",) and after.outcome().rule == "deck-town-1.1/end/turtle-butt"
    # the same cards make no poker block
    assert position(make_game(), board, turn=1).apply(Move("bob", "3,0", 1, "3,1")).outcome() is None


def test_bharg_set_ending(make_game, position):
    game = make_game(ending="bharg-set")
    board = {"0,0": "mountain red1", "1,0": "sailor red1", "2,0": "forest red1", "3,0": "soldier red2 yellow1",
             "3,1": "pact yellow1"}
    # Mountain, Sailor, Forest, Soldier show all six suits, but Moons and Leaves twice, and no three of
    # them that touch in a line cover all six without repeats: no bharg set
    after = position(game, board, turn=1).apply(Move("bob", "3,0", 1, "3,1"))
    assert after.outcome() is None
    board = {"0,0": "mountain red1", "1,0": "sailor red1", "1,1": "soldier red2 yellow1", "2,1": "pact yellow1"}
    after = position(game, board, turn=1).apply(Move("bob", "1,1", 1, "2,1"))
    assert after.outcome().rule == "deck-town-1.1/end/bharg-set" and after.outcome().winners == ("ann",)


def test_fly_suit_match_always(make_game, position):
    state = position(make_game(fly_suit_match="always"), BOARD)
    # the Mountain is Moons + Suns
    assert state.check(Fly("ann", "ace-suns", "0,0", "-1,1")).legal
    verdict = state.check(Fly("ann", "ace-knots", "0,0", "-1,1"))
    assert verdict.rules == ("deck-town-1.1/fly/suit-match",) and "fly-suit-match=always" in str(verdict)
    assert not any(a.kind == "fly" and a.ace == "ace-knots" for a in state.legal_actions())


def test_fly_suit_match_uncontrolled(make_game, position):
    state = position(make_game(fly_suit_match="uncontrolled"), BOARD)
    assert state.check(Fly("ann", "ace-knots", "0,0", "-1,1")).legal  # ann controls the Mountain
    verdict = state.check(Fly("ann", "ace-knots", "0,1", "1,1"))  # the Forest is shared with bob
    assert verdict.rules == ("deck-town-1.1/fly/suit-match",) and "does not control" in str(verdict)
    assert state.check(Fly("ann", "ace-leaves", "0,1", "1,1")).legal


def test_fly_eviction(make_game, position):
    state = position(make_game(fly_eviction=True), BOARD)
    evict = Fly("ann", "ace-leaves", "0,1", "1,1", "yellow1")  # the Forest is Moons + Leaves
    assert state.check(evict).legal  # deck-town-1.1/fly/eviction
    after = state.apply(evict)
    assert after.pieces[(1, 1)] == ((0, 2),) and after.supply[1] == (3, 2, 3)
    for action, text in [(Fly("ann", "ace-knots", "0,1", "1,1", "yellow1"), "shares a suit"),
                         (Fly("ann", "ace-leaves", "0,1", "1,1", "red2"), "not your own"),
                         (Fly("ann", "ace-leaves", "0,1", "1,1", "yellow3"), "no yellow3")]:
        verdict = state.check(action)
        assert verdict.rules == ("deck-town-1.1/fly/eviction",) and text in str(verdict), verdict
    plain = position(make_game(), BOARD)
    assert "not in play" in str(plain.check(evict))


def test_fly_removal(make_game, position):
    state = position(make_game(fly_removal=True), dict(BOARD, **{"3,0": "lunatic"}))
    remove = Remove("ann", "ace-waves", "3,0")  # deck-town-1.1/fly/removal: the Lunatic is Moons + Waves
    assert state.check(remove).legal
    after = state.apply(remove)
    assert (3, 0) not in after.board and after.discard == ("ace-waves", "lunatic")
    for action, text in [(Remove("ann", "ace-knots", "3,0"), "shares none"),
                         (Remove("ann", "ace-waves", "1,0"), "has pyramids on it")]:
        verdict = state.check(action)
        assert "deck-town-1.1/fly/removal" in verdict.rules and text in str(verdict), verdict
    assert "deck-town-1.1/fly/connected" in state.check(Remove("ann", "ace-wyrms", "2,0")).rules
    assert "not in play" in str(position(make_game(), BOARD).check(remove))


def test_attack_superior_only(make_game, position):
    state = position(make_game(attack_superior_only=True), FORCES)
    # on the Sailor bob has 2 pips; ann has 1 (Mountain) + 2 (Journey) next to it = 3: superior
    assert state.check(Attack("ann", "1,0", "yellow2", ("consul",))).legal
    weak = position(make_game(attack_superior_only=True), {"0,0": "mountain red1", "1,0": "sailor yellow2"})
    verdict = weak.check(Attack("ann", "1,0", "yellow2", ("consul",)))
    assert verdict.rules == ("deck-town-1.1/attack/superior-only",) and "do not exceed" in str(verdict)
    assert not any(a.kind == "attack" for a in weak.legal_actions())


def test_attack_pip_difference(make_game, position):
    game = make_game(attack_pip_difference=True)
    state = position(game, FORCES)
    # target 2 + defender 2 - attacker 3 = 1 pip: a single Pawn does it (deck-town-1.1/attack/pip-difference)
    assert state.check(Attack("ann", "1,0", "yellow2", ("harvest",))).legal
    weak = position(game, {"0,0": "mountain red1", "1,0": "sailor yellow2 yellow3"})
    # target 2 + defender 5 - attacker 1 = 6 pips
    verdict = weak.check(Attack("ann", "1,0", "yellow2", ("sea", "consul")))
    assert verdict.rules == ("deck-town-1.1/attack/pips", "deck-town-1.1/attack/pip-difference")
    assert "5 pips spent, 6 needed" in str(verdict)
    assert "attack-pip-difference" in str(verdict)
    assert weak.check(Attack("ann", "1,0", "yellow2", ("sea", "consul", "harvest"))).legal
    assert not position(make_game(), FORCES).check(Attack("ann", "1,0", "yellow2", ("harvest",))).legal


def test_variant_draw_still_legal(make_game, position):
    assert position(make_game(draw_each_turn=True), BOARD).check(Draw("ann")).legal
