#!/usr/bin/env python3
"""Memory soak benchmark of the service on 127.0.0.1 (Python 3 standard library only).

It starts the service on a free loopback port and measures its resident memory (VmRSS of
/proc/PID/status) before, during and after mixed traffic:

  idle      RSS once the server has answered 20 easy requests, 3 s later
  traffic   --minutes (5) of --clients (3) concurrent clients, each in rounds of
              POST /rate and POST /explain     an SE-rated puzzle of
                                               tests/data/9x9/se-rated/se-rated-dev.tsv
              POST /generate                   {"count": 5}, every other round with a
                                               level (easy, medium, hard, expert)
              POST /solve/batch                200 lines of 17-clue puzzles
                                               (tests/data/9x9/sudoku17_first5000.txt)
              POST /rate/batch                 20 lines of rated puzzles
              POST /solve, then POST /hint     a rated puzzle, and the player's grid with
                                               some digits of its solution placed (every
                                               third round one of them wrong)
            with RSS sampled every second: the peak is the largest sample, the plateau
            the median over the last half of the traffic
  after     RSS 5 s, 10 s and 30 s after the last client got its last answer (tokio's
            blocking threads live 10 s after their last task, so the 30 s figure is
            the one without them)

It prints idle, peak, plateau, after-5s/10s/30s and after-30s − idle in MiB, the threads of
the process, the requests and their statuses, and where the memory sits at idle, at the
end of the traffic and 30 s after (from /proc/PID/smaps: the main heap, glibc's other
malloc arenas, which are the 64 MiB-aligned anonymous heaps it maps, with their count,
other anonymous memory such as thread stacks, and file mappings).
With --time-batch it then times a POST /solve/batch of all 5,000 lines of the 17-clue
file (the median of five) and a POST /rate/batch of 200 rated puzzles (the median of
three), to show what an allocator setting costs in throughput.

--env KEY=VALUE (repeatable) goes into the server's environment, e.g. MALLOC_ARENA_MAX=2;
otherwise the server gets none of the service's variables, nor MALLOC_* or GLIBC_TUNABLES,
from the caller. Every loop is bounded in count and time; nothing listens beyond the
loopback interface. Results go to stdout as a table, progress to stderr.

usage: benches/service/soak.py [--bin PATH] [--no-build] [--minutes 5] [--clients 3]
                               [--env KEY=VALUE ...] [--time-batch]
"""

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server and HTTP helpers)

ROOT = attack.ROOT
EASY = attack.EASY
RATED = os.path.join(ROOT, "tests", "data", "9x9", "se-rated", "se-rated-dev.tsv")
SEVENTEEN = os.path.join(ROOT, "tests", "data", "9x9", "sudoku17_first5000.txt")
MIB = 1024 * 1024
ARENA_SIZE = 64 * MIB  # glibc's HEAP_MAX_SIZE on 64-bit: each arena heap is aligned to it
LEVELS = ["easy", "medium", "hard", "expert"]
SOLVE_BATCH_LINES = 200
RATE_BATCH_LINES = 20
IDLE_REQUESTS = 20
IDLE_WAIT = 3.0
AFTER_MARKS = (5, 10, 30)
REQUEST_TIMEOUT = 60.0
TIMED_RATE_LINES = 200
MAX_ROUNDS = 1_000_000  # per client; the time limit ends the traffic long before


def proc_status(pid):
    """(VmRSS in MiB, threads)."""
    with open(f"/proc/{pid}/status") as f:
        text = f.read()
    kib = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))
    threads = int(re.search(r"Threads:\s+(\d+)", text).group(1))
    return kib / 1024, threads


def memory_map(pid):
    """Where the resident memory sits, in MiB, from /proc/PID/smaps: the main heap
    ([heap]), glibc's other arenas (anonymous mappings inside a 64 MiB-aligned region that
    starts with one; their count too), other anonymous memory (thread stacks, large
    mmapped allocations) and file mappings (the binary, libraries)."""
    mappings = []
    with open(f"/proc/{pid}/smaps") as f:
        current = None
        for line in f:
            head = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)", line)
            if head:
                start, end, perms, inode, path = head.groups()
                current = {"start": int(start, 16), "end": int(end, 16), "inode": int(inode),
                           "path": path.strip(), "rss": 0}
                mappings.append(current)
            elif line.startswith("Rss:") and current is not None:
                current["rss"] = int(line.split()[1]) * 1024
    anonymous = lambda m: m["inode"] == 0 and not m["path"]
    arena_regions = {m["start"] for m in mappings if anonymous(m) and m["start"] % ARENA_SIZE == 0}
    out = {"heap": 0, "arenas": 0, "anon": 0, "file": 0, "arena_count": len(arena_regions)}
    for m in mappings:
        if m["path"] == "[heap]":
            out["heap"] += m["rss"]
        elif anonymous(m) and m["start"] - m["start"] % ARENA_SIZE in arena_regions:
            out["arenas"] += m["rss"]
        elif anonymous(m) or m["path"].startswith("["):
            out["anon"] += m["rss"]
        else:
            out["file"] += m["rss"]
    for key in ("heap", "arenas", "anon", "file"):
        out[key] /= MIB
    return out


def rated_puzzles():
    """The puzzles of the SE-rated file (a header line, then puzzle, se, bank_se, source
    separated by tabs), in an order that mixes easy and hard ones."""
    with open(RATED) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    puzzles = [row[0] for row in rows if row and len(row[0]) == 81]
    stride = 7  # coprime with the count unless it is a multiple of 7
    if len(puzzles) % stride == 0:
        stride = 11
    return [puzzles[(i * stride) % len(puzzles)] for i in range(len(puzzles))]


def seventeen_clue_puzzles():
    with open(SEVENTEEN) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def ndjson(grids):
    return "".join(json.dumps({"grid": g}) + "\n" for g in grids).encode()


def window(items, start, count):
    return [items[(start + i) % len(items)] for i in range(count)]


class Bodies:
    """The NDJSON bodies of the batches, each made once (so the clients spend their time
    waiting for the server, not in json.dumps): a few thousand at most."""

    def __init__(self, items, count):
        self.items, self.count = items, count
        self.made = {}
        self.lock = threading.Lock()

    def at(self, start):
        start %= len(self.items)
        with self.lock:
            body = self.made.get(start)
            if body is None:
                body = self.made[start] = ndjson(window(self.items, start, self.count))
        return body


# --------------------------------------------------------------------------- clients


class Tally:
    """Requests per endpoint and status, and their total time, shared by the clients."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.seconds = {}
        self.errors = 0

    def add(self, path, status, seconds):
        with self.lock:
            key = (path, status)
            self.counts[key] = self.counts.get(key, 0) + 1
            self.seconds[path] = self.seconds.get(path, 0.0) + seconds

    def error(self):
        with self.lock:
            self.errors += 1


class Client:
    """One keep-alive connection that reconnects after an error."""

    def __init__(self, port, tally):
        self.port = port
        self.tally = tally
        self.connection = None

    def post(self, path, body, content_type="application/json"):
        """(status, body bytes) or (None, None) after a transport error."""
        if isinstance(body, str):
            body = body.encode()
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                             timeout=REQUEST_TIMEOUT)
            self.connection.request("POST", path, body, {"Content-Type": content_type})
            response = self.connection.getresponse()
            data = response.read()
            if response.getheader("connection", "").lower() == "close":
                self.close()
        except (OSError, http.client.HTTPException):
            self.close()
            self.tally.error()
            return None, None
        self.tally.add(path, response.status, time.monotonic() - started)
        return response.status, data

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def player_grid(puzzle, solution, round_number):
    """The puzzle with some of its blanks filled from the solution; every third round one
    of them wrong."""
    cells = list(puzzle)
    blanks = [i for i, c in enumerate(cells) if c == "."]
    placed = blanks[: round_number % 20]
    for i in placed:
        cells[i] = solution[i]
    if placed and round_number % 3 == 0:
        i = placed[-1]
        cells[i] = str(int(solution[i]) % 9 + 1)
    return "".join(cells)


def client_loop(index, port, data, bodies, deadline, stop, tally, rounds):
    rated, _ = data
    solve_bodies, rate_bodies = bodies
    client = Client(port, tally)
    offset = index * 577
    try:
        for round_number in range(MAX_ROUNDS):
            if stop.is_set() or time.monotonic() >= deadline:
                break
            k = offset + round_number * 3
            steps = [
                lambda: client.post("/rate", json.dumps({"grid": rated[k % len(rated)]})),
                lambda: client.post("/explain", json.dumps({"grid": rated[(k + 1) % len(rated)]})),
                lambda: client.post("/generate", json.dumps(
                    {"count": 5} if round_number % 2 == 0 else
                    {"count": 5, "level": LEVELS[(round_number // 2 + index) % len(LEVELS)]})),
                lambda: client.post("/solve/batch", solve_bodies.at(
                    (offset + round_number) * SOLVE_BATCH_LINES), "application/x-ndjson"),
                lambda: client.post("/rate/batch", rate_bodies.at(k * RATE_BATCH_LINES),
                                    "application/x-ndjson"),
                lambda: hint(client, rated[(k + 2) % len(rated)], round_number),
            ]
            for step in steps:
                if stop.is_set() or time.monotonic() >= deadline:
                    break
                step()
            rounds[index] = round_number + 1
    finally:
        client.close()


def hint(client, puzzle, round_number):
    status, body = client.post("/solve", json.dumps({"grid": puzzle}))
    if status != 200:
        return
    solution = json.loads(body)["solution"]
    client.post("/hint", json.dumps({"puzzle": puzzle,
                                     "grid": player_grid(puzzle, solution, round_number)}))


# --------------------------------------------------------------------------- soak


def soak(server, args, data):
    results = {}
    pid = server.pid
    attack.log(f"idle: {IDLE_REQUESTS} easy requests, then {IDLE_WAIT:.0f} s")
    for _ in range(IDLE_REQUESTS):
        attack.http_status("POST", server.port, "/solve", json.dumps({"grid": EASY}))
    time.sleep(IDLE_WAIT)
    results["idle"], results["idle_threads"] = proc_status(pid)
    results["map_idle"] = memory_map(pid)

    seconds = args.minutes * 60
    attack.log(f"traffic: {args.clients} clients for {seconds:.0f} s")
    tally = Tally()
    stop = threading.Event()
    rounds = [0] * args.clients
    bodies = (Bodies(data[1], SOLVE_BATCH_LINES), Bodies(data[0], RATE_BATCH_LINES))
    started = time.monotonic()
    deadline = started + seconds
    clients = [threading.Thread(target=client_loop, daemon=True,
                                args=(i, server.port, data, bodies, deadline, stop, tally, rounds))
               for i in range(args.clients)]
    for thread in clients:
        thread.start()
    samples = []  # (seconds since start, RSS MiB, threads)
    next_sample = started
    next_progress = started + 30
    while time.monotonic() < deadline:
        rss, threads = proc_status(pid)
        samples.append((time.monotonic() - started, rss, threads))
        if time.monotonic() >= next_progress:
            attack.log(f"  {time.monotonic() - started:4.0f} s: RSS {rss:.1f} MiB, {threads} threads, "
                f"{sum(rounds)} rounds")
            next_progress += 30
        next_sample += 1.0
        time.sleep(max(0.0, min(next_sample, deadline) - time.monotonic()))
    # The clients stop at the deadline once their request in flight is answered.
    for thread in clients:
        thread.join(REQUEST_TIMEOUT + 5)
    stop.set()
    for thread in clients:
        thread.join(5)
    ended = time.monotonic()
    results["map_end"] = memory_map(pid)
    results["end"], results["end_threads"] = proc_status(pid)
    samples.append((ended - started, results["end"], results["end_threads"]))
    results["peak"] = max(s[1] for s in samples)
    results["peak_threads"] = max(s[2] for s in samples)
    last_half = [s[1] for s in samples if s[0] >= seconds / 2] or [samples[-1][1]]
    results["plateau"] = statistics.median(last_half)
    results["samples"] = len(samples)
    results["tally"] = tally
    results["rounds"] = sum(rounds)
    results["traffic_seconds"] = ended - started

    attack.log(f"after: RSS until {AFTER_MARKS[-1]} s after the traffic")
    after = {}
    for mark in AFTER_MARKS:
        time.sleep(max(0.0, ended + mark - time.monotonic()))
        after[mark] = proc_status(pid)
        attack.log(f"  +{mark} s: RSS {after[mark][0]:.1f} MiB, {after[mark][1]} threads")
    results["after"] = after
    results["map_after"] = memory_map(pid)

    if args.time_batch:
        results["batch"] = [
            time_batch(server.port, "/solve/batch", data[1], 5),
            time_batch(server.port, "/rate/batch", data[0][:TIMED_RATE_LINES], 3),
        ]
    return results


def time_batch(port, path, grids, repeats):
    """(path, lines, median seconds, repeats) of one batch of `grids` sent `repeats` times."""
    body = ndjson(grids)
    times = []
    for _ in range(repeats):
        client = Client(port, Tally())
        begun = time.monotonic()
        status, answer = client.post(path, body, "application/x-ndjson")
        times.append(time.monotonic() - begun)
        client.close()
        lines = answer.count(b"\n") if answer else 0
        attack.log(f"  {path} of {len(grids)} lines: {status}, {lines} answers, {times[-1]:.3f} s")
    return path, len(grids), statistics.median(times), repeats


def report(args, r):
    env = " ".join(args.env) if args.env else "(default)"
    last = AFTER_MARKS[-1]
    print(f"\nsudoku-service memory soak: {args.bin}")
    print(f"  environment: {env}; {args.clients} clients for {args.minutes:g} min "
          f"({r['traffic_seconds']:.0f} s, {r['rounds']} rounds, {r['samples']} samples)")
    rows = [
        ("RSS idle (MiB)", f"{r['idle']:.1f}"),
        ("RSS peak during traffic (MiB)", f"{r['peak']:.1f}"),
        ("RSS plateau: median of the last half of the traffic (MiB)", f"{r['plateau']:.1f}"),
    ]
    for mark in AFTER_MARKS:
        rows.append((f"RSS {mark} s after the traffic (MiB)", f"{r['after'][mark][0]:.1f}"))
    rows.append((f"RSS {last} s after − idle (MiB)", f"{r['after'][last][0] - r['idle']:+.1f}"))
    rows.append(("threads idle / peak / " + " / ".join(f"+{m} s" for m in AFTER_MARKS),
                 f"{r['idle_threads']} / {r['peak_threads']} / "
                 + " / ".join(str(r["after"][m][1]) for m in AFTER_MARKS)))
    for name, key in [("idle", "map_idle"), ("traffic end", "map_end"), (f"+{last} s", "map_after")]:
        m = r[key]
        rows.append((f"smaps {name}: heap / {m['arena_count']} arenas / other anon / file (MiB)",
                     f"{m['heap']:.1f} / {m['arenas']:.1f} / {m['anon']:.1f} / {m['file']:.1f}"))
    for path, lines, seconds, repeats in r.get("batch", []):
        rows.append((f"{path} of {lines} lines after the soak, median of {repeats} (s)",
                     f"{seconds:.3f}"))
    print()
    for label, value in rows:
        print(f"  {label:<66} {value}")
    tally = r["tally"]
    print("\n  requests: endpoint, status: count (mean ms)")
    for path in sorted({p for p, _ in tally.counts}):
        total = sum(c for (p, _), c in tally.counts.items() if p == path)
        statuses = ", ".join(f"{s}: {c}" for (p, s), c in sorted(tally.counts.items()) if p == path)
        print(f"    {path:<14} {statuses}  ({tally.seconds[path] / total * 1000:.0f} ms)")
    print(f"    transport errors: {tally.errors}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/release/sudoku-service"))
    parser.add_argument("--no-build", action="store_true", help="skip the release build")
    parser.add_argument("--minutes", type=float, default=5.0,
                        help="minutes of traffic (fractions too: 0.5 for a quick run)")
    parser.add_argument("--clients", type=int, default=3, help="concurrent clients")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="a variable for the server's environment (repeatable)")
    parser.add_argument("--time-batch", action="store_true",
                        help="after the soak, time a /solve/batch of the whole 17-clue file "
                             "and a /rate/batch of 200 rated puzzles")
    args = parser.parse_args()
    if not 0 < args.minutes <= 120:
        sys.exit("soak.py: --minutes must be above 0 and at most 120")
    if not 1 <= args.clients <= 64:
        sys.exit("soak.py: --clients must be from 1 to 64")
    env = {}
    for item in args.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            sys.exit(f"soak.py: --env wants KEY=VALUE, not {item!r}")
        env[key] = value
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    data = (rated_puzzles(), seventeen_clue_puzzles())
    attack.log(f"{args.bin} ({' '.join(args.env) or 'default environment'}); "
        f"{len(data[0])} rated puzzles, {len(data[1])} 17-clue puzzles")
    # SIGTERM ends the run like Ctrl-C does: the server is stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("soak.py: terminated"))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = attack.Server(args.bin, "service", env=env)
    try:
        results = soak(server, args, data)
    finally:
        server.stop()
    report(args, results)


if __name__ == "__main__":
    main()
