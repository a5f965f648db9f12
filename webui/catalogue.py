"""The catalogue: what the referee already knows (games, card ids, pieces), as pages and JSON.

Everything shown is read from ``referee`` at request time, so a newly registered game or a
corrected card appears without touching the web layer.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template

from referee import decktet, games
from referee.cards import BACK, JOKERS, SUIT_NAMES, Card, standard_deck
from referee.dice import Die
from referee.game import GameType, Option
from referee.pyramids import STANDARD_COLOURS, Size

bp = Blueprint("catalogue", __name__)

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@bp.app_template_filter("show")
def show_value(value: Any) -> str:
    """Option values as players say them (yes/no rather than True/False)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@bp.app_template_filter("allowed_values")
def allowed_values(option: Option) -> str:
    if option.choices:
        return " | ".join(show_value(choice) for choice in option.choices)
    kind = type(option.default)
    return "yes | no" if kind is bool else f"any {kind.__name__}"


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/games")
def game_list():
    registry = games.registry()
    entries = [(game_type, registry.is_refereed(game_type.name)) for game_type in registry.types()]
    return render_template("games.html", entries=entries)


@bp.get("/pieces")
def pieces():
    by_suit: dict[str, list[Card]] = {}
    for card_id in standard_deck():
        card = Card.parse(card_id)
        by_suit.setdefault(card.suit, []).append(card)
    suits = [{"letter": s, "name": SUIT_NAMES[s], "symbol": SUIT_SYMBOLS[s], "cards": cards}
             for s, cards in by_suit.items()]
    decks = [
        ("Standard deck", len(standard_deck()), "52 cards, no jokers"),
        ("Decktet basic deck", len(decktet.basic_deck()), "Aces, number cards and Crowns"),
        ("Decktet extended deck", len(decktet.extended_deck()), "adds Pawns, Courts and the Excuse"),
        ("Myrmex deck (Deck Town)", len(decktet.myrmex_deck()), "48 number cards, six each of Aces, Crowns, Pawns and Courts"),
    ]
    return render_template(
        "pieces.html", suits=suits, special_ids=(BACK, *JOKERS), decktet_cards=decktet.CATALOGUE.values(),
        decks=decks, sizes=list(Size), colours=STANDARD_COLOURS, die_orientations=len(Die.orientations()),
        example_die=Die(top=1, north=3, east=2),
    )


@bp.get("/api/catalogue/games")
def api_games():
    registry = games.registry()
    return jsonify([game_json(t, registry.is_refereed(t.name)) for t in registry.types()])


@bp.get("/api/catalogue/decktet")
def api_decktet():
    return jsonify([{"id": c.id, "name": c.name, "rank": c.rank, "suits": [s.title for s in c.suits]}
                    for c in decktet.CATALOGUE.values()])


def game_json(game_type: GameType, refereed: bool) -> dict:
    return {
        "name": game_type.name,
        "title": game_type.title,
        "editions": [{"name": e.name, "title": e.title, "source": e.source} for e in game_type.editions],
        "min_players": game_type.min_players,
        "max_players": game_type.max_players,
        "dynamics": game_type.dynamics.value,
        "information": game_type.information.value,
        "chance": game_type.chance,
        "pieces": game_type.pieces,
        "refereed": refereed,
        "options": [option_json(o) for o in game_type.options],
    }


def option_json(option: Option) -> dict:
    return {"name": option.name, "help": option.help, "default": option.default,
            "choices": list(option.choices), "editions": list(option.editions)}
