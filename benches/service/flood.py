#!/usr/bin/env python3
"""Cheap requests through a flood of expensive ones (Python 3 standard library only).

The server starts on a free loopback port with a clean environment, SOLVER_CONCURRENCY=
--solvers (1) and QUEUE_LENGTH=--queue (4). A child process then runs the flood: --clients
(32) asyncio clients, each on a keep-alive connection (reopened when the server closes it),
sending `POST /rate` in a loop with the puzzles of tests/data/9x9/se-rated/se-rated-dev.tsv
rated SE 8.0 and up. Every answer to the flood counts, by status and problem `code` (200,
503 `overloaded`, 503 `solve_timeout`, ...).

Once the flood has run for a second, for --seconds (20) the main process sends:

  easy /solve  the easy puzzle of the README (`53..7....6..`) every 0.25 s, each on a fresh
               connection: how many get 200, and the latency (connect to last byte) of all
               answered, median and p99
  /healthz     a GET every 50 ms, each on a fresh connection: p99 latency

and reads /proc/PID/stat at the start and end of that window for the cores the server
process used (user + system CPU over wall time), and /proc/PID/status for its peak RSS;
the flood process's own cores too, since on a small machine it competes with the server.
With --repeats N > 1 each round has a fresh server, and the table shows every round and
the medians. The flood's counts cover the same window (answers that arrived in it); the
flood's own client-side tallies (connections opened, connections that failed or were cut
off mid-request) are printed too.

The exit status is non-zero only when the setup fails (the server does not start or the
build fails); a low success rate is a result, not an error. Progress goes to stderr, the
table to stdout. All traffic stays on 127.0.0.1, and every loop ends by count or time.

usage: benches/service/flood.py [--bin PATH] [--no-build] [--seconds S] [--clients N]
                                [--solvers N] [--queue N] [--repeats N]
"""

import argparse
import asyncio
import collections
import json
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server and /proc helpers)

PUZZLES = os.path.join(attack.ROOT, "tests", "data", "9x9", "se-rated", "se-rated-dev.tsv")
EASY_EVERY = 0.25       # seconds between easy /solve requests
HEALTHZ_EVERY = 0.05    # seconds between /healthz probes
WARMUP = 1.0            # seconds of flood before the window opens
REQUEST_TIMEOUT = 15.0  # longest wait for any one answer, in seconds
BUCKET = 0.1            # the flood counts answers in buckets of this many seconds


def hard_puzzles(minimum=8.0):
    """The puzzles of the dev set rated SE `minimum` and up (columns: puzzle, se, ...)."""
    grids = []
    with open(PUZZLES) as lines:
        header = next(lines).rstrip("\n").split("\t")
        puzzle, se = header.index("puzzle"), header.index("se")
        for line in lines:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            try:
                if float(fields[se]) >= minimum and len(fields[puzzle]) == 81:
                    grids.append(fields[puzzle])
            except (ValueError, IndexError):
                continue
    return grids


# --------------------------------------------------------------------------- HTTP


async def read_answer(reader):
    """One HTTP/1.1 response: (status, body, whether the server closes the connection).
    Handles Content-Length, chunked and close-delimited bodies."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    close = "close" in headers.get("connection", "").lower()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                break
            body += await reader.readexactly(size)
            await reader.readexactly(2)
        return status, bytes(body), close
    if "content-length" in headers:
        return status, await reader.readexactly(int(headers["content-length"])), close
    if status in (204, 304) or 100 <= status < 200:
        return status, b"", close
    return status, await reader.read(), True


def outcome(status, body):
    """`200`, or the status and the problem's `code` (`503 overloaded`)."""
    if status < 400:
        return str(status)
    try:
        code = json.loads(body).get("code")
    except (ValueError, AttributeError):
        code = None
    return f"{status} {code}" if code else str(status)


async def one_shot(port, method, path, body=""):
    """A request on a fresh connection: (outcome, seconds from connect to last byte)."""
    started = time.monotonic()
    writer = None
    try:
        async def exchange():
            nonlocal writer
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(attack.request_bytes(method, path, body))
            await writer.drain()
            return await read_answer(reader)
        status, answer, _ = await asyncio.wait_for(exchange(), REQUEST_TIMEOUT)
        result = outcome(status, answer)
    except asyncio.TimeoutError:
        result = "client timeout"
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
        result = "connection error"
    elapsed = time.monotonic() - started
    if writer is not None:
        writer.close()
    return result, elapsed


# --------------------------------------------------------------------------- the flood


async def flood_client(port, bodies, offset, stop_at, stop, counts, tallies):
    """Sends POST /rate on one keep-alive connection, reopening it when closed."""
    i = offset
    while not stop.is_set() and time.monotonic() < stop_at:
        writer = None
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), REQUEST_TIMEOUT)
            tallies["connections opened"] += 1
            while not stop.is_set() and time.monotonic() < stop_at:
                writer.write(attack.request_bytes("POST", "/rate", bodies[i % len(bodies)]))
                i += 1
                await writer.drain()
                status, answer, close = await asyncio.wait_for(read_answer(reader),
                                                               REQUEST_TIMEOUT)
                counts[(int(time.monotonic() / BUCKET), outcome(status, answer))] += 1
                tallies["answers"] += 1
                if close:
                    tallies["closed by the server"] += 1
                    break
        except asyncio.TimeoutError:
            tallies["client timeouts"] += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            tallies["connection errors"] += 1
            await asyncio.sleep(0.01)
        finally:
            if writer is not None:
                writer.close()


def flood_process(port, clients, bodies, limit, stop, ready, results):
    """The flood, in its own process so that the probes' clock is not the flood's event
    loop: runs until `stop` is set or `limit` seconds have passed, then sends back the
    counts by (time bucket, outcome) and the client-side tallies."""
    async def run():
        counts, tallies = collections.Counter(), collections.Counter()
        done = asyncio.Event()
        stop_at = time.monotonic() + limit
        tasks = [asyncio.create_task(flood_client(port, bodies, k * len(bodies) // clients,
                                                  stop_at, done, counts, tallies))
                 for k in range(clients)]
        ready.set()
        loop = asyncio.get_running_loop()
        while time.monotonic() < stop_at:
            if await loop.run_in_executor(None, stop.wait, 0.2):
                break
        done.set()
        _, pending = await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT + 1)
        for task in pending:
            task.cancel()
        return counts, tallies
    counts, tallies = asyncio.run(run())
    results.put((dict(counts), dict(tallies)))


# --------------------------------------------------------------------------- the probes


async def probes(server, flood_pid, seconds):
    """Easy /solve every 0.25 s and /healthz every 50 ms, each on its own connection, for
    `seconds`; /proc read at both ends. Returns the round's figures but the flood's."""
    easy_body = json.dumps({"grid": attack.EASY})
    easy_tasks, healthz_tasks = [], []
    peak_rss = attack.rss_mib(server.pid)
    cpu, flood_cpu = attack.cpu_seconds(server.pid), attack.cpu_seconds(flood_pid)
    start = time.monotonic()
    easy_count = int(round(seconds / EASY_EVERY))
    healthz_count = int(round(seconds / HEALTHZ_EVERY))
    ticks = sorted([(k * EASY_EVERY, "easy") for k in range(easy_count)]
                   + [(k * HEALTHZ_EVERY, "healthz") for k in range(healthz_count)])
    next_rss = 0.0
    for at, kind in ticks:
        delay = start + at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if kind == "easy":
            easy_tasks.append(asyncio.create_task(
                one_shot(server.port, "POST", "/solve", easy_body)))
        else:
            healthz_tasks.append(asyncio.create_task(
                one_shot(server.port, "GET", "/healthz")))
        if at >= next_rss:
            peak_rss = max(peak_rss, attack.rss_mib(server.pid))
            next_rss = at + 0.1
    await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))
    end = time.monotonic()
    cores = (attack.cpu_seconds(server.pid) - cpu) / (end - start)
    flood_cores = (attack.cpu_seconds(flood_pid) - flood_cpu) / (end - start)
    easy = await asyncio.gather(*easy_tasks)
    healthz = await asyncio.gather(*healthz_tasks)
    return {"start": start, "end": end, "cores": cores, "flood_cores": flood_cores,
            "peak_rss": peak_rss,
            "easy": easy, "healthz": healthz}


def percentile(values, fraction):
    """The nearest-rank percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))]


def one_round(args, bodies, number):
    attack.log(f"round {number}: server with SOLVER_CONCURRENCY={args.solvers} "
               f"QUEUE_LENGTH={args.queue}")
    server = attack.Server(args.bin, "service", env={"SOLVER_CONCURRENCY": str(args.solvers),
                                                     "QUEUE_LENGTH": str(args.queue)})
    context = multiprocessing.get_context("fork")
    stop, ready, results = context.Event(), context.Event(), context.Queue()
    flood = None
    try:
        limit = WARMUP + args.seconds + 10
        flood = context.Process(target=flood_process, daemon=True,
                                args=(server.port, args.clients, bodies, limit, stop, ready,
                                      results))
        flood.start()
        if not ready.wait(10):
            sys.exit("flood.py: the flood process did not start")
        attack.log(f"round {number}: {args.clients} clients flooding POST /rate; "
                   f"measuring for {args.seconds} s")
        time.sleep(WARMUP)
        figures = asyncio.run(probes(server, flood.pid, args.seconds))
        stop.set()
        counts, tallies = results.get(timeout=REQUEST_TIMEOUT + 15)
        flood.join(5)
    finally:
        stop.set()
        if flood is not None and flood.is_alive():
            flood.terminate()
            flood.join(5)
        server.stop()
    first, last = int(figures["start"] / BUCKET), int(figures["end"] / BUCKET)
    window = collections.Counter()
    for (bucket, key), n in counts.items():
        if first <= bucket <= last:
            window[key] += n
    easy_ok = [s for result, s in figures["easy"] if result == "200"]
    easy_answered = [s for result, s in figures["easy"]
                     if result not in ("client timeout", "connection error")]
    healthz_answered = [s for result, s in figures["healthz"]
                        if result not in ("client timeout", "connection error")]
    return {
        "easy_total": len(figures["easy"]),
        "easy_ok": len(easy_ok),
        "easy_outcomes": collections.Counter(r for r, _ in figures["easy"]),
        "easy_median": statistics.median(easy_answered) * 1000 if easy_answered else None,
        "easy_p99": percentile(easy_answered, 0.99) * 1000 if easy_answered else None,
        "easy_ok_p99": percentile(easy_ok, 0.99) * 1000 if easy_ok else None,
        "healthz_total": len(figures["healthz"]),
        "healthz_ok": sum(1 for r, _ in figures["healthz"] if r == "200"),
        "healthz_p99": percentile(healthz_answered, 0.99) * 1000 if healthz_answered else None,
        "healthz_median": (statistics.median(healthz_answered) * 1000
                           if healthz_answered else None),
        "cores": figures["cores"],
        "flood_cores": figures["flood_cores"],
        "peak_rss": figures["peak_rss"],
        "window": figures["end"] - figures["start"],
        "flood": window,
        "tallies": collections.Counter(tallies),
    }


# --------------------------------------------------------------------------- report


def report(args, rounds):
    def median(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    def number(value, spec):
        return "-" if value is None else format(value, spec)

    rows = []

    def row(label, get, spec):
        values = [get(r) for r in rounds]
        rows.append((label, [number(v, spec) for v in values], number(median(values), spec)))

    row("easy /solve sent", lambda r: r["easy_total"], "d")
    row("easy /solve 200", lambda r: r["easy_ok"], "d")
    row("easy /solve success rate (%)",
        lambda r: 100.0 * r["easy_ok"] / r["easy_total"] if r["easy_total"] else None, ".1f")
    for key in sorted({k for r in rounds for k in r["easy_outcomes"]} - {"200"}):
        row(f"easy /solve {key}", lambda r, key=key: r["easy_outcomes"][key], "d")
    row("easy /solve latency median (ms), all answers", lambda r: r["easy_median"], ".2f")
    row("easy /solve latency p99 (ms), all answers", lambda r: r["easy_p99"], ".2f")
    row("easy /solve latency p99 (ms), 200 only", lambda r: r["easy_ok_p99"], ".2f")
    rows.append(("/healthz probes sent / 200",
                [f"{r['healthz_total']} / {r['healthz_ok']}" for r in rounds],
                f"{number(median([r['healthz_total'] for r in rounds]), 'g')} / "
                f"{number(median([r['healthz_ok'] for r in rounds]), 'g')}"))
    row("/healthz latency median (ms)", lambda r: r["healthz_median"], ".2f")
    row("/healthz latency p99 (ms)", lambda r: r["healthz_p99"], ".2f")
    row("server cores used in the window", lambda r: r["cores"], ".2f")
    row("flood client process cores in the window", lambda r: r["flood_cores"], ".2f")
    row("server peak RSS in the window (MiB)", lambda r: r["peak_rss"], ".1f")
    row("flood answers in the window", lambda r: sum(r["flood"].values()), "d")
    for key in sorted({k for r in rounds for k in r["flood"]}):
        row(f"flood POST /rate {key}", lambda r, key=key: r["flood"][key], "d")
    row("flood answers/s in the window",
        lambda r: sum(r["flood"].values()) / r["window"], ".0f")
    rows.append(("flood clients (client side)", [str(args.clients)] * len(rounds),
                 str(args.clients)))
    for key in ["answers", "connections opened", "closed by the server",
                "connection errors", "client timeouts"]:
        row(f"flood client side: {key} (whole run)", lambda r, key=key: r["tallies"][key], "d")

    many = len(rounds) > 1
    print(f"\nflood: {args.clients} clients POST /rate (SE >= 8.0), "
          f"SOLVER_CONCURRENCY={args.solvers}, QUEUE_LENGTH={args.queue}, "
          f"{args.seconds} s window, {len(rounds)} round(s)  [{args.bin}]")
    width = max(len(label) for label, _, _ in rows) + 2
    columns = [f"round {k + 1}" for k in range(len(rounds))] + (["median"] if many else [])
    cell = max([12] + [len(c) for c in columns]
               + [len(v) for _, values, m in rows for v in values + [m]]) + 2
    print(f"  {'figure':<{width}}" + "".join(f"{c:>{cell}}" for c in columns))
    for label, values, med in rows:
        print(f"  {label:<{width}}" + "".join(f"{v:>{cell}}" for v in values)
              + (f"{med:>{cell}}" if many else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(attack.ROOT, "target/release/sudoku-service"),
                        help="the server binary (default: the release build)")
    parser.add_argument("--no-build", action="store_true", help="skip the release build")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="length of the measured window (default 20)")
    parser.add_argument("--clients", type=int, default=32,
                        help="flood clients, one keep-alive connection each (default 32)")
    parser.add_argument("--solvers", type=int, default=1,
                        help="SOLVER_CONCURRENCY of the server (default 1)")
    parser.add_argument("--queue", type=int, default=4,
                        help="QUEUE_LENGTH of the server (default 4)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="rounds, each with a fresh server; medians when above 1")
    args = parser.parse_args()
    if args.seconds <= 0 or args.seconds > 600 or args.clients < 1 or args.clients > 1000 \
            or args.repeats < 1 or args.repeats > 50:
        parser.error("--seconds must be in (0, 600], --clients in [1, 1000], "
                     "--repeats in [1, 50]")
    if not args.no_build:
        attack.log("cargo build --release")
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"],
                       cwd=attack.ROOT, check=True)
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"flood.py: {args.bin} is not an executable")
    bodies = [json.dumps({"grid": grid}) for grid in hard_puzzles()]
    if not bodies:
        sys.exit(f"flood.py: no puzzle rated SE 8.0 or more in {PUZZLES}")
    attack.log(f"{len(bodies)} puzzles rated SE >= 8.0")
    rounds = [one_round(args, bodies, k + 1) for k in range(args.repeats)]
    report(args, rounds)


if __name__ == "__main__":
    main()
