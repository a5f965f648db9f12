"""Tableside's world model and rules: the vocabulary every layer speaks.

Pure Python: never imports OpenCV, ONNX Runtime or Flask. See ``docs/architecture.md``.
"""

__version__ = "0.1.0"

from referee.action import Action, ActionCodec, ActionParseError
from referee.cards import BACK, Card, UnknownCard, standard_deck
from referee.dice import Die
from referee.game import (CHANCE, Dynamics, Edition, Game, GameConfigError, GameType, Information, Option,
                          Outcome, Reading, State)
from referee.pyramids import Pyramid, Size, Stack
from referee.rules import Rule, RuleBook, UnknownRule
from referee.snapshot import (Alternative, CardSighting, DieSighting, PyramidSighting, SnapshotError,
                              TableSnapshot, TokenSighting)
from referee.verdict import IllegalAction, Reason, Verdict
from referee.view import PlaceChange, View

__all__ = [
    "Action", "ActionCodec", "ActionParseError", "Alternative", "BACK", "CHANCE", "Card", "CardSighting",
    "Die", "DieSighting", "Dynamics", "Edition", "Game", "GameConfigError", "GameType", "IllegalAction",
    "Information", "Option", "Outcome", "PlaceChange", "Pyramid", "PyramidSighting", "Reading", "Reason",
    "Rule", "RuleBook", "Size", "SnapshotError", "Stack", "State", "TableSnapshot", "TokenSighting",
    "UnknownCard", "UnknownRule", "Verdict", "View", "standard_deck",
]
