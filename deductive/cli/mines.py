"""``deductive mines ...``: probabilities, deductions, games and win-rate benchmarks."""

from __future__ import annotations

import functools

import click

from ..distributed import mines_bench
from ..engine.minesweeper import Position, analyze, bench, compare as engine_compare, text
from ..engine.minesweeper.board import parse_preset
from ..engine.minesweeper.players import make_player
from ..engine.minesweeper.session import MinesSession
from ..plot import plot_mine_probabilities
from ._common import (SEED, Group, MemorySize, OutputFile, dask_options, fail, gather,
                      json_option, options, show)
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


def _analysis(position_file, mines_total, max_memory):
    return analyze(Position.read(position_file, mines_total), max_memory=max_memory)


#: FILE, --mines and --max-memory: the position, read and analysed (``analysis``).
position_options = gather(
    "analysis", _analysis, click.argument("position_file", metavar="FILE"),
    click.option("--mines", "mines_total", type=click.IntRange(min=0), required=True,
                 help="Total number of mines on the board (flags included)."),
    click.option("--max-memory", type=MemorySize(), default=None, metavar="SIZE",
                 help="Memory the exact count of a big component may hold (e.g. 2G; default: "
                      "a quarter of the memory available, at most 1G). Past it: one error "
                      "line."))


@mines.command()
@position_options
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG heat map of the probabilities.")
@json_option
def probs(analysis, plot_path, as_json):
    """Exact mine probability of every covered cell of a position.

    FILE has one line per row: x covered, 0-8 or . revealed, * or F flagged (- reads
    stdin). The probabilities honour the total number of mines.

    \b
    Example:
      printf 'xxx\\nx1x\\nxxx\\n' | deductive mines probs - --mines 1
    """
    if plot_path:
        plot_mine_probabilities(analysis, plot_path)
    show(analysis.as_dict(), text.probabilities(analysis), as_json)


@mines.command()
@position_options
@json_option
def deduce(analysis, as_json):
    """List the cells that are safe or mines in every arrangement (row, column from 1).

    \b
    Example:
      deductive mines deduce position.txt --mines 10
    """
    show(analysis.forced_cells(), text.forced(analysis), as_json)


game_options = options(
    click.option("--preset", default="expert", show_default=True,
                 help="beginner (9x9/10), beginner8 (8x8/10), intermediate (16x16/40), "
                      "expert (16x30/99), or ROWSxCOLS/MINES."),
    click.option("--first-click", type=click.Choice(["safe", "zero", "none"]), default="safe",
                 show_default=True, help="safe: the first cell is no mine (classic); zero: it "
                 "opens a 0 (modern); none: mines placed before the click."),
    click.option("--seed", type=SEED, default=1000, show_default=True,
                 help="Game g: mines seeded S+g, player S+1000+g."),
    click.option("--first-move", default="corner", show_default=True, metavar="WHERE",
                 help="corner, centre, or ROW,COL counted from 1. Hill's modern start "
                      "\"(3,3)\" counts from 0: --first-move 4,4."))
player_option = click.option(
    "--player", "player_name", default="best", show_default=True, metavar="NAME[:OPT=V,...]",
    help="rules-random, csp-random, least-risk, best or strongest; options after a colon "
         "(e.g. strongest:endgame=400).")
sweep_options = options(
    click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True),
    dask_options, click.option("--checkpoint", type=OutputFile(), default=None,
                               help="With Dask: append finished chunks here, and skip them "
                                    "when rerun."), json_option)


def _sweep(names, games, cluster, checkpoint, preset, **settings) -> list:
    """Each player's ``BenchResult`` on the same games, here or on one Dask cluster."""
    made = [make_player(name) for name in names]      # bad names fail before Dask
    bench.first_move_cell(*parse_preset(preset)[:2], settings["first_move"])
    if checkpoint and not cluster:
        fail("--checkpoint works with --workers or --scheduler")
    with progress(len(names) * games, " vs ".join(names)) as update:
        def play(client=None):
            results = []
            for i, (name, player) in enumerate(zip(names, made)):
                step = functools.partial(lambda base, done: update(base + done), i * games)
                results.append(
                    bench.run_bench(preset, player, games, progress=step, **settings)
                    if client is None else mines_bench(client, preset, name, games,
                                                       checkpoint=checkpoint, progress=step,
                                                       **settings))
            return results
        return cluster.run(play, play)


@mines.command("bench")
@game_options
@player_option
@sweep_options
def bench_command(preset, first_click, seed, first_move, player_name, games, cluster,
                  checkpoint, as_json):
    """Play N games and report the win rate with a 95% confidence interval.

    With --workers K (or --scheduler ADDRESS) the games run on Dask; the results are the
    same as in one process.

    \b
    Examples:
      deductive mines bench --preset expert --first-click safe --player best --games 10000
      deductive mines bench --preset expert --player least-risk --games 20000 --workers 2
    """
    report = _sweep([player_name], games, cluster, checkpoint, preset, first_click=first_click,
                    seed=seed, first_move=first_move)[0].as_dict()
    show(report, text.bench_summary(report, preset), as_json)


@mines.command()
@click.argument("player_a", metavar="A")
@click.argument("player_b", metavar="B")
@game_options
@sweep_options
def compare(player_a, player_b, preset, first_click, seed, first_move, games, cluster,
            checkpoint, as_json):
    """Players A and B (as --player) on the same games: A - B with its paired 95% interval
    (Newcombe) and the sign test on the games only one of them won.

    \b
    Examples:
      deductive mines compare best least-risk --preset beginner --games 500
      deductive mines compare best best:far_corner=false --games 20000 --workers 2
    """
    result = engine_compare.Comparison(*_sweep(
        [player_a, player_b], games, cluster, checkpoint, preset, first_click=first_click,
        seed=seed, first_move=first_move)).as_dict()
    show(result, text.compare_summary(result, preset), as_json)


@mines.command("seed-protocol")
@click.option("--games", type=click.IntRange(min=1), default=50, show_default=True)
@json_option
def seed_protocol(games, as_json):
    """The original programs' table: three strategies, 8x8 with 10 mines, first click at
    the centre opening a 0, 50 games, boards seeded 1000+g and players 2000+g.

    \b
    Example:
      deductive mines seed-protocol
    """
    rows = bench.original_protocol(games)
    show(rows, text.protocol_table(rows, games), as_json)


@mines.command()
@game_options
@player_option
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
    session = MinesSession(preset, player_name, game, seed=seed, first_click=first_click,
                           first_move=first_move)
    click.echo(text.opening(session))
    for step in session.steps():
        if plot_path and step.move.kind == "guess":
            plot_mine_probabilities(analyze(step.position), plot_path)
            plot_path = None
        click.echo(text.step(session, step))
    click.echo("\nwon" if session.won else "\nlost")
