"""Wordle's tree search as a user asks for it: the best tree of one opener, or the N best
openers ranked by their searched trees (exact, or with a beam), or proven the best; the
parameters checked together (errors name them), and the share of a memory budget the
proof's memo may take. The search itself is the core's
(:mod:`deductive.engine.feedback.search`).

>>> check_search(openers="5", prove_best=True)
5
>>> check_search(opener="salet", openers="5")
Traceback (most recent call last):
...
deductive.errors.ArgumentError: give `opener` WORD or `openers` N|all
"""

from __future__ import annotations

import math

from ...errors import ArgumentError, MemoryBudgetError
from ..feedback.search import MEMO_ENTRY_BYTES
from ..feedback.tree import TreeError, check_tree, load_tree
from ..feedback.search.proofs import DEPTH_THREE_HARD
from ..params import Param

__all__ = ["SEARCH", "VERIFY", "check_search", "memo_bytes", "tree_total"]

#: The parameters of a search.
SEARCH = (
    Param("opener", None, "Search the best tree that opens with this word."),
    Param("openers", None, "Search the N best openers by entropy (or all guesses) and rank "
          "them by their searched totals.", metavar="N|all"),
    Param("prove_best", False, "With `openers` N: the N best openers among all guesses, "
          "proven (every other opener shown worse by a bound or a search); with `openers` "
          "all: the best opener(s). Exact only.", bool),
    Param("depth_three", False, "With `prove_best` (normal mode): before any search, rule "
          "openers out by the depth-three bound (minutes an opener on 12,972 answers, where "
          "it is the only bound that rules any out); the openers it leaves are searched "
          "after, each first bounded by exact searches of its buckets, smallest first; "
          "their totals alone are ranked (the worst case is not minimised: ties by guess "
          "order).", bool),
    Param("within", None, "With `prove_best`: also rank exactly every opener within D "
          "guesses of the best.", int, low=0, metavar="D"),
    Param("beam", None, "Try only the K best-scored guesses per node (fast heuristic; "
          "with `max_guesses`, the next ones where none of them fits). Without it the "
          "search is exact.", int, low=1),
    Param("max_guesses", None, "Only trees that never need more guesses than this.", int,
          low=1),
    Param("polish", None, "With `opener` and `beam`: then search exactly every subtree of "
          "the beam's tree with 3 to N answers, smallest first, and graft in the better "
          "ones (exact when every bucket of the opener is searched).", int, low=3,
          metavar="N"),
    Param("tree", None, "Export the tree of `opener` as JSON (checked by tree-check).",
          kind="output"),
    Param("ceiling_tree", None, "With `prove_best` and `openers` all: a tree file (as "
          "`tree` writes it; checked first, as tree-check checks it) whose total (plus "
          "`within`) is the first ceiling when below the beams' (the bounds then aim "
          "lower).", kind="input"),
    Param("checkpoint", None, "With `openers`: append each opener's row here as it is "
          "decided (JSON lines: the certificate; with `objective` worst, each piece of its "
          "sweep too); a rerun resumes.", kind="output"),
    Param("objective", "expected", "expected: the fewest total guesses; worst: the fewest "
          "guesses in the worst case (from `opener`, or over `openers` all), then the "
          "fewest in total among those trees.", type=("expected", "worst")))
#: The parameters of a proof's check (``verify_proof``).
VERIFY = (
    Param("sample", 3, "Exact rows searched again besides the best (trees checked).", int,
          low=0),
    Param("state", False, "Print how far the file is instead of checking it (a sweep's "
          "progress, nothing recomputed): the openers decided and how, the first ceiling, "
          "the least bound among the openers left, the core-hours in its rows.", bool),
    Param("checkpoint", None, "Keep each recomputed depth-three bound and search here as it "
          "ends, and take those it holds: a check killed part way resumes (its verdicts are "
          "taken as they stand: give a file only this check wrote).", kind="output"),)
#: Memory kept for everything but the proof's memo under a budget (the interpreter, word
#: lists, kernels' buffers), beside the matrix and its answer-major copy.
OVERHEAD = 400_000_000
#: The memo's cap without a budget.
MEMO = 4_000_000_000


def check_search(opener=None, openers=None, prove_best=False, within=None, beam=None,
                 tree=None, checkpoint=None, objective="expected", max_guesses=None,
                 distributed=False, polish=None, depth_three=False,
                 hard=False, ceiling_tree=None) -> int | str | None:
    """Check a search's parameters together (``distributed``: on Dask); return ``openers``
    as a number, ``"all"`` or ``None``."""
    n = openers
    worst = objective == "worst"
    for wrong, message in (
            (worst and n not in (None, "all"), "`objective` worst goes with `opener` WORD "
                                               "or `openers` all"),
            (worst and (prove_best or within is not None or beam is not None
                        or max_guesses is not None or polish is not None),
             "`objective` worst is exact and finds its own `max_guesses`: drop "
             "`prove_best`, `within`, `beam`, `max_guesses` and `polish`"),
            (worst and distributed and opener is not None,
             "`objective` worst from one `opener` runs in this process: drop `workers` and "
             "`scheduler` (they share out `openers` all)"),
            ((opener is None) == (n is None), "give `opener` WORD or `openers` N|all"),
            (tree and opener is None and not worst, "`tree` goes with `opener`"),
            (n not in (None, "all") and not (str(n).isdigit() and int(n) >= 1),
             f"`openers` {n}: give a number of openers (at least 1) or 'all'"),
            (prove_best and (n is None or beam is not None),
             "`prove_best` goes with `openers` N|all, without `beam`"),
            (within is not None and not prove_best, "`within` goes with `prove_best`"),
            (depth_three and not prove_best, "`depth_three` goes with `prove_best`"),
            (ceiling_tree and not (prove_best and n == "all"),
             "`ceiling_tree` goes with `prove_best` and `openers` all (one tree bounds the "
             "best opener's total, not the N-th's)"),
            (depth_three and hard, DEPTH_THREE_HARD),
            (checkpoint and opener is not None, "`checkpoint` goes with `openers`"),
            (polish is not None and (opener is None or beam is None or worst),
             "`polish` goes with `opener` WORD and `beam` (an exact tree needs no polish)")):
        if wrong:
            raise ArgumentError(message)
    return n if n in (None, "all") else int(n)


def tree_total(game, path, max_guesses=None) -> dict:
    """``{opener: total}`` of the tree file ``path`` over ``game`` (checked as tree-check
    checks it, in ``game``'s mode; within ``max_guesses`` if given): a ceiling
    :func:`~deductive.engine.feedback.search.prove_openers` may take (its ``known``)."""
    doc = load_tree(path)
    try:
        depths = check_tree(game, doc, hard=game.hard).depths
    except TreeError as exc:
        raise TreeError(f"`ceiling_tree` {path}: {exc}") from None
    if max_guesses is not None and depths.max() > max_guesses:
        raise ArgumentError(f"`ceiling_tree` {path}: the tree needs {depths.max()} guesses, "
                            f"more than `max_guesses` {max_guesses}; give a tree within it")
    return {doc["tree"]["guess"]: int(depths.sum())}


def memo_bytes(matrix_bytes: int, max_memory: int | None = None, strict: bool = True) -> int:
    """The memory a search's memo may take beside a matrix of ``matrix_bytes`` under a
    budget of ``max_memory`` bytes (default: :data:`MEMO`). A budget that leaves less than
    1,000 entries is an error, or (not ``strict``) gives 1,000 entries: a search whose
    memo is a convenience, not its way of working, runs anyway."""
    if max_memory is None:
        return MEMO
    memo, least = max_memory - 2 * matrix_bytes - OVERHEAD, 1000 * MEMO_ENTRY_BYTES
    if memo >= least:
        return memo
    if not strict:
        return least
    need = 2 * matrix_bytes + OVERHEAD + least
    raise MemoryBudgetError(f"`max_memory` {max_memory} leaves no room for the search's "
                            f"memo beside the matrix; give at least "
                            f"{math.ceil(need / 1e8) / 10:.1f}G")
