"""The Deck Town layout reads staged tables back as the state's own view."""

import dataclasses
from collections import Counter
import math
import random
from pathlib import Path

import pytest
from layout_staging import card, pyramids, stage_deck_town, walk

from referee import games, layouts, playthrough
from referee.log import PlaythroughLog
from referee.session import Session
from referee.snapshot import Alternative, PyramidSighting, TableSnapshot


def positions():
    """About 450 consecutive positions of 2-5 players through the deal, reveal, hatch and play."""
    for seed, players, steps in ((0, 2, 120), (1, 3, 120), (2, 4, 110), (4, 5, 100)):
        game = games.get("deck-town", players=players)
        yield game, walk(game.new_state(), random.Random(seed), steps)


@pytest.mark.parametrize("sloppy", [False, True])
def test_every_position_reads_back_as_the_states_view(sloppy):
    read = grown = reveals = stacked = 0
    for game, pairs in positions():
        layout = layouts.for_game(game)
        rng = random.Random(11)
        for before, after in pairs:
            snapshot, _ = stage_deck_town(after, rng, sloppy=sloppy, frame=before.board)
            seen = layout.read(snapshot, before)
            assert seen.view == after.view(), f"{len(game.players)} players: {seen.view.diff(after.view())}"
            assert seen.uncertain == {} and seen.unplaced == ()
            read += 1
            grown += bool(set(after.board) - set(before.board))
            reveals += any(p.startswith("reveal/") for p in after.view())
            stacked += any(p.startswith("board/") and len(v) > 1 for p, v in after.view().items())
    assert read == 450 and grown >= 40 and reveals >= 4 and stacked >= 100, (read, grown, reveals, stacked)


def _position():
    game = games.get("deck-town", players=3)
    pairs = walk(game.new_state(), random.Random(1), 90)
    before, after = pairs[-1]
    snapshot, table = stage_deck_town(after, random.Random(2), sloppy=True, frame=before.board)
    return game, before, after, snapshot, table


def test_a_doubtful_pyramid_makes_its_card_uncertain():
    game, before, after, snapshot, table = _position()
    cell = next(c for c in sorted(after.board) if len(after.view()[f"board/{c[0]},{c[1]}"]) > 1)
    place = f"board/{cell[0]},{cell[1]}"
    target = table.at(cell)
    nearest = min((p for p in snapshot.pyramids),
                  key=lambda p: (p.center_mm[0] - target[0]) ** 2 + (p.center_mm[1] - target[1]) ** 2)
    other = "yellow3" if str(nearest.stack[0]) != "yellow3" else "green3"
    doubtful = PyramidSighting(nearest.stack, nearest.center_mm, 0.5, alternatives=(Alternative(other, 0.4),))
    pieces = tuple(doubtful if p is nearest else p for p in snapshot.pyramids)
    seen = layouts.for_game(game).read(TableSnapshot(2.0, snapshot.cards, pieces), before)
    assert seen.view == after.view()
    assert list(seen.uncertain) == [place] and len(seen.uncertain[place]) == 1
    assert other in "+".join(seen.uncertain[place][0])


def test_cards_and_pyramids_off_the_play_area_are_unplaced():
    game, before, after, snapshot, table = _position()
    far = table.out(0.0, 20)
    extra = TableSnapshot(2.0, snapshot.cards + (card("mountain", far),),
                          snapshot.pyramids + (pyramids("red2", far), pyramids("pink1", table.out(90.0, 3))))
    seen = layouts.for_game(game).read(extra, before)
    assert seen.view == after.view()
    assert sorted(w.split(" at ")[0] for w in seen.unplaced) == ["card mountain", "pyramids pink1", "pyramids red2"]
    assert any("nobody plays this colour" in w for w in seen.unplaced)


def test_the_first_card_hatched_lands_on_0_0_and_hands_stay_hands():
    game = games.get("deck-town", players=2)
    pairs = walk(game.new_state(), random.Random(5), 40)
    before, after = next((b, a) for b, a in pairs if not b.board and a.board)
    assert list(after.board) == [(0, 0)]
    snapshot, _ = stage_deck_town(after, random.Random(3), frame=before.board)
    assert layouts.for_game(game).read(snapshot, before).view == after.view()


def test_a_pyramid_on_a_card_of_the_discard_pile_is_its_print_and_one_beside_the_pile_is_in_a_supply():
    # no pyramid is ever put on the discard pile: one seen within a pile card's outline is the card's art (the
    # demo's Painter has a red disc that fits a small pyramid: it was read as a red small in Ann's supply)
    game, before, after, snapshot, table = _position()
    pile = [c for c in snapshot.cards if c.face_up and c.card in after.discard]
    assert len(after.discard) >= 2 and len(pile) == len(after.discard)
    colour = after.colours[0]
    (ax, ay), _, (cx, cy), _ = pile[0].corners_mm
    on = (ax * 0.7 + cx * 0.3, ay * 0.7 + cy * 0.3)  # within a card of the pile, off its middle
    seen = layouts.for_game(game).read(TableSnapshot(2.0, snapshot.cards,
                                                     snapshot.pyramids + (pyramids(f"{colour}1", on),)), before)
    assert seen.view == after.view()
    assert len(seen.unplaced) == 1 and "discard pile" in seen.unplaced[0] and f"{colour}1" in seen.unplaced[0]
    # a pyramid standing beside the pile, off all its cards, is in a supply, which the town accounts for
    xs = [x for c in pile for x, _ in c.corners_mm]
    ys = [y for c in pile for _, y in c.corners_mm]
    beside = (min(xs) - 15.0, (min(ys) + max(ys)) / 2)
    seen = layouts.for_game(game).read(TableSnapshot(2.0, snapshot.cards,
                                                     snapshot.pyramids + (pyramids(f"{colour}1", beside),)), before)
    assert seen.unplaced == () and seen.view == after.view()


def _bottom_of_the_pile_read_on_top():
    """The Deck Town position with its discard pile (fanned along +x) read with its bottom card laid past its top:
    (the state, what the layout reads)."""
    game, before, after, snapshot, table = _position()
    pile = sorted((c for c in snapshot.cards if c.face_up and c.card in after.discard), key=lambda c: c.center_mm[0])
    assert len(after.discard) >= 3 and [c.card for c in pile] == list(after.discard)
    bottom, top = pile[0], pile[-1]
    shift = top.center_mm[0] + 12.0 - bottom.center_mm[0]
    moved = dataclasses.replace(bottom, center_mm=(bottom.center_mm[0] + shift, top.center_mm[1]),
                                corners_mm=tuple((x + shift, y) for x, y in bottom.corners_mm))
    read = TableSnapshot(2.0, tuple(moved if c is bottom else c for c in snapshot.cards), snapshot.pyramids)
    seen = layouts.for_game(game).read(read, after)
    assert seen.view["discard"] == after.discard[1:] + after.discard[:1]
    return after, seen


def test_a_fanned_pile_read_out_of_order_is_offered_in_the_order_it_was_laid():
    # cards never leave the discard pile and new ones go on top: the camera placing the bottom card of the fan
    # as its top (Deck Town trial 1: the Consul, under the Windfall and the Island) is its mistake
    after, seen = _bottom_of_the_pile_read_on_top()
    assert after.discard in seen.uncertain["discard"]


def test_a_second_copy_put_on_a_pile_whose_first_went_unread_is_offered_on_top():
    # Deck Town's deck holds two of each card: the second Consul spent onto a pile whose bottom Consul is unread
    # reads as that Consul out of order; the pile is also offered with both (trial 1's attack)
    after, seen = _bottom_of_the_pile_read_on_top()
    assert after.discard + after.discard[:1] in seen.uncertain["discard"]


def test_a_card_under_the_top_of_the_fanned_pile_left_unread_is_offered_in_its_place():
    # cards never leave the discard pile; under its top one may show too little to be read (the demo's
    # Painter under the Desert, then the Sea): the pile is offered whole too, so the referee reads no change
    game, before, after, snapshot, table = _position()
    assert len(after.discard) >= 3
    hidden = after.discard[-2]
    unread = TableSnapshot(2.0, tuple(c for c in snapshot.cards if c.card != hidden), snapshot.pyramids)
    layout = layouts.for_game(game)
    seen = layout.read(unread, after)
    assert seen.view["discard"] == tuple(c for c in after.discard if c != hidden)
    assert after.discard in seen.uncertain["discard"]
    # the top card unread, with nothing put on it, is no covered card: no such offer
    top = TableSnapshot(2.0, tuple(c for c in snapshot.cards if c.card != after.discard[-1]), snapshot.pyramids)
    assert "discard" not in layout.read(top, after).uncertain
    # a session at that state reads no change, and flags none
    import tempfile
    from pathlib import Path
    from referee.session import Session
    from referee.log import PlaythroughLog
    with tempfile.TemporaryDirectory() as folder:
        session = Session(game, after, layout, PlaythroughLog.create(Path(folder) / "g.sqlite"))
        assert session.observe(unread) == [] and session.state == after
        session.log.close()


def test_a_supply_read_short_or_long_leaves_the_move_read_from_the_town(tmp_path):
    # a supply's pyramids stand packed, touching, and the camera counts them worst of all (Deck Town trials lost
    # at the opening to a supply read 7 for 9): the town says what each supply holds, so a session reads every
    # move of the walk from the town, with half of each supply unseen and a stray small in another
    game = games.get("deck-town", players=3)
    pairs = walk(game.new_state(), random.Random(1), 90)
    start = next(i for i, (before, _) in enumerate(pairs) if before.board)
    layout = layouts.for_game(game)
    session = Session(game, pairs[start][0], layout, PlaythroughLog.create(tmp_path / "g.sqlite"))
    rng = random.Random(5)
    placed = 0
    for before, after in pairs[start:]:
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        town = [table.at(cell) for cell in after.board]
        off = [p for p in snapshot.pyramids if min(math.dist(p.center_mm, spot) for spot in town) > 40.0]
        assert len(off) == sum(len(after.supply_of(p)) for p in game.players)
        kept = tuple(p for p in snapshot.pyramids if p not in off[::2])
        stray = pyramids(f"{after.colours[0]}1", table.out(90.0, 3.0))
        seen = layout.read(TableSnapshot(snapshot.t, snapshot.cards, kept + (stray,)), before)
        assert seen.view == after.view() and seen.unplaced == ()
        session.observe(TableSnapshot(snapshot.t, snapshot.cards, kept + (stray,)))
        assert session.state == after, f"{session.moves()[-3:]} then {before.view().diff(after.view())}"
        placed += any(len(after.supply_of(p)) < len(before.supply_of(p)) for p in game.players)
    session.log.close()
    assert placed >= 10, placed  # moves that took a pyramid from a supply


def _place(cell):
    return f"board/{cell[0]},{cell[1]}"


def _new_cells(before, after):
    """The cells of the town that hold a card after a move and did not before it."""
    return [cell for cell in after.board if cell not in before.board]


def _without(snapshot, table, cell, name, read_as=None, confidence=0.97):
    """``snapshot`` with the pyramid ``name`` standing on the card at ``cell`` unseen (or read as ``read_as``,
    that sure)."""
    x, y = table.at(cell)
    on = [p for p in snapshot.pyramids if "+".join(map(str, p.stack)) == name and math.dist(p.center_mm, (x, y)) < 35.0]
    assert on, (cell, name)
    instead = () if read_as is None else (pyramids(read_as, on[0].center_mm, confidence),)
    return TableSnapshot(snapshot.t, snapshot.cards, tuple(p for p in snapshot.pyramids if p is not on[0]) + instead)


def test_a_small_unseen_on_a_cards_art_leaves_the_moves_read(tmp_path):
    # smalls on the town's card art are the camera's hardest read: a hatch whose small goes unseen, is read a
    # medium, or is read unsurely as a stack of other colours (trial 15: red3+yellow2 at 0.13 for a red small),
    # is read as the hatch (not as a build refused by deck-town-1.1/action/build), and a move beside a
    # small unseen elsewhere on the town is read as that move; a small unseen on a still table changes nothing
    game = games.get("deck-town", players=3)
    pairs = walk(game.new_state(), random.Random(1), 90)
    layout = layouts.for_game(game)
    rng = random.Random(7)
    hatches = beside = later = 0
    for n, (before, after) in enumerate(pairs):
        if before.discard != after.discard:
            continue  # cards spent: an attack or a fly may take pyramids off, and none is offered back
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        view = after.view()
        new = _new_cells(before, after)
        # a small of another player's, unseen where it stood (one of the mover's unseen beside their spawn would
        # be their move, to the camera as to anyone), on a card the move left alone
        others = {f"{c}1" for c in before.colours if c != before.colours[before.turn]}
        kept = [(cell, small) for cell in before.board if view.get(_place(cell)) == before.view()[_place(cell)]
                for small in view[_place(cell)][1:] if small in others]
        if new and len(view[_place(new[0])]) == 2:
            (cell, name), hatches = (new[0], view[_place(new[0])][1]), hatches + 1
        elif kept and view != before.view():
            (cell, name), beside = kept[0], beside + 1
        else:
            continue
        misreads = [(None, 0.97)]
        if cell in new:  # a hatched small read a medium, or unsurely as a stack of two other players' pyramids
            misreads += [(name.replace("1", "2"), 0.97), ("+".join(sorted(f"{c[:-1]}{s}" for c, s in zip(sorted(others), "32"))),
                                                          0.13)]
        for k, (read_as, sure) in enumerate(misreads):
            table_seen = _without(snapshot, table, cell, name, read_as, sure)
            with PlaythroughLog.create(tmp_path / f"{n}-{k}.sqlite") as log:
                session = Session(game, before, layout, log)
                events = session.observe(table_seen)
                assert session.state == after, [(e.kind, e.payload) for e in events]
                # looked at again, the table is as the state has it; and the camera reading the hatched small as
                # a medium still, after the next move, is the same misreading, not a grow (Deck Town trial 5)
                assert session.observe(table_seen) == []
                if read_as is not None and n + 1 < len(pairs) and pairs[n + 1][1].view().get(_place(cell)) == \
                        view[_place(cell)]:
                    nxt = pairs[n + 1][1]
                    next_table, next_grid = stage_deck_town(nxt, rng, frame=after.board)
                    events = session.observe(_without(next_table, next_grid, cell, name, read_as, sure))
                    assert session.state == nxt, [(e.kind, e.payload) for e in events]
                    later += 1
    assert hatches >= 3 and beside >= 5 and later >= 2, (hatches, beside, later)


def _observed(game, layout, before, table_seen, path):
    """The state a new session at ``before`` reaches on ``table_seen``, and the events that took it there."""
    with PlaythroughLog.create(path) as log:
        session = Session(game, before, layout, log)
        events = session.observe(table_seen)
        return session.state, events


def test_a_hatch_read_wrong_while_a_small_is_unseen_elsewhere_is_read(tmp_path):
    # Deck Town trials 5, 7, 10 and 11 were lost where two places were misread at once: a hatched small unseen or
    # read a medium (offered as the hatch) while another player's small went unseen on a card the move left alone
    # (offered as the state has it). Neither offer explains the table alone; the two together do.
    game = games.get("deck-town", players=3)
    layout = layouts.for_game(game)
    rng = random.Random(11)
    tried = 0
    for n, (before, after) in enumerate(walk(game.new_state(), random.Random(2), 200)):
        view = after.view()
        new = _new_cells(before, after)
        if before.discard != after.discard or len(new) != 1 or len(view[_place(new[0])]) != 2:
            continue
        others = {f"{c}1" for c in before.colours if c != before.colours[before.turn]}
        kept = [(cell, small) for cell in before.board if view.get(_place(cell)) == before.view()[_place(cell)]
                for small in view[_place(cell)][1:] if small in others]
        if not kept:
            continue
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        snapshot = _without(snapshot, table, *kept[0])
        hatched = view[_place(new[0])][1]
        for k, read_as in enumerate([None, hatched.replace("1", "2")]):
            state, events = _observed(game, layout, before, _without(snapshot, table, new[0], hatched, read_as),
                                      tmp_path / f"{n}-{k}.sqlite")
            assert state == after, (n, read_as, [(e.kind, e.payload) for e in events])
        tried += 1
    assert tried >= 3, tried


def test_a_flown_card_with_its_small_unseen_is_read_as_the_fly(tmp_path):
    # a fly takes the card's pyramids along; the small on the flown card's art unseen was read as a fly
    # evicting it, a violation (Deck Town trial 7): the flown card is offered with what it carried
    recorded = playthrough.load(Path(__file__).parents[1] / "deck_town" / "playthroughs" / "flight-and-flush.txt")
    states = playthrough.replay(recorded).states
    n = next(i for i, line in enumerate(recorded.lines) if line.action.startswith("fly "))
    before, after = states[n], states[n + 1]
    game = recorded.game
    snapshot, table = stage_deck_town(after, random.Random(3), frame=before.board)
    assert after.view()["board/0,-1"] == ("lunatic", "red1")
    state, events = _observed(game, layouts.for_game(game), before, _without(snapshot, table, (0, -1), "red1"),
                              tmp_path / "fly.sqlite")
    assert state == after, [(e.kind, e.payload) for e in events]


def test_a_small_read_surely_a_size_up_with_its_own_size_close_behind_is_in_doubt(tmp_path):
    # Deck Town trial 0: the Castle flown with its red small, the small read red2 at 0.92 with red1 at 0.45 next,
    # was a fly that grew the small: nothing legal, unrecognised. A runner-up that close (CLOSE_SECOND) puts the
    # reading in doubt however sure it is, so the fly is read; a runner-up far behind leaves the table unexplained.
    recorded = playthrough.load(Path(__file__).parents[1] / "deck_town" / "playthroughs" / "flight-and-flush.txt")
    states = playthrough.replay(recorded).states
    n = next(i for i, line in enumerate(recorded.lines) if line.action.startswith("fly "))
    before, after = states[n], states[n + 1]
    snapshot, table = stage_deck_town(after, random.Random(3), frame=before.board)
    bare = _without(snapshot, table, (0, -1), "red1")
    at = next(p for p in snapshot.pyramids if p not in bare.pyramids).center_mm
    for runner_up, read in [(0.45, True), (0.1, False)]:
        grown = PyramidSighting(pyramids("red2", at).stack, at, 0.92, alternatives=(Alternative("red1", runner_up),))
        table_seen = TableSnapshot(bare.t, bare.cards, bare.pyramids + (grown,))
        state, events = _observed(recorded.game, layouts.for_game(recorded.game), before, table_seen,
                                  tmp_path / f"grown-{runner_up}.sqlite")
        assert (state == after) is read, [(e.kind, e.payload) for e in events]
        if not read:
            assert [e.kind for e in events] == ["unrecognised"]


def test_a_hatch_unseen_beside_a_discard_pile_read_short_is_read(tmp_path):
    # trial 17: the small hatching a card unseen while a card under the discard pile's top went unread; the pile
    # read short spends no card, so the hatch is still offered (else: a build refused, deck-town-1.1/action/build)
    game = games.get("deck-town", players=2)
    layout = layouts.for_game(game)
    rng = random.Random(8)
    tried = 0
    walks = [pair for seed in (6, 7, 8) for pair in walk(game.new_state(), random.Random(seed), 200)]
    for n, (before, after) in enumerate(walks):
        new = _new_cells(before, after)
        if before.phase != "play" or before.on_board(before.turn) or len(new) != 1 or len(before.discard) < 2:
            continue
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        snapshot = _without(snapshot, table, new[0], f"{before.colours[before.turn]}1")
        bottom = next(c for c in snapshot.cards if c.card == before.discard[0] and c.face_up)
        shown = TableSnapshot(snapshot.t, tuple(c for c in snapshot.cards if c is not bottom), snapshot.pyramids)
        assert layout.read(shown, before).view["discard"] == before.discard[1:]
        state, events = _observed(game, layout, before, shown, tmp_path / f"{n}.sqlite")
        assert state == after, (n, [(e.kind, e.payload) for e in events])
        tried += 1
    assert tried >= 2, tried


def test_a_revealed_card_hatched_unseen_under_its_small_is_read_as_the_hatch(tmp_path):
    # a white card on the white mat may go unfound while the small hatching it is seen (trials 2, 15, 18): the
    # revealed card gone and the player's small on the town's grid where no card was seen read as the hatch there,
    # and so is a pyramid read there unsurely
    game = games.get("deck-town", players=3)
    layout = layouts.for_game(game)
    rng = random.Random(5)
    hatched = 0
    for n, (before, after) in enumerate(walk(game.new_state(), random.Random(4), 40)):
        if before.phase != "hatch":  # the first hatch too (trial 18: the Market, on the empty town)
            continue
        (cell,) = _new_cells(before, after)
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        x, y = table.at(cell)
        unfound = [c for c in snapshot.cards if c.card == after.board[cell] and math.dist(c.center_mm, (x, y)) < 20]
        assert len(unfound) == 1
        shown = TableSnapshot(snapshot.t, tuple(c for c in snapshot.cards if c is not unfound[0]), snapshot.pyramids)
        # the small seen, or read unsurely as another player's large (trial 15: yellow3 at 0.12 for a red small)
        other = next(c for c in before.colours if c != before.colours[before.turn])
        misread = _without(shown, table, cell, f"{before.colours[before.turn]}1", f"{other}3", 0.12)
        for k, table_seen in enumerate((shown, misread)):
            state, events = _observed(game, layout, before, table_seen, tmp_path / f"{n}-{k}.sqlite")
            assert state == after, (n, k, [(e.kind, e.payload) for e in events])
        hatched += 1
    assert hatched >= 2, hatched


def test_a_small_read_unsurely_as_other_pyramids_while_the_player_discards_is_read(tmp_path):
    # trial 15: Ann's hatched small, on the card's busy art seen from afar, read red3+yellow2 at 0.13 in the look
    # that also showed her first discard, then yellow3 at 0.12 as she discarded again. Pyramids read so unsurely
    # do not count against the hatch, nor against the town card as the state has it; and the discards (a card new
    # on the pile in the discard phase) take no pyramid off, so they rule neither out
    game = games.get("deck-town", players=2)
    layout = layouts.for_game(game)
    rng = random.Random(3)
    hatch_and_discard = discards = 0
    for seed in range(40):
        pairs = walk(game.new_state(), random.Random(seed), 30)  # (hatches come early)
        for n, ((before, middle), (_, after)) in enumerate(zip(pairs, pairs[1:])):
            cases = []
            if before.phase == "hatch" and before.board and middle.phase == "discard" and after.turn == middle.turn:
                (cell,) = _new_cells(before, middle)  # the hatch, then a discard
                mine, other = before.colours[before.turn], before.colours[1 - before.turn]
                cases.append((before, cell, f"{mine}1", f"{other}3+{mine}2"))
                hatch_and_discard += 1
            on = [(cell, p) for cell in after.board for p in after.view()[_place(cell)][1:]
                  if p.endswith("1") and "+" not in p]
            if middle.phase == "discard" and len(middle.discard) < len(after.discard) and middle.board == after.board and on:
                # a discard, and a small on the town misread as another colour's large
                cell, small = on[0]
                cases.append((middle, cell, small, next(f"{c}3" for c in middle.colours if not small.startswith(c))))
                discards += 1
            for k, (start, cell, small, misread) in enumerate(cases):
                snapshot, table = stage_deck_town(after, rng, frame=start.board)
                table_seen = _without(snapshot, table, cell, small, misread, 0.13)
                state, events = _observed(game, layout, start, table_seen, tmp_path / f"{seed}-{n}-{k}.sqlite")
                assert state == after, (seed, n, k, [(e.kind, e.payload) for e in events])
    assert hatch_and_discard >= 2 and discards >= 2, (hatch_and_discard, discards)


def test_a_card_the_deck_does_not_hold_is_in_doubt(tmp_path):
    # the Myrmex deck has no Excuse: a face-up card read as one (Deck Town trial 12: a face-down hand card read as
    # the Excuse at 0.96, a reveal nobody made) is the camera's mistake however sure, so a session reads no change
    game, before, after, snapshot, table = _position()
    assert "excuse" in layouts.for_game(game).absent
    # its runner-up, a card the table already shows elsewhere, explains nothing either: it may be no card at all
    shown = TableSnapshot(2.0, snapshot.cards + (card("excuse", table.out(0.0, 3.3), confidence=0.96,
                                                      alternatives=[(after.discard[0], 0.01)]),), snapshot.pyramids)
    seen = layouts.for_game(game).read(shown, after)
    (place,) = [p for p in seen.uncertain if "excuse" in seen.view.get(p, ())]
    assert place.startswith("reveal/")
    with PlaythroughLog.create(tmp_path / "g.sqlite") as log:
        session = Session(game, after, layouts.for_game(game), log)
        assert session.observe(shown) == [] and session.state == after


def test_a_card_built_bare_with_its_art_read_as_a_pyramid_is_read_as_the_build(tmp_path):
    # Deck Town trial 6: the Discovery built onto the town, its art read as a yellow large at 0.05 (trial 8: the
    # Painter, its red ellipse read as a red small at 0.84); no reading offered the card bare, and the build was
    # unrecognised. Only a hatch or a fly brings a card to the town with a pyramid on it: a build brings it bare
    # (deck-town-1.1/action/build), so what is read on it, however surely, is its print. A card new to the town
    # where the player hatches keeps what is read on it (tests above)
    game = games.get("deck-town", players=2)
    layout = layouts.for_game(game)
    rng = random.Random(9)
    built = 0
    for n, (before, after) in enumerate(walk(game.new_state(), random.Random(12), 200)):
        new = _new_cells(before, after)
        if before.phase != "play" or not before.on_board(before.turn) or len(new) != 1 or \
                len(after.view()[_place(new[0])]) != 1:
            continue  # (a build: a card from the hand onto the town, bare)
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        x, y = table.at(new[0])
        other = next(c for c in before.colours if c != before.colours[before.turn])
        for sure in (0.05, 0.9):
            print_read = pyramids(f"{other}3", (x + 5, y - 8), sure)
            table_seen = TableSnapshot(snapshot.t, snapshot.cards, snapshot.pyramids + (print_read,))
            with PlaythroughLog.create(tmp_path / f"{n}-{sure}.sqlite") as log:
                session = Session(game, before, layout, log)
                events = session.observe(table_seen)
                assert session.state == after, (n, sure, [(e.kind, e.payload) for e in events])
                assert session.observe(table_seen) == []  # looked at again, the print read on the card changes nothing
        built += 1
        if built == 4:
            break
    assert built >= 2, built


def test_a_small_unseen_on_another_card_while_a_card_flies_is_read_as_the_fly(tmp_path):
    # a fly spends a card, as an attack does, and an attack takes a pyramid off: so with a card spent, a town
    # card read with fewer pyramids than it carries was not offered back. But a card seen flown says the spend
    # was the fly's, which takes no pyramid off anywhere (Deck Town trial 10: the Betrayal flown with its red
    # small while bob's yellow small on the Savage went unseen, unrecognised, and the game lost from move 10)
    recorded = playthrough.load(Path(__file__).parents[1] / "deck_town" / "playthroughs" / "flight-and-flush.txt")
    states = playthrough.replay(recorded).states
    n = next(i for i, line in enumerate(recorded.lines) if line.action.startswith("fly "))
    before, after = states[n], states[n + 1]
    assert before.discard != after.discard and after.view()["board/0,1"] == ("journey", "green1")
    game = recorded.game
    snapshot, table = stage_deck_town(after, random.Random(3), frame=before.board)
    state, events = _observed(game, layouts.for_game(game), before, _without(snapshot, table, (0, 1), "green1"),
                              tmp_path / "fly.sqlite")
    assert state == after and [e.kind for e in events] == ["action"], [(e.kind, e.payload) for e in events]


def _plays():
    """Random Deck Town moves of the play phase that spend no card: (game, the position before the move before
    it or None, the move's before and after)."""
    for seed, players in ((1, 3), (2, 4), (3, 2), (4, 3)):
        game = games.get("deck-town", players=players)
        pairs = walk(game.new_state(), random.Random(seed), 200)
        for n, (before, after) in enumerate(pairs):
            if before.discard == after.discard and before.phase == "play":
                yield game, pairs[n - 1][0] if n else None, before, after


def _read_as_moves(game, before, table_seen, after, path, moves=1):
    """A session at ``before`` reads ``table_seen`` as ``moves`` moves that reach ``after``."""
    state, events = _observed(game, layouts.for_game(game), before, table_seen, path)
    assert state == after and [e.kind for e in events] == ["action"] * moves, [(e.kind, e.payload) for e in events]


def _standing_on(state, cell) -> Counter:
    return Counter(p for group in state.view().get(_place(cell), ())[1:] for p in group.split("+"))


def test_a_small_set_down_beside_the_movers_own_pyramid_and_read_as_one_with_it_is_read_as_the_move(tmp_path):
    # two pyramids of one colour standing close on a card's art read as one (Deck Town trial 14: bob's spawn
    # beside his yellow medium on the Chance Meeting read as one yellow small, and the game lost at its last
    # move): a town card read with the mover's new small where a pyramid it carried is unseen is also offered
    # with both
    rng, tried = random.Random(1), 0
    for game, _, before, after in _plays():
        mine = before.colours[before.turn]
        grown = [cell for cell in before.board if _standing_on(after, cell) - _standing_on(before, cell)
                 == Counter({f"{mine}1": 1})]
        beside = [(cell, p) for cell in grown for p in _standing_on(before, cell)
                  if p.startswith(mine) and p != f"{mine}1"]  # (read as one small, two smalls look unmoved)
        if not beside:
            continue
        cell, own = beside[0]
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        table_seen = _without(_without(snapshot, table, cell, f"{mine}1"), table, cell, own, read_as=f"{mine}1")
        _read_as_moves(game, before, table_seen, after, tmp_path / f"{tried}.sqlite")
        tried += 1
    assert tried >= 3, tried


def test_a_town_card_unseen_under_the_pyramid_just_set_on_it_is_read_there(tmp_path):
    # a pyramid set down or grown on a town card can hide enough of it that the camera finds no card there,
    # only the pyramid on its cell (Deck Town trial 3's Origin, its small grown to a medium at the last move):
    # the card is offered there with the pyramids read on it, and the move is read
    rng, tried = random.Random(2), 0
    for game, _, before, after in _plays():
        changed = [cell for cell in before.board if after.board.get(cell) == before.board[cell]
                   and _standing_on(after, cell) - _standing_on(before, cell)]
        if not changed:
            continue
        cell = changed[0]
        snapshot, table = stage_deck_town(after, rng, frame=before.board)
        x, y = table.at(cell)
        hidden = min((c for c in snapshot.cards if c.card == after.board[cell]),
                     key=lambda c: math.dist(c.center_mm, (x, y)))
        cards = tuple(c for c in snapshot.cards if c is not hidden)
        table_seen = TableSnapshot(snapshot.t, cards, snapshot.pyramids)
        _read_as_moves(game, before, table_seen, after, tmp_path / f"{tried}.sqlite")
        tried += 1
    assert tried >= 5, tried


def _moves_off_one_card():
    """Random Deck Town moves of a pyramid its player has none like in supply, off the only card where they have
    one like it: (game, the position before the move before it or None, the move's before and after, the card's
    cell, the pyramid)."""
    for game, previous, before, after in _plays():
        if set(before.board) != set(after.board):
            continue
        player, mine = before.players[before.turn], before.colours[before.turn]
        gained = sum((_standing_on(after, cell) - _standing_on(before, cell) for cell in before.board), Counter())
        left = [(cell, p) for cell in before.board for p in _standing_on(before, cell) - _standing_on(after, cell)
                if p.startswith(mine) and p not in before.supply_of(player) and gained[p]]  # a move
        # (where the mover has one like it on two cards, either may be the one misread: a question, rightly)
        if left and sum(_standing_on(before, c)[left[0][1]] > 0 for c in before.board) == 1:
            yield game, previous, before, after, *left[0]


def _with_print_where_it_stood(state, rng, frame, cell, pyramid):
    """The table of ``state`` with ``pyramid`` also read on the card at ``cell``: the card's art where it stood."""
    snapshot, table = stage_deck_town(state, rng, frame=frame)
    x, y = table.at(cell)
    return TableSnapshot(snapshot.t, snapshot.cards, snapshot.pyramids + (pyramids(pyramid, (x + 5.0, y - 8.0)),))


def test_a_card_still_read_with_the_pyramid_moved_off_it_is_read_as_the_move(tmp_path):
    # once a small leaves a card, the card's art where it stood may be read as one (Deck Town trial 1: the
    # Desert's art read as a yellow small after bob moved his small off it): with the mover's supply holding
    # none like the pyramid read new elsewhere, a card still read carrying one is offered without it
    rng, tried = random.Random(1), 0
    for game, _, before, after, cell, moved in _moves_off_one_card():
        table_seen = _with_print_where_it_stood(after, rng, before.board, cell, moved)
        _read_as_moves(game, before, table_seen, after, tmp_path / f"{tried}.sqlite")
        tried += 1
    assert tried >= 3, tried


def test_a_move_seen_with_the_move_before_it_is_read_with_what_the_layout_offers_once_it_is_the_movers_turn(tmp_path):
    # one look can show two moves: the layout's offers are read from the state the look starts at, where
    # another player was to move, and a card the second mover's pyramid left, still read with it, was offered
    # without it only from the state after the first move (Deck Town trial 1: ann's draw and bob's move off the
    # Desert, whose art was read as his small, in one look; a spawn with no small to spawn was all it read)
    rng, tried = random.Random(2), 0
    for game, first, before, after, cell, moved in _moves_off_one_card():
        if first is None or first.turn == before.turn or first.view() == before.view():
            continue
        table_seen = _with_print_where_it_stood(after, rng, first.board, cell, moved)
        _read_as_moves(game, first, table_seen, after, tmp_path / f"{tried}.sqlite", moves=2)
        tried += 1
    assert tried >= 2, tried
