"""Text forms of the Wordle wing's own results: what ``deductive wordle matrix``,
``multi`` and ``absurdle search`` print without ``--json``, and ``deductive cache info``
(the cache of pattern matrices, which Wordle's ``patterns`` fills). One function per result type,
registered with :func:`~deductive.engine.render.render`; the JSON forms are the results'
own ``to_json`` methods. The results Wordle shares with every feedback game have their text
in :mod:`deductive.engine.feedback.text`.
"""

from __future__ import annotations

from ...cache import CacheSummary
from ..render import render
from .absurdle import AbsurdleResult
from .multi import MultiResult
from .patterns import MatrixInfo

__all__: list[str] = []


@render.register
def _matrix(info: MatrixInfo) -> str:
    """The shape, dtype and size, how it was had and how long it took, then the cache file."""
    rows, cols = info.shape
    verb = "loaded from the cache" if info.source == "cache" else "built"
    return (f"{rows} x {cols} {info.dtype} ({info.bytes / 1e6:.1f} MB), {verb} in "
            f"{info.seconds:.3f} s\ncache: {info.cache or '(not used)'}")


@render.register
def _multi(result: MultiResult) -> str:
    """The win rate with its 95% interval, the guesses, then the distribution."""
    r = result.to_json()
    low, high = r["win_rate_95"]
    return (f"{r['boards']} boards, {r['games']} games: win rate {r['win_rate']:.4f} (95% "
            f"{low:.4f}-{high:.4f}, within {r['limit']}), average {r['average']:.4f}, "
            f"worst {r['worst']}, {r['seconds']:.1f} s\ndistribution: "
            + ", ".join(f"{k}: {v}" for k, v in r["distribution"].items() if v))


@render.register
def _absurdle(result: AbsurdleResult) -> str:
    """The fewest guesses, a sequence that forces the win, and the proof's cost."""
    return (f"{result.guesses} guesses force a win: {' '.join(result.sequence)} (no win "
            f"within {max(result.lower_bounds, default=0)}: proven; {result.seconds:.1f} s, "
            f"{result.nodes} nodes)")


@render.register
def _cache_summary(summary: CacheSummary) -> str:
    """The directory, then one line per file (a temporary file says whose it is)."""
    lines = [f"cache directory: {summary.directory}"]
    if not summary.entries:
        lines.append("no cached matrices")
    for entry in summary.entries:
        size = f"{entry['bytes'] / 1e6:.1f} MB"
        if entry["status"] != "ok":
            lines.append(f"  {entry['path']}  {size}  {entry['status']}")
            continue
        shape = " x ".join(str(n) for n in entry["shape"])
        lines.append(f"  {entry['path']}  {shape} {entry['dtype']}  {size}  guesses "
                     f"{entry['guesses_name']}, answers {entry['answers_name']}  kernel "
                     f"v{entry['kernel_version']}  {entry['created']}")
    live = set(summary.live)
    for path in summary.temporary_files:
        what = "a write in progress" if path in live else "left by a process that stopped"
        lines.append(f"  {path}  (temporary: {what})")
    return "\n".join(lines)
