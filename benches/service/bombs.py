#!/usr/bin/env python3
"""Variant input bombs: small bodies that once bought gigabytes and minutes (Python 3
standard library only).

Each binary (`--bin`, and `--against` for a second one, in turn) serves on a free loopback
port with SOLVE_TIMEOUT_MS=2000 and otherwise its defaults, a fresh process per case, and
gets:

  lz-2k, lz-20k, lz-100k   POST /solve of an f-puzzles document (lz-string text) of an
                           empty 16x16 grid whose `negative` list repeats "ratio" 2,000,
                           20,000 or 100,000 times (920 bytes to 6.8 KB of body)
  native-1400              POST /solve of the same grid with 1,400 native
                           {"kind": "negative", "relation": "ratio"} rules (60 KB)
  validate-20k             POST /validate of the 20,000-repeat document, with /healthz
                           probed every 10 ms meanwhile (its slowest answer is shown)
  batch-20k                a 10-line /solve/batch of the 20,000-repeat document
  4-batches                four such batches at once
  cages-at-limit           POST /solve (unique) of 90 cages of eight cells on a 16x16
                           grid, each with a sum that 526 digit sets reach: just under
                           the compiled limit of 200 per cell (51,200)
  dots                     POST /solve (unique) of 5,000 ratio dots (about as many as
                           the 256 Ki characters of decoded text that the reader takes
                           hold): a fifth of the limit, in the propagator that holds
                           the most memory per cell it reads
  cages-past-limit         the same with 1,000 cages: 422 `too_many_rules`

For each it prints the statuses, the wall time of the exchange (for a batch, to its last
line), the server's resident memory idle and its peak (VmHWM of /proc/PID/status), and
whether the answer came within its bound (the limit plus 100 ms; a batch of ten, ten
times the limit plus 0.1 s; four at once, twice the limit plus 0.5 s).

usage: benches/service/bombs.py [--bin PATH] [--against PATH] [--no-build]
"""

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server and /proc helpers)

LIMIT = 2.0  # SOLVE_TIMEOUT_MS, in seconds
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def lz_compress_to_base64(text):
    """lz-string's compressToBase64, as f-puzzles writes its `?load=` text."""
    out, value, position = [], 0, 0

    def write(count, bits):
        nonlocal value, position
        for _ in range(count):
            value = (value << 1) | (bits & 1)
            bits >>= 1
            if position == 5:
                out.append(ALPHABET[value])
                value, position = 0, 0
            else:
                position += 1

    dictionary, to_create = {}, set()
    enlarge_in, width, w = 2, 2, ""

    def count_down():
        nonlocal enlarge_in, width
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 1 << width
            width += 1

    def emit(w):
        if w in to_create:
            code = ord(w[0])
            if code < 256:
                write(width, 0)
                write(8, code)
            else:
                write(width, 1)
                write(16, code)
            count_down()
            to_create.discard(w)
        else:
            write(width, dictionary[w])
        count_down()

    for c in text:
        if c not in dictionary:
            dictionary[c] = len(dictionary) + 3
            to_create.add(c)
        if w + c in dictionary:
            w += c
        else:
            emit(w)
            dictionary[w + c] = len(dictionary) + 3
            w = c
    if w:
        emit(w)
    write(width, 2)
    while True:
        write(1, 0)
        if position == 0:
            break
    text = "".join(out)
    return text + "=" * ((4 - len(text) % 4) % 4)


def empty_document(size=16, **fields):
    document = {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]}
    document.update(fields)
    return document


def repeated_negative(repeats):
    return lz_compress_to_base64(json.dumps(empty_document(negative=["ratio"] * repeats)))


def cages(count):
    entries = [{"cells": [f"R{i % 16 + 1}C{c}" for c in range(1, 9)], "value": "68"}
               for i in range(count)]
    return lz_compress_to_base64(json.dumps(empty_document(killercage=entries)))


def ratio_dots(count):
    pairs = [(r, c) for r in range(1, 17) for c in range(1, 16)]
    entries = [{"cells": [f"R{r}C{c}", f"R{r}C{c + 1}"], "value": "2"}
               for r, c in (pairs[i % len(pairs)] for i in range(count))]
    return lz_compress_to_base64(json.dumps(empty_document(ratio=entries)))


def exchange(port, path, body, content_type="application/json"):
    """One request on a fresh connection: (status, body text, seconds)."""
    data = body.encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(head + data)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    took = time.monotonic() - started
    answer = b"".join(chunks).decode(errors="replace")
    head, _, rest = answer.partition("\r\n\r\n")
    status = int(head.split(" ", 2)[1])
    if "chunked" in head.lower():
        body, rest = [], rest
        while rest:
            size, _, rest = rest.partition("\r\n")
            size = int(size.strip() or "0", 16)
            if size == 0:
                break
            body.append(rest[:size])
            rest = rest[size + 2:]
        rest = "".join(body)
    return status, rest, took


def statuses_of(status, body, batch):
    if not batch:
        return [status]
    return [json.loads(line).get("status", 200) for line in body.splitlines() if line.strip()]


def vm(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_case(binary, name, requests, bound, probe=False):
    """Runs `requests` (path, body, batch) at once on a fresh server."""
    server = attack.Server(binary, "service", args=["--solve-timeout-ms", str(int(LIMIT * 1000))])
    try:
        for _ in range(5):
            attack.http_status("GET", server.port, "/healthz")
        idle = vm(server.pid, "VmRSS")
        results = [None] * len(requests)

        def send(index, path, body, batch):
            kind = "application/x-ndjson" if batch else "application/json"
            results[index] = exchange(server.port, path, body, kind) + (batch,)

        threads = [threading.Thread(target=send, args=(i, *request))
                   for i, request in enumerate(requests)]
        for thread in threads:
            thread.start()
        slowest_probe = 0.0
        while probe and any(thread.is_alive() for thread in threads):
            started = time.monotonic()
            attack.http_status("GET", server.port, "/healthz")
            slowest_probe = max(slowest_probe, time.monotonic() - started)
            time.sleep(0.01)
        for thread in threads:
            thread.join()
        peak = vm(server.pid, "VmHWM")
        statuses = [s for status, body, _, batch in results for s in statuses_of(status, body, batch)]
        took = max(took for _, _, took, _ in results)
        return {"name": name, "statuses": statuses, "took": took, "idle": idle, "peak": peak,
                "within": took <= bound, "probe": slowest_probe if probe else None}
    finally:
        server.stop()


def cases():
    lz20k = repeated_negative(20_000)
    native = json.dumps({"grid": "." * 256,
                         "rules": [{"kind": "negative", "relation": "ratio"}] * 1_400})
    batch = "".join(json.dumps({"fpuzzles": lz20k}) + "\n" for _ in range(10))
    solve = lambda text, unique=False: json.dumps({"fpuzzles": text, "unique": unique})  # noqa: E731
    one = LIMIT + 0.1
    return [
        ("lz-2k", [("/solve", solve(repeated_negative(2_000)), False)], one, False),
        ("lz-20k", [("/solve", solve(lz20k), False)], one, False),
        ("lz-100k", [("/solve", solve(repeated_negative(100_000)), False)], one, False),
        ("native-1400", [("/solve", native, False)], one, False),
        ("validate-20k", [("/validate", json.dumps({"fpuzzles": lz20k}), False)], one, True),
        ("batch-20k", [("/solve/batch", batch, True)], 10 * LIMIT + 0.1, False),
        ("4-batches", [("/solve/batch", batch, True)] * 4, 2 * 10 * LIMIT + 0.5, False),
        ("cages-at-limit", [("/solve", solve(cages(90), True), False)], one, False),
        ("dots", [("/solve", solve(ratio_dots(5_000), True), False)], one, False),
        ("cages-past-limit", [("/solve", solve(cages(1_000)), False)], one, False),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(attack.ROOT, "target/release/sudoku-service"))
    parser.add_argument("--against", help="a second binary, measured after the first")
    parser.add_argument("--no-build", action="store_true", help="skip the release build")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=attack.ROOT,
                       check=True)
    sizes = {name: sum(len(body) for _, body, _ in requests)
             for name, requests, _, _ in cases()}
    for binary in [args.bin] + ([args.against] if args.against else []):
        print(f"\n{binary}")
        print(f"  {'case':<17} {'body B':>8} {'statuses':<26} {'s':>7} {'within':>6} "
              f"{'idle MiB':>8} {'peak MiB':>8} {'healthz max ms':>14}")
        for name, requests, bound, probe in cases():
            attack.log(f"{name}: {binary}")
            r = run_case(binary, name, requests, bound, probe)
            counted = {}
            for status in r["statuses"]:
                counted[status] = counted.get(status, 0) + 1
            shown = ", ".join(f"{n}x{s}" for s, n in sorted(counted.items()))
            probe_ms = f"{r['probe'] * 1000:.1f}" if r["probe"] is not None else ""
            print(f"  {name:<17} {sizes[name]:>8} {shown:<26} {r['took']:>7.3f} "
                  f"{'yes' if r['within'] else 'NO':>6} {r['idle']:>8.1f} {r['peak']:>8.1f} "
                  f"{probe_ms:>14}", flush=True)


if __name__ == "__main__":
    main()
