"""The demos refereed through real recognition, move for move: the card and token models (and the
pieces reader) read the rendered frames as `make demo` does, and every move of the script must be
accepted in order, nothing else, each illegal move flagged with its rule, the winner declared.
(Kept apart from ``test_demo.py``: these three take most of the suite's time, and the test
processes take a file each.)"""

from __future__ import annotations

from demo_play import followed_to_the_end, rules_broken


def test_the_pouches_demo_is_refereed_through_real_vision_move_for_move_to_its_winner(tmp_path):
    # 1280x720, the models read every 4th frame (2.5 looks a second, as a slow machine keeps up with a camera)
    progress, moves, script = followed_to_the_end(tmp_path, "pouches", every=4)
    assert moves == script  # no move misread, none missed, none made up
    # bob's weapon dropped on the pile under his and cat's tokens: the camera sees it there when the 8S's
    # outline is laid out true; where the tokens hide it, it looks like a bury elsewhere and the players say
    assert set(progress.answered) <= {"discard bob 8S drop"}
    assert rules_broken(progress) == [["pouches-1.9/move/uphill"]]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [(o["winners"], o["rule"]) for o in outcome] == [(["cat"], "pouches-1.9/win/at-once")]


def test_the_mongoose_demo_is_refereed_through_real_vision_move_for_move_to_bob_s_win(tmp_path):
    # every 2nd frame (5 looks a second). Ann's and bob's collections are fans of 7 to 9 cards showing
    # ~23 mm of each (indices ~10 px at the far side of the table). Every move is the script's, in order
    # (the cards of a reveal or a discard named in the order the camera found them). Turn 8's discard was
    # once read with a 9D too many in the discards (the discarded 8D's bottom-right corner, read 9D 0.99)
    # and an unknown card in bob's fan (the foot of his JD's picture, read 9D 0.42 by its covered corner)
    progress, moves, script = followed_to_the_end(tmp_path, "mongoose", every=2)
    def cards_in_any_order(move: str) -> str:
        return " ".join(",".join(sorted(word.split(","))) for word in move.split())
    assert [cards_in_any_order(m) for m in moves] == [cards_in_any_order(m) for m in script]
    assert rules_broken(progress) == [] and not [e for e in progress.events if e.kind == "question"]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [o["winners"] for o in outcome] == [["bob"]]


def test_the_deck_town_demo_is_refereed_through_real_vision_move_for_move_to_ann_s_win(tmp_path):
    # every 2nd frame: the deal entered by the players, then every move read from the camera: the town's
    # Decktet cards named from their whole face, the fanned discard pile card by card from the index each
    # shows (one under the top that shows too little is read where the state has it), the pyramids on
    # cards and in the supplies (a red disc printed on the Painter in the pile is no pyramid)
    progress, moves, script = followed_to_the_end(tmp_path, "deck-town", every=2)
    assert moves == script
    assert rules_broken(progress) == [] and not [e for e in progress.events if e.kind == "question"]
    outcome = [e.payload for e in progress.events if e.kind == "outcome"]
    assert [(o["winners"], o["rule"]) for o in outcome] == [(["ann"], "deck-town-1.1/end/poker-block")]
