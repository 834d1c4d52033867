"""The depth-first driver of both exact searches over the one stack of :mod:`.stack`.

:func:`descend` runs a search from frame 0: a state is entered (its memo entry and bounds
may settle it), then tries its letters in order; the letter under way has its children
searched one by one (a child is pushed as the next frame, and its value folded back in
when it returns) until the letter is done, and once no letter is left the state's entry is
stored and its value returned to its parent. What each step does is the search's own:
:mod:`.best` for the guesser (:func:`search`), :mod:`.evil` for the adversary
(:func:`evil_search`).
"""

import numpy as np

from .._config import CACHE, SERIAL, njit
from . import best, evil
from .memo import EVIL_LIVES, ST_FULL
from .stack import AT_GROUP, AT_LETTER, new_frames, push, set_state


@njit(cache=CACHE, **SERIAL)
def descend(adversary, masks, presence, weights, fweights, uniform, idx, table, wtab, stats,
            frames):
    """Search the state of frame 0: the guesser's (:mod:`.best`) or, with ``adversary``,
    the adversary's (:mod:`.evil`, ``weights`` ones). Returns 0 with ``stats[ST_FULL]``
    set when the table is full."""
    ints = frames[0]
    d = 0
    entering = True
    ret = np.int64(0)
    while True:
        if entering:
            entering = False
            if adversary:
                expand, ret = evil.enter(masks, presence, weights, idx, table, wtab, stats,
                                         frames, d)
            else:
                expand, ret = best.enter(masks, presence, weights, fweights, uniform, idx,
                                         table, wtab, stats, frames, d)
            if stats[ST_FULL]:
                return np.int64(0)
            if not expand:
                if d == 0:
                    return ret
                d -= 1
                continue
        elif adversary:
            evil.fold(frames, d, ret)
        else:
            best.fold(frames, d, ret)
        while True:
            if ints[d, AT_GROUP] >= 0:
                if adversary:
                    g, bound = evil.next_group(frames, d)
                else:
                    g, bound = best.next_group(frames, d)
                if g >= 0:
                    push(frames, d, g, bound)
                    d += 1
                    entering = True
                    break
                if adversary:
                    evil.letter_done(frames, d)
                else:
                    best.letter_done(frames, d)
                ints[d, AT_GROUP] = -1
                ints[d, AT_LETTER] += 1
            if adversary:
                started = evil.next_letter(masks, idx, frames, d)
            else:
                started = best.next_letter(masks, presence, weights, fweights, uniform, idx,
                                           table, wtab, stats, frames, d)
            if started:
                continue
            if stats[ST_FULL]:
                return np.int64(0)
            ret = evil.finish(table, stats, frames, d) if adversary else \
                best.finish(table, stats, frames, d)
            if stats[ST_FULL]:
                return np.int64(0)
            if d == 0:
                return ret
            d -= 1
            break


@njit(cache=CACHE, **SERIAL)
def search(masks, presence, weights, fweights, uniform, idx, lo, hi, lives, open_mask, guessed,
           k0, k1, k2, missed, alpha, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats):
    """The value of ``idx[lo:hi]`` with ``lives`` lives if it exceeds ``alpha``, else an
    upper bound at most ``alpha`` (see :mod:`deductive.kernels.hangman_exact`).

    ``open_mask``: positions not revealed; ``guessed``: letters guessed (bits);
    ``k0, k1, k2``: the revealed pattern; ``missed``: the missed letters (bits). Reorders
    the segment. When ``stats[ST_FULL]`` is set on return, the table is full and the
    result is meaningless: grow the table and search again.
    """
    frames = new_frames(hi - lo, True)
    set_state(frames, 0, lo, hi, lives, open_mask, guessed, k0, k1, k2, missed, alpha)
    return descend(False, masks, presence, weights, fweights, uniform, idx,
                   (keys, t_lo, t_hi, t_letter, t_mode, t_size), wtab, stats, frames)


@njit(cache=CACHE, **SERIAL)
def evil_search(masks, presence, ones, idx, lo, hi, open_mask, k0, k1, k2, missed, beta, keys,
                t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats):
    """The adversary's value E of ``idx[lo:hi]`` (:mod:`.evil`) if it is below ``beta``,
    else a lower bound at least ``beta``; ``ones``: unit weights. Memoised under the same
    keys as :func:`search` with the lives field :data:`~.memo.EVIL_LIVES`. Reorders the
    segment; ``stats[ST_FULL]`` as in :func:`search`."""
    frames = new_frames(hi - lo, False)
    set_state(frames, 0, lo, hi, EVIL_LIVES, open_mask, 0, k0, k1, k2, missed, beta)
    return descend(True, masks, presence, ones, np.empty(0, np.float64), True, idx,
                   (keys, t_lo, t_hi, t_letter, t_mode, t_size), wtab, stats, frames)
