"""The snapshot a perfect vision pipeline would hand the referee for a rendered scene.

Tests of recognition compare what vision reports on a rendered frame with this; scenario tests
can feed it to a referee session without any pixels. Objects hidden from the camera (covered,
out of the picture, inside a nest) are left out, as a real camera would leave them out.
"""

from __future__ import annotations

from referee.pyramids import Pyramid
from referee.snapshot import CardSighting, DieSighting, PyramidSighting, TableSnapshot, TokenSighting
from vision.synth.render import Rendering


def expected_snapshot(rendering: Rendering, t: float = 0.0, min_visible: float = 0.2) -> TableSnapshot:
    """Every object of ``rendering`` with at least ``min_visible`` of it in view, as sightings
    of confidence 1; ``occluded`` when a hand shows in the picture."""
    cards, pyramids, dice, tokens, occluded = [], [], [], [], False
    for o in rendering.objects:
        seen = o.visible >= min_visible
        centre = (round(o.pose["x"], 3), round(o.pose["y"], 3))
        if o.kind == "hand":
            occluded = occluded or o.visible > 0
        elif not seen:
            continue
        elif o.kind == "card":
            face_up = o.extra["face_up"] and o.label != "back"
            corners = tuple(tuple(round(v, 3) for v in c) for c in o.extra["corners_mm"])
            angle = (o.pose["angle"] + 180) % 360 - 180
            cards.append(CardSighting(o.label if face_up else "back", face_up, centre, corners, round(angle, 3), 1.0))
        elif o.kind == "pyramid":
            stack = tuple(Pyramid.parse(p) for p in o.label.split("+"))
            pyramids.append(PyramidSighting(stack, centre, 1.0, o.extra.get("pointing_deg")))
        elif o.kind == "die":
            dice.append(DieSighting(int(o.label), centre, 1.0))
        elif o.kind == "token":
            tokens.append(TokenSighting(o.label, centre, 1.0))
    return TableSnapshot(t, tuple(cards), tuple(pyramids), tuple(dice), tuple(tokens), occluded)
