"""Exact Hangman search: the most weight a guesser can win with L lives.

A state is a candidate set (a segment ``idx[lo:hi]`` of one index array, as in
:mod:`deductive.kernels.hangman`) and the lives left; a word is won once it is the only
candidate while a life is left. The value of a state is

    V(S, l) = max over letters c of  sum_hits V(H, l) + V(miss, l - 1)

over the letters that split S (a letter every candidate has at the same places tells
nothing; one no candidate has costs a life for nothing). The search is depth-first with
memoisation and cut-offs (:func:`~.driver.search`): ``search(S, l, alpha)`` returns V
exactly when V > alpha, and otherwise an upper bound that is at most alpha. What makes it fast:

* **Free letters.** A splitting letter that every candidate contains costs nothing, and
  knowing its positions can only help (the value of a set is at most the sum of the
  values of the parts of any partition of it: play the whole set's strategy on each
  part, skipping the guesses that split nothing there). Such a letter is played at once.
* **Upper bounds** (``state_bound``), the least of three. A set of at most l words is
  won entirely. *Paths*: a hit reveals a nonempty set of the positions still open (where
  the candidates differ) and a miss costs a life, so at most B(U, l) words can be told
  apart, B(U, l) = B(U, l-1) + max over letters c of the sum of B(U - m, l) over the
  position masks m that c has in the set (B = 1 once no letter can split, B(., 0) = 0).
  On "_ugger, _uffer, ..." families it is the exact count of a grid, C(l+1, 2); with many
  open positions the same count over every mask (``count_table``) stands in. *Cover*: the
  guesses made while a word misses form one chain, and a word none of the first l
  letters of the chain hits meets l misses, so the words won are covered by l letters
  (``pair_cover``, ``max_cover``). Before a letter's children are searched, each gets
  its bound (stored), so that most letters are refuted without any search below.
* **Lower bounds**: the greedy ``min-miss`` play from the state (``greedy_wins``),
  computed only for states whose bound does not cut them off.
* Letters are tried fewest misses first, and each is first checked by the weight of its
  hits plus its miss group's bound, without splitting the set.
* **Memo keys** are exact: the revealed pattern (5 bits a position), the missed letters and
  the lives. Entries hold [lo, hi] bounds; an exact entry also holds the letter to play,
  and whether the value is the search's (``SEARCHED``: the letter's children hold exact
  entries) or ``min-miss``'s (``GREEDY``: play ``min-miss`` from there).
* The memo is an 8-way bucketed hash table with a capacity the caller sets. When a bucket
  is full and the table half full, the search stops with a flag so that the caller can
  grow the table and search again (finished states are kept); below half full, or at the
  memory budget, it evicts the smallest state of the bucket instead, which costs time,
  never exactness.

Weights are integers (a prior is quantised by the caller), so sums are exact.

``evil_search`` is the adversary's game on the same memo: the least number of misses a
guesser can guarantee, a minimax search with alpha-beta cut-offs and lower bounds from the
bounds above, from cliques (``clique_bound``) and from parts (a set is worth at least each
of its subsets).

The modules: :mod:`.memo` (the table and the states' keys), :mod:`.bounds` (upper bounds
and letter scans), :mod:`.stack` (the frames both searches run on), :mod:`.best` and
:mod:`.evil` (each search's steps on a frame), :mod:`.driver` (the one depth-first driver
and the two searches), :mod:`.playout` (every word played by the strategy, and its tree).
"""

from .bounds import (BOUND_POSITIONS, COVER_WORDS, SATURATE, count_table, letter_order,
                     letter_scan, max_cover, pair_cover, path_dp, segment_weight, state_bound,
                     top_weight)
from .evil import clique_bound, evil_lower
from .memo import (EVIL_LIVES, GREEDY, LIVES_SHIFT, N_STATS, POSITIONS_PER_WORD, SEARCHED,
                   ST_BOUNDS, ST_ENTRIES, ST_EVICTED, ST_EXPANDED, ST_FULL, ST_GROW, ST_NODES,
                   WAYS, child_key, new_table, rehash, reveal, state_key, table_find,
                   table_slot, table_store)
from .driver import descend, evil_search, search
from .stack import MAX_DEPTH
from .playout import walk

__all__ = ["BOUND_POSITIONS", "COVER_WORDS", "SATURATE", "count_table", "letter_order",
           "letter_scan", "max_cover", "pair_cover", "path_dp", "segment_weight",
           "state_bound", "top_weight", "clique_bound", "evil_lower", "EVIL_LIVES", "GREEDY",
           "LIVES_SHIFT", "N_STATS", "POSITIONS_PER_WORD", "SEARCHED", "ST_BOUNDS",
           "ST_ENTRIES", "ST_EVICTED", "ST_EXPANDED", "ST_FULL", "ST_GROW", "ST_NODES", "WAYS",
           "child_key", "new_table", "rehash", "reveal", "state_key", "table_find",
           "table_slot", "table_store", "descend", "evil_search", "search", "MAX_DEPTH", "walk"]
