"""The Pouches layout reads staged tables back as the state's own view."""

import math
import random

import pytest
from layout_staging import W, card, stage_pouches, walk

from referee import games, layouts
from referee.log import PlaythroughLog
from referee.session import Session
from referee.snapshot import Alternative, CardSighting, TableSnapshot, TokenSighting

SETTINGS = [("1.9", 2, {}), ("1.3", 3, {}), ("1.9", 4, {"private-pouches": True}), ("1.3", 5, {}), ("1.9", 5, {})]


def positions(seeds=range(5), steps=80):
    for seed in seeds:
        edition, players, options = SETTINGS[seed % len(SETTINGS)]
        game = games.get("pouches", edition=edition, players=players, options=options)
        yield game, walk(game.new_state(), random.Random(seed), steps)


@pytest.mark.parametrize("sloppy", [False, True])
def test_every_position_reads_back_as_the_states_view(sloppy):
    read = grown = tokens = weapons = 0
    for game, pairs in positions():
        layout = layouts.for_game(game)
        rng = random.Random(7)
        for before, after in pairs:
            snapshot, _ = stage_pouches(after, rng, sloppy=sloppy, frame=before.heap)
            seen = layout.read(snapshot, before)
            assert seen.view == after.view(), f"{game.players} {before.view().diff(after.view())}"
            # the only doubt on a well-read table: a pile just emptied under the tokens standing there
            assert all(p.startswith("heap/") and p not in seen.view and f"tokens/{p[5:]}" in seen.view
                       for p in seen.uncertain), seen.uncertain
            assert seen.unplaced == ()
            read += 1
            grown += bool(set(after.heap) - set(before.heap))
            tokens += any(p.startswith("tokens/") and p[7:] not in {f"{c},{r}" for c, r in after.heap}
                          for p in after.view())
            weapons += any(p.startswith("weapon/") for p in after.view())
    # the walk covers what the layout has to get right: new piles, bedrock tokens, fights, 2-5 seats
    assert read == 400 and grown >= 5 and tokens >= 50 and weapons >= 3, (read, grown, tokens, weapons)


def _position():
    game = games.get("pouches", edition="1.9", players=3)
    pairs = walk(game.new_state(), random.Random(3), 40)
    before, after = pairs[-1]
    snapshot, table = stage_pouches(after, random.Random(1), sloppy=True, frame=before.heap)
    return game, before, after, snapshot, table


def test_a_doubtful_card_makes_its_pile_uncertain_with_the_other_readings():
    game, before, after, snapshot, table = _position()
    cell, pile = next((c, p) for c, p in sorted(after.heap.items()) if p[-1] != "?")
    place = f"heap/{cell[0]},{cell[1]}"
    unsure = [c if c.card != pile[-1] else CardSighting(c.card, True, c.center_mm, c.corners_mm, c.angle_deg, 0.45,
                                                         (Alternative("8S", 0.3), Alternative("8C", 0.1)))
              for c in snapshot.cards]
    seen = layouts.for_game(game).read(TableSnapshot(2.0, tuple(unsure), tokens=snapshot.tokens), before)
    assert seen.view == after.view()
    assert seen.uncertain == {place: (("8S",), ("8C",))}
    views = list(seen.alternatives())
    assert views[0] == after.view() and views[1][place] == ("8S",) and len(views) == 3


def test_an_unidentified_card_reads_as_its_best_alternative_and_stays_uncertain():
    game, before, after, snapshot, table = _position()
    cell, pile = next((c, p) for c, p in sorted(after.heap.items()) if p[-1] != "?")
    unknown = [c if c.card != pile[-1] else CardSighting(None, True, c.center_mm, c.corners_mm, c.angle_deg, 0.3,
                                                          (Alternative("QD", 0.5), Alternative(pile[-1], 0.4)))
               for c in snapshot.cards]
    seen = layouts.for_game(game).read(TableSnapshot(2.0, tuple(unknown), tokens=snapshot.tokens), before)
    place = f"heap/{cell[0]},{cell[1]}"
    assert seen.view[place] == ("QD",)
    assert seen.uncertain == {place: ((pile[-1],),)}


def test_a_card_dropped_off_the_play_area_is_unplaced_and_changes_nothing():
    game, before, after, snapshot, table = _position()
    far = table.out(90.0, 20)
    dropped = TableSnapshot(2.0, snapshot.cards + (card("7D", far, 30.0),), tokens=snapshot.tokens)
    seen = layouts.for_game(game).read(dropped, before)
    assert seen.view == after.view()
    assert len(seen.unplaced) == 1
    assert seen.unplaced[0].startswith("card 7D at") and seen.unplaced[0].endswith("off the play area")


def test_a_stranger_token_is_unplaced_and_a_doubtful_token_is_uncertain():
    game, before, after, snapshot, table = _position()
    player = next(p for p, spot in after.spots.items() if spot is not None)
    tokens = []
    for token in snapshot.tokens:
        if token.label == player:
            token = TokenSighting(player, token.center_mm, 0.4, (Alternative(game.players[0], 0.3),))
        tokens.append(token)
    tokens.append(TokenSighting("zed", table.at((0, 0)), 0.9))
    seen = layouts.for_game(game).read(TableSnapshot(2.0, snapshot.cards, tokens=tuple(tokens)), before)
    spot = after.spots[player]
    assert seen.view == after.view()
    assert f"tokens/{spot[0]},{spot[1]}" in seen.uncertain
    assert len(seen.unplaced) == 1 and "zed" in seen.unplaced[0]


def test_a_pile_dealt_a_third_of_a_card_off_still_lands_on_its_cell():
    game = games.get("pouches", edition="1.9", players=2)
    state = game.new_state()
    snapshot, table = stage_pouches(state, random.Random(0), sloppy=False)
    cards = list(snapshot.cards)
    moved = cards[0]
    x, y = moved.center_mm
    cards[0] = card(moved.card, (x + W / 3, y - 88 / 3), 14.0)
    seen = layouts.for_game(game).read(TableSnapshot(1.0, tuple(cards), tokens=snapshot.tokens), state)
    assert seen.view == state.view()


def test_a_card_laid_out_half_a_cell_towards_its_neighbour_stays_on_its_own_cell():
    """Seen from afar, a card known by one small index is laid out up to 30 mm off (its turn read 40
    degrees wrong): past the middle between two piles. Of two cards on one cell, the one the state
    has on the free cell beside it is that cell's card (Pouches trial 16: the JC read on the 2D's pile)."""
    game = games.get("pouches", edition="1.9", players=3)
    state = game.new_state()
    snapshot, table = stage_pouches(state, random.Random(0), sloppy=False)
    cards = list(snapshot.cards)
    here, there = (1, 1), (2, 1)
    i = next(k for k, c in enumerate(cards) if math.dist(c.center_mm, table.at(there)) < 0.3 * W)
    (x0, y0), (x1, y1) = table.at(there), table.at(here)
    cards[i] = card("JC", (x0 + 0.58 * (x1 - x0), y0 + 0.58 * (y1 - y0)), 40.0)  # past the middle, towards here
    state = state.apply(game.actions.parse("reveal heap/2,1 JC"))
    seen = layouts.for_game(game).read(TableSnapshot(1.0, tuple(cards), tokens=snapshot.tokens), state)
    assert seen.view["heap/2,1"] == ("JC",) and seen.view["heap/1,1"] == ("back",), seen.view
    # a card no pile expects beside it is not moved: it is a second card on its cell
    cards[i] = card("QS", cards[i].center_mm, 40.0)
    seen = layouts.for_game(game).read(TableSnapshot(1.0, tuple(cards), tokens=snapshot.tokens), state)
    assert "heap/2,1" not in seen.view and seen.uncertain["heap/1,1"]


def test_a_token_beside_a_card_laid_out_towards_it_is_in_doubt_between_two_cells(tmp_path):
    """Pouches trial 1: the JH, seen from afar by one index, was laid out a third of a cell towards Bob's
    token on the bedrock beside it. Counted from that card, the nearest, the token stood on the JH's own
    pile: a move out of turn, flagged. Counted from the lattice it stood where it was. Where the two
    counts differ the token is in doubt between the cells, so the table is asked about, not flagged."""
    game, state = next((g, after) for g, pairs in positions() for _, after in pairs
                       if any(spot is not None and spot not in after.heap and (spot[0] - 1, spot[1]) in after.heap
                              for spot in after.spots.values()))
    player, spot = next((p, s) for p, s in state.spots.items()
                        if s is not None and s not in state.heap and (s[0] - 1, s[1]) in state.heap)
    beside = (spot[0] - 1, spot[1])
    snapshot, table = stage_pouches(state, random.Random(0), sloppy=False)
    (x0, y0), (x1, y1) = table.at(beside), table.at(spot)
    towards = lambda a, f: (a[0] + f * (x1 - x0), a[1] + f * (y1 - y0))  # noqa: E731
    cards = tuple(card(c.card, towards(c.center_mm, 0.3), c.angle_deg) if math.dist(c.center_mm, (x0, y0)) < 0.3 * W
                  else c for c in snapshot.cards)
    tokens = tuple(TokenSighting(t.label, towards(t.center_mm, -0.3), t.confidence) if t.label == player else t
                   for t in snapshot.tokens)
    layout = layouts.for_game(game)
    seen = layout.read(TableSnapshot(2.0, cards, tokens=tokens), state)
    here, there = f"tokens/{beside[0]},{beside[1]}", f"tokens/{spot[0]},{spot[1]}"
    assert player in seen.view[here] and there not in seen.view  # counted from the card laid out towards it
    assert player not in seen.uncertain[here][0] and seen.uncertain[there] == ((player,),)
    assert state.view() in list(seen.pairs())
    with PlaythroughLog.create(tmp_path / "log.sqlite") as log:
        session = Session(game, state, layout, log)
        kinds = [e.kind for e in session.observe(TableSnapshot(2.0, cards, tokens=tokens))]
    assert "violation" not in kinds and session.state == state, kinds
    # the same token where both counts agree, on the card's pile: a move that reads as one
    tokens = tuple(TokenSighting(t.label, table.at(beside), t.confidence) if t.label == player else t
                   for t in snapshot.tokens)
    seen = layout.read(TableSnapshot(2.0, snapshot.cards, tokens=tokens), state)
    assert player in seen.view[here] and here not in seen.uncertain and there not in seen.uncertain


def test_a_pile_whose_card_is_hidden_by_the_tokens_on_it_or_that_holds_several_is_in_doubt_not_gone():
    def bare(state, cards):  # a pile with no token on it holding ``cards`` cards (2: several)
        return next((c for c in state.heap if c not in state.spots.values() and min(len(state.heap[c]), 2) == cards),
                    None)

    game, state = next((g, after) for g, pairs in positions() for _, after in pairs
                       if any(spot in after.heap for spot in after.spots.values() if spot is not None)
                       and bare(after, 1) and bare(after, 2))
    layout = layouts.for_game(game)
    snapshot, table = stage_pouches(state, random.Random(2), sloppy=True)
    hidden = next(spot for spot in state.spots.values() if spot is not None and spot in state.heap)
    place = f"heap/{hidden[0]},{hidden[1]}"

    def without(cell):
        """The table with the card on ``cell`` not seen."""
        x, y = table.at(cell)
        cards = tuple(c for c in snapshot.cards if math.dist(c.center_mm, (x, y)) > 0.4 * W)
        assert len(cards) == len(snapshot.cards) - 1
        return layout.read(TableSnapshot(2.0, cards, tokens=snapshot.tokens), state)

    seen = without(hidden)
    assert place not in seen.view and seen.uncertain[place] == (state.view()[place],)
    assert state.view() in list(seen.alternatives())  # read as the state has it, among the readings
    # a pile of one card with no token on it whose card is not seen is just gone (picked): no doubt
    single = bare(state, 1)
    assert f"heap/{single[0]},{single[1]}" not in without(single).uncertain
    # one of several cards was missed by the camera: no move takes a whole pile, so it is in doubt
    deep = bare(state, 2)
    assert without(deep).uncertain[f"heap/{deep[0]},{deep[1]}"] == (state.view()[f"heap/{deep[0]},{deep[1]}"],)


def test_a_pouch_card_laid_down_close_to_the_heap_outside_a_fight_is_in_the_pouch_not_a_weapon():
    # Pouches trial 3: Cat's QD lay within 2.7 cells of the heap, where a weapon is put forward, and was
    # read as one with no fight on: the turn's discards were then lost among several readings
    from referee.layouts import seats

    game, state = next((g, after) for g, pairs in positions() for _, after in pairs
                       if after.phase != "weapons" and not any(p.startswith("weapon/") for p in after.view())
                       and any(c != "?" for pouch in after.pouches.values() for c in pouch)
                       and not after.private)
    seat, player = next((n, p) for n, p in enumerate(game.players) if any(c != "?" for c in state.pouches[p]))
    kept = next(c for c in state.pouches[player] if c != "?")
    snapshot, table = stage_pouches(state, random.Random(4))
    close = table.out(seats.bearings(len(game.players))[seat], 2.15)
    cards = tuple(CardSighting(c.card, True, close, c.corners_mm, c.angle_deg, c.confidence) if c.card == kept else c
                  for c in snapshot.cards)
    layout = layouts.for_game(game)
    seen = layout.read(TableSnapshot(2.0, cards, tokens=snapshot.tokens), state)
    assert seen.view == state.view() and f"weapon/{player}" not in seen.view
    # in a fight asking for weapons, a card put forward there is a weapon
    game, fight = next((g, after) for g, pairs in positions() for _, after in pairs
                       if after.phase == "weapons" and not after.private)
    fighter = next(p for p in game.players if any(c != "?" for c in fight.pouches[p]))
    weapon = next(c for c in fight.pouches[fighter] if c != "?")
    snapshot, table = stage_pouches(fight, random.Random(4))
    forward = table.out(seats.bearings(len(game.players))[game.players.index(fighter)], 2.15)
    cards = tuple(CardSighting(c.card, True, forward, c.corners_mm, c.angle_deg, c.confidence) if c.card == weapon
                  else c for c in snapshot.cards)
    seen = layouts.for_game(game).read(TableSnapshot(2.0, cards, tokens=snapshot.tokens), fight)
    assert seen.view[f"weapon/{fighter}"] == (weapon,)
