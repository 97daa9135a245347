#!/usr/bin/env python3
"""Throughput of the service against the plain baseline service, one core each.

Each server runs pinned to CPU 1 and wrk to CPU 0, so the figures compare what one core
serves. For GET /healthz, an easy POST /solve (the first 17-clue puzzle) and a hard one
(the first of the forum's hardest), at 32 and 128 connections, the two servers are
measured in turn, REPEATS times, and the median requests/s of each and the median of the
per-round ratios (service / baseline; above 1.0 means the service is faster) are printed.

usage: benches/service/vs_baseline.py [--repeats N] [--seconds S] [--no-build]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server and wrk helpers)

BASELINE_DIR = os.path.join(attack.ROOT, "benches", "baseline-service")


def first_puzzle(name):
    """The first puzzle of a file under tests/data/9x9."""
    with open(os.path.join(attack.ROOT, "tests", "data", "9x9", name)) as lines:
        return next(line[:81] for line in lines if len(line) >= 81 and line[0] != "#")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="skip the release builds")
    args = parser.parse_args()
    if not args.no_build:
        for manifest in [attack.ROOT, BASELINE_DIR]:
            subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                            os.path.join(manifest, "Cargo.toml")], check=True)
    servers = {
        "service": attack.Server(os.path.join(attack.ROOT, "target/release/sudoku-service"),
                                 "service", pin="1"),
        "baseline": attack.Server(os.path.join(BASELINE_DIR, "target/release/baseline-service"),
                                  "baseline", pin="1"),
    }
    figures = [("healthz", "/healthz", None),
               ("17-clue", "/solve",
                json.dumps({"grid": first_puzzle("sudoku17_first5000.txt")})),
               ("hardest", "/solve",
                json.dumps({"grid": first_puzzle("forum_hardest_1905_11plus_first2000.txt")}))]
    try:
        print(f"{'figure':<22}{'service req/s':>15}{'baseline req/s':>16}{'ratio':>8}")
        for name, path, body in figures:
            for connections in (32, 128):
                rounds = {"service": [], "baseline": []}
                for _ in range(args.repeats):
                    for side, server in servers.items():
                        rps, _, bad = attack.wrk(server.port, path, body, args.seconds,
                                                 connections=connections, pin="0")
                        if bad:
                            sys.exit(f"{side} {name}: {bad} failed requests")
                        rounds[side].append(rps)
                ratio = statistics.median(
                    s / b for s, b in zip(rounds["service"], rounds["baseline"]))
                print(f"{name + f' c={connections}':<22}"
                      f"{statistics.median(rounds['service']):>15.0f}"
                      f"{statistics.median(rounds['baseline']):>16.0f}{ratio:>8.2f}")
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
