"""``deductive mines ...``: probabilities, deductions, games and win-rate benchmarks."""

from __future__ import annotations

import functools

import click

from ..distributed import mines_bench
from ..engine.minesweeper import Position, analyze, bench, compare as engine_compare, text
from ..engine.minesweeper.analysis import POSITION
from ..engine.minesweeper.bench import CHECKPOINT, GAMES, N_GAMES
from ..engine.minesweeper.board import parse_preset
from ..engine.minesweeper.generate import GENERATE, generate_boards
from ..engine.minesweeper.players import PLAYER, make_player
from ..engine.minesweeper.session import GAME, MinesSession
from ..plot import plot_mine_probabilities
from ._common import JSON, PLOT, dask_options, fail, gather, options, progress, show
from . import mines_group as mines


def _analysis(position_file, mines, max_memory):
    return analyze(Position.read(position_file, mines), max_memory=max_memory)


#: FILE, --mines and --max-memory: the position, read and analysed (``analysis``).
position_options = gather("analysis", _analysis,
                          click.argument("position_file", metavar="FILE"), POSITION)
#: --games, Dask, --checkpoint and --json: how a benchmark runs.
SWEEP = (N_GAMES, dask_options, CHECKPOINT, JSON)


@mines.command()
@options(position_options, PLOT.but(help="Write a PNG heat map of the probabilities."), JSON)
def probs(analysis, plot, json):
    """Exact mine probability of every covered cell of a position.

    FILE has one line per row: x covered, 0-8 or . revealed, * or F flagged (- reads
    stdin). The probabilities honour the total number of mines.

    \b
    Example:
      printf 'xxx\\nx1x\\nxxx\\n' | deductive mines probs - --mines 1
    """
    if plot:
        plot_mine_probabilities(analysis, plot)
    show(analysis, json)


@mines.command()
@options(position_options, JSON)
def deduce(analysis, json):
    """List the cells that are safe or mines in every arrangement (row, column from 1).

    \b
    Example:
      deductive mines deduce position.txt --mines 10
    """
    show(analysis.deductions(), json)


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
@options(GAMES, PLAYER, SWEEP)
def bench_command(preset, first_click, seed, first_move, player, games, cluster, checkpoint,
                  json):
    """Play N games and report the win rate with a 95% confidence interval.

    With --workers K (or --scheduler ADDRESS) the games run on Dask; the results are the
    same as in one process.

    \b
    Examples:
      deductive mines bench --preset expert --first-click safe --player best --games 10000
      deductive mines bench --preset expert --player least-risk --games 20000 --workers 2
    """
    show(_sweep([player], games, cluster, checkpoint, preset, first_click=first_click,
                seed=seed, first_move=first_move)[0], json, spec=preset)


@mines.command()
@options(click.argument("player_a", metavar="A"), click.argument("player_b", metavar="B"),
         GAMES, SWEEP)
def compare(player_a, player_b, preset, first_click, seed, first_move, games, cluster,
            checkpoint, json):
    """Players A and B (as --player) on the same games: A - B with its paired 95% interval
    (Newcombe) and the sign test on the games only one of them won.

    \b
    Examples:
      deductive mines compare best least-risk --preset beginner --games 500
      deductive mines compare best best:far_corner=false --games 20000 --workers 2
    """
    show(engine_compare.Comparison(*_sweep(
        [player_a, player_b], games, cluster, checkpoint, preset, first_click=first_click,
        seed=seed, first_move=first_move)), json, spec=preset)


@mines.command("seed-protocol")
@options(N_GAMES.but(default=50), JSON)
def seed_protocol(games, json):
    """The original programs' table: three strategies, 8x8 with 10 mines, first click at
    the centre opening a 0, 50 games, boards seeded 1000+g and players 2000+g.

    \b
    Example:
      deductive mines seed-protocol
    """
    show(bench.original_protocol(games), json)


@mines.command()
@options(GAMES, PLAYER, GAME, PLOT.but(help="Write a PNG heat map of the position at the first "
                                          "guess."))
def play(preset, first_click, seed, first_move, player, game, plot):
    """Show one game step by step: the ASCII board after each move.

    \b
    Example:
      deductive mines play --preset beginner --player best --game 3
    """
    session = MinesSession(preset, player, game, seed=seed, first_click=first_click,
                           first_move=first_move)
    click.echo(text.opening(session))
    for step in session.steps():
        if plot and step.move.kind == "guess":
            plot_mine_probabilities(analyze(step.position), plot)
            plot = None
        click.echo(text.step(session, step))
    click.echo("\nwon" if session.won else "\nlost")


@mines.command()
@options(GENERATE, JSON)
def generate(json, count, **settings):
    """Boards that never need a guess from the first click (the exact engine, the mine
    count included, always finds a safe cell), each verified by replaying it.

    \b
    Examples:
      deductive mines generate --preset expert --first-move 8,15 --count 3 --seed 1
      deductive mines generate --preset beginner --first-move corner --no-guess uniform
    """
    with progress(count, "boards") as update:
        result = generate_boards(count=count, progress=update, **settings)
    show(result, json)
