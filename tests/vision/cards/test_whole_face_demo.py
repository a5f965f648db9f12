"""The whole-face stage on the Deck Town demo's rendered frames, through the table reader.

Positions 8 and 9 of the demo (Ann built the Battle; Bob is to build the Pact): before session 9 the
Pact, read 0.99 from its whole face, took along the index box the index stage had read as the
Windfall, and the table reader dropped it for that box's size (half an index's); the Mountain, two
pyramids on it, read 0.53 from its face one way up and its corner index ace-suns 0.95, was named
the Ace of Suns. The Sailor was dropped too: its own index, boxed at 0.59 of an index's size and
read as no card, stays with it (it tells the table reader the card is face up), and the table
reader checked the size of a card's index boxes also for a card named from its whole face.
"""

from __future__ import annotations

import pytest

from vision.cards import whole_face
from vision.cards.classes import DECKTET

pytestmark = pytest.mark.skipif(whole_face.reader() is None, reason="whole_face.onnx not built (make models)")


@pytest.mark.parametrize("frame", [208, 232], ids=["position 8", "position 9"])
def test_the_deck_town_board_reads_whole_through_the_table_reader(frame):
    from vision.synth.demo import DemoSource
    from vision.table_reader import TableReader
    from webui.demo import mat_of

    source = DemoSource("deck-town")
    source.seek(frame)
    image = source.read()
    on_table = {o.label for o in source.truth.objects if o.kind == "card" and o.label in DECKTET}
    assert {"battle", "mountain", "pact", "sailor"} <= on_table
    assert not any(o.kind == "hand" for o in source.truth.objects)  # a still table
    snapshot = TableReader(mat_of(source.demo.recorded.game), deck="decktet").read(image, 0.0).snapshot
    named = {c.card for c in snapshot.cards if c.face_up}
    assert {"battle", "mountain", "pact", "sailor"} <= named, f"named {sorted(named)}"
    assert named <= on_table, f"named cards not on the table: {sorted(named - on_table)}"
