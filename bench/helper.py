#!/usr/bin/env python3
"""Helpers for bench/load.sh (Python 3 standard library only).

Subcommands:
  busy-grid                      print the 16x16 grid of tests/api/busy_grid.rs
  bodies KIND FILE...            print JSON request bodies, one per line
  wait-healthy URL SECONDS       wait until GET URL answers 200
  metric URL NAME [LABEL=VALUE...]  print the sum of the Prometheus series NAME at URL
  hist-save URL NAME OUT [LABEL=VALUE...]  save the buckets of a Prometheus histogram
  hist-report BEFORE AFTER       percentile bounds of what was recorded in between
  sample-gauge URL NAME TARGET SECONDS  how often a gauge is at TARGET over SECONDS
  rss PID                        print VmRSS of PID in KiB
  cpu-after-timeout ...          measure how long CPU use lasts after a 503 solve_timeout
"""

import argparse
import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.request

# --------------------------------------------------------------------------- puzzles

GRID_81 = re.compile(r"^[0-9.]{81}$")


def busy_grid():
    """The grid of tests/api/busy_grid.rs: a 16x16 grid that follows the rules, has no
    solution, and keeps the solver busy until its time limit (row 0's first twelve cells
    can hold only the digits 1-11)."""
    cells = ["."] * 256
    for grid_box in range(3):
        for k in range(5):
            row = 1 + (grid_box + k) % 3
            col = 4 * grid_box + k % 4
            cells[row * 16 + col] = chr(ord("C") + k)  # C = 12, ..., G = 16
    return "".join(cells)


def read_puzzles(path, limit=None):
    """The 9x9 puzzles of a puzzle file: one per line, `#` comments and blank lines
    skipped, anything after the first 81 characters (a name, `:count`, ...) ignored."""
    puzzles = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            grid = line[:81]
            if GRID_81.match(grid):
                puzzles.append(grid)
                if limit and len(puzzles) >= limit:
                    break
    if not puzzles:
        sys.exit(f"helper.py: no 9x9 puzzles in {path}")
    return puzzles


def rows_of(grid):
    return [[0 if c == "." else int(c) for c in grid[r * 9:(r + 1) * 9]] for r in range(9)]


def cmd_bodies(args):
    out = sys.stdout
    dump = lambda body: out.write(json.dumps(body, separators=(",", ":")) + "\n")
    if args.kind == "busy":
        dump({"grid": busy_grid(), "timeout_ms": args.timeout_ms})
        return
    if args.kind == "plain":
        # One plain request per puzzle (17-clue throughput, easy-puzzle latency).
        for path in args.files:
            for grid in read_puzzles(path, args.limit):
                dump({"grid": grid})
        return
    # "mixed": every puzzle in several request shapes, so the long run goes through the
    # string and the rows notation, uniqueness checks and lexicographic order.
    easy, hard = args.files[0], args.files[1:]
    for grid in read_puzzles(easy, args.limit):
        dump({"grid": grid})
        dump({"grid": grid, "unique": True})
        dump({"grid": grid, "order": "lexicographic"})
        dump({"grid": rows_of(grid), "timeout_ms": 1000})
    for path in hard:
        for grid in read_puzzles(path, args.limit):
            dump({"grid": grid})
            dump({"grid": grid, "unique": True})


# --------------------------------------------------------------------------- probes


def get(url, timeout=2.0):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


def cmd_wait_healthy(args):
    deadline = time.monotonic() + args.seconds
    last = None
    while time.monotonic() < deadline:
        try:
            status, _ = get(args.url, timeout=1.0)
            if status == 200:
                return
            last = f"status {status}"
        except (OSError, urllib.error.URLError) as error:
            last = str(error)
        time.sleep(0.05)
    sys.exit(f"helper.py: {args.url} not healthy after {args.seconds} s ({last})")


def metric_sum(url, name, labels=()):
    _, body = get(url)
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith("#"):
            continue
        match = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)", line)
        if not match or match.group(1) != name:
            continue
        if any(label not in (match.group(2) or "") for label in labels):
            continue
        total += float(match.group(3))
    return total


def histogram(url, name, labels):
    """The cumulative buckets {le: count} of the Prometheus histogram NAME with LABELS."""
    _, body = get(url)
    buckets = {}
    for line in body.decode().splitlines():
        match = re.match(r"^" + re.escape(name) + r"_bucket\{([^}]*)\}\s+(\S+)", line)
        if not match or any(label not in match.group(1) for label in labels):
            continue
        le = re.search(r'le="([^"]*)"', match.group(1)).group(1)
        le = float("inf") if le == "+Inf" else float(le)
        buckets[le] = buckets.get(le, 0) + float(match.group(2))
    return buckets


def cmd_hist_save(args):
    labels = [f'{k}="{v}"' for k, _, v in (pair.partition("=") for pair in args.labels)]
    buckets = histogram(args.url, args.name, labels)
    with open(args.out, "w") as f:
        json.dump(sorted(buckets.items()), f)


def cmd_hist_report(args):
    """Percentile bounds of the requests recorded between two histogram snapshots."""
    load = lambda path: {le: n for le, n in json.load(open(path))}
    before, after = load(args.before), load(args.after)
    delta = sorted((le, after[le] - before.get(le, 0)) for le in after)
    total = delta[-1][1] if delta else 0

    def bound(p):
        for le, n in delta:
            if n >= p / 100 * total:
                return "inf" if le == float("inf") else f"{le * 1000:g}"
        return "n/a"

    over = lambda ms: total - next((n for le, n in delta if le >= ms / 1000), total)
    print(f"count={total:.0f} p50_le_ms={bound(50)} p99_le_ms={bound(99)} "
          f"p999_le_ms={bound(99.9)} over_10ms={over(10):.0f} over_100ms={over(100):.0f}")


def cmd_metric(args):
    labels = []
    for pair in args.labels:
        key, _, value = pair.partition("=")
        labels.append(f'{key}="{value}"')
    value = metric_sum(args.url, args.name, labels)
    print(int(value) if value.is_integer() else value)


def cmd_sample_gauge(args):
    """Reads a gauge every INTERVAL seconds for SECONDS seconds; prints how often it was at
    least TARGET, and its mean."""
    values = []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        try:
            values.append(metric_sum(args.url, args.name))
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(args.interval)
    if not values:
        sys.exit("helper.py: no gauge samples")
    at_target = sum(v >= args.target for v in values)
    print(f"samples={len(values)} at_target_pct={100 * at_target / len(values):.0f} "
          f"mean={sum(values) / len(values):.2f}")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cmd_rss(args):
    print(rss_kib(args.pid))


# --------------------------------------------------------------------------- CPU after timeout

CLK_TCK = os.sysconf("SC_CLK_TCK")


def stat_ticks(pid):
    """utime + stime of the whole process, in clock ticks (fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        data = f.read()
    fields = data[data.rindex(")") + 2:].split()  # after "pid (comm) "
    return int(fields[11]) + int(fields[12])


class SchedClock:
    """CPU time of all threads in nanoseconds, from /proc/PID/task/*/schedstat. Threads
    that exit keep their last value, so the sum never goes back."""

    def __init__(self, pid):
        self.pid = pid
        self.seen = {}
        self.available = os.path.exists(f"/proc/{pid}/task/{pid}/schedstat")

    def read(self):
        if not self.available:
            return None
        base = f"/proc/{self.pid}/task"
        for tid in os.listdir(base):
            try:
                with open(f"{base}/{tid}/schedstat") as f:
                    self.seen[tid] = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass  # the thread exited between listdir and open
        return sum(self.seen.values())


def post_json(url, body, timeout):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def cmd_cpu_after_timeout(args):
    pid = args.pid
    sched = SchedClock(pid)
    samples = []  # (monotonic seconds, ticks, ns or None)
    stop = threading.Event()

    def sampler():
        interval = args.sample_ms / 1000
        next_at = time.monotonic()
        while not stop.is_set():
            samples.append((time.monotonic(), stat_ticks(pid), sched.read()))
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))

    body = {"grid": busy_grid(), "timeout_ms": args.timeout_ms}
    threading.Thread(target=sampler, daemon=True).start()
    time.sleep(0.2)

    results = []
    for round_no in range(args.rounds):
        answers = []

        def one():
            status, payload = post_json(args.url, body, timeout=10)
            answers.append((time.monotonic(), status, payload))

        started = time.monotonic()
        clients = [threading.Thread(target=one) for _ in range(args.parallel)]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        last = max(t for t, _, _ in answers)
        statuses = sorted(s for _, s, _ in answers)
        codes = sorted({json.loads(p).get("code", "?") if p else "?" for _, _, p in answers})
        time.sleep(args.observe_ms / 1000)
        window = [s for s in samples if started <= s[0] <= last + args.observe_ms / 1000]
        after = [s for s in window if s[0] >= last]
        during = [s for s in window if s[0] < last]

        # Ticks: the last sample after the answer at which the tick count still grew.
        tick_delay = None
        for (t0, k0, _), (t1, k1, _) in zip(after, after[1:]):
            if k1 > k0:
                tick_delay = t1 - last
        ticks_after = after[-1][1] - after[0][1] if after else 0

        # Nanoseconds (schedstat): the end of the last sample interval after the answer in
        # which the process used more than 10% of one core.
        ns_delay = ns_after = busy_cores = None
        if sched.available and len(after) > 1 and len(during) > 1:
            ns_delay = 0.0
            for (t0, _, n0), (t1, _, n1) in zip(after, after[1:]):
                if (n1 - n0) / 1e9 > 0.10 * (t1 - t0):
                    ns_delay = t1 - last
            ns_after = (after[-1][2] - after[0][2]) / 1e6
            busy_cores = (during[-1][2] - during[0][2]) / 1e9 / (during[-1][0] - during[0][0])

        results.append(
            {
                "round": round_no + 1,
                "statuses": statuses,
                "codes": codes,
                "request_s": last - started,
                "tick_delay_ms": None if tick_delay is None else tick_delay * 1000,
                "ticks_after": ticks_after,
                "ns_delay_ms": None if ns_delay is None else ns_delay * 1000,
                "cpu_after_ms": ns_after,
                "busy_cores": busy_cores,
            }
        )
    stop.set()

    fmt = lambda v, spec=".1f": "n/a" if v is None else format(v, spec)
    for r in results:
        print(
            "CPU round={round} statuses={st} codes={codes} answered_after_ms={req:.0f} "
            "cores_busy_before={busy} tick_delay_ms={tick} ticks_after={ticks} "
            "precise_delay_ms={ns} cpu_after_ms={cpu}".format(
                round=r["round"],
                st=",".join(map(str, r["statuses"])),
                codes=",".join(r["codes"]),
                req=r["request_s"] * 1000,
                busy=fmt(r["busy_cores"], ".2f"),
                tick=fmt(r["tick_delay_ms"]) if r["tick_delay_ms"] is not None else "0",
                ticks=r["ticks_after"],
                ns=fmt(r["ns_delay_ms"]),
                cpu=fmt(r["cpu_after_ms"], ".3f"),
            )
        )
    print(f"CPU clk_tck={CLK_TCK} sample_ms={args.sample_ms} schedstat={'yes' if sched.available else 'no'}")


# --------------------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("busy-grid").set_defaults(func=lambda a: print(busy_grid()))

    p = sub.add_parser("bodies")
    p.add_argument("kind", choices=["plain", "mixed", "busy"])
    p.add_argument("files", nargs="*")
    p.add_argument("--limit", type=int, default=None, help="puzzles per file")
    p.add_argument("--timeout-ms", type=int, default=300, help="for busy")
    p.set_defaults(func=cmd_bodies)

    p = sub.add_parser("wait-healthy")
    p.add_argument("url")
    p.add_argument("seconds", type=float)
    p.set_defaults(func=cmd_wait_healthy)

    p = sub.add_parser("metric")
    p.add_argument("url")
    p.add_argument("name")
    p.add_argument("labels", nargs="*", metavar="LABEL=VALUE")
    p.set_defaults(func=cmd_metric)

    p = sub.add_parser("hist-save")
    p.add_argument("url")
    p.add_argument("name")
    p.add_argument("out")
    p.add_argument("labels", nargs="*", metavar="LABEL=VALUE")
    p.set_defaults(func=cmd_hist_save)

    p = sub.add_parser("hist-report")
    p.add_argument("before")
    p.add_argument("after")
    p.set_defaults(func=cmd_hist_report)

    p = sub.add_parser("sample-gauge")
    p.add_argument("url")
    p.add_argument("name")
    p.add_argument("target", type=float)
    p.add_argument("seconds", type=float)
    p.add_argument("--interval", type=float, default=0.02)
    p.set_defaults(func=cmd_sample_gauge)

    p = sub.add_parser("rss")
    p.add_argument("pid", type=int)
    p.set_defaults(func=cmd_rss)

    p = sub.add_parser("cpu-after-timeout")
    p.add_argument("--url", required=True, help="the /solve URL")
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--timeout-ms", type=int, default=300)
    p.add_argument("--parallel", type=int, default=2, help="busy requests at once")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--sample-ms", type=float, default=5.0)
    p.add_argument("--observe-ms", type=float, default=500.0, help="watch this long after each answer")
    p.set_defaults(func=cmd_cpu_after_timeout)

    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
