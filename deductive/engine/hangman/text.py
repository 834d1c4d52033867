"""Text forms of the wing's results: what ``deductive hangman`` prints without ``--json``.

One function per result type, registered with :func:`~deductive.engine.render.render`;
the JSON forms are the results' own ``to_json`` methods.
"""

from __future__ import annotations

import numpy as np

from ..render import render
from .session import EvilReport, SolveReport, TreeReport
from .sweep import SweepReport

__all__: list[str] = []


@render.register
def _solve(report: SolveReport, show: int = 12) -> str:
    """The candidates (the first ``show``), the best letter and the letters' statistics."""
    words = report.candidates
    out = [f"{len(words)} candidate(s): " + ", ".join(words[:show])
           + (" ..." if len(words) > show else "")]
    if report.best is None:
        return "\n".join(out + [f"the word is {words[0]}"])
    out.append(f"best letter ({report.strategy}, {report.lives_left} lives left): {report.best}")
    out.append(f"{'letter':>6} {'in words':>9} {'P(hit)':>7} {'entropy':>8} {'groups':>6}")
    out += [f"{s.letter:>6} {s.containing:>9} {s.hit_probability:>7.3f} {s.entropy:>8.3f} "
            f"{s.groups:>6}" for s in report.letters[:10]]
    return "\n".join(out)


@render.register
def _evil(report: EvilReport, top: int = 10) -> str:
    """The misses the adversary forces, and the first ``top`` words it can hold."""
    out = [f"{report.name}: {report.words} words. Against an adversary the guesser can hold "
           f"the misses to {report.misses} and no strategy does better: {report.misses + 1} "
           f"lives win every word ({report.seconds:.1f} s)."]
    if top and report.held:
        out.append(f"words the adversary can keep to the end ({len(report.held)}): "
                   + ", ".join(report.held[:top]) + (" ..." if len(report.held) > top else ""))
    return "\n".join(out)


@render.register
def _tree_check(report: TreeReport) -> str:
    """The words won, the list the tree was made for, each error, then ``ok`` or ``FAILED``."""
    c = report.check
    out = [f"{report.path}: {c.words} words of {report.length} letters, {c.wins} won with "
           f"{c.lives} lives ({100 * c.wins / c.words:.2f}%), at most {c.max_misses} misses"]
    if not report.same_list:
        out.append("note: the tree was made for another word list")
    if c.claimed_wins is not None and c.claimed_wins != c.wins:
        out.append(f"the tree claims {c.claimed_wins} wins")
    return "\n".join(out + [f"  {line}" for line in c.errors] + ["ok" if c.ok else "FAILED"])


@render.register
def _sweep(report: SweepReport, top: int = 10) -> str:
    """Per length its summary and the ``top`` easiest and hardest words (one number of
    lives), or a table of the lives (several)."""
    if len(report.lives) > 1:
        return _lives_table(report)
    lives, out = report.lives[0], []
    for n, (s,) in report.sweeps:
        out.append(f"length {n}: {s.words} words, mean misses {s.mean_misses:.4f}, win "
                   f"rate {100 * s.win_rate:.2f}% ({s.wins} won) with {lives} lives, "
                   f"{s.seconds:.3f} s")
        if top:
            k = min(top, s.words)
            out.append(f"  {k} easiest:")
            out += [f"    {r}" for r in s.results[:k]]
            out.append(f"  {k} hardest, hardest first:")
            out += [f"    {r}" for r in reversed(s.results[-k:])]
    if len(report.sweeps) > 1:
        wrong = np.concatenate([rs[0].wrong for _, rs in report.sweeps])
        seconds = sum(rs[0].seconds for _, rs in report.sweeps)
        out.append(f"all lengths: {len(wrong)} words, mean misses "
                   f"{round(float(wrong.mean()), 6):.4f}, win rate "
                   f"{100 * round(float((wrong < lives).mean()), 6):.2f}%, {seconds:.2f} s")
    return "\n".join(out)


def _lives_table(report: SweepReport) -> str:
    out = []
    for n, rs in report.sweeps:
        out.append(f"length {n}: {rs[0].words} words, {report.strategy}")
        out.append(f"  {'lives':>5} {'wins':>7} {'win rate':>9} {'mean misses':>12} "
                   f"{'seconds':>8}")
        out += [f"  {x:>5} {r.wins:>7} {100 * r.win_rate:>8.2f}% {r.mean_misses:>12.4f} "
                f"{r.seconds:>8.2f}" for x, r in zip(report.lives, rs)]
    return "\n".join(out)
