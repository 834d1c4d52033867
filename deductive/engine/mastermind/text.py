"""Text forms of the wing's results: what ``deductive mastermind`` and ``deductive bulls``
print without ``--json`` (registered with :func:`~deductive.engine.render.render`; the JSON
forms are the results' ``to_json``). The assistant's dialogue is in :mod:`.session`."""

from __future__ import annotations

from ..render import render
from .results import PegRanking, TreeStats

__all__: list[str] = []


@render.register
def _ranking(ranking: PegRanking) -> str:
    """Ranked first guesses, one a line."""
    return "\n".join(f"{s.word}  entropy {s.entropy:.4f}  buckets {s.buckets}  largest "
                     f"{s.largest}  expected {s.expected:.3f}" for s in ranking.scores)


@render.register
def _tree_stats(result: TreeStats) -> str:
    """A checked tree's statistics (:func:`~.search.tree_stats`): who made it, its
    totals, then its distribution."""
    stats = result.to_json()
    head = ", ".join(f"{k} {stats[k]}" for k in ("solver", "opener", "objective") if k in stats)
    return (f"{head}: total {stats['total']}, average {stats['average']:.4f}, worst "
            f"{stats['worst']}" + (f", {stats['seconds']} s" if "seconds" in stats else "")
            + "\ndistribution: "
            + ", ".join(f"{k}: {v}" for k, v in stats["distribution"].items()))
