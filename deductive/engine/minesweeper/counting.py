"""Exact counting of a large frontier component over a tree decomposition of its constraints.

The compiled backtracker (:func:`deductive.kernels.mines_count.count_all`) enumerates a
component's solutions one by one, which is fastest on the components of ordinary games and
hopeless on a big, loosely connected one (a board with scattered reveals has components of
hundreds of boxes and billions of solutions). Such a component is counted here instead, by
dynamic programming whose cost grows with the *width* of the component, not its size:

1. The constraints (revealed numbers) are eliminated one by one in min-fill order; each
   elimination makes a *bag* (the constraint and its neighbours at that time), and the bags
   form a tree (a tree decomposition of the constraint graph). Every box goes to the bag of
   its first-eliminated constraint, which holds all of its constraints.
2. Upward pass: a bag combines its children's messages and its boxes into a table keyed by
   the mines placed so far around each of its constraints; the constraint it eliminates must
   then be exactly satisfied, and the table, keyed by the constraints it shares with its
   parent, is its message. Each entry is a polynomial in the number of mines placed
   (log-domain, see :func:`deductive.kernels.mines_logpoly.log_convolve`).
3. Downward pass: each bag receives what the rest of the component contributes (its parent's
   outside message), runs forward and backward through its items, and so gets every box's
   mines-weighted count and its children's outside messages.

The result for the component is ``W[m]`` (weighted solutions with m mines), per box the
solutions weighted by its mines ``S[b, m]`` and by its mine-free cells, all as natural
logarithms, so no count over- or underflows; a coefficient is -inf exactly when no solution
contributes to it, which decides forced cells exactly. Memory is checked against a budget as
the tables grow; past it :class:`CountingBudgetError` names the component's size and width.
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from ...errors import DeductiveError
from ...kernels.mines_tables import (table_apply, table_back, table_box_marginals,
                                     table_matches, table_outside, table_pairs)

__all__ = ["CountingBudgetError", "STEP_BUDGET", "TreeCount", "elimination_bags"]

_NEG = -np.inf
#: Work units the count of one position may take (a table row extended by one choice costs
#: the product of their polynomials' lengths plus 10): a bound on the time of the count.
STEP_BUDGET = 3_000_000_000


#: Natural log of the largest key space of a bag (keys are int64 mixed-radix numbers).
_KEY_LOG = 62 * math.log(2)


class CountingBudgetError(DeductiveError, MemoryError):
    """The exact count of a component needs more memory than the budget allows."""


def elimination_bags(n_cons: int, cons_lists, values=None):
    """A tree decomposition of a constraint graph by elimination.

    Two orders are tried, min-fill (best on scattered constraints) and the constraints'
    own numbering (row-major on the board, best on lattices, where min-fill's ties wander),
    and the one whose bags have the smaller sum of ``prod(value + 1)`` (a bound on the
    tables' sizes) is kept; ties go to min-fill.

    Parameters
    ----------
    n_cons : int
        Constraints, numbered 0..n_cons-1.
    cons_lists : list of sequences
        The constraints of each box (each list is a clique of the graph).
    values : sequence of int, optional
        Mines each constraint needs (default 8 each).

    Returns
    -------
    order : list of int
        Constraints in elimination order.
    bags : list of list of int
        ``bags[v]``: v followed by its neighbours when it was eliminated (sorted).
    parent : list of int
        The constraint whose bag is the parent of v's bag (-1 for a root).
    """
    adj: list[set[int]] = [set() for _ in range(n_cons)]
    for cl in cons_lists:
        for a in cl:
            adj[a].update(cl)
    for v in range(n_cons):
        adj[v].discard(v)
    logs = [math.log(8 + 1 if values is None else values[v] + 1) for v in range(n_cons)]
    best = None
    for make in (_min_fill_order, lambda adj, logs: list(range(n_cons))):
        order = make(adj, logs)
        bags = None if order is None else _bags(adj, order, logs)
        if bags is None:
            continue                       # a bag's keys would not fit in 62 bits
        cost = sum(math.exp(sum(logs[a] for a in bag)) for bag in bags)
        if best is None or cost < best[0]:
            best = (cost, order, bags)
    if best is None:
        raise CountingBudgetError(
            f"a frontier component of {n_cons} numbers is too entangled to count exactly "
            "(a bag of its tree decomposition needs keys of more than 62 bits); reveal more "
            "cells to split it")
    _, order, bags = best
    pos = [0] * n_cons
    for i, v in enumerate(order):
        pos[v] = i
    parent = [-1] * n_cons
    for v in order:
        if len(bags[v]) > 1:
            parent[v] = min(bags[v][1:], key=lambda a: pos[a])
    return order, bags, parent


def _bags(adj, order, logs):
    """The bags of an elimination order, or None once one passes the 62-bit key limit."""
    adj = [set(a) for a in adj]
    bags = [None] * len(adj)
    for v in order:
        nb = sorted(adj[v])
        bags[v] = [v] + nb
        if logs[v] + sum(logs[a] for a in nb) > _KEY_LOG:
            return None
        for a in nb:
            adj[a].discard(v)
            adj[a].update(x for x in nb if x != a)
    return bags


def _min_fill_order(adj, logs):
    """Min-fill elimination order, or None once a bag passes the 62-bit key limit."""
    adj = [set(a) for a in adj]
    n_cons = len(adj)

    def fill(v):
        nb = list(adj[v])
        missing = 0
        for i, a in enumerate(nb):
            row = adj[a]
            for b in nb[i + 1:]:
                if b not in row:
                    missing += 1
        return missing

    # ties: fewer neighbours, then the lower constraint number (deterministic)
    heap = [(fill(v), len(adj[v]), v) for v in range(n_cons)]
    heapq.heapify(heap)
    done = [False] * n_cons
    order = []
    while heap:
        f, d, v = heapq.heappop(heap)
        if done[v] or f != fill(v) or d != len(adj[v]):
            continue
        done[v] = True
        order.append(v)
        nb = sorted(adj[v])
        if logs[v] + sum(logs[a] for a in nb) > _KEY_LOG:
            return None
        for a in nb:
            adj[a].discard(v)
            adj[a].update(x for x in nb if x != a)
        touched = set(nb)
        for a in nb:
            touched.update(adj[a])
        for a in touched:
            if not done[a]:
                heapq.heappush(heap, (fill(a), len(adj[a]), a))
        adj[v] = set()
    return order


class _Budget:
    """Bytes held by the tables and work done, each against its limit."""

    def __init__(self, max_bytes, max_steps, n_boxes, width):
        self.max_bytes = max_bytes
        self.max_steps = max_steps
        self.used = 0
        self.steps = 0
        self.n_boxes = n_boxes
        self.width = width

    def _fail(self, what):
        raise CountingBudgetError(
            f"counting a frontier component of {self.n_boxes} boxes (tree width "
            f"{self.width}) needs more than {what}; reveal more cells to split the component"
            + (", or raise `max_memory`" if "memory" in what else ""))

    def work(self, units):
        self.steps += units
        if self.steps > self.max_steps:
            self._fail(f"{self.max_steps:,} steps of work")

    def room(self):
        """Bytes still free."""
        return max(self.max_bytes - self.used, 0)

    def hold(self, nbytes):
        self.used += nbytes
        if self.used > self.max_bytes:
            self.memory_error()

    def release(self, tables):
        self.used -= sum(_nbytes(table) for table in tables)

    def memory_error(self):
        self._fail(f"the memory budget of {self.max_bytes / 2**20:,.0f} MiB")


def _nbytes(table):
    return sum(a.nbytes for a in table[:3])


def _trim(digits, keys, polys, lo):
    """Drop the leading and trailing mine counts no row reaches."""
    if not len(keys):
        return digits, keys, polys[:, :1], lo
    live = np.flatnonzero((polys > -np.inf).any(axis=0))
    if not len(live):
        return digits[:0], keys[:0], polys[:0, :1], lo
    return digits, keys, polys[:, live[0]:live[-1] + 1], lo + int(live[0])


class TreeCount:
    """Exact count of one frontier component over a tree decomposition of its constraints.

    Construction runs the upward pass: ``lo`` and ``log_w`` (log W[m] for m = lo, lo+1,
    ...; empty support means the component has no solution). :meth:`marginals` then runs the
    downward pass for given weights of the rest of the board.

    Parameters
    ----------
    boxes : int64 array
        The component's boxes.
    box_size, box_cons_ptr, box_cons, cons_value : arrays
        The frontier structure (:func:`deductive.kernels.mines_frontier.frontier_structure`).
    max_bytes : int
        Memory the tables may hold.
    max_steps : int
        Work units the count may take (a pair of a table row and a choice costs the product
        of their polynomials' lengths plus 10).

    Raises
    ------
    CountingBudgetError
        Past either budget, before the step that would pass it.
    """

    def __init__(self, boxes, box_size, box_cons_ptr, box_cons, cons_value, max_bytes,
                 max_steps=STEP_BUDGET):
        self.boxes = [int(b) for b in boxes]
        # constraints numbered in the board's order (row-major), one of the orders tried
        touched = sorted({int(box_cons[a]) for b in self.boxes
                          for a in range(box_cons_ptr[b], box_cons_ptr[b + 1])})
        local = {j: i for i, j in enumerate(touched)}
        cons_lists = [[local[int(box_cons[a])] for a in range(box_cons_ptr[b],
                                                              box_cons_ptr[b + 1])]
                      for b in self.boxes]
        n_cons = len(touched)
        self.value = [int(cons_value[j]) for j in touched]
        order, bags, parent = elimination_bags(n_cons, cons_lists, self.value)
        pos = {v: i for i, v in enumerate(order)}
        self.width = max(len(bag) for bag in bags) - 1
        self.budget = _Budget(max_bytes, max_steps, len(self.boxes), self.width)
        self.order, self.bags, self.parent = order, bags, parent
        self.children = [[] for _ in range(n_cons)]
        for v in order:
            if parent[v] >= 0:
                self.children[parent[v]].append(v)
        self.bag_boxes = [[] for _ in range(n_cons)]
        for i, cl in enumerate(cons_lists):
            self.bag_boxes[min(cl, key=lambda a: pos[a])].append(i)
        self.cons_lists = cons_lists
        self.sizes = [int(box_size[b]) for b in self.boxes]
        self.index = [{c: k for k, c in enumerate(bag)} for bag in bags]
        roots = [v for v in order if parent[v] < 0]
        if len(roots) != 1:
            raise ValueError("a component's constraints must be connected")
        self.root = roots[0]
        self.up = {}
        for v in order:
            tables = self._forward(v)
            last = tables[-1]
            sel = last[0][:, 0] == self.value[v]
            msg = _trim(last[0][sel][:, 1:], last[1][sel], last[2][sel], last[3])
            self.budget.release(tables[1:])
            self.up[v] = msg
            self.budget.hold(_nbytes(msg))
        digits, _, polys, lo = self.up[self.root]
        if len(polys):
            self.lo, self.log_w = lo, polys[0]
        else:
            self.lo, self.log_w = 0, np.full(1, _NEG)

    # -- items -----------------------------------------------------------------------------
    def _radix(self, v):
        values = np.array([self.value[a] for a in self.bags[v]], np.int64)
        radix = np.ones(len(values), np.int64)
        for j in range(1, len(values)):      # below 2**62: elimination_bags checks it
            radix[j] = radix[j - 1] * (values[j - 1] + 1)
        return values, radix

    def _items(self, v, radix):
        nb = len(self.bags[v])
        items = []
        for c in self.children[v]:
            digits, _, polys, lo = self.up[c]
            add = np.zeros((len(digits), nb), np.int16)
            add[:, [self.index[v][a] for a in self.bags[c][1:]]] = digits
            items.append(("child", c, add, add @ radix, polys, lo))
        for i in self.bag_boxes[v]:
            size = self.sizes[i]
            add = np.zeros((size + 1, nb), np.int16)
            cpolys = np.full((size + 1, size + 1), _NEG)
            for k in range(size + 1):
                add[k, [self.index[v][a] for a in self.cons_lists[i]]] = k
                cpolys[k, k] = math.log(math.comb(size, k))
            items.append(("box", i, add, add @ radix, cpolys, 0))
        return items

    def _forward(self, v, items=None):
        """The tables of bag v after each of its items (the first: nothing placed)."""
        values, radix = self._radix(v)
        if items is None:
            items = self._items(v, radix)
        table = (np.zeros((1, len(values)), np.int16), np.zeros(1, np.int64), np.zeros((1, 1)),
                 0)
        tables = [table]
        for _, _, add, add_keys, cpolys, clo in items:
            digits, keys, polys, lo = table
            pairs = table_pairs(digits, add, values)
            self.budget.work(pairs * (polys.shape[1] * cpolys.shape[1] + 10))
            if pairs * 24 > self.budget.room():
                self.budget.memory_error()
            cells = self.budget.room() // 8
            out = table_apply(digits, keys, polys, add, add_keys, cpolys, values, pairs, cells)
            if not len(out[1]) and pairs:
                self.budget.memory_error()
            table = _trim(*out, lo + clo)
            self.budget.hold(_nbytes(table))
            tables.append(table)
        return tables

    # -- downward pass ---------------------------------------------------------------------
    def marginals(self, reach):
        """Per box, log of the solutions weighted by its mines and by its free cells, each
        solution with m mines also weighted by ``exp(reach[m - lo])`` (the rest of the board).
        """
        n = len(self.boxes)
        log_mines = np.full(n, _NEG)
        log_free = np.full(n, _NEG)
        outside = {self.root: np.asarray(reach, dtype=np.float64)[None, :]}
        for v in reversed(self.order):
            values, radix = self._radix(v)
            items = self._items(v, radix)
            tables = self._forward(v, items)
            last = tables[-1]
            # backward weights after the last item: the outside message, by subtree mines
            sel = np.flatnonzero(last[0][:, 0] == self.value[v])
            g_polys = np.full(last[2].shape, _NEG)
            out_v = outside.pop(v)
            msg_lo = self.up[v][3] if v != self.root else self.lo
            shift = last[3] - msg_lo
            for r, row in enumerate(sel):
                src = out_v[r]
                for m in range(last[2].shape[1]):
                    t = m + shift
                    if 0 <= t < len(src):
                        g_polys[row, m] = src[t]
            g = (last[1], g_polys, last[3])
            for i in range(len(items) - 1, -1, -1):
                kind, ref, add, add_keys, cpolys, clo = items[i]
                digits, keys, polys, lo = tables[i]
                g_keys, g_pol, g_lo = g
                shift = lo + clo - g_lo
                pairs = table_pairs(digits, add, values)
                if pairs * 24 > self.budget.room():
                    self.budget.memory_error()
                matches = table_matches(digits, keys, add, add_keys, values, g_keys, pairs)
                self.budget.work(3 * len(matches) * (polys.shape[1] * cpolys.shape[1] + 10))
                if kind == "box":
                    log_mines[ref], log_free[ref] = table_box_marginals(
                        matches, polys, cpolys, g_pol, shift, self.sizes[ref])
                else:
                    outside[ref] = table_outside(matches, len(add_keys), cpolys.shape[1],
                                                 polys, g_pol, shift)
                back = table_back(matches, len(keys), polys.shape[1], cpolys, g_pol, shift)
                g = (keys, back, lo)
            self.budget.release(tables[1:])
        return log_mines, log_free
