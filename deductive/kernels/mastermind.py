"""The Mastermind feedback kernel (also Bulls and Cows): black and white pegs -> one code.

A code (a secret or a guess) is ``p`` pegs, each a colour ``0 .. c - 1``. Against an
answer, a guess gets ``black`` pegs (right colour, right place) and ``white`` pegs (right
colour, wrong place): ``black + white = sum over colours of min(count in guess, count in
answer)``. The feedback code is ``black * (p + 1) + white``: ``(p + 1) ** 2`` codes, the
winning one ``p * (p + 1)``. Bulls and Cows is the same feedback over codes of distinct
digits (bulls = black, cows = white).

For one guess the kernel runs over all answers (the long, contiguous axis): blacks are a
sum of comparisons per position, the common colours a sum of minima per colour of the
guess, both from position-major and colour-major answer arrays.
"""

import numpy as np

from ._config import CACHE, PARALLEL, SERIAL, njit, prange

#: Bump when the meaning of a code changes.
KERNEL_VERSION = 1


@njit(cache=CACHE, **SERIAL)
def fill_peg_rows(guess_pegs, guess_counts, answer_columns, answer_counts, out, lo, hi):
    """Fill rows ``lo:hi`` of ``out``: the serial twin of :func:`fill_peg_matrix`.

    Parameters
    ----------
    guess_pegs : uint8[n_guesses, p]
        Colours of the guesses.
    guess_counts : uint8[n_guesses, c]
        How many pegs of each colour each guess has.
    answer_columns : uint8[p, n_answers]
        Colours of the answers, position-major.
    answer_counts : uint8[c, n_answers]
        How many pegs of each colour each answer has, colour-major.
    out : uint8[n_guesses, n_answers]
        Only rows ``lo:hi`` are written.
    """
    pegs = guess_pegs.shape[1]
    colours = guess_counts.shape[1]
    n_answers = answer_columns.shape[1]
    black = np.empty(n_answers, np.int64)
    common = np.empty(n_answers, np.int64)
    for g in range(lo, hi):
        black[:] = 0
        common[:] = 0
        for i in range(pegs):
            c = guess_pegs[g, i]
            column = answer_columns[i]
            for a in range(n_answers):
                black[a] += column[a] == c
        for c in range(colours):
            k = guess_counts[g, c]
            if k == 0:
                continue
            counts = answer_counts[c]
            for a in range(n_answers):
                common[a] += min(k, counts[a])
        row = out[g]
        for a in range(n_answers):
            row[a] = black[a] * (pegs + 1) + common[a] - black[a]
    return out


@njit(cache=CACHE, **PARALLEL)
def fill_peg_matrix(guess_pegs, guess_counts, answer_columns, answer_counts, out, n_chunks):
    """Fill all of ``out`` (see :func:`fill_peg_rows`), ``n_chunks`` chunks of guess rows
    in parallel; each chunk writes only its own rows."""
    n_guesses = guess_pegs.shape[0]
    per_chunk = (n_guesses + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        fill_peg_rows(guess_pegs, guess_counts, answer_columns, answer_counts, out,
                      chunk * per_chunk, min(n_guesses, (chunk + 1) * per_chunk))
    return out


@njit(cache=CACHE, **SERIAL)
def orbit_minima_mask(codes, colours, history, sigmas, out):
    """Mark the codes that are the least of their orbit under the symmetries fixing every
    code of ``history`` (see :func:`deductive.engine.mastermind.search.orbit_minima`).

    A symmetry is a position permutation sigma (a row of ``sigmas``) with a colour map pi
    such that ``pi(h[sigma[i]]) = h[i]`` for every history code h, one-to-one on the
    colours the history uses; the colours it does not use may be permuted freely, so a
    code's least image under one sigma renames them to the lowest free ones in order of
    first appearance.

    Parameters
    ----------
    codes : uint8[n, p]
        Every code, lexicographically (colours ``0 .. colours - 1``).
    colours : int
    history : uint8[h, p]
        The codes to fix (h may be 0).
    sigmas : int64[p!, p]
        Every permutation of the positions.
    out : bool[n]
        Written: whether each code is the least of its orbit.

    Returns
    -------
    bool
        Whether the group is trivial (every code its own orbit; ``out`` all True).
    """
    n, pegs = codes.shape
    used = np.zeros(colours, np.bool_)
    for j in range(history.shape[0]):
        for i in range(pegs):
            used[history[j, i]] = True
    free = np.empty(colours, np.int64)
    n_free = 0
    for c in range(colours):
        if not used[c]:
            free[n_free] = c
            n_free += 1
    maps = np.empty((sigmas.shape[0], colours), np.int64)
    valid = np.empty(sigmas.shape[0], np.int64)
    n_maps = 0
    inverse = np.empty(colours, np.int64)
    for s in range(sigmas.shape[0]):
        pi = maps[n_maps]
        pi[:] = -1
        inverse[:] = -1
        ok = True
        for j in range(history.shape[0]):
            for i in range(pegs):
                src = history[j, sigmas[s, i]]
                dst = history[j, i]
                if pi[src] < 0:
                    if inverse[dst] >= 0:
                        ok = False
                        break
                    pi[src] = dst
                    inverse[dst] = src
                elif pi[src] != dst:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            valid[n_maps] = s
            n_maps += 1
    out[:] = True
    if n_maps == 1 and n_free <= 1:
        return True
    assign = np.full(colours, -1, np.int64)
    for k in range(n):
        own = 0
        for i in range(pegs):
            own = own * colours + codes[k, i]
        for m in range(n_maps):
            s = valid[m]
            count = 0
            key = 0
            for i in range(pegs):
                c = codes[k, sigmas[s, i]]
                image = maps[m, c]
                if image < 0:
                    if assign[c] < 0:
                        assign[c] = free[count]
                        count += 1
                    image = assign[c]
                key = key * colours + image
            for i in range(pegs):
                assign[codes[k, i]] = -1
            if key < own:
                out[k] = False
                break
    return False


@njit(cache=CACHE, **SERIAL)
def canonical_symmetry(history, feedbacks, colours, orders, pi_out, sigma_out, seq_out):
    """Choose from the history alone the symmetry under which a node's set is keyed: two
    nodes reached by histories that a symmetry maps onto each other get the same
    ``seq_out``, and their sets the same image (their memo key in the exact search).

    A symmetry permutes the positions (sigma) and renames the colours (pi). The history,
    in one of its orders (a row of ``orders``), is read as its feedbacks, then column by
    column in sigma's order (``history[:, sigma[0]]``, then ``history[:, sigma[1]]``...),
    pi renaming the colours ``0, 1, ...`` in order of first appearance (the colours the
    history does not use come next, ascending). The symmetry kept gives the least such
    sequence over every order and every sigma.

    The search is a depth-first branch and bound over sigma, one position per level: a
    column whose renamed values pass the best sequence's at that level is cut with every
    sigma that extends it, and of positions whose columns are identical only the first
    unused is tried (they give the same sequences). The brute-force twin is
    ``tests.reference.canonical_sequence``.

    Parameters
    ----------
    history : uint8[h, p]
        The guesses played (h >= 1).
    feedbacks : int64[h]
        Their feedback codes.
    colours : int
    orders : int64[h!, h]
        Every order of the history.
    pi_out : int64[colours]
        Written: the colour map kept.
    sigma_out : int64[p]
        Written: the position permutation kept (position ``i`` of an image is position
        ``sigma_out[i]`` of the code).
    seq_out : int64[h * (p + 1)]
        Written: the least sequence.
    """
    h, pegs = history.shape
    length = h * (pegs + 1)
    big = np.int64(1) << 62
    seq_out[:] = big
    seq = np.empty(length, np.int64)
    sigma = np.empty(pegs, np.int64)
    used = np.zeros(pegs, np.bool_)
    pis = np.empty((pegs + 1, colours), np.int64)
    nxts = np.empty(pegs + 1, np.int64)
    states = np.empty(pegs + 1, np.int64)   # 0: equal to the best so far, -1: below
    tries = np.empty(pegs + 1, np.int64)
    # positions whose columns are equal along the whole history: the first of each class
    first = np.empty(pegs, np.int64)
    for t in range(pegs):
        first[t] = t
        for u in range(t):
            same = True
            for j in range(h):
                if history[j, t] != history[j, u]:
                    same = False
                    break
            if same:
                first[t] = first[u]
                break
    for o in range(orders.shape[0]):
        state = 0
        for j in range(h):
            seq[j] = feedbacks[orders[o, j]]
            if state == 0 and seq[j] != seq_out[j]:
                state = -1 if seq[j] < seq_out[j] else 1
                if state == 1:
                    break
        if state == 1:
            continue
        pis[0, :] = -1
        nxts[0] = 0
        states[0] = state
        tries[0] = 0
        level = 0
        while level >= 0:
            if level == pegs:
                if states[level] == -1:
                    seq_out[:] = seq
                    nxt = nxts[level]
                    for c in range(colours):
                        pi_out[c] = pis[level, c]
                        if pi_out[c] < 0:
                            pi_out[c] = nxt
                            nxt += 1
                    sigma_out[:] = sigma
                    states[:] = 0       # every prefix of the path now equals the best
                level -= 1
                used[sigma[level]] = False
                continue
            t = tries[level]
            while t < pegs:
                if not used[t]:
                    twin = False        # an unused earlier position with the same column
                    for u in range(t):
                        if first[u] == first[t] and not used[u]:
                            twin = True
                            break
                    if not twin:
                        break
                t += 1
            if t >= pegs:
                level -= 1
                if level >= 0:
                    used[sigma[level]] = False
                continue
            tries[level] = t + 1
            pi = pis[level + 1]
            pi[:] = pis[level]
            nxt = nxts[level]
            state = states[level]
            base = h + level * h
            for j in range(h):
                c = history[orders[o, j], t]
                if pi[c] < 0:
                    pi[c] = nxt
                    nxt += 1
                seq[base + j] = pi[c]
                if state == 0 and pi[c] != seq_out[base + j]:
                    state = -1 if pi[c] < seq_out[base + j] else 1
                    if state == 1:
                        break
            if state == 1:
                continue
            sigma[level] = t
            used[t] = True
            nxts[level + 1] = nxt
            states[level + 1] = state
            level += 1
            tries[level] = 0


@njit(cache=CACHE, **SERIAL)
def symmetry_image(codes, numbers, colours, pi, sigma, candidates, out):
    """Write into ``out`` the code indices, ascending, of the images of ``candidates``
    under the symmetry (``pi``, ``sigma``) of :func:`canonical_symmetry` (position ``i``
    of an image is ``pi`` of position ``sigma[i]`` of the code); ``numbers`` are the codes
    read as numbers in base ``colours`` (ascending)."""
    pegs = codes.shape[1]
    for k in range(candidates.shape[0]):
        number = 0
        for i in range(pegs):
            number = number * colours + pi[codes[candidates[k], sigma[i]]]
        out[k] = np.searchsorted(numbers, number)
    out.sort()
