"""Tree search over a pattern matrix: the exact optimum, split bounds, and the least worst
case's compiled last levels (deductive.kernels.worst)."""

from __future__ import annotations

import math

from .feedback import feedback_code, hard_mode_ok
from .partition import bucket_sizes


def wordle_optimal(guesses, answers, max_guesses=None, hard=False, history=()):
    """Brute force: (total, worst) of the best decision tree over every guess sequence, ties
    to the smaller worst case; ``hard``: NYT hard mode after ``history`` ((guess, digits)
    pairs already played). Tiny lists only."""
    from functools import lru_cache

    codes = {(g, a): feedback_code(g, a) for g in guesses for a in answers}
    win = 3 ** len(answers[0]) - 1
    length = len(answers[0])

    @lru_cache(maxsize=None)
    def best(cands, allowed, depth):
        if depth is not None and depth < 1:
            return (math.inf, math.inf)
        if len(cands) == 1:
            return (1, 1)
        result = (math.inf, math.inf)
        for g in allowed:
            groups: dict = {}
            for a in cands:
                groups.setdefault(codes[(g, a)], []).append(a)
            if len(groups) == 1 and win not in groups:
                continue
            total, worst = len(cands), 1
            for code, grp in groups.items():
                if code == win:
                    continue
                digits = [(code // 3 ** i) % 3 for i in range(length)]
                after = (tuple(w for w in allowed if hard_mode_ok(w, [(g, digits)]))
                         if hard else allowed)
                sub = best(tuple(grp), after, None if depth is None else depth - 1)
                total += sub[0]
                worst = max(worst, 1 + sub[1])
            result = min(result, (total, worst))
        return result

    start = tuple(w for w in guesses if not hard or hard_mode_ok(w, list(history)))
    return best(tuple(answers), start, max_guesses)


def search_split_bounds(matrix, rows, candidates, guess_to_answer, limit, solve_all, beam,
                        floor=None):
    """The guesses a search node tries, spelled out: every allowed guess that tells
    something (more than one bucket, or a candidate itself), with bound n + the sum of
    ``floor[|B|]`` over its buckets B but the green one (default ``floor[m] = 2m - 1``:
    3n - [g in S] - buckets); those below ``limit`` (all, with a beam), by (bound, sum of
    squared bucket sizes, row), the first ``beam``; and the least bound left out."""
    n = len(candidates)
    members = {int(c) for c in candidates}
    scored, cut = [], 2 ** 62
    for g in rows:
        sizes = bucket_sizes(matrix[g], candidates)
        inside = int(guess_to_answer[g]) in members
        if len(sizes) <= 1 and not inside:
            continue
        if solve_all and len(sizes) != n:
            continue
        if floor is None:
            bound = 3 * n - inside - len(sizes)
        else:       # in a game the guess's own bucket is itself alone: floor[1], found
            bound = n + sum(floor[size] for size in sizes.values()) - inside * floor[1]
        if not beam and bound >= limit:
            cut = min(cut, bound)
            continue
        scored.append((bound, sum(s * s for s in sizes.values()), int(g)))
    scored.sort()
    if beam:
        scored = scored[:beam]
    return [g for _, _, g in scored], [b for b, _, _ in scored], cut


def opener_depth2_bound(matrix, opener, rows, guess_to_answer, win, rows_of=None,
                        answer_to_guess=None) -> int:
    """The depth-two bound of an opener, spelled out: n, plus for each non-green bucket B
    1 or 3 (one or two answers), else the least 3|B| - [h in B] - buckets(h) over the
    guesses h (``rows``, or ``rows_of[code]`` after the opener got that code; none: 3|B|,
    a bucket no tree solves). With ``answer_to_guess`` (the refined bound), each h also
    counts one per group of three or more answers it leaves (the win aside) in which no
    answer, played as a guess, gives every answer of the group its own code."""
    n = matrix.shape[1]
    buckets: dict = {}
    for a in range(n):
        buckets.setdefault(int(matrix[opener][a]), []).append(a)
    total = n
    for code, grp in buckets.items():
        if code == win:
            continue
        m = len(grp)
        if m <= 2:
            total += 2 * m - 1
            continue
        members = set(grp)
        total += min((3 * m - (int(guess_to_answer[h]) in members)
                      - len(bucket_sizes(matrix[h], grp))
                      + (0 if answer_to_guess is None else
                         _imperfect(matrix, h, grp, answer_to_guess, win))
                      for h in (rows if rows_of is None else rows_of[code])), default=3 * m)
    return total


def best_split(matrix, rows, grp, guess_to_answer) -> int:
    """The most ``buckets(h) + [h in grp]`` over the guesses ``rows`` (0 with none): the
    best split of the answers ``grp`` in :func:`opener_depth2_bound`."""
    members = set(grp)
    return max((len(bucket_sizes(matrix[h], grp)) + (int(guess_to_answer[h]) in members)
                for h in rows), default=0)


def _imperfect(matrix, h, grp, answer_to_guess, win) -> int:
    return sum(flag for code, flag in unisolated_groups(matrix, h, grp, answer_to_guess)
               if code != win)


def unisolated_groups(matrix, h, grp, answer_to_guess) -> list[tuple[int, bool]]:
    """``[(code, flag)]`` of the groups guess ``h`` makes of the answers ``grp``, by code:
    flag when the group holds three or more answers and none of them, played as a guess,
    gives every answer of the group its own code."""
    groups: dict = {}
    for a in grp:
        groups.setdefault(int(matrix[h][a]), []).append(a)
    return [(code, len(g) >= 3 and not any(
        len({int(matrix[answer_to_guess[x]][y]) for y in g}) == len(g) for x in g))
        for code, g in sorted(groups.items())]


def separator_first(matrix, candidates, rows) -> int:
    """Position in ``rows`` of the first guess giving each candidate its own code, or -1."""
    for j, g in enumerate(rows):
        if len({int(matrix[g, a]) for a in candidates}) == len(candidates):
            return j
    return -1


def two_step_first(matrix, candidates, rows, inner, win) -> int:
    """Position in ``rows`` of the first guess after which every non-winning bucket has at
    most two candidates or a guess of ``inner`` separating it, or -1."""
    for j, g in enumerate(rows):
        groups: dict = {}
        for a in candidates:
            groups.setdefault(int(matrix[g, a]), []).append(a)
        if all(code == win or len(grp) <= 2 or separator_first(matrix, grp, inner) >= 0
               for code, grp in groups.items()):
            return j
    return -1


def letter_passed_over(guesses, held_by) -> set:
    """The guesses (indices into the words ``guesses``) that the letters absent from every
    word of ``held_by`` make redundant, spelled out: g has positions D, not none, whose
    letter no word of ``held_by`` holds, and some other guess q equals g off D, holds none
    of g's letters off D at D, and holds at D a letter of ``held_by`` or comes before g."""
    held = set("".join(held_by))
    out = set()
    for gi, g in enumerate(guesses):
        dead = [i for i, ch in enumerate(g) if ch not in held]
        rest = {ch for i, ch in enumerate(g) if i not in dead}
        for qi, q in enumerate(guesses):
            if (dead and qi != gi
                    and all(q[i] == g[i] for i in range(len(g)) if i not in dead)
                    and all(q[i] not in rest for i in dead)
                    and (any(q[i] in held for i in dead) or qi < gi)):
                out.add(gi)
                break
    return out


def depth_two_set_bound(matrix, grp, rows, answer_to_guess, win, floor, words=None) -> int:
    """The depth-two bound of a set, spelled out: the least over the guesses ``rows`` of
    ``|S| + sum floor[|G|]`` over its non-winning groups G, a group of three or more none
    of whose answers isolates the others counted at ``max(floor, 2|G|)``; never below
    ``floor[|S|]``; 1 and 3 for one and two answers. ``words``: ``(guesses, answers)``,
    the lists' words, to pass over the guesses :func:`letter_passed_over` names."""
    m = len(grp)
    if m <= 2:
        return int(floor[m])
    if words is not None:
        skip = letter_passed_over(words[0], [words[1][a] for a in grp])
        rows = [h for h in rows if h not in skip]
    best = math.inf
    for h in rows:
        sizes = bucket_sizes(matrix[h], grp)
        total = m
        for code, flag in unisolated_groups(matrix, h, grp, answer_to_guess):
            if code != win:
                size = sizes[code]
                total += max(int(floor[size]), 2 * size) if flag else int(floor[size])
        best = min(best, total)
    return max(best, int(floor[m]))


def depth_three_set_bound(matrix, grp, rows, answer_to_guess, win, floor,
                          words=None) -> int:
    """The depth-three bound of a set, spelled out: the least over the first guesses
    ``rows`` of ``|S| + sum`` :func:`depth_two_set_bound` of its non-winning groups (every
    row their second guess, but those ``words`` pass over there)."""
    if len(grp) <= 2:
        return int(floor[len(grp)])
    best = math.inf
    for h in rows:
        groups: dict = {}
        for a in grp:
            groups.setdefault(int(matrix[h][a]), []).append(a)
        best = min(best, len(grp) + sum(
            depth_two_set_bound(matrix, g, rows, answer_to_guess, win, floor, words)
            for code, g in groups.items() if code != win))
    return best
