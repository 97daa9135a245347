#!/usr/bin/env python3
"""Attack-and-load benchmark of the service on 127.0.0.1 (Python 3 standard library and wrk).

For each server (the service, and with --baseline also the plain baseline service of
benches/baseline-service), it starts the server on a free loopback port and measures:

  idle        resident memory (VmRSS) after a few requests
  unloaded    p99 latency of GET /healthz and of an easy POST /solve (wrk)
  attack      STALLS connections that stall (half inside ~8 KB of headers, half inside a
              60 KB body) plus FLOOD clients that keep sending 16x16 grids that run into the
              time limit: connections still held, peak RSS, /healthz and easy /solve p99
              during the attack, and how long after their last byte the stalled
              connections were closed
  after       RSS once every stalled connection is closed
  cpu_flood   cores used with SOLVER_CONCURRENCY=1 under the same flood
  cpu_503     CPU per 503 `overloaded` against CPU per 422 `invalid_grid`
  cpu_timeout how long the process keeps using CPU after a 503 `solve_timeout`

Every load is bounded in count and time; nothing listens beyond the loopback interface.
Results go to stdout as a table, progress to stderr.

usage: benches/service/attack.py [--bin PATH] [--baseline] [--quick]
"""

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TICKS = os.sysconf("SC_CLK_TCK")


def busy_grid():
    """tests/api/busy_grid.rs: a 16x16 grid that follows the rules, has no solution, and
    keeps a solver busy until its time limit."""
    cells = ["."] * 256
    for grid_box in range(3):
        for k in range(5):
            cells[(1 + (grid_box + k) % 3) * 16 + 4 * grid_box + k % 4] = chr(ord("C") + k)
    return "".join(cells)


def log(*parts):
    print("==", *parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        kib = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    return kib / 1024


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Server:
    """A server process on a free loopback port."""

    def __init__(self, binary, kind, env=None, args=(), pin=None):
        self.port = free_port()
        self.kind = kind
        clean = {k: v for k, v in os.environ.items() if not inherited(k)}
        clean.update(env or {})
        if kind == "service":
            command = [binary, "serve", "--listen-addr", f"127.0.0.1:{self.port}",
                       "--log-filter", "warn", *args]
        else:
            clean["PORT"] = str(self.port)
            command = [binary]
        if pin:
            command = ["taskset", "-c", pin, *command]
        self.process = subprocess.Popen(command, env=clean, stdout=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                if http_status("GET", self.port, "/healthz") == 200:
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        sys.exit(f"attack.py: {binary} did not answer /healthz")

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


SERVER_VARIABLES = {
    "PORT", "LISTEN_ADDR", "SOLVE_TIMEOUT_MS", "GENERATE_TIMEOUT_MS", "SOLVER_CONCURRENCY", "QUEUE_LENGTH",
    "BODY_LIMIT_BYTES", "BODY_BUDGET_BYTES", "HEADER_LIMIT_BYTES", "MAX_CONNECTIONS",
    "LISTEN_BACKLOG", "HEADER_READ_TIMEOUT_MS", "BODY_READ_TIMEOUT_MS", "IDLE_TIMEOUT_MS",
    "WRITE_TIMEOUT_MS", "DRAIN_DELAY_SECS", "SHUTDOWN_GRACE_SECS", "LOG_FORMAT", "RUST_LOG",
    "BATCH_BODY_LIMIT_BYTES", "BATCH_MAX_LINES", "BATCH_MIN_READ_RATE", "BATCH_TIMEOUT_MS",
    "GLIBC_TUNABLES",
}


def inherited(name):
    """Whether the caller's variable `name` would change the server measured: the
    service's own, and the allocator's (a `MALLOC_*` setting or glibc's tunables)."""
    return name in SERVER_VARIABLES or name.startswith("MALLOC_")


def request_bytes(method, path, body=""):
    return (f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}").encode()


def http_status(method, port, path, body=""):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request_bytes(method, path, body))
        head = s.recv(4096).decode(errors="replace")
    return int(head.split(" ", 2)[1])


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length:\s*(\d+)", head)
    if length:
        await reader.readexactly(int(length.group(1)))
    return int(head.split(b" ", 2)[1])


# --------------------------------------------------------------------------- wrk


def wrk(port, path, body, seconds, connections=4, threads=1, pin=None):
    """Runs wrk (on CPU `pin` if given); returns (requests/s, p99 ms, non-2xx or socket
    errors)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        if body is not None:
            script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                         f"wrk.body = {json.dumps(body)}\n")
    out = subprocess.run(
        (["taskset", "-c", pin] if pin else []) + ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
         "-s", script.name, f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    bad = sum(map(int, errors.groups())) if errors else 0
    bad += int(non_2xx.group(1)) if non_2xx else 0
    return rps, p99, bad


# --------------------------------------------------------------------------- attack


class Stall:
    """A connection that sends part of a request, then nothing."""

    def __init__(self):
        self.stalled_at = None
        self.closed_at = None
        self.writer = None


async def stall(port, kind, record):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    if kind == "header":
        pad = "".join(f"x-pad-{i}: {'p' * 90}\r\n" for i in range(80))  # ~7.9 KB
        data = f"POST /solve HTTP/1.1\r\nHost: bench\r\n{pad}".encode()
    else:
        head = ("POST /solve HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                "Content-Length: 64000\r\n\r\n")
        data = head.encode() + b'{"grid": "' + b"." * 60000
    try:
        record.writer = writer
        writer.write(data)
        await writer.drain()
        record.stalled_at = time.monotonic()
        while await reader.read(65536):
            pass
    except OSError:
        pass
    record.closed_at = time.monotonic()
    writer.close()


async def flood(port, stop):
    body = json.dumps({"grid": busy_grid()})
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            while not stop.is_set():
                writer.write(request_bytes("POST", "/solve", body))
                await writer.drain()
                await read_response(reader)
            writer.close()
        except (OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.01)


async def sample_rss(pid, stop, peak):
    while not stop.is_set():
        peak[0] = max(peak[0], rss_mib(pid))
        await asyncio.sleep(0.1)


async def attack(server, args, results):
    stalls = [Stall() for _ in range(args.stalls)]
    stop_flood, stop_sampling = asyncio.Event(), asyncio.Event()
    peak = [rss_mib(server.pid)]
    sampler = asyncio.create_task(sample_rss(server.pid, stop_sampling, peak))
    tasks = []
    for start in range(0, args.stalls, 200):
        for i in range(start, min(start + 200, args.stalls)):
            kind = "header" if i % 2 == 0 else "body"
            tasks.append(asyncio.create_task(stall(server.port, kind, stalls[i])))
        await asyncio.sleep(0.05)
    floods = [asyncio.create_task(flood(server.port, stop_flood)) for _ in range(args.flood)]
    await asyncio.sleep(1.0)
    held = sum(1 for s in stalls if s.stalled_at and not s.closed_at)
    log(f"{held} stalled connections held; measuring under attack")
    loop = asyncio.get_running_loop()
    healthz = await loop.run_in_executor(
        None, wrk, server.port, "/healthz", None, args.seconds)
    easy = await loop.run_in_executor(
        None, wrk, server.port, "/solve", json.dumps({"grid": EASY}), args.seconds)
    log("waiting for the stalled connections to be closed")
    await asyncio.wait(tasks, timeout=args.close_wait)
    stop_flood.set()
    await asyncio.wait(floods, timeout=5)
    stop_sampling.set()
    await sampler
    for task in tasks:
        task.cancel()
    delays = sorted(s.closed_at - s.stalled_at for s in stalls if s.stalled_at and s.closed_at)
    await asyncio.sleep(2.0)
    results.update({
        "held": held, "peak_rss": peak[0], "attack_healthz": healthz, "attack_easy": easy,
        "closed": len(delays), "close_max": delays[-1] if delays else None,
        "close_median": delays[len(delays) // 2] if delays else None,
        "after_rss": rss_mib(server.pid),
    })


# --------------------------------------------------------------------------- CPU


def cpu_under_flood(binary, kind, args):
    server = Server(binary, kind, env={"SOLVER_CONCURRENCY": "1"})
    try:
        async def run():
            stop = asyncio.Event()
            floods = [asyncio.create_task(flood(server.port, stop)) for _ in range(args.flood)]
            await asyncio.sleep(1.0)
            cpu, wall = cpu_seconds(server.pid), time.monotonic()
            await asyncio.sleep(args.seconds)
            used = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - wall)
            stop.set()
            await asyncio.wait(floods, timeout=5)
            return used
        return asyncio.run(run())
    finally:
        server.stop()


def cpu_per_refusal(binary, args):
    """CPU per 503 `overloaded` (the only solver held by a busy grid, no queue: a hard
    grid gets its short quick attempt, then the refusal; an easy one would be solved) and
    per 422 `invalid_grid`, in microseconds."""
    server = Server(binary, "service", args=["--solver-concurrency", "1", "--queue-length", "0",
                                             "--solve-timeout-ms", "600000"])
    try:
        holder = socket.create_connection(("127.0.0.1", server.port))
        holder.sendall(request_bytes("POST", "/solve", json.dumps({"grid": busy_grid()})))
        time.sleep(0.5)
        per = {}
        for name, body in [("503", {"grid": busy_grid()}), ("422", {"grid": "1" * 80})]:
            cpu = cpu_seconds(server.pid)
            rps, _, _ = wrk(server.port, "/solve", json.dumps(body), args.seconds)
            per[name] = (cpu_seconds(server.pid) - cpu) / (rps * args.seconds) * 1e6
        holder.close()
        return per
    finally:
        server.stop()


def cpu_after_timeout(binary):
    """Milliseconds from a 503 `solve_timeout` until the process is idle (5 ms samples)."""
    server = Server(binary, "service", args=["--solver-concurrency", "1"])
    try:
        body = json.dumps({"grid": busy_grid(), "timeout_ms": 300})
        status = http_status("POST", server.port, "/solve", body)
        answered = time.monotonic()
        last_busy = answered
        previous = cpu_seconds(server.pid)
        while time.monotonic() - answered < 0.5:
            time.sleep(0.005)
            now = cpu_seconds(server.pid)
            if now > previous:
                last_busy = time.monotonic()
            previous = now
        return status, (last_busy - answered) * 1000
    finally:
        server.stop()


# --------------------------------------------------------------------------- main


def measure(binary, kind, args):
    log(f"{kind}: {binary}")
    results = {}
    server = Server(binary, kind)
    try:
        for _ in range(20):
            http_status("GET", server.port, "/healthz")
        results["idle_rss"] = rss_mib(server.pid)
        log("unloaded latency")
        results["healthz"] = wrk(server.port, "/healthz", None, args.seconds)
        results["easy"] = wrk(server.port, "/solve", json.dumps({"grid": EASY}), args.seconds)
        log(f"attack: {args.stalls} stalled connections, {args.flood} flood clients")
        asyncio.run(attack(server, args, results))
    finally:
        server.stop()
    log("CPU under a flood with one solver")
    results["cpu_flood"] = cpu_under_flood(binary, kind, args)
    if kind == "service":
        log("CPU per refusal")
        results["cpu_refusal"] = cpu_per_refusal(binary, args)
        results["cpu_timeout"] = cpu_after_timeout(binary)
    return results


def report(name, r):
    fmt = lambda x, spec: "-" if x is None else format(x, spec)
    rows = [
        ("RSS idle / peak under attack / after (MiB)",
         f"{r['idle_rss']:.1f} / {r['peak_rss']:.1f} / {r['after_rss']:.1f}"),
        ("stalled connections held 1 s into the attack", f"{r['held']}"),
        ("stalled connections closed; median / max s after their last byte",
         f"{r['closed']}; {fmt(r['close_median'], '.2f')} / {fmt(r['close_max'], '.2f')}"),
        ("/healthz p99 ms: unloaded / under attack (failed requests under attack)",
         f"{r['healthz'][1]:.2f} / {r['attack_healthz'][1]:.2f} ({r['attack_healthz'][2]})"),
        ("easy /solve p99 ms: unloaded / under attack (failed requests under attack)",
         f"{r['easy'][1]:.2f} / {r['attack_easy'][1]:.2f} ({r['attack_easy'][2]})"),
        ("easy /solve p99 under attack / unloaded", f"{r['attack_easy'][1] / r['easy'][1]:.1f}x"),
        ("cores used under the flood with SOLVER_CONCURRENCY=1", f"{r['cpu_flood']:.2f}"),
    ]
    if "cpu_refusal" in r:
        per = r["cpu_refusal"]
        rows.append(("CPU per 503 overloaded / per 422 (us)",
                     f"{per['503']:.1f} / {per['422']:.1f} = {per['503'] / per['422']:.2f}x"))
        status, ms = r["cpu_timeout"]
        rows.append((f"CPU after a {status} solve_timeout", f"idle within {ms:.0f} ms"))
    print(f"\n{name}")
    for label, value in rows:
        print(f"  {label:<75} {value}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/release/sudoku-service"))
    parser.add_argument("--baseline", action="store_true",
                        help="also attack the baseline service of benches/baseline-service")
    parser.add_argument("--no-build", action="store_true", help="skip the release builds")
    parser.add_argument("--quick", action="store_true", help="shorter runs (2 s each)")
    parser.add_argument("--stalls", type=int, default=2000)
    parser.add_argument("--flood", type=int, default=8)
    parser.add_argument("--close-wait", type=float, default=20.0,
                        help="seconds to wait for stalled connections to be closed")
    args = parser.parse_args()
    args.seconds = 2 if args.quick else 5
    if not shutil.which("wrk"):
        sys.exit("attack.py needs wrk: apt-get install wrk")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.stalls + 1000
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    baseline = os.path.join(ROOT, "benches", "baseline-service")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
        if args.baseline:
            subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=baseline, check=True)
    targets = [("sudoku-service", args.bin, "service")]
    if args.baseline:
        targets.append(("baseline", os.path.join(baseline, "target/release/baseline-service"),
                        "baseline"))
    for name, binary, kind in targets:
        report(name, measure(binary, kind, args))


if __name__ == "__main__":
    main()
