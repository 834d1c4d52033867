"""No-guess boards: our generator's speed beside Simon Tatham's, and Tatham's boards
replayed by our engine.

Usage:
  python benchmarks/mines_generate.py speed [--count 100] [--presets beginner,intermediate,expert]
      [--modes fast,uniform] [--json]
  python benchmarks/mines_generate.py tatham [--count 1000] [--preset expert] [--json]
  python -m pytest benchmarks/mines_generate.py

``speed`` times ``sgt-mines --generate N WxHnM`` (Debian's ``sgt-puzzles``; its boards open
a zero at a start cell it picks) and ``generate_boards`` with a zero first click in the
centre, each mode, one process, the JIT warmed first: boards per second by the wall clock
and by CPU time, each board of ours verified by replaying it. ``tatham`` decodes the game
IDs ``sgt-mines`` prints and counts the boards our engine clears from Tatham's start cell
without a guess.

Tatham's game ID ``WxH:X,Y,m<hex>`` holds the start cell (column X, row Y, from 0) and the
mines as a bitmap, one bit per cell row by row, the first cell the byte's high bit, written
in hex after two rounds of masking: each half of the bytes is XORed with SHA-1 digests of
the other half followed by a decimal counter (0, 1, ...), first half masked first, the
padding bits past the last cell cleared after each round. Decoding undoes the rounds in
the other order. (``u<hex>``: an unmasked bitmap.) A decoded board is
checked: the mine count the ID's settings name, and no mine on or around the start cell.
"""

import argparse
import hashlib
import json
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

from deductive.engine.minesweeper.board import neighbours_of, parse_preset
from deductive.engine.minesweeper.generate import generate_boards, is_no_guess, \
    verify_no_guess

SGT = shutil.which("sgt-mines") or shutil.which("/usr/games/sgt-mines")


def tatham_params(preset):
    rows, cols, mines = parse_preset(preset)
    return f"{cols}x{rows}n{mines}"


def _child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tatham_ids(preset, count):
    """``count`` game IDs from ``sgt-mines --generate``, the wall seconds it took and its
    CPU seconds."""
    start, cpu = time.perf_counter(), _child_cpu()
    out = subprocess.run([SGT, "--generate", str(count), tatham_params(preset)],
                         capture_output=True, text=True, check=True).stdout
    return out.split(), time.perf_counter() - start, _child_cpu() - cpu


def _unmask(bmp, bits):
    n = len(bmp)
    first = n // 2
    halves = ((range(0, first), range(first, n)), (range(first, n), range(0, first)))
    for seed_cells, target in halves:              # undo the masking: second half first
        seed = bytes(bmp[i] for i in seed_cells)
        digest, pos, counter = b"", 20, 0
        for j in target:
            if pos == 20:
                digest = hashlib.sha1(seed + str(counter).encode()).digest()
                counter, pos = counter + 1, 0
            bmp[j] ^= digest[pos]
            pos += 1
        if bits % 8:                        # the padding bits past the last cell are 0
            bmp[-1] &= (0xFF00 >> (bits % 8)) & 0xFF


def decode_tatham(game_id):
    """(rows, cols, start cell, mine mask) of a Tatham game ID (cells row-major from 0)."""
    size, rest = game_id.split(":")
    cols, rows = (int(v) for v in size.split("x"))
    x, y, code = rest.split(",")
    area = rows * cols
    nbytes = (area + 7) // 8
    bmp = bytearray(bytes.fromhex(code[1:].ljust(2 * nbytes, "0")))
    if code[0] == "m":
        _unmask(bmp, area)
    bits = np.unpackbits(np.frombuffer(bytes(bmp), dtype=np.uint8))[:area].astype(bool)
    return rows, cols, int(y) * cols + int(x), bits


def tatham_replay(preset, count):
    """How many of ``count`` Tatham boards our engine clears without a guess."""
    rows, cols, mines = parse_preset(preset)
    ids, seconds, _ = tatham_ids(preset, count)
    nbrs = neighbours_of(rows, cols)
    cleared = verified = 0
    for game_id in ids:
        r, c, start, mine = decode_tatham(game_id)
        around = nbrs[start][nbrs[start] >= 0]
        if (r, c) != (rows, cols) or mine.sum() != mines or mine[start] or mine[around].any():
            raise ValueError(f"{game_id} did not decode to a {preset} board opening a zero")
        cleared += is_no_guess(rows, cols, mine, start)
        verified += verify_no_guess(rows, cols, mine, start)
    return {"preset": preset, "boards": len(ids), "no_guess": cleared,
            "verified_by_replay": verified, "sgt_seconds": round(seconds, 4)}


def speed(presets, modes, count):
    """Boards per second of each generator, by the wall clock and by the CPU time of its
    process (on a machine shared with other jobs the CPU rate is the fairer one)."""
    rows = []
    for preset in presets:
        r, c, _ = parse_preset(preset)
        centre = f"{r // 2 + 1},{c // 2 + 1}"
        ids, seconds, cpu = tatham_ids(preset, count)
        rows.append({"preset": preset, "generator": "sgt-mines --generate", "boards": len(ids),
                     "seconds": round(seconds, 4), "cpu_seconds": round(cpu, 4),
                     "boards_per_cpu_second": round(len(ids) / max(cpu, 1e-9), 2)})
        for mode in modes:
            generate_boards(preset, first_move=centre, count=1, seed=10 ** 6, no_guess=mode)
            cpu = time.process_time()
            result = generate_boards(preset, first_move=centre, count=count, seed=0,
                                     no_guess=mode)
            cpu = time.process_time() - cpu
            rows.append({"preset": preset, "generator": f"deductive {mode}",
                         "boards": len(result.boards), "seconds": round(result.seconds, 4),
                         "cpu_seconds": round(cpu, 4),
                         "boards_per_cpu_second": round(len(result.boards) / cpu, 2),
                         "draws": result.draws})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--presets", default="beginner,intermediate,expert")
    p.add_argument("--modes", default="fast,uniform")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("tatham")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--preset", default="expert")
    p.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if SGT is None:
        sys.exit("error: sgt-mines is not installed; apt-get install sgt-puzzles")
    if args.command == "speed":
        rows = speed(args.presets.split(","), args.modes.split(","), args.count)
    else:
        rows = [tatham_replay(args.preset, args.count)]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for row in rows:
            print("  ".join(f"{k}={v}" for k, v in row.items()))


# The pytest-benchmark entries: 20 expert boards in each mode (a zero in the centre).

def _bench_mode(benchmark, mode):
    generate_boards("expert", first_move="8,16", count=1, seed=10 ** 6, no_guess=mode)
    result = benchmark.pedantic(generate_boards, ("expert",),
                                dict(first_move="8,16", count=20, seed=0, no_guess=mode),
                                rounds=1)
    benchmark.extra_info["draws"] = result.draws
    assert all(b.verified for b in result.boards)


def test_generate_expert_fast(benchmark):
    _bench_mode(benchmark, "fast")


def test_generate_expert_uniform(benchmark):
    _bench_mode(benchmark, "uniform")


if __name__ == "__main__":
    main()
