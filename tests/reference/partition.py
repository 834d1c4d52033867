"""Partitions of a candidate set by a guess row: buckets, groups, summaries, entropy."""

from __future__ import annotations

import math


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
