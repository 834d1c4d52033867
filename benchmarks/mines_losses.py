"""Where a Minesweeper player loses its games: every guess over N games, by the rule that
chose it (``Move.reason``) and by the stage of the game, with the expected deaths per game
(the sum of the guesses' mine probabilities; a random guess's is the mines left over the
covered cells) beside the deaths seen, and the exact endgame's probability of winning at a
game's first endgame guess.

Usage:
  python benchmarks/mines_losses.py [--player strongest] [--preset expert] [--games 2000]
      [--seed 20000] [--first-click safe] [--first-move corner] [--json]

Stages by the share of cells still covered when the guess is made: opening (at least
7/8), end (at most 1/8), middle (between). With ``--first-click none`` the first click is
a guess too (reason ``first click``). Games are those of ``deductive mines bench``
with the same seed (game g: mines seeded S+g, player S+1000+g).
"""

import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from benchmarks.mines_setup import add_game_options  # noqa: E402
from deductive.engine.minesweeper.bench import (first_move_cell, moves,  # noqa: E402
                                                new_game, wilson_interval)
from deductive.engine.minesweeper.board import parse_preset  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402


def stage(covered: int, cells: int) -> str:
    if 8 * covered >= 7 * cells:
        return "opening"
    return "end" if 8 * covered <= cells else "middle"


def losses(player, preset, games, seed, first_click, first_move) -> dict:
    rows, cols, mines = parse_preset(preset)
    first = first_move_cell(rows, cols, first_move)
    by_reason = defaultdict(lambda: [0, 0.0, 0])       # guesses, sum of p, deaths
    by_stage = defaultdict(lambda: [0, 0.0, 0])
    starts = defaultdict(lambda: [0, 0])               # first click: games, wins
    entries = []                                       # endgame win probability, first use
    wins = 0
    for g in range(games):
        board, rng = new_game(rows, cols, mines, g, seed=seed, first_click=first_click)
        guesses, entry = [], None
        if first_click == "none":       # the first click is a guess too
            guesses.append(("first click", mines / (rows * cols), "opening"))
        board.click(first)
        start = "lost" if board.lost else "zero" if board.numbers[first] == 0 else "number"
        last = None
        for position, move in moves(board, player, rng):
            last = move
            if move.kind == "guess":
                guesses.append((move.reason, move.probability,
                                stage(len(position.covered), rows * cols)))
                if move.reason == "endgame" and entry is None:
                    entry = move.win
        # rules and forced cells are proven safe: a game is lost at its last guess
        assert not board.lost or last is None or last.kind == "guess", last
        for i, (reason, p, where) in enumerate(guesses):
            died = int(board.lost and i == len(guesses) - 1)
            for table, key in ((by_reason, reason), (by_stage, where)):
                table[key][0] += 1
                table[key][1] += p
                table[key][2] += died
        wins += board.won
        starts[start][0] += 1
        starts[start][1] += board.won
        if entry is not None:
            entries.append(entry)

    def per_game(table):
        return {key: {"guesses": round(n / games, 4),
                      "expected_deaths": round(p / games, 4),
                      "deaths": round(d / games, 4)} for key, (n, p, d) in sorted(table.items())}

    lo, hi = wilson_interval(wins, games)
    return {
        "player": player.name, "preset": preset, "first_click": first_click,
        "first_move": first_move, "seed": seed, "games": games, "wins": wins,
        "win_rate": round(wins / games, 5), "ci95": [round(lo, 5), round(hi, 5)],
        "by_reason": per_game(by_reason), "by_stage": per_game(by_stage),
        "starts": {k: {"games": n, "win_rate": round(w / n, 4)}
                   for k, (n, w) in sorted(starts.items())},
        "endgame_reached": round(len(entries) / games, 4),
        "endgame_entry_win": round(sum(entries) / len(entries), 4) if entries else None,
        # the share of those guesses made at exactly one 50/50 or two (a win of 1/2, 1/4)
        "endgame_entry_half": round(sum(abs(w - 0.5) < 1e-9 for w in entries)
                                    / len(entries), 4) if entries else None,
        "endgame_entry_quarter": round(sum(abs(w - 0.25) < 1e-9 for w in entries)
                                       / len(entries), 4) if entries else None,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="strongest")
    parser.add_argument("--preset", default="expert")
    add_game_options(parser, games=2000, seed=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    report = losses(make_player(args.player), args.preset, args.games, args.seed,
                    args.first_click, args.first_move)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    lo, hi = report["ci95"]
    print(f"{report['player']} on {args.preset}, {args.games} games (seed {args.seed}): "
          f"{100 * report['win_rate']:.2f}% ({100 * lo:.2f}-{100 * hi:.2f})")
    for title in ("by_reason", "by_stage"):
        print(f"{title.replace('_', ' ')}: guesses, expected deaths, deaths per game")
        for key, row in report[title].items():
            print(f"  {key:12s} {row['guesses']:7.3f} {row['expected_deaths']:7.4f} "
                  f"{row['deaths']:7.4f}")
    for key, row in report["starts"].items():
        what = "hit a mine" if key == "lost" else f"showed a {key}"
        print(f"first click {what}: {row['games']} games, won {100 * row['win_rate']:.1f}%")
    line = f"games that guess in the exact endgame: {100 * report['endgame_reached']:.1f}%"
    if report["endgame_entry_win"] is not None:
        line += (f", win probability at the first such guess {report['endgame_entry_win']} "
                 f"(exactly 1/2: {100 * report['endgame_entry_half']:.1f}%, 1/4: "
                 f"{100 * report['endgame_entry_quarter']:.1f}%)")
    print(line)


if __name__ == "__main__":
    main()
