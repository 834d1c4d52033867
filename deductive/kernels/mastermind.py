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
def canonical_image(codes, numbers, colours, history, feedbacks, sigmas, orders, candidates,
                    out):
    """Write into ``out`` the image of ``candidates`` under one symmetry chosen from the
    history alone: two sets reached by histories that a symmetry maps onto each other
    get the same image (their memo key in the exact search).

    A symmetry permutes the positions (sigma, a row of ``sigmas``) and renames the
    colours (pi). Over every order of the history (a row of ``orders``) and every sigma,
    pi renames the colours ``0, 1, ...`` in order of first appearance along the ordered,
    permuted history codes (the colours it does not use come next, ascending); the
    symmetry kept gives the least sequence of (feedback, renamed code) pairs. Any
    symmetry maps a set onto one of the same value, so the image may always serve as a
    key; the choice only decides how often equivalent sets meet.

    Parameters
    ----------
    codes : uint8[n, p]
        Every code, lexicographically.
    numbers : int64[n]
        Each code read as a number in base ``colours`` (ascending).
    colours : int
    history : uint8[h, p]
        The guesses played (h >= 1).
    feedbacks : int64[h]
        Their feedback codes.
    sigmas : int64[p!, p]
        Every permutation of the positions.
    orders : int64[h!, h]
        Every order of the history.
    candidates : int64[m]
        The set (code indices).
    out : int64[m]
        Written: the image's code indices, ascending.
    """
    h, pegs = history.shape
    best_seq = np.full(h * (pegs + 1), np.int64(1) << 62)
    seq = np.empty(h * (pegs + 1), np.int64)
    best_pi = np.empty(colours, np.int64)
    best_sigma = 0
    pi = np.empty(colours, np.int64)
    for o in range(orders.shape[0]):
        for s in range(sigmas.shape[0]):
            pi[:] = -1
            nxt = 0
            state = 0              # 0: equal to the best so far, -1: below, 1: above
            w = 0
            for j in range(h):
                row = history[orders[o, j]]
                seq[w] = feedbacks[orders[o, j]]
                if state == 0 and seq[w] != best_seq[w]:
                    state = -1 if seq[w] < best_seq[w] else 1
                w += 1
                for i in range(pegs):
                    c = row[sigmas[s, i]]
                    if pi[c] < 0:
                        pi[c] = nxt
                        nxt += 1
                    seq[w] = pi[c]
                    if state == 0 and seq[w] != best_seq[w]:
                        state = -1 if seq[w] < best_seq[w] else 1
                    w += 1
                if state == 1:
                    break
            if state == -1:
                best_seq[:] = seq
                for c in range(colours):
                    if pi[c] < 0:
                        pi[c] = nxt
                        nxt += 1
                best_pi[:] = pi
                best_sigma = s
    m = candidates.shape[0]
    for k in range(m):
        code = codes[candidates[k]]
        number = 0
        for i in range(pegs):
            number = number * colours + best_pi[code[sigmas[best_sigma, i]]]
        out[k] = np.searchsorted(numbers, number)
    out.sort()
