"""How well the card models do, per stage and end to end, on real photographs and on new renders.

``python -m models.cards.measure`` prints the figures and writes ``models/cards/metrics.json``,
which the model card quotes; the tests and ``make bench`` call the same functions.

Real photographs are scored on the later half of ``../shared/data/cards_real/dev``, which the
models never learn from (:mod:`models.cards.real`: the earlier half teaches them), per image as
multisets of face-up card ids, as the data's README says: recall is the share of labelled cards
named, precision the share of named cards that are labelled; each table is one deck, so a name read
on more than one card is kept on the surest alone, as ``tableside recognize`` does by default.
Single-card photos are scored by top-1: the most confident named card is the labelled one.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from models.cards import real
from models.cards.data import SEEN, SHARED, visible_share

from vision.cards.copies import named_at_most
from vision.cards.recognise import CardRecogniser

REAL = real.REAL
DECKTET_ART = ("decktet/art/tenza-magnate", "decktet/art/snej-oracles", "decktet/art/fogus-spiel")
MEASURE_SEEDS = range(900_000, 900_060)  # never rendered for training or calibration


def real_dev(recogniser: CardRecogniser, folder: Path = REAL, records: list[dict] | None = None) -> dict:
    """Figures on the real dev photographs the models never learned from (or on ``records``),
    with every failing image listed."""
    records = real.measuring(folder) if records is None else records
    table = {"labelled": 0, "named": 0, "right": 0, "images": 0, "failures": []}
    single = {"images": 0, "right": 0, "failures": []}
    seconds = []
    for record in records:
        image = cv2.imread(str(folder / record["image"]))
        started = time.perf_counter()
        cards = named_at_most(recogniser.recognise(image, deck="standard"), copies=1)  # as `tableside recognize`
        seconds.append(time.perf_counter() - started)
        named = Counter(c.id for c in cards if c.id not in (None, "back"))
        truth = Counter(record["cards"])
        if record["image"].startswith("images/tabletop"):
            right = sum((named & truth).values())
            table["images"] += 1
            table["labelled"] += sum(truth.values())
            table["named"] += sum(named.values())
            table["right"] += right
            if named != truth:
                table["failures"].append({"image": record["image"], "missed": sorted((truth - named).elements()),
                                          "wrong": sorted((named - truth).elements())})
        elif len(truth) == 1:
            best = max((c for c in cards if c.id not in (None, "back")), key=lambda c: c.confidence, default=None)
            single["images"] += 1
            ok = best is not None and best.id == record["cards"][0]
            single["right"] += ok
            if not ok:
                single["failures"].append({"image": record["image"], "truth": record["cards"][0],
                                           "named": best.id if best else None,
                                           "unknown": sum(c.id is None for c in cards)})
    return {
        "tabletop": {"images": table["images"], "recall": _ratio(table["right"], table["labelled"]),
                     "precision": _ratio(table["right"], table["named"]), "failures": table["failures"]},
        "single": {"images": single["images"], "top1": _ratio(single["right"], single["images"]),
                   "failures": single["failures"]},
        "seconds_median": float(np.median(seconds)) if seconds else None,
    }


def detector_real(recogniser: CardRecogniser, folder: Path = REAL) -> dict:
    """Stage 1 alone on the real photographs: the share of labelled corner indices the detector
    finds (a found index's centre inside the labelled box, or the labelled centre inside the found
    box), and how many found indices match no labelled one (some are real indices the labels leave
    out: a back's corner, an index the labeller skipped). On the half never learned from."""
    records = real.measuring(folder)
    labelled = found = unmatched = 0
    for record in records:
        image = cv2.imread(str(folder / record["image"]))
        indices, _ = recogniser.detect(image)
        boxes = [c["box"] for c in record["corners"]]
        labelled += len(boxes)
        found += sum(any(_overlap(i["box"], b) for i in indices) for b in boxes)
        unmatched += sum(not any(_overlap(i["box"], b) for b in boxes) for i in indices)
    return {"corners": labelled, "recall": _ratio(found, labelled), "unmatched_finds": unmatched}


def _overlap(a, b) -> bool:
    """Whether two boxes are one find: the middle of either lies inside the other."""
    ca = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
    cb = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    return (b[0] <= ca[0] <= b[2] and b[1] <= ca[1] <= b[3]) or (a[0] <= cb[0] <= a[2] and a[1] <= cb[1] <= a[3])


def rendered_decktet(recogniser: CardRecogniser, seeds: range = MEASURE_SEEDS) -> dict:
    """Decktet scenes the models never saw, faces from the Decktet art sets in turn (one of which,
    fogus-spiel, was never used in training), with pyramids standing on some cards."""
    folders = [str(SHARED / a) for a in DECKTET_ART if (SHARED / a).is_dir()]
    return rendered_scenes(lambda image: recogniser.recognise(image, deck="decktet"), seeds, "decktet", folders,
                           pyramids_on_cards=True)


def learned_deck(recogniser: CardRecogniser, folder: Path, seeds: range = range(910_000, 910_040),
                 compare: bool = True) -> dict:
    """Teach the novel design (:mod:`models.cards.novel`) from one rendered photo per card, then
    measure on scenes of it. For comparison on the same scenes: the untaught recogniser, and the
    standard recogniser on the same tables with standard faces (``standard_faces``: the ceiling, as
    what the same detector and classifier read of these tables in the design they learned); without
    ``compare``, the taught deck alone (a third of the time)."""
    from models.cards.novel import write_novel_deck
    from referee.cards import standard_deck
    from vision.cards.decks import learn

    faces = str(write_novel_deck(folder))
    photos = [(card_id, teaching_photo(card_id, k, faces)) for k, card_id in enumerate(standard_deck())]
    started = time.perf_counter()
    deck = learn(recogniser, "novel", photos, progress=lambda m: None)
    taught_s = time.perf_counter() - started
    taught = rendered_scenes(lambda image: deck.recognise(recogniser, image), seeds, "standard", [faces])
    figures = {"taught": taught, "teaching_photos": len(photos), "cards_taught": len(deck.ids),
               "teaching_seconds": round(taught_s, 1)}
    if compare:
        standard = lambda image: recogniser.recognise(image, deck="standard")  # noqa: E731
        figures["untaught"] = rendered_scenes(standard, seeds, "standard", [faces])
        figures["standard_faces"] = rendered_scenes(standard, seeds, "standard", [])
    return figures


def teaching_photo(card_id: str, k: int, faces: str | None) -> np.ndarray:
    """A teaching photo as a user takes one (``tableside deck learn``): the card alone on a table
    (the ``k``-th of a set: each on its own table, mat, light and camera), the camera 30 cm away
    and within 20 degrees of straight down, in focus, nothing over the card. (Until session 12 the
    photos were taken as a table's: from 42 cm tilted up to 45 degrees, 640x480 to 1280x720, out of
    focus, with the scene's boxes and tokens, which hid the card on several of the 52.)"""
    from vision.synth.random_scene import random_scene
    from vision.synth.render import render
    from vision.synth.scene import CardObject

    scene = random_scene(920_000 + k, size=(1280, 720), cards=0, pyramids=0, hands=0)
    scene.clutter, scene.dice, scene.tokens = [], [], []
    scene.camera.distance_mm = 300.0
    scene.camera.tilt_deg = min(scene.camera.tilt_deg, 20.0)
    scene.effects.focus_blur_px = min(scene.effects.focus_blur_px, 1.0)
    scene.effects.motion_blur_px = 0.0
    scene.cards = [CardObject(card_id, *scene.camera.target_mm, angle=float(k * 37 % 360))]
    scene.faces = faces
    return render(scene).image


def rendered_scenes(recognise, seeds: range, deck: str, folders: list[str], pyramids_on_cards: bool = False) -> dict:
    """Recall and precision of face-up card names on new rendered scenes of ``deck``, faces from
    ``folders`` in turn. A card counts as expected when one of its corner indices is in full view."""
    from vision.synth.render import render

    counts = Counter()
    for k, seed in enumerate(seeds):
        scene = measuring_scene(seed, deck, folders[k % len(folders)] if folders else None, pyramids_on_cards)
        rendering = render(scene, masks=True)
        named = Counter(c.id for c in recognise(rendering.image) if c.id not in (None, "back"))
        present = Counter(o.label for o in rendering.objects if o.kind == "card" and o.label != "back")
        expected, covered = Counter(), Counter()
        for o in rendering.objects:
            if o.kind != "card" or o.label == "back":
                continue
            if any(visible_share(rendering.instances, np.array(b["polygon"]), o.index) >= SEEN for b in o.extra["index_boxes"]):
                expected[o.label] += 1
                if pyramids_on_cards and _under_pyramid(o, scene):
                    covered[o.label] += 1
        counts["expected"] += sum(expected.values())
        counts["found"] += sum((named & expected).values())
        counts["named"] += sum(named.values())
        counts["named_right"] += sum((named & present).values())
        counts["covered"] += sum(covered.values())
        counts["covered_found"] += sum((named & covered).values())
    figures = {"scenes": len(seeds), "cards": counts["expected"], "recall": _ratio(counts["found"], counts["expected"]),
               "precision": _ratio(counts["named_right"], counts["named"])}
    if pyramids_on_cards:
        figures["under_pyramid"] = {"cards": counts["covered"], "recall": _ratio(counts["covered_found"], counts["covered"])}
    return figures


def measuring_scene(seed: int, deck: str, faces: str | None, pyramids_on_cards: bool = False):
    """The rendered scene of :func:`rendered_scenes` for ``seed``: 6 to 23 cards of ``deck`` with faces from the
    folder ``faces`` (None: the project's own), and with ``pyramids_on_cards`` 4 to 8 pyramids standing on them."""
    from vision.synth.random_scene import random_scene

    scene = random_scene(seed, deck=deck, pyramids=(4 + seed % 5) if pyramids_on_cards else 0, cards=6 + seed % 18)
    scene.faces = faces
    if pyramids_on_cards:
        stand_on_cards(scene, seed)
    return scene


def stand_on_cards(scene, seed: int) -> None:
    """Stand the scene's pyramids on its cards (near their middles), as Deck Town and Pouches do."""
    rng = np.random.default_rng(seed)
    up = [c for c in scene.cards if c.face_up]
    for p in scene.pyramids:
        if up:
            card = up[int(rng.integers(len(up)))]
            p.x, p.y = card.x + float(rng.uniform(-12, 12)), card.y + float(rng.uniform(-18, 18))


def _under_pyramid(card_obj, scene) -> bool:
    quad = np.array(card_obj.extra["corners_mm"], np.float32)
    return any(cv2.pointPolygonTest(quad, (float(p.x), float(p.y)), False) >= 0 for p in scene.pyramids)


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def main(argv: list[str] | None = None) -> int:
    recogniser = CardRecogniser()
    figures = {}
    if REAL.is_dir():
        figures["real_dev"] = real_dev(recogniser)
        taught = real_dev(recogniser, records=real.teaching())  # for comparison only: these taught the models
        figures["real_dev_taught_half"] = {k: {kk: vv for kk, vv in v.items() if kk != "failures"}
                                          for k, v in taught.items() if isinstance(v, dict)}
        figures["real_dev_detector"] = detector_real(recogniser)
    figures["rendered_decktet"] = rendered_decktet(recogniser)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        figures["learned_deck"] = learned_deck(recogniser, Path(tmp))
    summary = {k: {kk: vv for kk, vv in v.items() if kk != "failures"} for k, v in figures["real_dev"].items()
               if isinstance(v, dict)} if "real_dev" in figures else {}
    print(json.dumps({"real_dev": summary, "real_dev_taught_half": figures.get("real_dev_taught_half"),
                      "real_dev_detector": figures.get("real_dev_detector"),
                      "rendered_decktet": figures["rendered_decktet"],
                      "learned_deck": figures["learned_deck"]}, indent=2))
    Path(__file__).with_name("metrics.json").write_text(json.dumps(figures, indent=1) + "\n")
    return 0



if __name__ == "__main__":
    sys.exit(main())
