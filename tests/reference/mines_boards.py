"""Minesweeper no-guess boards: opening cells, the rules' closure, subset deductions
(the twins of deductive/kernels/mines_generate.py and engine/minesweeper/generate.py)."""

from __future__ import annotations

import itertools

from .mines_counting import _mines_constraints, _mines_neighbours, mines_brute_force
from .mines_play import mines_rule_deductions


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
