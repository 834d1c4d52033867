#!/usr/bin/env bash
# Command-line latency (cold and warm) of `deductive wordle openers --top 10`, and the peak
# memory of the 12,972 x 12,972 build, measured with /usr/bin/time -v.
# Usage: benchmarks/cli_latency_memory.sh [GUESSES_FILE]   (default ../shared/data/wordle/guesses.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
guesses=${1:-$here/../shared/data/wordle/guesses.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DEDUCTIVE_CACHE_DIR=$work/cache NUMBA_CACHE_DIR=$work/numba

wall() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }

echo "cold (no matrix cache, no compiled kernels): $(wall deductive wordle openers --top 10) s"
echo "second run (matrix cached, kernels cached):   $(wall deductive wordle openers --top 10) s"
runs=()
for _ in 1 2 3 4 5 6 7; do runs+=("$(wall deductive wordle openers --top 10)"); done
printf 'warm runs: %s s; median ' "${runs[*]}"
printf '%s\n' "${runs[@]}" | sort -n | sed -n 4p
echo "import deductive: $(python -c 'import time; t=time.perf_counter(); import deductive; print(round(time.perf_counter()-t, 3))') s"

if [ -f "$guesses" ]; then
  deductive wordle matrix --guesses "$guesses" --answers "$guesses" --no-cache >/dev/null  # compile
  rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }
  base=$(rss deductive --version)
  build=$(rss deductive wordle matrix --guesses "$guesses" --answers "$guesses" --no-cache)
  echo "peak RSS: 12972 x 12972 build ${build} kB (matrix 168,275 kB); 'deductive --version' ${base} kB"
fi
