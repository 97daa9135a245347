#!/usr/bin/env python3
"""Rating speed of the service against Sukaku Explainer's `serate`, side by side in one run.

Both rate the puzzles of a file of reference ratings (default: the development set), one
thread each, grouped by the reference rating's level. `serate` runs once per level as a
whole process (its time minus the start-up of the Java runtime, measured on one easy
puzzle); the service's times come from `cargo bench --bench rating`, per puzzle. Prints per
level the total time of each, the ratio serate / service, and the service's median, and
the service's median over the puzzles rated below 7.0.

`serate` is not part of this project: build it from SudokuMonster/SukakuExplainer
(javac -encoding ISO-8859-1 over diuf/**/*.java, with the non-Java files copied beside the
classes) and pass the classes directory.

usage: benches/rating_vs_serate.py --serate CLASSES_DIR [FILE]
"""

import argparse
import collections
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEFAULT = os.path.join(ROOT, "tests/data/9x9/se-rated/se-rated-dev.tsv")
LEVELS = [("easy", 1.5), ("medium", 2.5), ("hard", 3.9), ("expert", 5.9), ("extreme", 8.9),
          ("beyond", 99.0)]
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def level(rating):
    return next(name for name, top in LEVELS if rating <= top + 1e-9)


def serate_seconds(classes, puzzles):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as batch:
        batch.write("".join(p + "\n" for p in puzzles))
    started = time.monotonic()
    subprocess.run(["java", "-cp", classes, "diuf.sudoku.test.serate", "--format=%r",
                    f"--input={batch.name}"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    elapsed = time.monotonic() - started
    os.unlink(batch.name)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serate", required=True, help="the classes directory of serate")
    parser.add_argument("file", nargs="?", default=DEFAULT)
    args = parser.parse_args()
    rows = [line.split("\t") for line in open(args.file).read().splitlines()[1:]]
    by_level = collections.defaultdict(list)
    for row in rows:
        by_level[level(float(row[1]))].append(row[0])

    times = os.path.join(tempfile.mkdtemp(), "times.tsv")
    subprocess.run(["cargo", "bench", "--quiet", "--bench", "rating", "--", args.file,
                    "--times", times], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    ours = collections.defaultdict(list)
    below_seven = []
    for line in open(times).read().splitlines()[1:]:
        puzzle, reference, _, micros = line.split("\t")
        ours[level(float(reference))].append(int(micros) / 1e6)
        if float(reference) < 7.0:
            below_seven.append(int(micros) / 1e6)

    startup = min(serate_seconds(args.serate, [EASY]) for _ in range(3))
    print(f"{args.file}: {len(rows)} puzzles; serate start-up {startup:.2f} s (subtracted)")
    print(f"{'level':<9}{'count':>7}{'serate s':>11}{'service s':>11}{'ratio':>9}"
          f"{'service median ms':>19}")
    total_serate = total_ours = 0.0
    for name, _ in LEVELS:
        if not by_level[name]:
            continue
        theirs = max(serate_seconds(args.serate, by_level[name]) - startup, 1e-3)
        mine = sum(ours[name])
        total_serate += theirs
        total_ours += mine
        print(f"{name:<9}{len(by_level[name]):>7}{theirs:>11.2f}{mine:>11.2f}"
              f"{theirs / mine:>8.0f}x{statistics.median(ours[name]) * 1e3:>19.2f}")
    print(f"{'all':<9}{len(rows):>7}{total_serate:>11.2f}{total_ours:>11.2f}"
          f"{total_serate / total_ours:>8.0f}x")
    if below_seven:
        print(f"service median below 7.0 ({len(below_seven)} puzzles): "
              f"{statistics.median(below_seven) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
