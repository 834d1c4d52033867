"""Slow, obviously correct twins of the kernels, for tests (and the numpy benchmark reference)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np


# -- Wordle feedback ------------------------------------------------------------------------
def feedback_digits(guess: str, answer: str) -> list[int]:
    """Wordle's rule, spelled out: greens first, then yellows left to right while copies last."""
    result = [0] * len(guess)
    unmatched = Counter()
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            result[i] = 2
        else:
            unmatched[a] += 1
    for i, g in enumerate(guess):
        if result[i] == 0 and unmatched[g] > 0:
            result[i] = 1
            unmatched[g] -= 1
    return result


def feedback_code(guess: str, answer: str) -> int:
    return sum(d * 3 ** i for i, d in enumerate(feedback_digits(guess, answer)))


def pattern_matrix(guesses, answers) -> np.ndarray:
    return np.array([[feedback_code(g, a) for a in answers] for g in guesses], dtype=np.int64)


def pattern_matrix_numpy(guess_codes: np.ndarray, answer_codes: np.ndarray,
                         chunk: int = 64, dtype=np.uint8) -> np.ndarray:
    """A careful plain-numpy builder (no numba, no Python loop per pair): the benchmark reference.

    Broadcasts a chunk of guesses against all answers, with small batched matmuls for the
    per-letter counts. For guess position i with letter c: green if the answer has c at i;
    else yellow while the answer's copies of c not matched green outnumber the earlier
    non-green positions of the guess that hold c.
    """
    n_guesses, length = guess_codes.shape
    n_answers = answer_codes.shape[0]
    out = np.empty((n_guesses, n_answers), dtype=dtype)
    counts = np.zeros((n_answers, 26), np.float32)       # copies of each letter in each answer
    np.add.at(counts, (np.repeat(np.arange(n_answers), length), answer_codes.ravel()), 1)
    powers = (3.0 ** np.arange(length)).astype(np.float32)
    before = np.triu(np.ones((length, length), bool), 1)  # [j, i]: position j comes before i
    for start in range(0, n_guesses, chunk):
        g = guess_codes[start:start + chunk]
        green = (g[:, None, :] == answer_codes[None]).astype(np.float32)  # chunk, answers, L
        same = g[:, :, None] == g[:, None, :]                              # chunk, L(j), L(i)
        # copies of letter g[i] in the answer, minus those matched green
        avail = counts[:, g].transpose(1, 0, 2) - green @ same.astype(np.float32)
        # earlier non-green positions of the guess with the same letter
        earlier = (1 - green) @ (same & before).astype(np.float32)
        yellow = (1 - green) * (avail > earlier)
        out[start:start + len(g)] = (2 * green + yellow) @ powers
    return out


# -- partitions -----------------------------------------------------------------------------
def bucket_sizes(row, candidates) -> dict:
    sizes: dict = {}
    for k in candidates:
        sizes[int(row[k])] = sizes.get(int(row[k]), 0) + 1
    return sizes


def groups_by_code(row, candidates) -> list:
    """``[(code, [answers])]``: the candidates by their code in ``row``, codes ascending,
    answers in the given order within a code."""
    groups: dict = {}
    for a in candidates:
        groups.setdefault(int(row[a]), []).append(int(a))
    return sorted(groups.items())


def partition_summary(row, candidates) -> dict:
    """Entropy (bits), bucket count, largest bucket and expected size, from a dict."""
    sizes = bucket_sizes(row, candidates)
    n = len(candidates)
    if n == 0:
        return {"entropy": 0.0, "buckets": 0, "largest": 0, "expected": 0.0}
    entropy = -sum(s / n * math.log2(s / n) for s in sizes.values())
    return {
        "entropy": entropy,
        "buckets": len(sizes),
        "largest": max(sizes.values()),
        "expected": sum(s * s for s in sizes.values()) / n,
    }


def weighted_entropy(row, candidates, weights) -> float:
    """Entropy (bits) of the feedback when candidate k has weight weights[k], from a dict."""
    mass: dict = {}
    for k, w in zip(candidates, weights):
        mass[int(row[k])] = mass.get(int(row[k]), 0.0) + w
    total = sum(mass.values())
    return -sum(m / total * math.log2(m / total) for m in mass.values() if m > 0)


# -- Wordle rules ---------------------------------------------------------------------------
def hard_mode_ok(word: str, history) -> bool:
    """NYT hard mode, spelled out: ``history`` is a list of (guess word, digits list)."""
    for guess, digits in history:
        for i, d in enumerate(digits):
            if d == 2 and word[i] != guess[i]:
                return False
        revealed = Counter(guess[i] for i, d in enumerate(digits) if d > 0)
        have = Counter(word)
        if any(have[c] < n for c, n in revealed.items()):
            return False
    return True


def consistent(answer: str, history) -> bool:
    """Whether ``answer`` gives every (guess, digits) of ``history``."""
    return all(feedback_digits(g, answer) == list(d) for g, d in history)


# -- Hangman --------------------------------------------------------------------------------
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def hangman_mask(word: str, letter: str) -> int:
    return sum(1 << i for i, ch in enumerate(word) if ch == letter)


def hangman_partition(letter: str, words) -> dict:
    """The original programs' partition: mask of the letter's positions -> words, in order."""
    groups: dict = {}
    for w in words:
        groups.setdefault(hangman_mask(w, letter), []).append(w)
    return groups


def hangman_min_miss(words, wrong=0, letters=""):
    """The original programs' greedy sweep, as written there: yields (wrong, guesses, word,
    letters)."""
    if len(words) == 1:
        yield wrong, len(letters), words[0], letters
        return
    best = min((g for g in ALPHABET if g not in letters),
               key=lambda g: sum(g not in w for w in words))
    for pattern, group in hangman_partition(best, words).items():
        yield from hangman_min_miss(group, wrong + (pattern == 0), letters + best)


def hangman_split_entropy(words, letter, weights=None) -> float:
    weights = weights or {w: 1.0 for w in words}
    total = sum(weights[w] for w in words)
    mass: dict = {}
    for w in words:
        key = hangman_mask(w, letter)
        mass[key] = mass.get(key, 0.0) + weights[w]
    return -sum(m / total * math.log2(m / total) for m in mass.values() if m > 0)


def hangman_greedy(words, choose, wrong=0, letters=""):
    """A greedy sweep with any letter rule ``choose(words, letters) -> letter``."""
    if len(words) == 1:
        yield wrong, len(letters), words[0], letters
        return
    best = choose(words, letters)
    for pattern, group in hangman_partition(best, words).items():
        yield from hangman_greedy(group, choose, wrong + (pattern == 0), letters + best)


def hangman_best_wins(words, lives) -> int:
    """Brute force: the most words any strategy wins (fewer than ``lives`` misses left)."""
    if lives <= 0:
        return 0
    if len(words) == 1:
        return 1
    best = 0
    for letter in ALPHABET:
        groups = hangman_partition(letter, words)
        if len(groups) == 1:
            continue
        value = sum(hangman_best_wins(g, lives - (key == 0)) for key, g in groups.items())
        best = max(best, value)
    return best


# -- Minesweeper ----------------------------------------------------------------------------
def _mines_constraints(rows, cols, cells):
    """(covered cells, flags, constraints [(covered neighbours, need)])."""
    def nbrs(k):
        r, c = divmod(k, cols)
        return [rr * cols + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols]

    covered = [k for k, v in enumerate(cells) if v == -1]
    flags = sum(1 for v in cells if v == -2)
    constraints = []
    for k, v in enumerate(cells):
        if v >= 0:
            unknown = [n for n in nbrs(k) if cells[n] == -1]
            need = v - sum(1 for n in nbrs(k) if cells[n] == -2)
            constraints.append((unknown, need))
    return covered, flags, constraints


def mines_brute_force(rows, cols, mines, cells):
    """Every placement of the mines left on the covered cells: exact probabilities (Fractions)
    by cell, or None if nothing fits. For small boards only (2**covered)."""
    from fractions import Fraction
    from itertools import combinations

    covered, flags, constraints = _mines_constraints(rows, cols, cells)
    left = mines - flags
    hits = Counter()
    total = 0
    for chosen in combinations(covered, left) if 0 <= left <= len(covered) else []:
        placed = set(chosen)
        if all(sum(n in placed for n in unknown) == need for unknown, need in constraints):
            total += 1
            hits.update(chosen)
    if total == 0:
        return None
    return {k: Fraction(hits[k], total) for k in covered}


def _weigh(poly, off, left, mines_off=False):
    """Sum over frontier mine counts m of ``poly[m] * C(off, left - m)``: the arrangements of
    the whole board; with ``mines_off``, each also counted by its mines off the frontier."""
    from math import comb

    return sum(c * comb(off, left - m) * (left - m if mines_off else 1)
               for m, c in poly.items() if 0 <= left - m <= off)


def mines_exact_dp(rows, cols, mines, cells):
    """Independent exact engine: a cell-by-cell dynamic programme over the frontier (state:
    needs of the open constraints) with Python integers, each frontier cell conditioned in
    turn. Exact probabilities (Fractions) by covered cell, or None if nothing fits."""
    from fractions import Fraction

    covered, flags, constraints = _mines_constraints(rows, cols, cells)
    left = mines - flags
    constraints = [(set(u), need) for u, need in constraints]
    if any(need < 0 or need > len(u) for u, need in constraints):
        return None
    frontier = sorted(set().union(*[u for u, _ in constraints]) if constraints else set())
    position = {cell: i for i, cell in enumerate(frontier)}
    off = len(covered) - len(frontier)
    cons = [(sorted(position[c] for c in u), need) for u, need in constraints if u]
    last = {}
    for j, (members, _) in enumerate(cons):
        last[j] = members[-1]
    touching = [[] for _ in frontier]
    for j, (members, _) in enumerate(cons):
        for i in members:
            touching[i].append(j)

    def count(forced=None):
        layer = {(): Counter({0: 1})}
        open_ids = ()
        for i in range(len(frontier)):
            new_open = tuple(sorted(set(open_ids) | {j for j in touching[i] if last[j] > i}))
            nxt = {}
            for state, vec in layer.items():
                need = dict(zip(open_ids, state))
                for value in (0, 1):
                    if forced is not None and forced[0] == i and forced[1] != value:
                        continue
                    ok = True
                    trial = dict(need)
                    for j in touching[i]:
                        trial[j] = trial.get(j, cons[j][1]) - value
                        if trial[j] < 0 or (last[j] == i and trial[j] != 0):
                            ok = False
                            break
                    if not ok:
                        continue
                    key = tuple(trial[j] for j in new_open)
                    out = nxt.setdefault(key, Counter())
                    for m, c in vec.items():
                        out[m + value] += c
            layer, open_ids = nxt, new_open
        result = Counter()
        for vec in layer.values():
            result.update(vec)
        return result

    base = count()
    total = _weigh(base, off, left)
    if total == 0:
        return None
    probs = {}
    for i, cell in enumerate(frontier):
        probs[cell] = Fraction(_weigh(count((i, 1)), off, left), total)
    if off:
        inside = _weigh(base, off, left, mines_off=True)
        for cell in covered:
            if cell not in position:
                probs[cell] = Fraction(inside, total * off)
    return probs


def mines_by_components(rows, cols, mines, cells, max_cells=40):
    """Independent exact engine for big boards: the frontier split into components (cells
    joined by shared numbers), each enumerated cell by cell with Python integers, then
    recombined exactly (integer convolutions, binomials off the frontier, Fractions).

    Returns exact probabilities (Fractions) by covered cell, None if nothing fits, or raises
    ValueError if a component has more than ``max_cells`` cells (too slow to enumerate)."""
    from fractions import Fraction

    covered, flags, constraints = _mines_constraints(rows, cols, cells)
    left = mines - flags
    constraints = [(list(u), need) for u, need in constraints if u or need]
    if any(need < 0 or need > len(u) for u, need in constraints):
        return None
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for u, _ in constraints:
        for cell in u[1:]:
            parent[find(cell)] = find(u[0])
        find(u[0])
    groups = {}
    for cell in parent:
        groups.setdefault(find(cell), []).append(cell)
    comps = []
    for members in groups.values():
        members.sort()
        if len(members) > max_cells:
            raise ValueError(f"component of {len(members)} cells")
        inside = set(members)
        cons = [(u, need) for u, need in constraints if u and u[0] in inside]
        where = {cell: i for i, cell in enumerate(members)}
        counts, hits = {}, {cell: {} for cell in members}
        value = [0] * len(members)
        touching = [[] for _ in members]          # constraints of each cell
        for j, (u, _) in enumerate(cons):
            for c in u:
                touching[where[c]].append(j)
        placed = [0] * len(cons)                   # mines placed around each constraint
        rest = [len(u) for u, _ in cons]           # its cells not yet decided

        def walk(i):
            if i == len(members):
                m = sum(value)
                counts[m] = counts.get(m, 0) + 1
                for cell in members:
                    if value[where[cell]]:
                        hits[cell][m] = hits[cell].get(m, 0) + 1
                return
            for v in (0, 1):
                value[i] = v
                for j in touching[i]:
                    placed[j] += v
                    rest[j] -= 1
                if all(placed[j] <= cons[j][1] <= placed[j] + rest[j] for j in touching[i]):
                    walk(i + 1)
                for j in touching[i]:
                    placed[j] -= v
                    rest[j] += 1
            value[i] = 0

        walk(0)
        if not counts:
            return None
        comps.append((counts, hits))
    off = len(covered) - len(parent)

    def product(polys):
        out = {0: 1}
        for poly in polys:
            nxt = {}
            for a, x in out.items():
                for b, y in poly.items():
                    nxt[a + b] = nxt.get(a + b, 0) + x * y
            out = nxt
        return out

    prefix = [{0: 1}]                     # products of the components before i
    for counts, _ in comps:
        prefix.append(product([prefix[-1], counts]))
    suffix = [{0: 1}]                     # and after i
    for counts, _ in reversed(comps):
        suffix.append(product([suffix[-1], counts]))
    suffix.reverse()
    everything = prefix[-1]
    total = _weigh(everything, off, left)
    if total == 0:
        return None
    probs = {}
    for i, (counts, hits) in enumerate(comps):
        others = product([prefix[i], suffix[i + 1]])
        for cell, by_m in hits.items():
            probs[cell] = Fraction(_weigh(product([by_m, others]), off, left), total)
    if off:
        inside = _weigh(everything, off, left, mines_off=True)
        for cell in covered:
            if cell not in parent:
                probs[cell] = Fraction(inside, total * off)
    return probs


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


def mines_arrangements(rows, cols, mines, cells):
    """Every placement (as a frozenset of cells) of the mines left that fits the numbers."""
    from itertools import combinations

    covered, flags, constraints = _mines_constraints(rows, cols, cells)
    left = mines - flags
    found = []
    for chosen in combinations(covered, left) if 0 <= left <= len(covered) else []:
        placed = set(chosen)
        if all(sum(n in placed for n in unknown) == need for unknown, need in constraints):
            found.append(frozenset(chosen))
    return found


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


def mines_enumerate_solutions(rows, cols, mines, cells):
    """Every arrangement of the mines left on the covered cells that fits the numbers,
    depth-first over the covered cells in index order, 0 before 1: (covered cells, bool
    matrix arrangements x covered). The engine's Python version before it was compiled."""
    covered, flags, constraints = _mines_constraints(rows, cols, list(cells))
    col = {k: i for i, k in enumerate(covered)}
    left = mines - flags
    by_last = [[] for _ in covered]
    for unknown, need in constraints:
        if unknown:
            members = [col[n] for n in unknown]
            by_last[max(members)].append((members, need))
    solutions = []
    choice = [0] * len(covered)

    def extend(i, placed):
        if placed > left or left - placed > len(covered) - i:
            return
        if i == len(covered):
            solutions.append(list(choice))
            return
        for value in (0, 1):
            choice[i] = value
            if all(sum(choice[m] for m in members) == need for members, need in by_last[i]):
                extend(i + 1, placed + value)
        choice[i] = 0

    extend(0, 0)
    return covered, np.array(solutions, dtype=bool).reshape(len(solutions), len(covered))


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


# -- Hangman: exact optimal play and the adversary (appended) ------------------------------
def hangman_best_weight(words, weights, lives) -> int:
    """Brute force: the most weight any strategy wins with ``lives`` lives (the L-th miss
    loses); ``weights`` maps each word to an integer."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def best(group, left):
        if left <= 0:
            return 0
        if len(group) == 1:
            return weights[group[0]]
        value = 0
        for letter in ALPHABET:
            parts = hangman_partition(letter, group)
            if len(parts) == 1:
                continue
            value = max(value, sum(best(tuple(g), left - (key == 0)) for key, g in parts.items()))
        return value

    return best(tuple(words), lives)


def hangman_evil_misses(words) -> int:
    """Brute force: the least number of misses a guesser can guarantee when the adversary
    may answer with any word consistent so far (minimax over every splitting letter)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def value(group):
        if len(group) <= 1:
            return 0
        result = len(group)
        for letter in ALPHABET:
            parts = hangman_partition(letter, group)
            if len(parts) == 1:
                continue
            result = min(result, max(value(tuple(g)) + (key == 0) for key, g in parts.items()))
        return result

    return value(tuple(words))


def hangman_play_tree(tree, word):
    """(misses, reached leaf word or None) of ``word`` played against a JSON tree."""
    node, misses = tree["tree"], 0
    while "word" not in node:
        letter = node["guess"]
        if letter in word:
            node = node["hits"].get("".join(ch if ch == letter else "_" for ch in word))
        else:
            misses += 1
            node = node.get("miss")
        if node is None:
            return misses, None
    return misses, node["word"]


# -- Minesweeper: frontier structure and component counts (appended) ------------------------
def mines_frontier(rows, cols, cells):
    """The frontier of a position, by definition: ``("bad", status, cell)`` for the first
    revealed cell (row-major) whose number its flags pass (status 1) or its covered
    neighbours cannot hold (status 2); else a dict with

    * ``need``: constraint cell -> mines it still needs (revealed cells with covered
      neighbours);
    * ``boxes``: covered cell set -> the constraint cells all its cells touch (cells with the
      same constraints form one box);
    * ``components``: the sets of box cells joined through shared constraints.
    """
    def nbrs(k):
        return _mines_neighbours(rows, cols, k)

    need = {}
    for k, v in enumerate(cells):
        if v >= 0:
            covered = [n for n in nbrs(k) if cells[n] == -1]
            left = v - sum(cells[n] == -2 for n in nbrs(k))
            if left < 0 or left > len(covered):
                return ("bad", 1 if left < 0 else 2, k)
            if covered:
                need[k] = left
    touching = {k: frozenset(n for n in nbrs(k) if n in need)
                for k, v in enumerate(cells) if v == -1}
    by_signature = {}
    for k, signature in touching.items():
        if signature:
            by_signature.setdefault(signature, set()).add(k)
    boxes = {frozenset(group): signature for signature, group in by_signature.items()}
    components, todo = [], set(boxes)
    while todo:
        grow = [todo.pop()]
        members = set(grow)
        while grow:
            box = grow.pop()
            for other in list(todo):
                if boxes[other] & boxes[box]:
                    todo.discard(other)
                    members.add(other)
                    grow.append(other)
        components.append(frozenset().union(*members))
    return {"need": need, "boxes": boxes, "components": set(components)}


def mines_component_counts(rows, cols, cells, component):
    """Every way to place mines on the cells of one frontier component (2**cells) that gives
    each of its numbers exactly the mines it needs: ``(W, S, least, most)`` with ``W[m]`` the
    ways with m mines in the component, and for each box (a frozenset of cells, as
    :func:`mines_frontier` gives) ``S[box][m]`` the mines it holds summed over those ways,
    ``least[box][m]`` / ``most[box][m]`` the fewest / most it holds in one of them."""
    from itertools import product

    frontier = mines_frontier(rows, cols, cells)
    boxes = [box for box in frontier["boxes"] if box <= component]
    numbers = set().union(*(frontier["boxes"][box] for box in boxes))
    cells_in = sorted(component)
    W, S, least, most = Counter(), {b: Counter() for b in boxes}, {b: {} for b in boxes}, \
        {b: {} for b in boxes}
    for choice in product((0, 1), repeat=len(cells_in)):
        mine = {k for k, x in zip(cells_in, choice) if x}
        if any(sum(n in mine for n in _mines_neighbours(rows, cols, k)) != need
               for k, need in frontier["need"].items() if k in numbers):
            continue
        m = len(mine)
        W[m] += 1
        for box in boxes:
            inside = len(box & mine)
            S[box][m] += inside
            least[box][m] = min(least[box].get(m, inside), inside)
            most[box][m] = max(most[box].get(m, inside), inside)
    return W, S, least, most


def _mines_neighbours(rows, cols, k):
    r, c = divmod(k, cols)
    return [rr * cols + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
            if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols]


# -- Minesweeper: paired comparison of two players ------------------------------------------
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


# -- Mastermind and Bulls and Cows ----------------------------------------------------------
def mastermind_pegs(guess, answer) -> tuple[int, int]:
    """(black, white): pegs in place, then colours in common less those in place."""
    black = sum(g == a for g, a in zip(guess, answer))
    common = sum((Counter(guess) & Counter(answer)).values())
    return black, common - black


def mastermind_matrix(codes) -> np.ndarray:
    pegs = len(codes[0])
    return np.array([[b * (pegs + 1) + w for b, w in (mastermind_pegs(g, a) for a in codes)]
                     for g in codes], dtype=np.int64)


def canonical_sequence(history, feedbacks) -> tuple:
    """The least reading of a history over every order of it and every permutation of
    the positions: its feedbacks, then its columns in the permuted order with the colours
    renamed 0, 1, ... by first appearance (brute force: the kernel's twin)."""
    pegs = len(history[0])
    best = None
    for order in itertools.permutations(range(len(history))):
        for sigma in itertools.permutations(range(pegs)):
            names = {}
            seq = [feedbacks[j] for j in order]
            for i in range(pegs):
                for j in order:
                    seq.append(names.setdefault(history[j][sigma[i]], len(names)))
            if best is None or seq < best:
                best = seq
    return tuple(best)


def _guess_groups(matrix, win, cands):
    """For every guess that tells the candidates apart (or may win): code -> candidates."""
    for g in range(matrix.shape[0]):
        groups = {}
        for a in cands:
            groups.setdefault(int(matrix[g, a]), []).append(a)
        if len(groups) > 1 or win in groups:
            yield groups


def minimax_depth(matrix, win, cands=None, _memo=None) -> int:
    """Least worst case over every tree (brute force over every guess, memoised by set)."""
    memo = {} if _memo is None else _memo
    cands = tuple(range(matrix.shape[1])) if cands is None else cands
    if len(cands) == 1:
        return 1
    if cands in memo:
        return memo[cands]
    best = math.inf
    for groups in _guess_groups(matrix, win, cands):
        depth = 1 + max((minimax_depth(matrix, win, tuple(grp), memo)
                         for code, grp in groups.items() if code != win), default=0)
        best = min(best, depth)
    memo[cands] = best
    return best


def optimal_total(matrix, win, cands=None, _memo=None) -> tuple[int, int]:
    """(total, worst) of the best tree over any guess matrix, ties to the smaller worst
    case (brute force over every guess, memoised by set)."""
    memo = {} if _memo is None else _memo
    cands = tuple(range(matrix.shape[1])) if cands is None else cands
    if len(cands) == 1 and matrix[cands[0], cands[0]] == win:
        return 1, 1
    if cands in memo:
        return memo[cands]
    best = (math.inf, math.inf)
    for groups in _guess_groups(matrix, win, cands):
        total, worst = len(cands), 1
        for code, grp in groups.items():
            if code != win:
                sub = optimal_total(matrix, win, tuple(grp), memo)
                total, worst = total + sub[0], max(worst, 1 + sub[1])
        best = min(best, (total, worst))
    memo[cands] = best
    return best


# -- Absurdle -------------------------------------------------------------------------------
def absurdle_keep(guess: str, candidates) -> tuple[int, list]:
    """The adversary's (code, kept words): the largest bucket; ties to fewest greens, then
    fewest yellows, then grey < yellow < green from the first letter."""
    buckets: dict = {}
    for word in candidates:
        buckets.setdefault(tuple(feedback_digits(guess, word)), []).append(word)
    digits = min(buckets, key=lambda d: (-len(buckets[d]), d.count(2), d.count(1), d))
    return sum(x * 3 ** i for i, x in enumerate(digits)), buckets[digits]


def absurdle_fewest(guesses, answers, limit=6):
    """Brute force: fewest guesses forcing a win (breadth-first over kept sets), or None."""
    level = {tuple(answers)}
    for depth in range(1, limit + 1):
        if any(len(s) == 1 for s in level):
            return depth
        level = {tuple(absurdle_keep(g, s)[1]) for s in level for g in guesses}
    return None


# -- multi-board Wordle ---------------------------------------------------------------------
def multi_play(guesses, answers, targets) -> list:
    """One multi-board game with the entropy rule computed over the product partition
    itself (every tuple of the boards' candidates): the guesses played."""
    boards = {k: list(answers) for k in range(len(targets))}
    played = []
    while boards:
        known = [c[0] for c in boards.values() if len(c) == 1]
        if known:
            guess = known[0]
        else:
            def joint(g):
                mass: Counter = Counter()
                for combo in itertools.product(*boards.values()):
                    mass[tuple(feedback_code(g, a) for a in combo)] += 1
                n = sum(mass.values())
                return round(-sum(m / n * math.log2(m / n) for m in mass.values()), 9)

            scores = {g: joint(g) for g in guesses}
            top = max(scores.values())
            tied = [g for g in guesses if scores[g] == top]
            listed = [g for g in tied if any(g in c for c in boards.values())]
            guess = (listed or tied)[0]
        played.append(guess)
        for k in list(boards):
            code = feedback_code(guess, targets[k])
            if guess == targets[k]:
                del boards[k]
            else:
                boards[k] = [a for a in boards[k] if feedback_code(guess, a) == code]
    return played


# -- tree search ----------------------------------------------------------------------------
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


# -- least worst case: the compiled last levels (deductive.kernels.worst) -------------------
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


def mines_share(rows, cols, mines, cells, mine_cells, safe_cells):
    """The share (a Fraction) of the arrangements in which every cell of ``mine_cells`` is a
    mine and none of ``safe_cells`` is."""
    from fractions import Fraction

    covered, sols = mines_enumerate_solutions(rows, cols, mines, cells)
    col = {k: i for i, k in enumerate(covered)}
    hits = sum(1 for row in sols if all(row[col[k]] for k in mine_cells)
               and not any(row[col[k]] for k in safe_cells))
    return Fraction(hits, len(sols))


# ===========================================================================================
# -- Minesweeper: no-guess boards (appended for deductive/kernels/mines_generate.py and
#    deductive/engine/minesweeper/generate.py) ----------------------------------------------
# ===========================================================================================
def _mines_open(rows, cols, numbers, revealed, flagged, cell):
    """Open ``cell`` and, while a 0 opens, its neighbours (sets of cells, in place)."""
    todo = [cell]
    while todo:
        k = todo.pop()
        if k in revealed or k in flagged:
            continue
        revealed.add(k)
        if numbers[k] == 0:
            todo.extend(_mines_neighbours(rows, cols, k))


def _mines_cells(rows, cols, numbers, revealed, flagged):
    """The position as :func:`mines_brute_force` reads it (-1 covered, -2 flag, numbers)."""
    return [numbers[k] if k in revealed else -2 if k in flagged else -1
            for k in range(rows * cols)]


def mines_rules_closure(rows, cols, numbers, revealed, flagged):
    """The two local rules (:func:`mines_rule_deductions`) applied until they prove nothing
    more: (revealed, flagged) as sets of cells."""
    revealed, flagged = set(revealed), set(flagged)
    while True:
        safe, mines = mines_rule_deductions(rows, cols,
                                            _mines_cells(rows, cols, numbers, revealed, flagged))
        if not safe and not mines:
            return revealed, flagged
        flagged |= mines
        for k in safe:
            _mines_open(rows, cols, numbers, revealed, flagged, k)


def mines_frontier_cells(rows, cols, revealed, flagged):
    """Covered, unflagged cells next to a revealed one."""
    return {k for k in range(rows * cols) if k not in revealed and k not in flagged
            and any(j in revealed for j in _mines_neighbours(rows, cols, k))}


def mines_no_guess(rows, cols, mine_cells, first):
    """Whether every safe cell opens from ``first`` by cells safe in every arrangement that
    fits the numbers and the mine total (brute force over all placements): no guess."""
    mine_cells = set(mine_cells)
    if first in mine_cells:
        return False
    numbers = [sum(j in mine_cells for j in _mines_neighbours(rows, cols, k))
               for k in range(rows * cols)]
    revealed, flagged = set(), set()
    _mines_open(rows, cols, numbers, revealed, flagged, first)
    while len(revealed) < rows * cols - len(mine_cells):
        probs = mines_brute_force(rows, cols, len(mine_cells),
                                  _mines_cells(rows, cols, numbers, revealed, flagged))
        safe = [k for k, p in probs.items() if p == 0]
        if not safe:
            return False
        for k in safe:
            _mines_open(rows, cols, numbers, revealed, flagged, k)
    return True


def mines_subset_deductions(rows, cols, cells):
    """The subset rule over every pair of numbers: when a's unknown neighbours are a proper
    subset of b's, b's others hold need_b - need_a mines (all safe at 0, all mines when
    that is their count). (safe cells, mine cells)."""
    _, _, constraints = _mines_constraints(rows, cols, cells)
    safe, mines = set(), set()
    for (ua, need_a), (ub, need_b) in itertools.permutations(constraints, 2):
        if ua and set(ua) < set(ub):
            rest = set(ub) - set(ua)
            if need_b - need_a == 0:
                safe |= rest
            elif need_b - need_a == len(rest):
                mines |= rest
    return safe, mines
