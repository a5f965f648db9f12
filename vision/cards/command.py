"""``tableside recognize`` and ``tableside deck``: name the cards in photos; teach a new deck.

With ``--json``, ``recognize`` prints one JSON object per line and image (a stable format):
``{"image": PATH, "width": W, "height": H, "seconds": S, "cards": [{"id": "7H" | "back" | null,
"confidence": 0.97, "polygon": [[x, y], ...], "alternatives": [["7D", 0.02], ...]}, ...]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def add_parsers(commands, user_error: type[Exception]) -> None:
    recognize = commands.add_parser(
        "recognize", help="name the cards in photos (no calibration needed)",
        description="Find and name every card in each photo: standard cards (52 and 'back') and Decktet cards. "
                    "A card whose name is unclear is reported as unknown (id null) with its candidates.")
    recognize.add_argument("images", nargs="+", metavar="IMAGE", help="photos (JPEG or PNG)")
    recognize.add_argument("--deck", default="auto", metavar="DECK",
                           help="whose names to use: auto (any, the default), standard, decktet, or a learned deck")
    recognize.add_argument("--copies", type=int, default=1, metavar="N",
                           help="how many cards of one name the deck holds: 1 (the default: one deck), 2 for a "
                                "double deck such as Deck Town's, 0 for no limit; a name read on more cards is "
                                "kept on the surest N and the rest are reported unknown")
    recognize.add_argument("--json", action="store_true", help="one JSON object per line and image")
    recognize.add_argument("--instance", default="instance", metavar="DIR",
                           help="instance folder holding learned decks (default ./instance)")
    recognize.set_defaults(run=lambda args: _recognize(args, user_error))

    deck = commands.add_parser("deck", help="teach Tableside a card design it does not know",
                               description="Learn a deck from photos of its cards, one card per photo, each file "
                                           "named by the card's id (QH.jpg, QH-2.jpg, queen_of_hearts.png, "
                                           "mountain.jpg). Takes a few seconds per photo; no retraining.")
    what = deck.add_subparsers(title="what", metavar="WHAT", required=True)
    learn = what.add_parser("learn", help="learn a deck from teaching photos")
    learn.add_argument("name", help="the deck's name, e.g. my-deck")
    learn.add_argument("photos", nargs="+", metavar="PHOTO", help="teaching photos, or folders of them")
    learn.add_argument("--instance", default="instance", metavar="DIR", help="instance folder (default ./instance)")
    learn.set_defaults(run=lambda args: _learn(args, user_error))
    listing = what.add_parser("list", help="list the learned decks")
    listing.add_argument("--instance", default="instance", metavar="DIR", help="instance folder (default ./instance)")
    listing.set_defaults(run=_list)


def _recogniser(user_error):
    from vision.cards.recognise import CardRecogniser, RecognitionError

    try:
        return CardRecogniser()
    except RecognitionError as exc:
        raise user_error(str(exc)) from None


def _recognize(args: argparse.Namespace, user_error: type[Exception]) -> int:
    import cv2

    from vision.cards.classes import DECKS
    from vision.cards.copies import named_at_most
    from vision.cards.decks import DeckError, LearnedDeck

    if args.copies < 0:
        raise user_error(f"--copies is how many cards of one name the deck holds (0 for no limit), not {args.copies}")
    recogniser = _recogniser(user_error)
    learned = None
    if args.deck not in ("auto", *DECKS):
        try:
            learned = LearnedDeck.load(args.instance, args.deck)
            learned.check(recogniser)
        except DeckError as exc:
            raise user_error(f"{exc} (the built-in decks are auto, standard and decktet)") from None
    failed = 0
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            print(f"tableside: cannot read an image from {path}: is it a JPEG or PNG file?", file=sys.stderr)
            failed += 1
            continue
        started = time.perf_counter()
        cards = learned.recognise(recogniser, image) if learned else recogniser.recognise(image, deck=args.deck)
        cards = named_at_most(cards, args.copies)
        seconds = time.perf_counter() - started
        if args.json:
            print(json.dumps({"image": path, "width": image.shape[1], "height": image.shape[0],
                              "seconds": round(seconds, 4), "cards": [c.to_json() for c in cards]}), flush=True)
        else:
            named = ", ".join(f"{c.id or 'unknown'} ({c.confidence:.2f})" for c in cards) or "no cards"
            print(f"{path}: {named}")
    return 2 if failed else 0


def _learn(args: argparse.Namespace, user_error: type[Exception]) -> int:
    import cv2

    from vision.cards.decks import DeckError, learn, teaching_photos

    recogniser = _recogniser(user_error)
    try:
        named = teaching_photos(args.photos)
        photos = []
        for card_id, path in named:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise DeckError(f"cannot read an image from {path}: is it a JPEG or PNG file?")
            photos.append((card_id, image))
        print(f"learning {args.name!r} from {len(photos)} photos", flush=True)
        deck = learn(recogniser, args.name, photos, progress=lambda m: print(m, flush=True))
    except (DeckError, OSError) as exc:
        raise user_error(str(exc)) from None
    path = deck.save(args.instance)
    print(f"learned {len(deck.ids)} cards of {args.name!r}; saved {path}; use it with --deck {args.name}")
    return 0


def _list(args: argparse.Namespace) -> int:
    from pathlib import Path

    for path in sorted((Path(args.instance) / "decks").glob("*.npz")):
        print(path.stem)
    return 0
