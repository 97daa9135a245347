#!/usr/bin/env python3
"""What a refusal costs the server (Python 3 standard library only).

Each binary (`--bin`, and `--against` for a second one, measured in turn, `--repeats`
rounds) serves on a free loopback port with SOLVER_CONCURRENCY=1, QUEUE_LENGTH=1 and a
time limit of ten minutes. One busy grid (tests/api/busy_grid.rs: a 16x16 grid that keeps
a solver busy until its limit) runs and a second one waits, so the long lane is full.
Then `--clients` (4) keep-alive connections send `--count` (2,000) requests between them:

  503   the busy grid again: refused `overloaded`
  422   the busy grid with one cell changed to `!`: refused `invalid_grid`, the same size

For each, the script reads the CPU time of every thread of the server from
/proc/PID/task/*/schedstat (nanoseconds) before and after, and leaves out the threads that
were busy for most of the half second before (the solve that runs). It prints the server
CPU per request of each kind, their ratio, the wall time of the 2,000 refusals, and with
`--threads` the CPU of each thread counted. Every answer's status is checked: a run whose
refusals are not all 503 `overloaded`, or 422s not all 422, stops with an error.

usage: benches/service/refusal.py [--bin PATH] [--against PATH] [--no-build]
                                  [--count N] [--clients N] [--repeats N] [--threads]
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server and the busy grid)
from flood import read_answer  # noqa: E402

SETTINGS = ["--solver-concurrency", "1", "--queue-length", "1", "--solve-timeout-ms", "600000"]


def thread_cpu(pid):
    """Nanoseconds on a CPU so far, by thread id."""
    times = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                times[tid] = int(f.read().split()[0])
        except OSError:
            continue  # the thread ended
    return times


def metric(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return None


async def send_all(port, body, count, clients):
    """`count` POST /solve between `clients` keep-alive connections: the statuses and
    problem codes seen, and the wall time."""
    request = attack.request_bytes("POST", "/solve", body)
    outcomes = {}
    remaining = [count]

    async def client():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while remaining[0] > 0:
            remaining[0] -= 1
            writer.write(request)
            await writer.drain()
            status, answer, _ = await read_answer(reader)
            code = json.loads(answer).get("code") if status >= 400 else None
            outcomes[(status, code)] = outcomes.get((status, code), 0) + 1
        writer.close()

    started = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    return outcomes, time.monotonic() - started


def measure(binary, args):
    """One round on a fresh server: {kind: (µs of CPU per request, wall s, per thread)}."""
    server = attack.Server(binary, "service", args=SETTINGS)
    try:
        busy = json.dumps({"grid": attack.busy_grid()})
        holders = []
        for expected in ("sudoku_solver_slots_in_use", "sudoku_solver_queue_depth"):
            holder = attack.socket.create_connection(("127.0.0.1", server.port))
            holder.sendall(attack.request_bytes("POST", "/solve", busy))
            holders.append(holder)
            deadline = time.monotonic() + 10
            while metric(server.port, expected) != 1.0:
                if time.monotonic() > deadline:
                    sys.exit(f"refusal.py: {expected} never reached 1")
                time.sleep(0.02)
        results = {}
        malformed = json.dumps({"grid": "!" + attack.busy_grid()[1:]})
        for kind, body, want in [("503", busy, (503, "overloaded")),
                                 ("422", malformed, (422, "invalid_grid"))]:
            before = thread_cpu(server.pid)
            time.sleep(0.5)
            settled = thread_cpu(server.pid)
            solving = {tid for tid, ns in settled.items() if ns - before.get(tid, 0) > 0.25e9}
            outcomes, wall = asyncio.run(send_all(server.port, body, args.count, args.clients))
            if outcomes != {want: args.count}:
                sys.exit(f"refusal.py: {binary} answered {outcomes}, not {args.count} x {want}")
            after = thread_cpu(server.pid)
            spent = {tid: ns - settled.get(tid, 0) for tid, ns in after.items()
                     if tid not in solving}
            results[kind] = (sum(spent.values()) / args.count / 1000, wall, spent)
        for holder in holders:
            holder.close()
        return results
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(attack.ROOT, "target/release/sudoku-service"))
    parser.add_argument("--against", help="a second binary, measured in turn with the first")
    parser.add_argument("--no-build", action="store_true", help="skip the release build")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", action="store_true", help="print each thread's CPU")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=attack.ROOT,
                       check=True)
    binaries = [args.bin] + ([args.against] if args.against else [])
    rounds = {binary: [] for binary in binaries}
    for repeat in range(args.repeats):
        for binary in binaries:
            attack.log(f"round {repeat + 1}: {binary}")
            result = measure(binary, args)
            rounds[binary].append(result)
            if args.threads:
                for kind, (_, _, spent) in result.items():
                    shown = ", ".join(f"{ns / 1e6:.1f}" for ns in sorted(spent.values(), reverse=True) if ns)
                    print(f"  {kind} threads (ms): {shown}", file=sys.stderr)
    print(f"{'binary':<50} {'µs/503':>8} {'µs/422':>8} {'ratio':>6} {'503 wall s':>11} {'422 wall s':>11}")
    for binary, results in rounds.items():
        median = lambda kind, i: statistics.median(r[kind][i] for r in results)  # noqa: E731
        ratios = statistics.median(r["503"][0] / r["422"][0] for r in results)
        print(f"{binary:<50} {median('503', 0):>8.1f} {median('422', 0):>8.1f} {ratios:>6.2f} "
              f"{median('503', 1):>11.3f} {median('422', 1):>11.3f}")


if __name__ == "__main__":
    main()
