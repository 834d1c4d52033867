"""Jobs on a busy machine: each job with the default threads against one thread, alone and
beside one and two CPU-bound neighbour processes, in one run.

Usage: python benchmarks/contention.py [--rounds 5] [--jobs greedy,search,openers,build,mines]
                                      [--neighbours 0,1,2] [--env NAME=VALUE ...]
                                      [--shared ../shared/data]

Jobs (the original Wordle lists; the matrices come from the cache, built before timing):

* ``greedy``: ``entropy`` solver, opener salet, all 2,315 answers (``wordle bench``);
* ``search``: the exact tree search from salet (``wordle search --opener salet``);
* ``openers``: every guess ranked over the 12,972 x 12,972 matrix (``wordle openers
  --answers guesses.txt``);
* ``build``: the 12,972 x 12,972 pattern matrix, built (no cache);
* ``mines``: the probability engine on every position that needed it in 300 expert games
  (``least-risk``; see ``benchmarks/mines_engine_latency.py``).

Two worker processes serve the jobs for the whole run: one with the default number of
compute threads (the CPUs this process may use), one with ``DEDUCTIVE_THREADS=1``. Each
job is warmed up in both first. Then, for 0, 1 and 2 neighbours (CPU-bound pure-Python
loops this script starts, and stops before the next condition), each job runs ``--rounds``
times in each worker, alternating which goes first; the table gives the medians and the
ratio default / one thread beside the same neighbours. ``--env`` sets a variable in the
default worker only (e.g. ``NUMBA_THREADING_LAYER=omp`` or ``OMP_WAIT_POLICY=passive``,
to measure the options numba offers).

The machine is shared: before each condition the script samples for 2 s how idle the
CPUs are (other tenants' load) and prints it.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling modules
from neighbours import cpu_neighbours  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JOBS = ("greedy", "search", "openers", "build", "mines")


# -- the worker side ------------------------------------------------------------------------
def make_jobs(shared):
    """name -> callable returning a check value; heavy set-up happens on first use."""
    guesses_txt = os.path.join(shared, "wordle", "guesses.txt")
    answers_txt = os.path.join(shared, "wordle", "answers.txt")
    made = {}

    def game():
        if "game" not in made:
            from deductive.engine.wordle.game import Wordle

            made["game"] = Wordle(guesses_txt, answers_txt)
            made["game"].matrix
        return made["game"]

    def guesses():
        if "guesses" not in made:
            from deductive import wordle

            made["guesses"] = wordle.load_words(guesses_txt)
            made["square"] = wordle.cached_pattern_matrix(made["guesses"], made["guesses"])
        return made["guesses"]

    def greedy():
        return game().bench("entropy", opener="salet").total

    def search():
        from deductive.engine.feedback.search import TreeSearch

        return TreeSearch(game()).search_opener("salet").total

    def openers():
        from deductive import wordle

        words = guesses()
        return wordle.rank_guesses(made["square"], words, top=1)[0].word

    def build():
        from deductive import wordle

        words = guesses()
        return int(wordle.pattern_matrix(words, words).sum(dtype="int64") % 1000003)

    def mines():
        if "positions" not in made:
            from mines_engine_latency import positions

            made["positions"] = positions(300)
        from deductive.engine.minesweeper import analyze

        for position in made["positions"]:
            analyze(position)
        return len(made["positions"])

    return {"greedy": greedy, "search": search, "openers": openers, "build": build,
            "mines": mines}


def serve(shared):
    """Read job names on stdin; answer each with a JSON line {seconds, check}."""
    jobs = make_jobs(shared)
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        start = time.perf_counter()
        check = jobs[name]()
        print(json.dumps({"seconds": time.perf_counter() - start, "check": check}), flush=True)


# -- the driver side ------------------------------------------------------------------------
class Worker:
    def __init__(self, label, env, shared):
        self.label = label
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", "--shared", shared],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env)

    def run(self, job):
        self.proc.stdin.write(job + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker died running {job}")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def idle_share(seconds=2.0):
    """Share of the CPUs' time spent idle over ``seconds`` (from /proc/stat), or None."""
    def sample():
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:9]]
        return fields[3] + fields[4], sum(fields)
    try:
        idle0, total0 = sample()
        time.sleep(seconds)
        idle1, total1 = sample()
    except OSError:
        return None
    return (idle1 - idle0) / max(1, total1 - total0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", default=",".join(JOBS))
    parser.add_argument("--neighbours", default="0,1,2")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared", "data"))
    args = parser.parse_args()
    if args.serve:
        return serve(args.shared)
    jobs = [j for j in args.jobs.split(",") if j]
    unknown = sorted(set(jobs) - set(JOBS))
    if unknown:
        raise SystemExit(f"unknown jobs {unknown}; choose from {', '.join(JOBS)}")
    base = {k: v for k, v in os.environ.items() if k != "DEDUCTIVE_THREADS"}
    default_env = dict(base, **dict(item.split("=", 1) for item in args.env))
    workers = [Worker("default", default_env, args.shared),
               Worker("1 thread", dict(base, DEDUCTIVE_THREADS="1"), args.shared)]
    try:
        for job in jobs:                                  # warm up: compile, load, build
            checks = [w.run(job)["check"] for w in workers]
            if checks[0] != checks[1]:
                raise SystemExit(f"{job}: results differ ({checks})")
        conditions = [int(k) for k in args.neighbours.split(",")]
        results = {}
        for k in conditions:
            idle = idle_share()
            with cpu_neighbours(k):
                times = {(job, w.label): [] for job in jobs for w in workers}
                for r in range(args.rounds):
                    for job in jobs:
                        for w in (workers if r % 2 == 0 else workers[::-1]):
                            times[(job, w.label)].append(w.run(job)["seconds"])
            results[k] = {key: statistics.median(v) for key, v in times.items()}
            shown = "unknown" if idle is None else f"{100 * idle:.0f}%"
            print(f"{k} neighbour(s): CPUs idle before starting them: {shown}", flush=True)
            for job in jobs:
                d, s = results[k][(job, "default")], results[k][(job, "1 thread")]
                print(f"  {job}: default {d:.3f} s, 1 thread {s:.3f} s, ratio {d / s:.2f}",
                      flush=True)
    finally:
        for w in workers:
            w.close()
    threads = json.loads(subprocess.run(
        [sys.executable, "-c",
         "import json, deductive; print(json.dumps(deductive.get_threads()))"],
        capture_output=True, text=True, env=default_env).stdout or "null")
    print()
    header = " | ".join(f"{k} neighbour{'s' if k != 1 else ''}: default / 1 thread / ratio"
                        if k else "alone: default / 1 thread / ratio" for k in conditions)
    print(f"default: {threads} threads; medians of {args.rounds} rounds")
    print(f"| job | {header} |")
    print("| --- |" + " ---: |" * len(conditions))
    for job in jobs:
        cells = []
        for k in conditions:
            d, s = results[k][(job, "default")], results[k][(job, "1 thread")]
            cells.append(f"{d:.3f} s / {s:.3f} s / {d / s:.2f}x")
        print(f"| {job} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
