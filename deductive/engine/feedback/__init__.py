"""The feedback-game core: one pattern matrix, the reductions over it, and the solvers.

A feedback game is any game whose feedback is a function of (guess, answer). It provides
its words and its feedback (a :class:`PatternMatrix`) and, if it has one, its hard-mode
rule (:meth:`FeedbackGame.allowed_after`); everything else is written once here:
partition statistics and rankings (:mod:`.scoring`), greedy and look-ahead solvers
(:mod:`.solvers`), whole-list benchmarks (:mod:`.bench`), exact and beam tree search
(:mod:`.search`), tree export and check (:mod:`.tree`) and batch precomputes
(:mod:`.precompute`). Wordle is one client (:mod:`deductive.engine.wordle`).
"""

from ..._deprecated import renamed
from .bench import BenchResult, play_game, run_bench
from .game import FeedbackGame, State
from .matrix import PatternMatrix, answer_major
from .scoring import (METRICS, GuessScore, PartitionStats, bucket_counts, filter_candidates,
                      partition_stats, rank_guesses)
from .search import SearchResult, TreeSearch
from .solvers import SOLVERS, Solver
from .tree import TreeError, TreeReport, check_tree, load_tree, tree_document, write_tree
from . import text  # noqa: F401,E402  (registers the core's text forms with render)

__all__ = ["FeedbackGame", "State", "PatternMatrix", "answer_major", "METRICS", "GuessScore",
           "PartitionStats", "bucket_counts", "filter_candidates", "partition_stats",
           "rank_guesses", "BenchResult", "run_bench", "play_game", "TreeSearch",
           "SearchResult", "SOLVERS", "Solver", "TreeError", "TreeReport", "check_tree",
           "load_tree", "tree_document", "write_tree"]


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("BenchmarkResult", "run_benchmark"))  # before 0.2.0
