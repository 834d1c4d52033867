"""Minesweeper counting: brute force, exact probabilities, components, the frontier."""

from __future__ import annotations

from collections import Counter

import numpy as np


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


def _off_frontier(probs, poly, covered, frontier, total, off, left):
    """``probs`` with every covered cell off the ``frontier`` (``off`` of them, ``left``
    mines to place): each holds a mine with the same chance, the weight of the mines off
    the frontier over ``total`` and ``off`` (Fractions)."""
    from fractions import Fraction

    if off:
        inside = _weigh(poly, off, left, mines_off=True)
        for cell in covered:
            if cell not in frontier:
                probs[cell] = Fraction(inside, total * off)
    return probs


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
    return _off_frontier(probs, base, covered, position, total, off, left)


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
    return _off_frontier(probs, everything, covered, parent, total, off, left)


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


def mines_share(rows, cols, mines, cells, mine_cells, safe_cells):
    """The share (a Fraction) of the arrangements in which every cell of ``mine_cells`` is a
    mine and none of ``safe_cells`` is."""
    from fractions import Fraction

    covered, sols = mines_enumerate_solutions(rows, cols, mines, cells)
    col = {k: i for i, k in enumerate(covered)}
    hits = sum(1 for row in sols if all(row[col[k]] for k in mine_cells)
               and not any(row[col[k]] for k in safe_cells))
    return Fraction(hits, len(sols))
