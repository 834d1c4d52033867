"""The one stack of the exact Hangman searches: frames, one a state on the path.

Both searches (:func:`~.driver.search`, the guesser's most weight won, and
:func:`~.driver.evil_search`, the adversary's least misses) are depth first over the same
frames (numba caches no recursive function that another calls). A frame holds a state
(its segment ``idx[lo:hi]``, lives, open positions, letters guessed and missed, its key
and the bound it is searched against), the letters it tries in order, and the letter under
way: its groups (the split of the segment), the group being searched, the value so far
(``SUM``) and the value it is measured against (``FLOOR``). Columns from
:data:`N_COMMON` on are each search's own (:mod:`.best`, :mod:`.evil`).

A frame is the row ``d`` of each array of the tuple :func:`new_frames` returns:
``(ints, keys, order, miss, n_miss, starts, gkeys, val, exact, corder)``:

* ``ints[d, column]``: the int64 fields named below;
* ``keys[d]``: the revealed pattern (``k0, k1, k2``);
* ``order[d]``: the letters in the order tried; ``miss[d]``, ``n_miss[d]``: each letter's
  miss weight and miss count (:func:`~.bounds.letter_order`);
* ``starts[d]``, ``gkeys[d]``: the letter under way's groups
  (:func:`~deductive.kernels.hangman.split_segment`);
* ``val[d]``, ``exact[d]``, ``corder[d]``: the guesser's search's bound of each group,
  whether it is exact, and the order its groups are searched in (one column for the
  adversary, which does not use them).
"""

import numpy as np

from .._config import CACHE, SERIAL, njit
from .bounds import letter_order
from .memo import child_key

#: Frames of the stack: one a guess, and a letter is never guessed twice.
MAX_DEPTH = 28
# The state: its segment, lives, open positions, letters guessed and missed (bits) and the
# bound it is searched against (the guesser's alpha, the adversary's beta).
LO = 0
HI = 1
LIVES_LEFT = 2
OPEN = 3
GUESSED = 4
MISSED = 5
BOUND = 6
# The letters: the best so far and its value, how many are tried, which one is under way.
LETTER = 7
BEST = 8
N_LETTERS = 9
AT_LETTER = 10
# The letter under way: its groups, the group searched (-1: no letter under way), the
# value so far and what it is measured against.
N_GROUPS = 11
AT_GROUP = 12
SUM = 13
FLOOR = 14
#: The first column of a search's own fields; columns in all.
N_COMMON = 15
N_COLUMNS = 20


@njit(cache=CACHE, **SERIAL)
def new_frames(n, with_groups):
    """The frames of a search over at most n words; ``with_groups``: room for the
    per-group arrays ``val``, ``exact``, ``corder``."""
    width = n + 1 if with_groups else 1
    return (np.empty((MAX_DEPTH, N_COLUMNS), np.int64), np.empty((MAX_DEPTH, 3), np.uint64),
            np.empty((MAX_DEPTH, 26), np.int64), np.empty((MAX_DEPTH, 26), np.int64),
            np.empty((MAX_DEPTH, 26), np.int64), np.empty((MAX_DEPTH, n + 2), np.int64),
            np.empty((MAX_DEPTH, n + 1), np.uint32), np.empty((MAX_DEPTH, width), np.int64),
            np.empty((MAX_DEPTH, width), np.bool_), np.empty((MAX_DEPTH, width), np.int64))


@njit(cache=CACHE, **SERIAL)
def set_state(frames, d, lo, hi, lives, open_mask, guessed, k0, k1, k2, missed, bound):
    """Write the state of frame d."""
    ints, keys = frames[0], frames[1]
    ints[d, LO] = lo
    ints[d, HI] = hi
    ints[d, LIVES_LEFT] = lives
    ints[d, OPEN] = open_mask
    ints[d, GUESSED] = guessed
    ints[d, MISSED] = missed
    ints[d, BOUND] = bound
    keys[d, 0] = k0
    keys[d, 1] = k1
    keys[d, 2] = k2


@njit(cache=CACHE, **SERIAL)
def start_letters(masks, presence, weights, idx, frames, d, letter, best):
    """Ready frame d for its letters: the best letter so far and its value, and the
    letters to try, in order (:func:`~.bounds.letter_order`)."""
    ints, order, miss, n_miss = frames[0], frames[2], frames[3], frames[4]
    ints[d, LETTER] = letter
    ints[d, BEST] = best
    ints[d, N_LETTERS] = letter_order(masks, presence, weights, idx, ints[d, LO], ints[d, HI],
                                      order[d], miss[d], n_miss[d])
    ints[d, AT_LETTER] = 0
    ints[d, AT_GROUP] = -1


@njit(cache=CACHE, **SERIAL)
def push(frames, d, g, bound):
    """Make frame d + 1 the state of group g of frame d's letter under way, searched
    against ``bound``."""
    ints, keys, order, starts, gkeys = frames[0], frames[1], frames[2], frames[5], frames[6]
    c = order[d, ints[d, AT_LETTER]]
    c0, c1, c2, cm, cl, cu = child_key(keys[d, 0], keys[d, 1], keys[d, 2], ints[d, MISSED],
                                       ints[d, LIVES_LEFT], ints[d, OPEN], c, gkeys[d, g])
    set_state(frames, d + 1, starts[d, g], starts[d, g + 1], cl, cu,
              ints[d, GUESSED] | (np.int64(1) << c), c0, c1, c2, cm, bound)
