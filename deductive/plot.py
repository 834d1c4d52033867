"""Plots (extra ``plot``: matplotlib). Every function writes a PNG and returns its path.

Figures are drawn with matplotlib's object-oriented API (:class:`matplotlib.figure.Figure`),
not pyplot: no backend is selected and no global state is touched, so plotting from a
notebook or a GUI program leaves its matplotlib set-up as it was.
"""

from __future__ import annotations

import os

from ._io import write_output
from .errors import DeductiveError

__all__ = ["plot_guess_histogram", "plot_opener_buckets", "plot_mine_probabilities",
           "check_plot_path"]


def check_plot_path(path) -> None:
    """Raise unless matplotlib is installed and writes the format ``path``'s extension
    names: a plot asked for is checked before the work it shows."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise DeductiveError("plots need matplotlib: pip install 'deductive[plot]'") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    extension = os.path.splitext(os.fspath(path))[1].lstrip(".").lower()
    if extension not in formats:
        raise DeductiveError(f"{path}: unknown plot format {extension or '(no extension)'!r}; "
                             f"end the name with one of "
                             f"{', '.join('.' + f for f in sorted(formats))}")


def _save(fig, path) -> None:
    """``fig`` written to ``path`` in the format its extension names, never half."""
    fmt = os.path.splitext(os.fspath(path))[1].lstrip(".").lower()
    write_output(path, lambda fh: fig.savefig(fh, format=fmt, dpi=110))


def _figure(**options):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise DeductiveError("plots need matplotlib: pip install 'deductive[plot]'") from None
    return Figure(**options)


def plot_guess_histogram(result, path):
    """Bar chart of a benchmark's guess-count distribution."""
    dist = result.distribution
    labels = list(dist)
    fig = _figure(figsize=(7, 4))
    ax = fig.subplots()
    bars = ax.bar(labels, [dist[k] for k in labels], color="#6aaa64")
    ax.bar_label(bars)
    ax.set_xlabel("guesses")
    ax.set_ylabel("answers")
    mode = "hard" if result.hard else "normal"
    ax.set_title(f"{result.solver['solver']} (opener {result.opener or 'own'}, {mode} mode): "
                 f"average {result.average:.4f}, total {result.total}")
    fig.tight_layout()
    _save(fig, path)
    return path


def plot_opener_buckets(matrix, words, best: int, poor: int, path, metric="entropy"):
    """Bucket sizes (largest first) of a good opener beside a poor one."""
    import numpy as np

    from .engine.feedback.scoring import partition_stats

    fig = _figure(figsize=(11, 4))
    axes = fig.subplots(1, 2, sharey=True)
    for ax, row, tag in zip(axes, (best, poor), ("best", "poor")):
        sizes = np.sort(np.bincount(matrix[row].astype(np.int64)))[::-1]
        sizes = sizes[sizes > 0]
        stats = partition_stats(matrix, rows=[row])
        ax.bar(range(len(sizes)), sizes, color="#6aaa64" if tag == "best" else "#c9b458")
        ax.set_title(f"{tag}: {words[row]}  H={stats.entropy[0]:.3f} bits, "
                     f"{len(sizes)} patterns, largest {sizes[0]}")
        ax.set_xlabel("feedback patterns, largest first")
    axes[0].set_ylabel("answers")
    fig.suptitle(f"Feedback distribution over {matrix.shape[1]} answers ({metric} ranking)")
    fig.tight_layout()
    _save(fig, path)
    return path


def plot_mine_probabilities(analysis, path):
    """Heat map of a position's mine probabilities (revealed cells blank, numbers drawn)."""
    import numpy as np

    position = analysis.position
    grid = analysis.grid()
    fig = _figure(figsize=(max(4, position.cols * 0.4), max(3, position.rows * 0.4)))
    ax = fig.subplots()
    shown = np.ma.masked_invalid(grid)
    image = ax.imshow(shown, cmap="RdYlGn_r", vmin=0, vmax=1)
    cells = position.cells.reshape(position.rows, position.cols)
    for r in range(position.rows):
        for c in range(position.cols):
            v = cells[r, c]
            if v > 0:
                ax.text(c, r, str(int(v)), ha="center", va="center", fontsize=8)
            elif v == -2:
                ax.text(c, r, "F", ha="center", va="center", fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
    fig.colorbar(image, ax=ax, label="P(mine)")
    ax.set_title(f"{position.rows}x{position.cols}, {position.mines} mines")
    fig.tight_layout()
    _save(fig, path)
    return path
