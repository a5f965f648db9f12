"""Pyramids, dice and tokens from a frame and the table calibration (issue 10): see :mod:`vision.pieces.reader`."""

from vision.pieces.reader import PieceReader, PiecesReading, read_pieces
from vision.pieces.tokens import TokenError, TokenRegistry

__all__ = ["PieceReader", "PiecesReading", "read_pieces", "TokenError", "TokenRegistry"]
