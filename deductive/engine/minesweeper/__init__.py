"""Minesweeper: boards, positions, exact probabilities, players and benchmarks."""

from .analysis import Analysis, analyze
from .board import FIRST_CLICK_RULES, PRESETS, Board, Position, PositionError, parse_preset
from . import text  # noqa: F401,E402  (registers the wing's text forms with render)

__all__ = ["Board", "Position", "PositionError", "PRESETS", "FIRST_CLICK_RULES", "parse_preset",
           "Analysis", "analyze"]
