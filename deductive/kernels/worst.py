"""Kernels of the least-worst-case search (:mod:`deductive.engine.feedback.worst`).

A set of answers is solved within d guesses when some guess leaves every non-winning
bucket solvable within d - 1. The last two levels are the costly ones and have a closed
form, so they are decided here, with an early exit at the first guess that works:

* within two guesses: some guess gives every candidate its own code (:func:`separator`,
  row by row; :func:`column_separator`, answer by answer, for sets that mostly have none);
* within three: some guess leaves every non-winning bucket of three or more candidates
  a guess that does that (:func:`two_step`); buckets of one or two are solved within two.
"""

import numpy as np
from numba import types
from numba.typed import Dict, List

from ._config import CACHE, SERIAL, njit


def new_memo():
    """An empty memo of :func:`two_step`: its ``table`` and ``sets``."""
    return (Dict.empty(key_type=types.int64, value_type=types.int64),
            List.empty_list(types.int64[::1]))


@njit(cache=CACHE, **SERIAL)
def separator(matrix, candidates, rows, n_codes):
    """Position in ``rows`` of the first guess that gives each of ``candidates`` its own
    code, -1 if none does.

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
    candidates : int64[m]
    rows : int64[k]
        The guesses to try, in order.
    n_codes : int
    """
    return stamped_separator(matrix, candidates, rows, np.zeros(n_codes + 1, np.int64))


@njit(cache=CACHE, **SERIAL)
def stamped_separator(matrix, candidates, rows, stamps):
    """:func:`separator` with its scratch given, for many calls: ``stamps``
    (int64[n_codes + 1]) marks the codes met by the row being tried, with entry
    ``n_codes`` the last stamp used (zeros at first; kept between calls)."""
    m = candidates.shape[0]
    last = stamps.shape[0] - 1
    if m > last:
        return -1
    for j in range(rows.shape[0]):
        row = matrix[rows[j]]
        stamps[last] += 1
        stamp = stamps[last]
        ok = True
        for i in range(m):
            c = row[candidates[i]]
            if stamps[c] == stamp:
                ok = False
                break
            stamps[c] = stamp
        if ok:
            return j
    return -1


#: How many candidates :func:`column_separator` places over every guess at once (vector
#: compares of whole answer columns) before it follows only the guesses still in play.
DENSE_STEPS = 6


@njit(cache=CACHE, **SERIAL)
def column_separator(columns, candidates, allowed, alive, dense):
    """Whether an ``allowed`` guess gives each of ``candidates`` its own code, read answer
    by answer: the guesses that tell the first two apart, then those of them that also
    tell the third from both, and so on, until none is left (no such guess) or every
    candidate is placed. The first :data:`DENSE_STEPS` candidates are compared over every
    guess at once, whole columns against whole columns; then only the guesses still in
    play are followed. About half the guesses drop out at each step of a set with no such
    guess, so it is refuted in a few passes.

    Parameters
    ----------
    columns : uint[n_answers, n_guesses]
        The matrix answer by answer (:func:`~deductive.engine.feedback.matrix.answer_major`).
    candidates : int64[m]
    allowed : bool[n_guesses]
    alive : int64[n_guesses]
        Scratch.
    dense : bool[n_guesses]
        Scratch.
    """
    m = candidates.shape[0]
    dense[:] = allowed
    top = min(m, DENSE_STEPS)
    for i in range(1, top):              # the first candidates over every guess
        codes = columns[candidates[i]]
        for j in range(i):
            other = columns[candidates[j]]
            for g in range(dense.shape[0]):
                dense[g] &= codes[g] != other[g]
    left = 0
    for g in range(dense.shape[0]):
        alive[left] = g
        left += dense[g]
    for i in range(top, m):              # the others over the guesses left
        if left == 0:
            break
        codes = columns[candidates[i]]
        kept = 0
        for t in range(left):
            g = alive[t]
            c = codes[g]
            ok = True
            for j in range(i):
                if columns[candidates[j], g] == c:
                    ok = False
                    break
            alive[kept] = g
            kept += ok
        left = kept
    return left > 0


@njit(cache=CACHE, **SERIAL)
def _separable(columns, members, allowed, alive, dense, n_codes, keys, table, sets, cap):
    """Whether an ``allowed`` guess gives each of ``members`` (ascending) its own code
    (:func:`column_separator`), remembered in ``table``/``sets`` (see :func:`two_step`)."""
    if members.shape[0] > n_codes:
        return False
    h = np.int64(0)
    for i in range(members.shape[0]):
        h ^= keys[members[i]]
    entry = table.get(h, -1)
    if entry >= 0:
        stored = sets[entry >> 1]
        same = stored.shape[0] == members.shape[0]
        if same:
            for i in range(members.shape[0]):
                if stored[i] != members[i]:
                    same = False
                    break
        if same:
            return (entry & 1) == 1
    found = column_separator(columns, members, allowed, alive, dense)
    if entry < 0 and len(sets) < cap:
        table[h] = 2 * len(sets) + (1 if found else 0)
        sets.append(members.copy())
    return found


@njit(cache=CACHE, **SERIAL)
def two_step(matrix, columns, candidates, rows, inner, n_codes, win, keys, table, sets,
             cap):
    """Position in ``rows`` of the first guess after which every non-winning bucket of
    ``candidates`` is solved within two more guesses from ``inner`` (a bucket of one or
    two at once; a larger one needs a guess of ``inner`` giving each member its own code),
    -1 if none: the candidates are then not solved within three guesses.

    Whether a set of three or more has such a guess is remembered across calls, for the
    same ``inner``: ``table`` maps the xor of the members' ``keys`` to twice the set's
    place in ``sets`` (its members, kept to compare: a clash of keys is looked up again,
    never trusted), plus 1 when it has one; at most ``cap`` sets are kept. A guess's
    buckets are looked up first, and searched for a separating guess
    (:func:`column_separator`) only if none is known not to have one.

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
    columns : uint[n_answers, n_guesses]
        The same matrix answer by answer
        (:func:`~deductive.engine.feedback.matrix.answer_major`).
    candidates : int64[m]
        Ascending.
    rows, inner : int64[k], int64[k2]
        The guesses to try first, in order, and those that may follow them.
    n_codes, win : int
        Size of the code alphabet and the winning code.
    keys : int64[n_answers]
        Random keys of the answers.
    table : Dict[int64, int64]
    sets : List[int64[::1]]
    cap : int
    """
    m = candidates.shape[0]
    count = np.zeros(n_codes + 1, np.int64)
    order = np.empty(m, np.int64)
    allowed = np.zeros(columns.shape[1], np.bool_)
    allowed[inner] = True
    alive = np.empty(columns.shape[1], np.int64)
    dense = np.empty(columns.shape[1], np.bool_)
    for j in range(rows.shape[0]):
        row = matrix[rows[j]]
        count[:] = 0
        for i in range(m):
            count[row[candidates[i]] + 1] += 1
        largest = 0
        for c in range(n_codes):
            if c != win and count[c + 1] > largest:
                largest = count[c + 1]
        if largest > n_codes:
            continue
        if largest <= 2:
            return j
        for c in range(n_codes):
            count[c + 1] += count[c]
        for i in range(m):                      # candidates by code, ascending in each
            c = row[candidates[i]]
            order[count[c]] = candidates[i]
            count[c] += 1
        ok = True
        lo = 0
        for c in range(n_codes):                # count[c] is now the end of bucket c
            hi = count[c]
            if hi - lo >= 3 and c != win and not _separable(
                    columns, order[lo:hi], allowed, alive, dense, n_codes, keys, table,
                    sets, cap):
                ok = False
                break
            lo = hi
        if ok:
            return j
    return -1
