"""The results the peg games show in their own way: ranked first guesses and a tree's
statistics (the text of each is in :mod:`.text`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..feedback.scoring import Ranking
from ..feedback.tree import TreeReport

__all__ = ["PegRanking", "TreeStats"]


@dataclass(frozen=True)
class PegRanking(Ranking):
    """First guesses of a peg game ranked: shown one a line, without a header."""


@dataclass(frozen=True)
class TreeStats:
    """A tree's statistics as its check gives them (:class:`TreeReport`), after what made
    it (``made``: solver, opener, objective, exact, seconds, nodes, those that apply)."""

    report: TreeReport
    made: dict

    def to_json(self) -> dict:
        """What made the tree, then its check: the form ``--json`` prints."""
        return {**self.made, **self.report.to_json()}
