"""Minesweeper play: local rules, the endgame, closed regions, paired comparisons."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .mines_counting import (_mines_constraints, _mines_neighbours, mines_arrangements,
                             mines_enumerate_solutions)


def mines_rule_deductions(rows, cols, cells):
    """The original programs' two local rules: (safe cells, mine cells) they prove."""
    covered, flags, constraints = _mines_constraints(rows, cols, cells)
    safe, mines = set(), set()
    for unknown, need in constraints:
        if unknown and need == 0:
            safe.update(unknown)
        elif unknown and need == len(unknown):
            mines.update(unknown)
    return safe, mines


def mines_best_win(rows, cols, mines, cells, _memo=None, cascades=False):
    """Exact probability of winning with perfect play from a position (brute force). With
    ``cascades``, as in the real game: a click that shows 0 opens its neighbours, and
    theirs when they show 0."""
    memo = {} if _memo is None else _memo
    key = tuple(cells)
    if key in memo:
        return memo[key]
    arrangements = mines_arrangements(rows, cols, mines, cells)
    if len(arrangements) <= 1:
        return 1.0

    def shown(k, placed):
        return sum(1 for n in _mines_neighbours(rows, cols, k)
                   if n in placed or cells[n] == -2)

    best = 0.0
    for k in (k for k, v in enumerate(cells) if v == -1):
        outcomes = Counter()
        for placed in arrangements:
            if k in placed:
                continue
            opened, todo = {}, [k]
            while todo:                  # the flood fill of the real game
                cell = todo.pop()
                if cell in opened:
                    continue
                opened[cell] = shown(cell, placed)
                if cascades and opened[cell] == 0:
                    todo += [n for n in _mines_neighbours(rows, cols, cell) if cells[n] == -1]
            outcomes[tuple(sorted(opened.items()))] += 1
        total = 0.0
        for reveal, n in outcomes.items():
            nxt = list(cells)
            for cell, value in reveal:
                nxt[cell] = value
            total += n * mines_best_win(rows, cols, mines, nxt, memo, cascades)
        best = max(best, total / len(arrangements))
    memo[key] = best
    return best


def mines_endgame_choice(rows, cols, mines, cells, only=None):
    """The slow twin of the compiled endgame (``endgame.endgame_choice``): the click with
    the highest probability of winning over equally likely arrangements, (cell, win
    probability). A cell that shows the same in every arrangement of a set tells nothing
    and is not tried; the first cell that is safe in every arrangement and tells something
    is the only one tried; ties: the first cell (index order) not beaten by more than
    1e-12; outcomes summed in increasing order of the number shown. ``only`` (covered
    cells, ascending) plays those cells alone, over the distinct arrangements they take
    (the twin of ``endgame.isolated_choice`` on an isolated region)."""
    cells = list(cells)
    covered, sols = mines_enumerate_solutions(rows, cols, mines, cells)
    col = {k: i for i, k in enumerate(covered)}
    n_cov = len(covered)
    # value[s, i]: what covered cell i shows in arrangement s (-1: a mine)
    adj = np.zeros((n_cov, n_cov), dtype=np.int64)
    flags_around = np.zeros(n_cov, dtype=np.int64)
    for i, k in enumerate(covered):
        for n in _mines_neighbours(rows, cols, k):
            if cells[n] == -1:
                adj[i, col[n]] = 1
            elif cells[n] == -2:
                flags_around[i] += 1
    value = sols.astype(np.int64) @ adj.T + flags_around
    value[sols] = -1
    if only is not None:
        keep = [col[k] for k in only]
        value = np.unique(value[:, keep], axis=0)
        sols = value < 0
        covered, n_cov = list(only), len(keep)
    memo = {}

    def win(members):
        if len(members) <= 1:
            return 1.0, -1
        if members in memo:
            return memo[members]
        rows_ = np.array(members)
        v = value[rows_]
        mine_any = (v < 0).any(axis=0)
        unresolved = [i for i in range(n_cov) if len(np.unique(v[:, i])) > 1]
        free = [i for i in unresolved if not mine_any[i]]
        best_p, best_i = -1.0, -1
        for i in (free[:1] if free else unresolved):
            total = 0.0
            for outcome in np.unique(v[:, i]):
                if outcome < 0:
                    continue
                group = tuple(int(x) for x in rows_[v[:, i] == outcome])
                total += len(group) * win(group)[0]
            p = total / len(members)
            if p > best_p + 1e-12:
                best_p, best_i = p, i
        memo[members] = (best_p, best_i)
        return best_p, best_i

    p, i = win(tuple(range(len(sols))))
    if i < 0:      # everything is determined: any safe cell
        safe = [j for j in range(n_cov) if not sols[:, j].any()]
        i = safe[0] if safe else 0
    return covered[i], p


def mines_closed_regions(rows, cols, mines, cells):
    """The slow twin of ``endgame.closed_regions`` and of the mine-count check of
    ``endgame.isolated_choice``: the frontier (covered cells next to a number) split into
    parts, two cells in one part when they share a number or touch, keeping the parts
    whose cells have no covered neighbour outside them, each as (cells ascending, the set
    of mine counts it takes over every arrangement of the whole board, whether the
    board's arrangements are those of the part times the same number of the rest). Parts
    by their lowest cell."""
    cells = list(cells)
    n = rows * cols
    frontier = [k for k in range(n) if cells[k] == -1
                and any(cells[m] >= 0 for m in _mines_neighbours(rows, cols, k))]
    part = {k: k for k in frontier}

    def root(k):
        while part[k] != k:
            k = part[k]
        return k

    for k in range(n):
        if cells[k] >= 0:
            near = [m for m in _mines_neighbours(rows, cols, k) if cells[m] == -1]
            for m in near[1:]:
                part[root(m)] = root(near[0])
    for k in frontier:
        for m in _mines_neighbours(rows, cols, k):
            if m in part:
                part[root(m)] = root(k)
    comps = {}
    for k in frontier:
        comps.setdefault(root(k), []).append(k)
    covered, sols = mines_enumerate_solutions(rows, cols, mines, cells)
    col = {k: i for i, k in enumerate(covered)}
    found = []
    for members in sorted(comps.values()):
        inside = set(members)
        if any(cells[m] == -1 and m not in inside
               for k in members for m in _mines_neighbours(rows, cols, k)):
            continue
        own = sols[:, [col[k] for k in members]]
        counts = Counter(tuple(row) for row in own.tolist())
        product = len(set(counts.values())) <= 1
        found.append((members, {int(x) for x in own.sum(axis=1)}, product))
    return found


def mines_closed_patterns(rows, cols, cells):
    """Every pair (horizontal, vertical) and 2x2 box of covered cells that no revealed
    cell could ever split: ``(tiles, enablers)``, the enablers the covered cells beyond a
    pair's short ends (three each) or at a box's diagonal corners; patterns with a revealed
    cell there are left out (flagged and off-board cells close them)."""
    def at(r, c):
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else None

    found = []
    shapes = []
    for r in range(rows):
        for c in range(cols):
            shapes.append(([(r, c), (r, c + 1)], [(r + d, c - 1) for d in (-1, 0, 1)]
                           + [(r + d, c + 2) for d in (-1, 0, 1)]))
            shapes.append(([(r, c), (r + 1, c)], [(r - 1, c + d) for d in (-1, 0, 1)]
                           + [(r + 2, c + d) for d in (-1, 0, 1)]))
            shapes.append(([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)],
                           [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]))
    for tiles, ends in shapes:
        tiles = [at(*t) for t in tiles]
        if any(t is None or cells[t] != -1 for t in tiles):
            continue
        ends = [at(*e) for e in ends]
        ends = [e for e in ends if e is not None]
        if any(cells[e] >= 0 for e in ends):
            continue
        found.append((tiles, [e for e in ends if cells[e] == -1]))
    return found


def sign_test_p(only_a, only_b):
    """Two-sided exact sign test, from the definition: the probability, with each of the
    n = only_a + only_b discordant games going either way at even odds, of a split at least
    as uneven as the one seen (both tails), as a Fraction capped at 1."""
    from fractions import Fraction

    n = only_a + only_b
    if n == 0:
        return Fraction(1)
    seen = abs(only_a - only_b)
    tails = sum(math.comb(n, k) for k in range(n + 1) if abs(2 * k - n) >= seen)
    return min(Fraction(1), Fraction(tails, 2 ** n))
