#!/usr/bin/env python3
"""Makes reference ratings of variant puzzles with Sukaku Explainer's `serate`.

For each mode (a rule set that `serate` rates, with its flags) it makes `--count` puzzles:
a full grid under the rules, from the service's solver on a few random givens, then givens
removed in a random order while the solution stays unique (each removal checked by a count
to two), which leaves a minimal puzzle, and 0 to 16 of the removed givens put back.
`serate` rates each with the mode's flags, and the puzzles go to MODE.tsv beside this
script: `puzzle<TAB>ER<TAB>EP<TAB>ED`. Every fifth puzzle of a mode (by its place in the
file) goes to MODE-heldout.tsv instead: no threshold or technique is ever tuned on those.

Random puzzles crowd some bands (minimal ones under two diagonals rate high); `--per-band`
caps how many of one band (ER rounded down) a mode keeps, so that the rarer bands get
their share. A puzzle that `serate` takes more than `--serate-seconds` (60) to rate is
left out, and the count of those goes in the file's header: the hardest band is thinner
than it would be.

Needs the service's release binary (`cargo build --release`) and `serate` built from
SudokuMonster/SukakuExplainer 1.18.1 (`javac -encoding ISO-8859-1 -d CLASSES` over its
sources); Python 3 standard library only.

usage: tests/data/variants/se-rated/make.py --serate CLASSES [--count N] [--per-band N]
                                            [--minutes M] [--serate-seconds S]
                                            [--seed N] [--mode NAME ...]
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
BINARY = os.path.join(ROOT, "target", "release", "sudoku-service")

WINDOWS = [
    {"kind": "extra_region",
     "cells": [{"row": r, "col": c} for r in range(top, top + 3) for c in range(left, left + 3)]}
    for top in (1, 5) for left in (1, 5)
]
DIAGONALS = [{"kind": "diagonal", "direction": "down"}, {"kind": "diagonal", "direction": "up"}]

# name: (native rules, serate flags)
MODES = {
    "x": (DIAGONALS, ["--isX=1"]),
    "windoku": (WINDOWS, ["--isWindows=1"]),
    "disjoint-groups": ([{"kind": "disjoint_groups"}], ["--isDG=1"]),
    "anti-knight": ([{"kind": "anti_knight"}], ["--isAntiKnight=1"]),
    "anti-king": ([{"kind": "anti_king"}], ["--isAntiKing=1"]),
    "nonconsecutive": ([{"kind": "nonconsecutive"}], ["--isNC=1"]),
    "x-anti-knight": (DIAGONALS + [{"kind": "anti_knight"}], ["--isX=1", "--isAntiKnight=1"]),
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def full_grid(url, rules, rng):
    """A solution of the rules that holds a few random givens."""
    while True:
        cells = ["."] * 81
        for cell in rng.sample(range(81), 6):
            cells[cell] = str(rng.randint(1, 9))
        try:
            answer = post(url, {"grid": "".join(cells), "rules": rules})
        except urllib.error.HTTPError:
            continue  # givens that break the rules, or no solution
        if answer.get("solution"):
            return answer["solution"]


def proper_puzzle(url, rules, solution, rng):
    """The solution's givens less every one that a unique solution does not need, and then
    0 to 16 of them given back (more givens, easier puzzles: the low bands too)."""
    cells = list(solution)
    for cell in rng.sample(range(81), 81):
        kept = cells[cell]
        cells[cell] = "."
        try:
            answer = post(url, {"grid": "".join(cells), "rules": rules, "max_solutions": 2})
        except urllib.error.HTTPError:
            answer = {}  # out of time: keep the given
        if answer.get("solution_count") != 1:
            cells[cell] = kept
    open_cells = [cell for cell in range(81) if cells[cell] == "."]
    for cell in rng.sample(open_cells, rng.choice([0, 0, 4, 8, 16])):
        cells[cell] = solution[cell]
    return "".join(cells)


def rate(classes, flags, puzzle, seconds):
    """serate's (ER, EP, ED) of `puzzle`, or None when it takes longer than `seconds`."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as one:
        one.write(puzzle + "\n")
    try:
        out = subprocess.run(["java", "-cp", classes, "diuf.sudoku.test.serate", *flags,
                              "--format=%r\t%p\t%d", f"--input={one.name}"],
                             check=True, capture_output=True, text=True,
                             timeout=seconds).stdout
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(one.name)
    return tuple(out.split())


def make_mode(name, url, args, rng):
    rules, flags = MODES[name]
    kept, per_band, made, slow = [], {}, 0, 0
    started = time.monotonic()
    while len(kept) < args.count and time.monotonic() - started < args.minutes * 60:
        puzzle = proper_puzzle(url, rules, full_grid(url, rules, rng), rng)
        made += 1
        ratings = rate(args.serate, flags, puzzle, args.serate_seconds)
        if ratings is None:
            slow += 1
            continue
        er, ep, ed = ratings
        band = int(float(er))
        if per_band.get(band, 0) < args.per_band:
            per_band[band] = per_band.get(band, 0) + 1
            kept.append((puzzle, er, ep, ed))
    kept.sort(key=lambda row: (float(row[1]), row[0]))
    header = (f"# serate 1.18.1 {' '.join(flags)} --format=%r\\t%p\\t%d; rules "
              f"{json.dumps(rules, separators=(',', ':'))}\n# made by make.py --seed "
              f"{args.seed}: {made} puzzles made, {slow} left out (serate took over "
              f"{args.serate_seconds} s), at most {args.per_band} a band kept\n")
    for suffix, rows in (("", [r for i, r in enumerate(kept) if i % 5 != 4]),
                         ("-heldout", [r for i, r in enumerate(kept) if i % 5 == 4])):
        with open(os.path.join(HERE, f"{name}{suffix}.tsv"), "w") as out:
            out.write(header)
            out.writelines("\t".join(row) + "\n" for row in rows)
    print(f"{name}: kept {len(kept)} of {made}, {slow} too slow for serate; "
          f"bands {dict(sorted(per_band.items()))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serate", required=True, help="the classes directory of serate")
    parser.add_argument("--count", type=int, default=100, help="puzzles kept a mode")
    parser.add_argument("--per-band", type=int, default=25, help="puzzles kept a band")
    parser.add_argument("--minutes", type=float, default=10, help="time a mode at most")
    parser.add_argument("--serate-seconds", type=float, default=60,
                        help="leave out a puzzle that serate takes longer to rate")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--mode", action="append", choices=sorted(MODES))
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen([BINARY, "serve", "--listen-addr", f"127.0.0.1:{port}",
                               "--log-filter", "error", "--solve-timeout-ms", "20000"], env={"PATH": os.environ["PATH"]})
    try:
        url = f"http://127.0.0.1:{port}/solve"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        for name in args.mode or list(MODES):
            make_mode(name, url, args, random.Random(f"{args.seed}-{name}"))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
