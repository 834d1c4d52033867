"""Text forms of the wing's results: what ``deductive hangman`` prints without ``--json``.

One function per result type, registered with :func:`~deductive.engine.render.render`;
the JSON forms are the results' own ``to_json`` methods.
"""

from __future__ import annotations

from ..render import render
from .session import EvilReport, SolveReport, TreeReport

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
