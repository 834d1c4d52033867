"""The optimal expected case of Mastermind, size by size: the Results page's rows.

Usage: python benchmarks/mastermind_table.py [--sizes 2x2,4x7,...] [--out DIR]

Each size runs as the command a user types, in a process of its own under
``/usr/bin/time -v`` at ``nice -n 19`` on one thread::

    deductive --threads 1 mastermind search --pegs P --colours C --json --tree DIR/PxC.json

(every first guess up to symmetry, exactly), then ``deductive mastermind tree-check`` on
the tree it wrote. Printed per size, as a Markdown row: the proven total and average,
the worst case and opener of the tree, the published optimum where there is one, the
wall and user CPU seconds and the peak resident memory of the search. A first, untimed
search of 2x2 compiles the kernels. Nothing is asserted: the figures depend on the
machine and its load (say which when quoting them).
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

#: Published optima of the expected case (total guesses over every code) and where.
PUBLISHED = {
    (4, 6): (5625, "Koyama and Lai (1993)"),
    (4, 7): (11228, "Ville (2013), 4.676"),
    (4, 8): (20471, "arfst23/Mastermind, 4.99780"),
}

#: Every size the search settles here in minutes at most, smallest first.
SIZES = ("2x2 2x3 2x4 2x5 2x6 2x7 2x8 2x9 2x10 3x2 3x3 3x4 3x5 3x6 3x7 3x8 3x9 3x10 "
         "4x2 4x3 4x4 4x5 4x6 4x7 4x8 5x2 5x3 5x4 5x5 6x2 6x3 6x4 7x2 7x3 8x2")


def command(pegs, colours, tree) -> list[str]:
    return [sys.executable, "-m", "deductive", "--threads", "1", "mastermind", "search",
            "--pegs", str(pegs), "--colours", str(colours), "--json", "--tree", str(tree)]


def measure(pegs, colours, out: Path) -> dict:
    """Search one size under /usr/bin/time -v and check its tree."""
    tree = out / f"{pegs}x{colours}.json"
    run = subprocess.run(["nice", "-n", "19", "/usr/bin/time", "-v",
                          *command(pegs, colours, tree)], capture_output=True, text=True,
                         check=True)
    found = json.loads(run.stdout)
    times = dict(re.findall(r"^\s*(.+?): (.+)$", run.stderr, re.M))
    wall = times["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
    check = subprocess.run([sys.executable, "-m", "deductive", "mastermind", "tree-check",
                            "--pegs", str(pegs), "--colours", str(colours), "--json",
                            str(tree)], capture_output=True, text=True, check=True)
    checked = json.loads(check.stdout)
    return {"size": f"{pegs}x{colours}", "codes": colours ** pegs, "total": found["total"],
            "average": found["average"], "worst": found["worst"],
            "opener": found["opener"], "exact": found["exact"],
            "checked": checked["valid"] and checked["total"] == found["total"],
            "published": PUBLISHED.get((pegs, colours)),
            "wall": sum(float(x) * 60 ** k for k, x in enumerate(reversed(wall))),
            "user": float(times["User time (seconds)"]),
            "peak_mb": int(times["Maximum resident set size (kbytes)"]) / 1024}


def row(r) -> str:
    published = f"{r['published'][0]:,} ({r['published'][1]})" if r["published"] else ""
    proof = "proven" if r["exact"] else "bound"
    ok = "checked" if r["checked"] else "REJECTED"
    return (f"| MM({r['size'].replace('x', ',')}) | {r['codes']:,} | {published} | "
            f"**{r['total']:,}** ({r['average']:.4f}), {proof}, tree {ok} | {r['opener']} | "
            f"{r['worst']} | {r['wall']:.1f} s | {r['user']:.1f} s | {r['peak_mb']:.0f} MB |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=SIZES.replace(" ", ","))
    parser.add_argument("--out", type=Path, default=None, help="where the trees go")
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",") if s]
    out = args.out or Path(tempfile.mkdtemp(prefix="mastermind-table-"))
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(command(2, 2, out / "warm.json"), capture_output=True, check=True)
    print("| game | codes | published optimum | ours | opener | worst | wall | user CPU "
          "| peak memory |")
    print("| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |")
    for pegs, colours in sizes:
        print(row(measure(pegs, colours, out)), flush=True)


if __name__ == "__main__":
    main()
