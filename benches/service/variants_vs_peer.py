#!/usr/bin/env python3
"""Variant puzzles solved by the service and by the peer, side by side in one run (Python 3
standard library only).

The peer is dclamage/SudokuVariantSolverJS (TypeScript, on Node), run through its driver
script `run-peer.sh` (pass its path with --peer): for every puzzle of a file, in one warm
Node process, it times solve(), countSolutions({maxSolutions: 2}) and trueCandidates()
(one solution per candidate), each building the board from the f-puzzles JSON, as its API
does, and prints the median of --reps.

Our figure is the client-side time of one `POST /solve` per puzzle over loopback, on a
keep-alive connection to a release build serving on a free port: `{"fpuzzles": ...}` to
solve, with `"unique": true` for uniqueness, with `"true_candidates": true` for the true
candidates; the median of --reps, after one untimed round. Every answer is checked: the
solution is the published one, uniqueness is true, and the true candidates are the
solution's digits (these puzzles have one solution).

For each file of tests/data/variants/ (the corpus, and `puzzles-heldout.json`, which no
threshold of the search is tuned on) the service and the peer run one after the other,
each with a limit of 20 s a call, and for each operation the table gives both totals over
the puzzles the peer answers within it, the ratio, the puzzle where we are furthest behind
the peer (our time minus its time), our slowest solve plus uniqueness, and the puzzles
the peer does not answer with our times for them. A published solution known to be wrong
(see tests/data/variants/README.md) is replaced by the puzzle's only solution. Progress
goes to stderr, the table to stdout.

With --logic it compares the logical solves instead: ours is `POST /explain` per puzzle
(solved, or stalled), the peer's its logicalSolve() (`run-peer.sh --ops logic`), each with
a limit of 30 s; the table counts the puzzles each solves, those the peer solves that we
solve too, and our total time over them against the peer's.

usage: benches/service/variants_vs_peer.py --peer PATH/run-peer.sh [--bin PATH] [--no-build]
                                           [--reps N] [--file NAME ...] [--logic]
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server helpers)

DATA = os.path.join(attack.ROOT, "tests", "data", "variants")
FILES = ["puzzles-ci.json", "lubaf-coloring-book.json", "puzzles-heldout.json"]
LIMIT_MS = 20000
# Published solutions that break their own puzzle (tests/data/variants/README.md).
CORRECTED = {
    "Executive Function":
        "612873594958421376374596218725134869861759432493268157547612983189347625236985741",
}
OPERATIONS = [
    ("solve", {}),
    ("unique", {"unique": True}),
    ("tc", {"true_candidates": True}),
]


def entries(path):
    with open(path) as f:
        return [entry for entry in json.load(f) if entry.get("puzzle")]


def ours(port, puzzles, reps):
    """{operation: [median ms per puzzle, or None past the limit]}, every answer checked."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2 * LIMIT_MS / 1000)

    def post(body):
        payload = json.dumps(body)
        started = time.perf_counter()
        connection.request("POST", "/solve", payload, {"content-type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status == 503 and b"solve_timeout" in answer:
            return None, None
        if response.status != 200:
            sys.exit(f"variants_vs_peer.py: {response.status} {answer[:300]!r}")
        return elapsed, json.loads(answer)

    times = {name: [] for name, _ in OPERATIONS}
    for entry in puzzles:
        for name, extra in OPERATIONS:
            body = {"fpuzzles": entry["puzzle"], **extra}
            if post(body)[0] is None:  # untimed: the first call of each kind
                times[name].append(None)
                continue
            runs = [post(body) for _ in range(reps)]
            check(name, entry, runs[0][1])
            times[name].append(statistics.median(ms for ms, _ in runs))
    return times


def check(name, entry, answer):
    wanted = CORRECTED.get(entry["title"], entry["solution"])
    if answer["solution"] != wanted:
        sys.exit(f"variants_vs_peer.py: {entry['title']}: solution {answer['solution']} != {wanted}")
    if name == "unique" and answer.get("unique") is not True:
        sys.exit(f"variants_vs_peer.py: {entry['title']}: not proved unique")
    if name == "tc":
        digits = [[cell[0] for cell in row] for row in answer["true_candidates"]]
        single = all(len(cell) == 1 for row in answer["true_candidates"] for cell in row)
        flat = "".join(symbol(d) for row in digits for d in row)
        if not single or flat != wanted:
            sys.exit(f"variants_vs_peer.py: {entry['title']}: true candidates are not the solution")


def symbol(digit):
    return str(digit) if digit < 10 else chr(ord("A") + digit - 10)


def peer(script, path, reps):
    """{operation: [ms or None per puzzle]} from the peer's TSV."""
    attack.log("peer", os.path.basename(path))
    run = subprocess.run([script, path, "--reps", str(reps), "--timeout", str(LIMIT_MS)],
                         capture_output=True, text=True, check=True)
    lines = run.stdout.strip().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:]]

    def ms(text):
        return None if text.startswith(">") else float(text)

    return {
        "solve": [ms(row["solve_ms"]) for row in rows],
        "unique": [ms(row["unique_ms"]) for row in rows],
        "tc": [ms(row["tc_ms"]) for row in rows],
    }


def logic(args, name, puzzles):
    """Our explanations against the peer's logical solves on the puzzles of `name`."""
    limit = 30000
    path = os.path.join(DATA, name)
    attack.log("peer logic", name)
    run = subprocess.run([args.peer, path, "--reps", str(args.reps), "--ops", "logic",
                          "--timeout", str(limit)], capture_output=True, text=True, check=True)
    lines = run.stdout.strip().splitlines()
    header = lines[0].split("\t")
    theirs = [dict(zip(header, line.split("\t"))) for line in lines[1:]]
    server = attack.Server(args.bin, "service", env={"SOLVE_TIMEOUT_MS": str(limit)})
    mine = []
    try:
        attack.log("service logic", name)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2 * limit / 1000)
        for entry in puzzles:
            body = json.dumps({"fpuzzles": entry["puzzle"]})
            runs = []
            for _ in range(args.reps):
                started = time.perf_counter()
                connection.request("POST", "/explain", body, {"content-type": "application/json"})
                response = connection.getresponse()
                answer = response.read()
                runs.append((time.perf_counter() - started) * 1000)
            solved = response.status == 200 and not json.loads(answer).get("stalled")
            mine.append((solved, statistics.median(runs), response.status))
    finally:
        server.stop()
    peer_solved = [row["logic_status"] == "solved" for row in theirs]
    both = [i for i, solved in enumerate(peer_solved) if solved and mine[i][0]]
    ours_ms = sum(mine[i][1] for i in both)
    peer_ms = sum(float(theirs[i]["logic_ms"]) for i in both)
    ours_solved = sum(1 for solved, _, _ in mine if solved)
    print(f"| {name} ({len(puzzles)} puzzles) | {ours_solved} | {sum(peer_solved)} | "
          f"{len(both)} of {sum(peer_solved)} | {ours_ms:.1f} | {peer_ms:.1f} | "
          f"{ours_ms / peer_ms if peer_ms else float('nan'):.3f} | "
          f"{sum(1 for _, _, status in mine if status != 200)} |")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", required=True, help="the peer's run-peer.sh")
    parser.add_argument("--bin", default=os.path.join(attack.ROOT, "target", "release", "sudoku-service"))
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--file", action="append", choices=FILES)
    parser.add_argument("--logic", action="store_true", help="compare logical solves")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=attack.ROOT, check=True)
    if args.logic:
        print("| file | we solve | the peer solves | of the peer's, we solve | our ms on those | "
              "peer ms on those | ours ÷ peer | our answers not 200 |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in args.file or FILES:
            logic(args, name, entries(os.path.join(DATA, name)))
        return
    print("| file | operation | ours total ms | peer total ms | ours ÷ peer | furthest behind "
          "the peer (ours − peer) | our slowest solve + uniqueness | beyond the peer |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | --- |")
    for name in args.file or FILES:
        path = os.path.join(DATA, name)
        puzzles = entries(path)
        server = attack.Server(args.bin, "service", env={"SOLVE_TIMEOUT_MS": str(LIMIT_MS)})
        try:
            attack.log("service", name)
            mine = ours(server.port, puzzles, args.reps)
        finally:
            server.stop()
        theirs = peer(args.peer, path, args.reps)
        slowest = max(s + u for s, u, p in zip(mine["solve"], mine["unique"], theirs["unique"])
                      if s is not None and u is not None and p is not None)
        for operation, _ in OPERATIONS:
            answered = [(puzzles[i]["title"], a, b)
                        for i, (a, b) in enumerate(zip(mine[operation], theirs[operation]))
                        if b is not None]
            if any(a is None for _, a, _ in answered):
                sys.exit(f"variants_vs_peer.py: {name} {operation}: past {LIMIT_MS} ms where "
                         "the peer answered")
            beyond = [f"{puzzles[i]['title']}: ours {'>' if a is None else ''}"
                      f"{LIMIT_MS if a is None else round(a)} ms"
                      for i, (a, b) in enumerate(zip(mine[operation], theirs[operation]))
                      if b is None]
            total_ours = sum(a for _, a, _ in answered)
            total_peer = sum(b for _, _, b in answered)
            behind, title = max((a - b, title) for title, a, b in answered)
            pairs = answered
            print(f"| {name} ({len(pairs)} puzzles) | {operation} | {total_ours:.1f} | "
                  f"{total_peer:.1f} | {total_ours / total_peer:.3f} | {behind:+.1f} ms "
                  f"({title}) | {slowest:.1f} | {'; '.join(beyond) or '-'} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
