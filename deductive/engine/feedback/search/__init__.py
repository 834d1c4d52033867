"""Decision-tree search: the tree that minimises the total number of guesses.

The modules: :mod:`.bounds` (lower bounds of a set, a guess and an opener),
:mod:`.buckets` (an opener's bound from exact searches of its buckets), :mod:`.memo`
(the memo and its hard-mode masks), :mod:`.tree_search` (the depth-first driver
:class:`TreeSearch`), :mod:`.proofs` (:func:`prove_openers` and its pool of searches),
:mod:`.certificates` (a proof's file: its tag, reading it, checking it), :mod:`.state`
(a proof's progress, read without recomputing) and :mod:`.rankings` (openers ranked by
their trees, and the sweeps' chunks).

``TreeSearch`` is a depth-first branch and bound over candidate sets with memoisation. The
total of a tree over a set S of n answers is n (every answer uses the first guess) plus the
totals of the subtrees of the non-green buckets.

Lower bounds (admissible, checked against brute force in the tests):

* :func:`lower_bound`: 1 for one answer, 3 for two, 2n - 1 for n >= 3 (at most one answer
  is found by the first guess; every other needs at least two).
* :func:`counting_bounds`: a guess leaves at most K non-winning feedbacks (K: the codes the
  matrix holds, less the win), so a tree finds at most one answer with its first guess, K
  with its second, K**2 with its third...: filling the levels in turn gives the least
  total over n answers. It is 2n - 1 up to n = K + 1 and more beyond. A set's floor
  ``floor[n]`` is the larger of the two.
* the guess bound: a guess g that splits S into buckets costs at least ``n + sum
  floor[|B|]`` over its non-green buckets B. With ``floor[m] = 2m - 1`` that is
  :func:`guess_lower_bound`, ``3n - [g in S] - b`` (b buckets, the green one included),
  tight when g splits S into buckets of at most two answers. Every guess is tried in the
  order of this bound, so the search stops at the first guess whose bound reaches the
  best total found.
* a child set of m >= 3 answers none of which, as a guess, gives each of the others its
  own feedback needs at least 2m (a total of 2m - 1 finds one answer with the first guess
  and every other with the second): checked for each child of a guess tried
  (:func:`deductive.kernels.search.unisolated`) before its children are searched.

The search at a set S with a ceiling ``beta`` (only a total below it is of use to the
caller):

1. every allowed guess is scored, bounded, filtered and ordered in one compiled call
   (:func:`deductive.kernels.search.split_bounds`: the guess bound, sum of squared
   bucket sizes); only the guesses whose bound is below ``beta`` come back, the first
   :data:`SCAN_HEAD` of them at first (the rest scored again only if those are tried in
   vain), with the least bound left out (a lower bound of the set if none succeeds);
2. guesses are tried in the order of their lower bound, then the smaller sum of squared
   bucket sizes (expected size), then the lower guess index; the loop stops at the first
   guess whose bound reaches the best total found (or ``beta``), so no later guess can be
   better;
3. each bucket of three or more answers is first probed: searched only to its share of
   the guess's slack (the ceiling less the bound), in proportion to its size, so that a
   guess is mostly refuted by partial proofs rather than by exact solves of its largest
   buckets (:meth:`TreeSearch._probe`);
4. each bucket is searched, largest first (smallest first when there is no ceiling:
   nothing can be cut, and the larger meet the smaller ones' memo entries), with the
   ceiling left over once the others' lower bounds are counted; a subtree that cannot
   come in under its ceiling returns a lower bound instead of a value, and the guess is
   dropped.

Memoised results are exact values (with the chosen guess) or proven lower bounds, keyed by
the set's members (and, in hard mode, the guesses still allowed) and the depth left. A
lower bound is reused as a child's bound and as a cut-off when the set is met again.

Openers. :func:`opener_bounds` bounds a tree's total from its opener g: n, plus for each
bucket B of g the cheapest next guess by its bucket count, ``min over h of 3|B| - [h in B]
- buckets(h)`` over the guesses allowed after g's feedback (the depth-two bound; in hard
mode only the guesses hard mode allows). :func:`prove_openers` ranks the N best openers
among all guesses with it: a ceiling U from beam searches of the best by entropy,
every opener whose bound exceeds U ruled out, the rest, best bound first, refined (a
stronger bound) then searched exactly under the ceiling (the N-th least exact total found
so far, or U), in one search whose memo is shared across openers and capped
(``memo_bytes``). Ties in the ranking: total, then worst case, then guess index; with
``depth_three`` the totals alone (``worst`` None: whether a tree of the least total fits
in fewer guesses is not searched, an open question of its own on 12,972 answers), ties
by guess index.

With ``beam=K`` only the K first guesses of that order are tried at each node: a fast
heuristic. Its values are those of the best tree among the guesses tried, so the search
stays consistent (a memoised beam value is the same whichever path reaches the set).
Under ``max_guesses`` a node whose K guesses are all shown to have no tree within the
guesses left tries the next guesses of the order, up to :data:`BEAM_FALLBACK`, until K
of them have improved on the best tree found: the guesses a beam leaves out are often
those that test a cluster of similar words at once (-ills, -ater), which the guesses left
need most. Whether a node falls back then depends on the ceiling it is searched under (a
guess cut at the ceiling is not shown to have no tree), so a beam value under
``max_guesses`` may depend on the path that first reached its set; every value is still
a real tree's total, and an exported tree is counted again from its nodes.

Ties. Among guesses of equal total the first in the order above is kept. The search
result then minimises the worst case among trees of that total: once the least total T is
known, the search is repeated with ``max_guesses`` one below the worst case found and
ceiling T + 1, until no tree of total T fits (the depth-unlimited results serve as lower
bounds, so these passes are short).
"""

from .bounds import (INFEASIBLE, KeptBuckets, counting_bounds, deep_bound,
                     deep_opener_bound, guess_lower_bound, kin_groups, lower_bound,
                     opener_bounds)
from .buckets import BucketBound, bucket_bound
from .certificates import (VERIFY_MEMO_BYTES, ProofCheck, lists_about, proof_tag, read_proof,
                           search_tag)
from .checks import check_tag, check_verify, verify_proof
from .memo import MEMO_ENTRY_BYTES, costliest_entries
from .proofs import (LocalSearches, OpenerProof, beam_search, bound_under, prove_openers,
                     search_under)
from .rankings import _RUN_SEARCHES as _RUN_SEARCHES
from .rankings import (OpenerRows, forget_search, proof_search_chunk, rank_openers, run_search,
                       search_opener_chunk, search_openers)
from .state import ProofState, proof_state
from .tree_search import SearchResult, TreeSearch

__all__ = ["TreeSearch", "SearchResult", "lower_bound", "guess_lower_bound", "INFEASIBLE",
           "counting_bounds", "deep_bound", "deep_opener_bound", "KeptBuckets", "kin_groups",
           "bucket_bound", "BucketBound",
           "search_openers", "rank_openers", "search_tag", "search_opener_chunk",
           "opener_bounds", "prove_openers", "OpenerProof", "proof_tag", "read_proof",
           "verify_proof", "VERIFY_MEMO_BYTES", "check_tag", "check_verify", "ProofCheck",
           "proof_state", "ProofState", "OpenerRows",
           "LocalSearches", "search_under", "bound_under", "beam_search",
           "proof_search_chunk", "forget_search", "run_search",
           # imported from here by the rest of the package
           "MEMO_ENTRY_BYTES", "costliest_entries", "lists_about"]
