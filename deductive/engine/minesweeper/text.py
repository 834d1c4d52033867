"""Text forms of the wing's results: what ``deductive mines`` prints without ``--json``.

One function per typed result (an :class:`~.analysis.Analysis`, its
:class:`~.analysis.Deductions`, a :class:`~.bench.BenchResult`, a
:class:`~.compare.Comparison`, a :class:`~.bench.ProtocolTable`, a
:class:`~.generate.GenerateResult`), registered with
:func:`~deductive.engine.render.render`; and a game shown step by step (:func:`opening`,
:func:`step`), as :meth:`~.board.Board.draw` does for a board. The JSON forms are the
results' own ``to_json`` methods.
"""

from __future__ import annotations

import math

from ..render import render
from .analysis import Analysis, Deductions
from .bench import BenchResult, ProtocolTable, first_move_name
from .compare import Comparison
from .generate import GenerateResult

__all__ = ["opening", "step"]


@render.register
def _probabilities(analysis: Analysis) -> str:
    """The probability grid (``.`` revealed) and a line of counts."""
    grid = [" ".join("  .  " if v != v else f"{v:5.3f}" for v in row) for row in analysis.grid()]
    counts = (f"{len(analysis.safe)} safe, {len(analysis.mines)} mine(s) forced; "
              f"{analysis.log_count / math.log(10):.2f} log10 arrangements")
    return "\n".join(grid + [counts])


@render.register
def _deductions(deductions: Deductions) -> str:
    """One line per forced cell (``safe  row R, column C``, then the mines)."""
    a = deductions.analysis
    return "\n".join(f"{kind}  {a.position.where(int(c))}"
                     for kind, cells in (("safe", a.safe), ("mine", a.mines))
                     for c in cells) or "nothing is forced"


def _decisions(report: dict) -> str:
    """``rules=R, forced=F, guess=G``: cells decided by each kind of move."""
    return ", ".join(f"{k}={v}" for k, v in report["decisions"].items())


def _board(report: dict, spec: str) -> str:
    """``SPEC (RxC/M)``, or the size alone when no spec is given."""
    size = f"{report['rows']}x{report['cols']}/{report['mines']}"
    return f"{spec} ({size})" if spec else size


@render.register
def _bench(result: BenchResult, spec: str = "") -> str:
    """Four lines: the set-up (``spec``: the preset as given), the win rate with its
    interval, guesses and time, decisions."""
    report = result.to_json()
    lo, hi = report["ci95"]
    return (f"{report['player']} on {_board(report, spec)}, "
            f"first click {report['first_click']} at {first_move_name(report['first_move'])}, "
            f"seed {report['seed']}\n"
            f"wins {report['wins']}/{report['games']} = {100 * report['win_rate']:.2f}% "
            f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%)\n"
            f"guesses per game {report['guesses_per_game']:.3f}, "
            f"{1000 * report['seconds_per_game']:.2f} ms per game\n"
            f"decisions: {_decisions(report)}")


@render.register
def _compare(comparison: Comparison, spec: str = "") -> str:
    """Each player's line (win rate, interval, time), then the paired difference."""
    report = comparison.to_json()
    a, b = report["a"], report["b"]
    lines = [f"{a['player']} vs {b['player']} on {_board(a, spec)}, "
             f"first click {a['first_click']} at {first_move_name(a['first_move'])}, "
             f"seed {a['seed']}, the same {report['games']} games"]
    for side, r in (("A", a), ("B", b)):
        lo, hi = r["ci95"]
        lines.append(f"{side} {r['player']}: wins {r['wins']} = {100 * r['win_rate']:.2f}% "
                     f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%), "
                     f"{1000 * r['seconds_per_game']:.2f} ms per game")
    lo, hi = report["ci95"]
    lines.append(f"won by both {report['both_won']}, only A {report['only_a_won']}, only B "
                 f"{report['only_b_won']}, neither {report['neither_won']}")
    lines.append(f"A - B = {100 * report['difference']:+.2f} points (paired 95% CI "
                 f"{100 * lo:+.2f} to {100 * hi:+.2f}), sign test p = {report['sign_test_p']:.3g}")
    return "\n".join(lines)


@render.register
def _protocol(table: ProtocolTable) -> str:
    """The original programs' table (:func:`~.bench.original_protocol`), one line a strategy."""
    games = table.games
    lines = [f"{games} games, 8x8, 10 mines, first click (4, 4) opening a 0"]
    lines += [f"{row['strategy']:<30} wins {row['wins']}/{games} ({100 * row['win_rate']:.0f}%), "
              f"{1000 * row['seconds_per_game']:.1f} ms/game, {_decisions(row)}"
              for row in table.rows]
    return "\n".join(lines)


def opening(session) -> str:
    """Where the first click went, and the board after it."""
    return f"first click {session.where(session.first_cell)}\n{session.picture()}"


def step(session, step) -> str:
    """A blank line, ``step N: kind: what``, and the board after the move."""
    move = step.move
    what = f"{len(move.reveal)} reveal(s), {len(move.flag)} flag(s)"
    if move.kind == "guess":
        why = f", {move.reason}" if move.reason else ""
        win = "" if move.win is None else f", P(win) = {move.win:.3f}"
        what = f"guess {session.where(move.reveal[0])} (P(mine) = {move.probability:.3f}{why}" \
            f"{win})"
    return f"\nstep {step.number}: {move.kind}: {what}\n{step.picture}"


@render.register
def _generated(result: GenerateResult) -> str:
    """A line of set-up and cost, then each board (``*`` a mine, ``.`` safe, ``o`` the
    first click)."""
    rows, cols, mines = result.board
    head = (f"{len(result.boards)} no-guess board(s), {rows}x{cols}/{mines}, first click "
            f"{result.first_click} at {first_move_name(result.first_move)}, {result.mode} mode, "
            f"seed {result.seed}: {result.draws} draw(s), "
            f"{sum(b.moves for b in result.boards)} mine(s) moved, "
            f"{result.boards_per_second:.2f} boards/s; each verified by replaying it "
            "(* a mine, . safe, o the first click)")
    parts = [head]
    for k, b in enumerate(result.boards):
        parts.append(f"\nboard {k} ({b.draws} draw(s), {b.moves} move(s))\n"
                     + "\n".join(b.grid()))
    return "\n".join(parts)
