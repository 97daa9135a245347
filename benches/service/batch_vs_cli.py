#!/usr/bin/env python3
"""POST /solve/batch against `sudoku-service solve` on the same puzzle file.

The same release binary, with the same number of solver threads, solves every puzzle of
FILE three ways per round:

- as a command (`solve --threads N < FILE`);
- as a server (`serve` with SOLVER_CONCURRENCY=N) answering one NDJSON batch that curl
  sends and reads at once (the server is started beforehand and warmed up with one small
  batch);
- as the command behind a minimal relay on loopback (`relay`) that curl sends FILE to:
  no HTTP past skipping curl's request head, no JSON, the command's output straight back
  on the socket. This is the floor of the transport: what curl and loopback add to the
  command's own work.

Each is timed as a whole client process; the batch and the relay also as the exchange
alone, from curl's own clock (`time_total`: connect to last byte, without curl starting
up and reading the file), which is what a client that is already running waits for. As a
floor of the HTTP side, the same lines also go through `/validate/batch` (an exchange
with no solving). The rounds alternate; the medians of each side and the medians of the
per-round ratios (to the command; 1.0 means as fast) are printed, and the answers are
checked to be the same solutions, line for line. The CPU time each side used is printed
too (the server's read off /proc), which says how close each is to what the cores can do.

usage: benches/service/batch_vs_cli.py [--file FILE] [--threads N] [--repeats N] [--no-build]
"""

import argparse
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import attack  # noqa: E402  (the server helper)

BINARY = os.path.join(attack.ROOT, "target", "release", "sudoku-service")


# What is timed, and whose CPU time each side counts.
SIDES = ("command", "batch", "exchange", "floor", "relay", "relay exchange")
CPU_OF = {"command": "the command", "batch": "server and curl", "floor": "server and curl",
          "relay": "the command and curl"}


def puzzles(path):
    """The puzzles of a line-format file: the first 81 symbols of each line, `#` lines
    skipped."""
    with open(path) as lines:
        return [line[:81] for line in lines if len(line) >= 81 and line[0] != "#"]


def children_cpu():
    """CPU seconds (user and system) used by the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid):
    """CPU seconds (user and system) used so far by the running process `pid`."""
    with open(f"/proc/{pid}/stat") as stat:
        # The fields after the command name, which is in parentheses.
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Relay:
    """`command` behind a minimal relay on a loopback port: for each connection, the request
    head is skipped, the body (as long as its Content-Length) goes to a new run of
    `command` on its standard input, and its standard output is the socket itself, closed
    when the command exits (an HTTP/0.9 answer). The relay copies the body in 128 KiB
    pieces, in a thread of this process, whose CPU time is not counted."""

    def __init__(self, command):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, args=(command,), daemon=True).start()

    def serve(self, command):
        """Answers connections one at a time, for as long as the script runs; a connection
        that breaks off is dropped, and the next one is served."""
        while True:
            connection, _ = self.listener.accept()
            with connection:
                try:
                    self.answer(connection, command)
                except (OSError, ValueError, TypeError) as error:
                    print(f"relay: {error}", file=sys.stderr)

    @staticmethod
    def answer(connection, command):
        """Runs `command` on the body of the request on `connection`, its output the answer."""
        received = b""
        while b"\r\n\r\n" not in received:
            piece = connection.recv(1 << 17)
            if not piece:
                raise ValueError("the client closed before the end of its request head")
            received += piece
        head, body = received.split(b"\r\n\r\n", 1)
        left = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)[1]) - len(body)
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=connection.fileno(),
                                 stderr=subprocess.DEVNULL)
        try:
            child.stdin.write(body)
            while left > 0:
                piece = connection.recv(min(left, 1 << 17))
                if not piece:
                    raise ValueError("the client closed before the end of its body")
                child.stdin.write(piece)
                left -= len(piece)
        finally:
            child.stdin.close()
            child.wait()


def timed(command, stdin, stdout, server=None):
    """Runs `command` with the given files, and returns how long it took in seconds, what
    it wrote on stderr, and the CPU seconds it used (with the `server`'s meanwhile)."""
    started = time.perf_counter()
    cpu = children_cpu() + (process_cpu(server.pid) if server else 0)
    done = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          check=True)
    took = time.perf_counter() - started
    cpu = children_cpu() + (process_cpu(server.pid) if server else 0) - cpu
    return took, done.stderr, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=os.path.join(attack.ROOT, "tests", "data", "9x9",
                                                       "sudoku17.txt"))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="skip the release build")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=attack.ROOT,
                       check=True)
    grids = puzzles(args.file)
    work = tempfile.mkdtemp(prefix="batch-vs-cli-")
    lines_path = os.path.join(work, "puzzles.txt")
    batch_path = os.path.join(work, "puzzles.ndjson")
    with open(lines_path, "w") as out:
        out.writelines(grid + "\n" for grid in grids)
    with open(batch_path, "w") as out:
        out.writelines(json.dumps({"grid": grid}) + "\n" for grid in grids)
    warm_up_path = os.path.join(work, "warm-up.ndjson")
    with open(warm_up_path, "w") as out:
        out.writelines(json.dumps({"grid": grid}) + "\n" for grid in grids[:1000])

    server = attack.Server(BINARY, "service", env={"SOLVER_CONCURRENCY": str(args.threads)})
    base = f"http://127.0.0.1:{server.port}"

    def curl(path, endpoint="/solve/batch"):
        return ["curl", "--silent", "--show-error", "--fail", "--max-time", "60",
                "--data-binary", f"@{path}",
                "--write-out", "%{stderr}%{time_total}",
                "--header", "Content-Type: application/x-ndjson", base + endpoint]

    command = [BINARY, "solve", "--threads", str(args.threads)]
    relay = Relay(command)
    # HTTP/0.9: the relay answers with the command's output alone; no `Expect: 100-continue`,
    # which the relay would leave curl waiting a second for.
    relayed = ["curl", "--silent", "--show-error", "--max-time", "60", "--http0.9",
               "--data-binary", f"@{lines_path}",
               "--write-out", "%{stderr}%{time_total}", "--header", "Expect:",
               f"http://127.0.0.1:{relay.port}/"]
    outputs = {"command": os.path.join(work, "command.out"),
               "batch": os.path.join(work, "batch.out"),
               "relay": os.path.join(work, "relay.out")}
    try:
        subprocess.run(curl(warm_up_path), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        times = {side: [] for side in SIDES}
        ratios = {side: [] for side in SIDES if side != "command"}
        cpu = {"command": [], "batch": [], "floor": [], "relay": []}
        for _ in range(args.repeats):
            with open(lines_path) as stdin, open(outputs["command"], "w") as stdout:
                took, _, used = timed(command, stdin, stdout)
            times["command"].append(took)
            cpu["command"].append(used)
            with open(outputs["batch"], "w") as stdout:
                took, exchange, used = timed(curl(batch_path), subprocess.DEVNULL, stdout,
                                             server)
            times["batch"].append(took)
            times["exchange"].append(float(exchange))
            cpu["batch"].append(used)
            # The same lines without solving: what reading and answering them costs alone.
            _, floor, used = timed(curl(batch_path, "/validate/batch"), subprocess.DEVNULL,
                                   subprocess.DEVNULL, server)
            times["floor"].append(float(floor))
            cpu["floor"].append(used)
            with open(outputs["relay"], "w") as stdout:
                took, exchange, used = timed(relayed, subprocess.DEVNULL, stdout)
            times["relay"].append(took)
            times["relay exchange"].append(float(exchange))
            cpu["relay"].append(used)
            for side in ratios:
                ratios[side].append(times[side][-1] / times["command"][-1])
    finally:
        server.stop()

    with open(outputs["command"]) as solved:
        expected = [line.rstrip("\n") for line in solved]
    with open(outputs["batch"]) as answered:
        answers = [json.loads(line) for line in answered]
    same = len(answers) == len(expected) and all(
        answer.get("line") == index + 1 and answer.get("solution") == solution
        for index, (answer, solution) in enumerate(zip(answers, expected)))
    print(f"{len(grids)} puzzles from {os.path.relpath(args.file, attack.ROOT)}, "
          f"{args.threads} solver threads, {args.repeats} rounds")
    for side in SIDES:
        print(f"{side:<14} median {statistics.median(times[side]):.3f} s  "
              f"({len(grids) / statistics.median(times[side]):,.0f} puzzles/s)")
    for side in ratios:
        print(f"ratio    median {statistics.median(ratios[side]):.2f} ({side} / command)")
    # The server's CPU is counted in clock ticks, so its mean is steadier than its median.
    for side in cpu:
        print(f"cpu      {side:<8} mean {statistics.fmean(cpu[side]):.3f} s "
              f"({CPU_OF[side]})")
    with open(outputs["relay"]) as relayed_answers:
        same = same and [line.rstrip("\n") for line in relayed_answers] == expected
    print(f"answers  {'identical line for line' if same else 'DIFFER'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
