"""The README's table of feedback games: each figure and its wall time, measured.

Usage: python benchmarks/games.py [--repeats 3] [--bulls] [--data ../shared/data/wordle]

Each case runs warm (its kernels compiled and its matrix built by a first, untimed call
where the case is cheap) ``--repeats`` times; printed: the result (which must be the same
every run) and the median and spread of the wall times; the Bulls and Cows searches run
once (minutes). ``--bulls`` adds its exact search (minutes: about five here).
"""

import argparse
import statistics
import time
from pathlib import Path

from deductive.engine.mastermind import BullsAndCows, Mastermind
from deductive.engine.mastermind.search import SymmetricSearch, WorstCaseSearch, optimal
from deductive.engine.wordle import Wordle
from deductive.engine.wordle.absurdle import Absurdle, absurdle_search
from deductive.engine.wordle.multi import MultiBoard


def cases(data, bulls):
    mm = Mastermind(4, 6)
    mm.matrix
    yield "Mastermind 4x6: Knuth's algorithm (total, worst)", lambda: (
        lambda r: (r.total, r.worst))(mm.bench("knuth"))
    yield "Mastermind 4x6: least worst case (proven)", lambda: WorstCaseSearch(mm).search().worst
    yield "Mastermind 4x6: optimal expected total (all openers)", lambda: (
        lambda r: (r[0].opener, r[0].total, r[0].worst))(optimal(mm))
    yield "Mastermind 4x6: optimal total within 5 guesses", lambda: optimal(
        mm, max_guesses=5)[0].total
    bc = BullsAndCows()
    bc.matrix
    yield "Bulls and Cows: Knuth-style minimax (total, worst)", lambda: (
        lambda r: (r.total, r.worst))(bc.bench("knuth"))
    yield "Bulls and Cows: beam 10 from 0123 (upper bound)", lambda: SymmetricSearch(
        bc, beam=10).search_opener("0123").total
    if bulls:
        yield "Bulls and Cows: optimal expected (total, worst)", lambda: (
            lambda r: (r[0].total, r[0].worst))(optimal(bc))
    if data is not None:
        w = Wordle(data / "guesses.txt", data / "answers.txt")
        w.matrix
        yield "Absurdle, original lists: fewest guesses", lambda: (
            lambda r: (r.guesses, " ".join(r.sequence)))(absurdle_search(Absurdle(w)))
        yield "Quordle, 10,000 games, entropy (wins, total)", lambda: (
            lambda r: (r.wins, int(r.guesses.sum())))(MultiBoard(w, 4).run(10_000))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--bulls", action="store_true")
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/data/wordle")
    args = parser.parse_args()
    data = args.data if (args.data / "guesses.txt").is_file() else None
    for name, run in cases(data, args.bulls):
        times, results = [], set()
        for _ in range(1 if name.startswith("Bulls and Cows: ") and "minimax" not in name
                       else args.repeats):
            start = time.perf_counter()
            results.add(run())
            times.append(time.perf_counter() - start)
        assert len(results) == 1, (name, results)
        print(f"{name}: {results.pop()}; median {statistics.median(times):.2f} s "
              f"(min {min(times):.2f}, max {max(times):.2f}, {len(times)} runs)", flush=True)


if __name__ == "__main__":
    main()
