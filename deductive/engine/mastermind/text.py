"""Text forms of the wing's results: what ``deductive mastermind`` and ``deductive bulls``
print without ``--json`` (registered with :func:`~deductive.engine.render.render`; the JSON
forms are the results' ``to_json``), and the assistant's dialogue."""

from __future__ import annotations

from ..render import render
from .results import PegRanking, TreeStats

__all__ = ["scores", "summary", "assist"]


def scores(ranked) -> str:
    """Ranked first guesses (:class:`~deductive.engine.feedback.scoring.GuessScore`), one
    a line."""
    return "\n".join(f"{s.word}  entropy {s.entropy:.4f}  buckets {s.buckets}  largest "
                     f"{s.largest}  expected {s.expected:.3f}" for s in ranked)


@render.register
def _ranking(ranking: PegRanking) -> str:
    return scores(ranking.scores)


@render.register
def _tree_stats(stats: TreeStats) -> str:
    return summary(stats.to_json())


def summary(stats: dict) -> str:
    """A checked tree's statistics (:func:`~.search.tree_stats`): who made it, its
    totals, then its distribution."""
    head = ", ".join(f"{k} {stats[k]}" for k in ("solver", "opener", "objective") if k in stats)
    return (f"{head}: total {stats['total']}, average {stats['average']:.4f}, worst "
            f"{stats['worst']}" + (f", {stats['seconds']} s" if "seconds" in stats else "")
            + "\ndistribution: "
            + ", ".join(f"{k}: {v}" for k, v in stats["distribution"].items()))


def assist(game, read, top: int = 5):
    """Help with a game played elsewhere, as the lines to show: the codes left and the
    ``top`` best next guesses, after each ``guess feedback`` line ``read(prompt)``
    returns (an empty line, ``quit`` or the end of input stops)."""
    history: list[tuple[str, ...]] = []
    while True:
        left = game.candidates(history)
        yield (f"{len(left)} code(s) left: {' '.join(left[:10])}"
               + (" ..." if len(left) > 10 else ""))
        if len(left) == 1:
            yield f"the answer is {left[0]}"
            return
        yield "best next: " + ", ".join(f"{s.word} ({s.entropy:.3f} bits)"
                                        for s in game.best_guesses(history, k=top))
        line = read("")
        if not line.strip() or line.strip().lower() in ("quit", "q"):
            return
        entry = tuple(line.split(None, 1))
        try:
            if len(entry) != 2:
                raise ValueError("write a guess and its feedback, e.g. 1122 1B2W")
            game.replay(history + [entry])
            if not game.candidates(history + [entry]):
                raise ValueError("no code fits all the feedback; check the last entry")
            history.append(entry)
        except (ValueError, KeyError) as exc:
            yield f"not applied: {exc}"
