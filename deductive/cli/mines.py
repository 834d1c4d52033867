"""``deductive mines ...``: probabilities, deductions, games and win-rate benchmarks."""

from __future__ import annotations

import sys

import click

from ._common import (
    SEED,
    Group,
    MemorySize,
    OutputFile,
    dask_options,
    dask_timeout,
    echo_json,
    fail,
    json_option,
)
from ._progress import progress


@click.group(cls=Group)
def mines():
    """Minesweeper: exact probabilities, forced cells, players, benchmarks.

    \b
    Examples:
      deductive mines probs position.txt --mines 99
      deductive mines bench --preset expert --player best --games 1000
      deductive mines seed-protocol
    """


def _read_position(path, mines_total):
    from ..engine.minesweeper import Position

    if path == "-":
        text = sys.stdin.read()
    else:
        what = ("give a position file (one row per line: x covered, 0-8 or . revealed, "
                "* or F flag) or - for stdin")
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            fail(f"{path}: no such file; {what}")
        except IsADirectoryError:
            fail(f"{path}: is a folder; {what}")
        except UnicodeDecodeError as exc:
            fail(f"{path}: not a text file (byte {exc.start} is not UTF-8); {what}")
        except OSError as exc:
            fail(f"{path}: cannot be read ({exc.strerror}); {what}")
    return Position.parse(text, mines_total)


_position_args = [
    click.argument("position_file", metavar="FILE"),
    click.option("--mines", "mines_total", type=click.IntRange(min=0), required=True,
                 help="Total number of mines on the board (flags included)."),
    click.option("--max-memory", type=MemorySize(), default=None, metavar="SIZE",
                 help="Memory the exact count of a big component may hold (e.g. 2G; "
                      "default: a quarter of the memory available, at most 1G). Past it: one "
                      "error line."),
]


def _position_command(func):
    for decorate in reversed(_position_args):
        func = decorate(func)
    return func


@mines.command()
@_position_command
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG heat map of the probabilities.")
@json_option
def probs(position_file, mines_total, max_memory, plot_path, as_json):
    """Exact mine probability of every covered cell of a position.

    FILE has one line per row: x covered, 0-8 or . revealed, * or F flagged (- reads
    stdin). The probabilities honour the total number of mines.

    \b
    Example:
      printf 'xxx\\nx1x\\nxxx\\n' | deductive mines probs - --mines 1
    """
    from ..engine.minesweeper import analyze

    position = _read_position(position_file, mines_total)
    analysis = analyze(position, max_memory=max_memory)
    grid = analysis.grid()
    if plot_path:
        from ..plot import plot_mine_probabilities

        plot_mine_probabilities(analysis, plot_path)
    if as_json:
        rows = [[None if v != v else round(float(v), 12) for v in row] for row in grid]
        echo_json({"rows": position.rows, "cols": position.cols, "mines": position.mines,
                   "probabilities": rows})
        return
    for row in grid:
        click.echo(" ".join("  .  " if v != v else f"{v:5.3f}" for v in row))
    click.echo(f"{len(analysis.safe)} safe, {len(analysis.mines)} mine(s) forced; "
               f"{analysis.log_count / 2.302585092994046:.2f} log10 arrangements")


@mines.command()
@_position_command
@json_option
def deduce(position_file, mines_total, max_memory, as_json):
    """List the cells that are safe or mines in every arrangement (row, column from 1).

    \b
    Example:
      deductive mines deduce position.txt --mines 10
    """
    from ..engine.minesweeper import analyze

    position = _read_position(position_file, mines_total)
    analysis = analyze(position, max_memory=max_memory)

    def rc(cell):
        return [int(cell) // position.cols + 1, int(cell) % position.cols + 1]

    if as_json:
        echo_json({"safe": [rc(c) for c in analysis.safe], "mines": [rc(c) for c in analysis.mines]})
        return
    for cell in analysis.safe:
        r, c = rc(cell)
        click.echo(f"safe  row {r}, column {c}")
    for cell in analysis.mines:
        r, c = rc(cell)
        click.echo(f"mine  row {r}, column {c}")
    if not len(analysis.safe) and not len(analysis.mines):
        click.echo("nothing is forced")


def _bench_options(func):
    func = click.option("--first-move", type=click.Choice(["corner", "centre"]), default="corner",
                        show_default=True, help="Where the first click goes.")(func)
    func = click.option("--seed", type=SEED, default=1000, show_default=True,
                        help="Game g: mines seeded S+g, player S+1000+g.")(func)
    func = click.option("--first-click", type=click.Choice(["safe", "zero", "none"]),
                        default="safe", show_default=True,
                        help="safe: the first cell is no mine; zero: it opens a 0.")(func)
    func = click.option("--preset", default="expert", show_default=True,
                        help="beginner (9x9/10), beginner8 (8x8/10), intermediate (16x16/40), "
                             "expert (16x30/99), or ROWSxCOLS/MINES.")(func)
    return func


@mines.command()
@_bench_options
@click.option("--player", "player_name", default="best", show_default=True,
              help="rules-random, csp-random, least-risk or best.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@dask_options
@click.option("--checkpoint", type=OutputFile(), default=None,
              help="With Dask: append finished chunks here, and skip them when rerun.")
@json_option
def bench(preset, first_click, seed, first_move, player_name, games, workers, scheduler,
          checkpoint, as_json):
    """Play N games and report the win rate with a 95% confidence interval.

    With --workers K (or --scheduler ADDRESS) the games run on Dask; the results are the
    same as in one process.

    \b
    Examples:
      deductive mines bench --preset expert --first-click safe --player best --games 10000
      deductive mines bench --preset expert --player least-risk --games 20000 --workers 2
    """
    from ..engine.minesweeper.bench import run_bench
    from ..engine.minesweeper.board import parse_preset
    from ..engine.minesweeper.players import make_player

    player = make_player(player_name)
    parse_preset(preset)
    if checkpoint and not (workers or scheduler):
        fail("--checkpoint works with --workers or --scheduler")
    with progress(games, f"{player_name} on {preset}") as update:
        if workers or scheduler:
            from ..distributed import dask_client, mines_bench

            with dask_client(scheduler, workers, dask_timeout()) as client:
                result = mines_bench(client, preset, player_name, games, first_click=first_click,
                                     first_move=first_move, seed=seed, checkpoint=checkpoint,
                                     progress=update)
        else:
            result = run_bench(preset, player, games, first_click=first_click,
                               first_move=first_move, seed=seed, progress=update)
    report = result.as_dict()
    if as_json:
        echo_json(report)
        return
    lo, hi = report["ci95"]
    click.echo(f"{player_name} on {preset} ({report['rows']}x{report['cols']}/{report['mines']}), "
               f"first click {first_click} at the {first_move}, seed {seed}")
    click.echo(f"wins {report['wins']}/{games} = {100 * report['win_rate']:.2f}% "
               f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%)")
    click.echo(f"guesses per game {report['guesses_per_game']:.3f}, "
               f"{1000 * report['seconds_per_game']:.2f} ms per game")
    click.echo("decisions: " + ", ".join(f"{k}={v}" for k, v in report["decisions"].items()))


@mines.command("seed-protocol")
@click.option("--games", type=click.IntRange(min=1), default=50, show_default=True)
@json_option
def seed_protocol(games, as_json):
    """The seed's table: three strategies, 8x8 with 10 mines, first click at the centre
    opening a 0, 50 games, boards seeded 1000+g and players 2000+g.

    \b
    Example:
      deductive mines seed-protocol
    """
    from ..engine.minesweeper.bench import run_bench
    from ..engine.minesweeper.players import make_player

    rows = []
    labels = {"rules-random": "rules + random", "csp-random": "rules + CSP + random",
              "least-risk": "rules + CSP + probabilities"}
    for name, label in labels.items():
        result = run_bench("beginner8", make_player(name), games, first_click="zero",
                           first_move="centre", seed=1000)
        rows.append({"strategy": label, **result.as_dict()})
    if as_json:
        echo_json(rows)
        return
    click.echo(f"{games} games, 8x8, 10 mines, first click (4, 4) opening a 0")
    for row in rows:
        click.echo(f"{row['strategy']:<30} wins {row['wins']}/{games} "
                   f"({100 * row['win_rate']:.0f}%), {1000 * row['seconds_per_game']:.1f} ms/game, "
                   + ", ".join(f"{k}={v}" for k, v in row["decisions"].items()))


@mines.command()
@_bench_options
@click.option("--player", "player_name", default="best", show_default=True)
@click.option("--game", type=click.IntRange(min=0), default=0, show_default=True,
              help="Game number g (mines seeded --seed + g).")
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG heat map of the position at the first guess.")
def play(preset, first_click, seed, first_move, player_name, game, plot_path):
    """Show one game step by step: the ASCII board after each move.

    \b
    Example:
      deductive mines play --preset beginner --player best --game 3
    """
    import numpy as np

    from ..engine.minesweeper import Board, analyze
    from ..engine.minesweeper.bench import first_move_cell
    from ..engine.minesweeper.players import make_player

    player = make_player(player_name)
    board = Board.preset(preset, seed=seed + game, first_click=first_click)
    rng = np.random.default_rng(seed + 1000 + game)
    cell = first_move_cell(board.rows, board.cols, first_move)
    board.click(cell)
    click.echo(f"first click row {cell // board.cols + 1}, column {cell % board.cols + 1}")
    click.echo(board.draw())
    step = 0
    plotted = False
    while not board.over:
        step += 1
        position = board.position()
        move = player.decide(position, rng)
        if move.kind == "guess" and plot_path and not plotted:
            from ..plot import plot_mine_probabilities

            plot_mine_probabilities(analyze(position), plot_path)
            plotted = True
        board.apply(move)
        what = f"{len(move.reveal)} reveal(s), {len(move.flag)} flag(s)"
        if move.kind == "guess":
            c = move.reveal[0]
            what = (f"guess row {c // board.cols + 1}, column {c % board.cols + 1} "
                    f"(P(mine) = {move.probability:.3f})")
        click.echo(f"\nstep {step}: {move.kind}: {what}")
        click.echo(board.draw(show_mines=board.lost))
    click.echo("\nwon" if board.won else "\nlost")
