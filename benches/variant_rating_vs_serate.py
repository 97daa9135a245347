#!/usr/bin/env python3
"""Variant ratings against Sukaku Explainer's `serate` in its variant modes.

For every file of tests/data/variants/se-rated/ (puzzles rated by `serate` with the
mode's flags, written in each file's header), rates the puzzles with
`sudoku-service rate --mode M --threads 1` and counts those whose ER, EP and ED all equal
the reference's; prints Spearman's rank correlation of ER on the held-out files. With
`--serate CLASSES_DIR`, also times `serate` on the held-out files, one thread, side by
side with the service (Java's start-up, measured on one easy puzzle, subtracted).

usage: benches/variant_rating_vs_serate.py [--serate CLASSES_DIR]
"""

import argparse
import glob
import os
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DATA = os.path.join(ROOT, "tests/data/variants/se-rated")
BINARY = os.path.join(ROOT, "target/release/sudoku-service")
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def read(path):
    lines = open(path).read().splitlines()
    flags = lines[0].split("; rules ")[0].split("1.18.1 ")[1].split(" --format")[0].split()
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    return flags, rows


def mode_of(path):
    name = os.path.basename(path).removesuffix(".tsv").removesuffix("-heldout")
    return name.replace("x-anti-knight", "x+anti-knight")


def timed(command, puzzles):
    """The output lines and seconds of `command` (with `{}` for a file of `puzzles`)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as batch:
        batch.write("".join(p + "\n" for p in puzzles))
    started = time.monotonic()
    command = [part.replace("{}", batch.name) for part in command]
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    os.unlink(batch.name)
    return done.stdout.splitlines(), elapsed


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2
        i = j + 1
    return result


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    mean_a, mean_b = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - mean_a) * (y - mean_b) for x, y in zip(ra, rb))
    var_a = sum((x - mean_a) ** 2 for x in ra)
    var_b = sum((y - mean_b) ** 2 for y in rb)
    return cov / (var_a * var_b) ** 0.5


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serate", help="the classes directory of serate, to time it too")
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    java = ["java", "-cp", args.serate or "", "diuf.sudoku.test.serate", "--threads=1",
            "--format=%r"]
    startup = args.serate and min(timed(java + ["--input={}"], [EASY])[1] for _ in range(3))
    held = ([], [])
    print(f"{'file':<32}{'exact':>9}{'service s':>11}{'serate s':>10}{'ratio':>8}")
    for path in sorted(glob.glob(os.path.join(DATA, "*.tsv"))):
        flags, rows = read(path)
        command = [BINARY, "rate", "--mode", mode_of(path), "--threads", "1", "--timeout-ms",
                   "60000", "{}"]
        lines, ours = timed(command, [row[0] for row in rows])
        exact = 0
        for row, line in zip(rows, lines):
            got = line.split()[0].split("/") if not line.startswith("error") else []
            exact += got == row[1:4]
            if "heldout" in path:
                held[0].append(float(row[1]))
                held[1].append(float(got[0]) if got else 99.0)
        timing = ""
        if args.serate and "heldout" in path:
            command = java + flags + ["--input={}"]
            _, theirs = timed(command, [row[0] for row in rows])
            theirs = max(theirs - startup, 1e-3)
            timing = f"{theirs:>10.2f}{theirs / ours:>7.0f}x"
        name = os.path.basename(path)
        print(f"{name:<32}{f'{exact}/{len(rows)}':>9}{ours:>11.2f}{timing}")
    print(f"Spearman of ER on the held-out files: {spearman(*held):.4f}")


if __name__ == "__main__":
    main()
