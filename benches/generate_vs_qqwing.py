#!/usr/bin/env python3
"""Generation speed of the service against QQWing, side by side in one run.

For each QQWing level, QQWing generates `--count` puzzles (one process, its own per-puzzle
timer); the service rates them, which gives the band of ratings where that level's
puzzles land (from their 10th to their 90th percentile); then `cargo bench --bench
generate -- --range LOW HIGH` times the service making as many puzzles in that band, on
one thread. Prints per level the band, the mean time per puzzle of each (QQWing's from
its own total for the run, which counts the attempts it threw away; its per-puzzle timer
does not) and the ratio QQWing / service.

Needs `qqwing` (Debian package `qqwing`).

usage: benches/generate_vs_qqwing.py [--count N]
"""

import argparse
import json
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LEVELS = ["simple", "easy", "intermediate", "expert"]


def qqwing(level, count):
    out = subprocess.run(
        ["qqwing", "--generate", str(count), "--difficulty", level, "--one-line", "--timer"],
        capture_output=True, text=True, check=True).stdout
    puzzles = re.findall(r"^([.1-9]{81})$", out, re.M)
    seconds = float(re.search(r"generated in ([0-9.]+) seconds", out).group(1))
    return puzzles, 1e3 * seconds / len(puzzles)


def ratings(binary, puzzles):
    out = subprocess.run([binary, "rate", "--json"], input="\n".join(puzzles) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return sorted(json.loads(line)["se"] for line in out.splitlines())


def service_mean(low, high, count):
    out = subprocess.run(
        ["cargo", "bench", "--quiet", "--bench", "generate", "--", "--range", str(low),
         str(high), "--count", str(count)],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    row = out.splitlines()[-1].split()
    return float(row[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target/release/sudoku-service")
    print(f"{'qqwing level':<14} {'SE p10-p90':>11} {'qqwing mean ms':>15} {'service mean ms':>16} {'ratio':>7}")
    for level in LEVELS:
        puzzles, theirs = qqwing(level, args.count)
        rated = ratings(binary, puzzles)
        low, high = rated[len(rated) // 10], rated[len(rated) * 9 // 10]
        ours = service_mean(low, high, args.count)
        print(f"{level:<14} {low:>5.1f}-{high:<5.1f} {theirs:>15.2f} {ours:>16.2f} "
              f"{theirs / ours:>6.1f}x")


if __name__ == "__main__":
    main()
