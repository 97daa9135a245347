#!/usr/bin/env bash
# Times `sudoku-service solve` against the `sudoku` crate (a port of JCZSolve, one of the
# fastest published solvers) on the same puzzle files, alternating the two in one run so
# that machine drift hits both alike. Prints median wall seconds of each and the median
# ratio project/peer per file; below 1.0 means sudoku-service is faster.
#
# usage: benches/vs-sudoku-crate.sh [-n RUNS] [--unique] [--threads N] FILE...
#   -n RUNS    timed runs of each, after one warm-up (default 5)
#   --unique   also prove uniqueness (sudoku-service: --unique; peer: count up to 2)
#   --threads  passed to `sudoku-service solve` (default 1, like for like on one core)
set -euo pipefail
runs=5; unique=0; threads=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    --unique) unique=1; shift ;;
    --threads) threads=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[[ $# -ge 1 ]] || { sed -n '2,12p' "$0"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

cargo build --quiet --release --locked --manifest-path "$root/Cargo.toml"
cargo build --quiet --release --manifest-path "$here/sudoku-crate-driver/Cargo.toml"
project=$root/target/release/sudoku-service
peer=$here/sudoku-crate-driver/target/release/sudoku-crate-driver
project_args=(solve --threads "$threads"); peer_limit=1
if [[ $unique == 1 ]]; then project_args+=(--unique); peer_limit=2; fi

printf '%-34s %8s %10s %10s %8s\n' file puzzles project_s peer_s ratio
for file in "$@"; do
  puzzles=$(grep -cv '^#' "$file" || true)
  project_times=(); peer_times=()
  "$project" "${project_args[@]}" <"$file" >/dev/null 2>&1 || true
  "$peer" "$peer_limit" <"$file" >/dev/null
  for ((i = 0; i < runs; i++)); do
    # EPOCHREALTIME (bash 5) costs no process, so nothing but the solvers is timed.
    t0=$EPOCHREALTIME; "$project" "${project_args[@]}" <"$file" >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME; "$peer" "$peer_limit" <"$file" >/dev/null
    t2=$EPOCHREALTIME
    project_times+=("$t0:$t1"); peer_times+=("$t1:$t2")
  done
  python3 - "$(basename "$file")" "$puzzles" "${project_times[*]}" "${peer_times[*]}" <<'PY'
import statistics, sys
name, puzzles = sys.argv[1], sys.argv[2]
def spans(stamps):
    return [float(end) - float(start) for start, end in (s.split(":") for s in stamps.split())]
project, peer = spans(sys.argv[3]), spans(sys.argv[4])
ratios = [a / b for a, b in zip(project, peer)]
print(f"{name:<34} {puzzles:>8} {statistics.median(project):>10.3f} "
      f"{statistics.median(peer):>10.3f} {statistics.median(ratios):>8.2f}")
PY
done
