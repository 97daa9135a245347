#!/usr/bin/env bash
# Load benchmark of the HTTP service: the four figures of the service targets.
#
#   1. /solve (17-clue puzzles) requests/s against /healthz requests/s     target >= 0.70
#   2. easy-puzzle p99 with every solver slot busy, against it unloaded     target <= 5x
#   3. how long the process keeps using CPU after a 503 solve_timeout       target <= 50 ms
#   4. RSS over 100,000 /solve requests                                      target: flat
#
# Builds the release binary, starts it on 127.0.0.1 (a free port chosen by the kernel),
# drives it with wrk, stops it and prints a table. See bench/README.md.
#
# Usage: bench/load.sh [--quick] [--no-build] [--help]
# Settings (environment):
#   DURATION=10s          length of every timed wrk run (throughput, latency)
#   ROUNDS=3              rounds of 1 (/healthz, /solve) and 2 (alone, busy), alternating
#   THREADS=2             wrk threads for throughput and the long run
#   CONNECTIONS=16        wrk connections for throughput and the long run
#   LAT_CONNECTIONS=4     wrk connections (1 thread) sending easy puzzles in the latency runs
#   SOLVERS=2             --solver-concurrency of the server under test
#   QUEUE=64              --queue-length of the server under test
#   BUSY_TIMEOUT_MS=300   timeout_ms of the requests that keep the solver slots busy
#   CPU_ROUNDS=3          rounds of timed-out requests in the CPU measurement
#   MEM_REQUESTS=100000   /solve requests of the long run (RSS read at each quarter)
#   PHASES=1234           which measurements to run (e.g. PHASES=4 for memory only)
#   LOG_FILTER=warn       the server's --log-filter (the listening line is always kept)
#   BIN=path              use this binary instead of building target/release/sudoku-service
# --quick is DURATION=3s ROUNDS=1 MEM_REQUESTS=20000.

set -euo pipefail

usage() { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; }

build=1
for arg in "$@"; do
    case "$arg" in
        --quick) DURATION=${DURATION:-3s} ROUNDS=${ROUNDS:-1} MEM_REQUESTS=${MEM_REQUESTS:-20000} ;;
        --no-build) build=0 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "load.sh: unknown argument: $arg (try --help)" >&2; exit 2 ;;
    esac
done

DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
LAT_CONNECTIONS=${LAT_CONNECTIONS:-4}
SOLVERS=${SOLVERS:-2}
QUEUE=${QUEUE:-64}
BUSY_TIMEOUT_MS=${BUSY_TIMEOUT_MS:-300}
CPU_ROUNDS=${CPU_ROUNDS:-3}
MEM_REQUESTS=${MEM_REQUESTS:-100000}
LOG_FILTER=${LOG_FILTER:-warn}
PHASES=${PHASES:-1234}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
data=$repo/tests/data/9x9
helper=(python3 "$here/helper.py")

die() { echo "load.sh: $*" >&2; exit 1; }
note() { echo "== $*" >&2; }

# Seconds in a wrk duration such as 10s, 2m, 500ms... (wrk takes s, m, h).
seconds() {
    case "$1" in
        *ms) echo $(( ${1%ms} / 1000 )) ;;
        *s) echo "${1%s}" ;;
        *m) echo $(( ${1%m} * 60 )) ;;
        *h) echo $(( ${1%h} * 3600 )) ;;
        *) echo "$1" ;;
    esac
}
[[ $(seconds "$DURATION") =~ ^[0-9]+$ && $(seconds "$DURATION") -ge 1 ]] ||
    die "DURATION must be whole seconds, minutes or hours (e.g. 10s), not '$DURATION'"
[[ $PHASES =~ ^[1-4]+$ ]] || die "PHASES takes the digits 1 to 4, not '$PHASES'"
for v in ROUNDS THREADS CONNECTIONS LAT_CONNECTIONS SOLVERS QUEUE BUSY_TIMEOUT_MS CPU_ROUNDS MEM_REQUESTS; do
    [[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive whole number, not '${!v}'"
done
[[ $CONNECTIONS -ge $THREADS ]] || die "CONNECTIONS ($CONNECTIONS) must be at least THREADS ($THREADS)"
want() { [[ $PHASES == *$1* ]]; }

# ------------------------------------------------------------------ tools and binary

command -v python3 >/dev/null || die "python3 is needed (standard library only)"
if ! command -v wrk >/dev/null; then
    note "wrk is missing; installing it with apt-get"
    command -v apt-get >/dev/null || die "wrk is missing and there is no apt-get: install wrk"
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    if ! "${sudo[@]}" apt-get install -y wrk >/dev/null 2>&1; then
        { "${sudo[@]}" apt-get update >/dev/null && "${sudo[@]}" apt-get install -y wrk >/dev/null; } ||
            die "could not install wrk"
    fi
    command -v wrk >/dev/null || die "wrk is still missing after apt-get install"
fi

built_now=0
if [[ -z ${BIN:-} ]]; then
    BIN=${CARGO_TARGET_DIR:-$repo/target}/release/sudoku-service
    if [[ $build -eq 1 ]]; then
        note "building the release binary"
        (cd "$repo" && cargo build --release --locked) || die "cargo build --release --locked failed"
        built_now=1
    fi
fi
[[ -x $BIN ]] || die "no binary at $BIN (build it with cargo build --release --locked, or set BIN)"
for f in sudoku17_first5000.txt easy50.txt; do
    [[ -f $data/$f ]] || die "missing puzzle file tests/data/9x9/$f"
done

# ------------------------------------------------------------------ cleanup

work=$(mktemp -d "${TMPDIR:-/tmp}/sudoku-load.XXXXXX")
server_pid=
bg_pids=()
cleanup() {
    local status=$?
    for pid in "${bg_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    [[ -n $server_pid ]] && stop_server
    if [[ $status -ne 0 ]]; then
        echo "load.sh: failed; logs kept in $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ server

# Starts the server on 127.0.0.1:0 and sets server_pid and base. Variables the server would
# read (PORT would replace the port) are removed from its environment.
servers=0
start_server() {
    servers=$((servers + 1))
    local log=$work/server-$servers.log
    env -u PORT -u LISTEN_ADDR -u RUST_LOG -u SOLVER_CONCURRENCY -u QUEUE_LENGTH \
        -u SOLVE_TIMEOUT_MS -u BODY_LIMIT_BYTES -u LOG_FORMAT -u SHUTDOWN_GRACE_SECS \
        "$BIN" serve --listen-addr 127.0.0.1:0 --solver-concurrency "$SOLVERS" \
        --queue-length "$QUEUE" --solve-timeout-ms 2000 --shutdown-grace-secs 2 \
        --log-format text --log-filter "$LOG_FILTER,sudoku_service::server=info" \
        >"$log" 2>&1 &
    server_pid=$!
    local addr='' _
    for _ in $(seq 100); do
        addr=$(grep -o -m1 'listening addr=127\.0\.0\.1:[0-9]*' "$log" | cut -d= -f2 || true)
        [[ -n $addr ]] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; die "the server exited at start"; }
        sleep 0.1
    done
    [[ -n $addr ]] || { cat "$log" >&2; die "the server did not say where it listens"; }
    base=http://$addr
    "${helper[@]}" wait-healthy "$base/healthz" 10 || die "the server at $base is not healthy"
    note "server on $base (pid $server_pid)"
}

stop_server() {
    local pid=$server_pid _
    server_pid=
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

metric() { "${helper[@]}" metric "$base/metrics" "$@"; }

# Drops a finished background job from the list that cleanup kills.
forget() {
    local keep=() p
    for p in "${bg_pids[@]}"; do [[ $p == "$1" ]] || keep+=("$p"); done
    bg_pids=("${keep[@]}")
}

# Waits until no solver slot is in use (the background loads are over).
wait_slots_free() {
    local _
    for _ in $(seq 100); do
        [[ $(metric sudoku_solver_slots_in_use) == 0 ]] && return 0
        sleep 0.05
    done
    die "solver slots still in use 5 s after the load stopped"
}

# ------------------------------------------------------------------ wrk

# run_wrk OUT LABEL PATH BODIES THREADS CONNECTIONS DURATION [MAX]: one wrk run through
# bench/wrk.lua; its BENCH line goes to OUT. MAX > 0 stops after MAX responses in all.
run_wrk() {
    local out=$1 label=$2 path=$3 bodies=$4 threads=$5 conns=$6 duration=$7 max=${8:-0}
    BENCH_LABEL=$label BENCH_BODIES=$bodies BENCH_MAX=$((max / threads)) \
        wrk -t "$threads" -c "$conns" -d "$duration" --timeout 5s -s "$here/wrk.lua" \
        "$base$path" >"$out.raw" 2>&1 || { cat "$out.raw" >&2; die "wrk failed ($label)"; }
    grep '^BENCH ' "$out.raw" >"$out" || { cat "$out.raw" >&2; die "no summary from wrk ($label)"; }
}

# A capped run: wrk always sleeps its whole -d, so it gets SIGINT (it then prints its
# summary) once every thread has stopped at its share of MAX responses.
run_wrk_capped() {
    local out=$1 label=$2 path=$3 bodies=$4 threads=$5 conns=$6 max=$7 limit=$8
    BENCH_LABEL=$label BENCH_BODIES=$bodies BENCH_MAX=$((max / threads)) \
        wrk -t "$threads" -c "$conns" -d "$limit" --timeout 5s -s "$here/wrk.lua" \
        "$base$path" >"$out.raw" 2>&1 &
    local pid=$!
    bg_pids+=("$pid")
    sleep 0.2
    while kill -0 "$pid" 2>/dev/null; do
        # Only the main thread left: the workers are done.
        local tasks=("/proc/$pid/task"/*)
        if [[ ${#tasks[@]} -le 1 ]]; then
            kill -INT "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.02
    done
    wait "$pid" || true
    forget "$pid"
    grep '^BENCH ' "$out.raw" >"$out" || { cat "$out.raw" >&2; die "no summary from wrk ($label)"; }
}

# field FILE KEY: a value of the BENCH line in FILE.
field() { grep -o "\\b$2=[^ ]*" "$1" | head -1 | cut -d= -f2; }

calc() { python3 -c "print($1)"; }
us() { calc "'%.2f ms' % ($1 / 1000)"; }

# ------------------------------------------------------------------ request bodies

"${helper[@]}" bodies plain "$data/sudoku17_first5000.txt" >"$work/sudoku17.jsonl"
"${helper[@]}" bodies plain "$data/easy50.txt" >"$work/easy.jsonl"
"${helper[@]}" bodies busy --timeout-ms "$BUSY_TIMEOUT_MS" >"$work/busy.jsonl"
"${helper[@]}" bodies mixed "$data/easy50.txt" "$data/sudoku17_first5000.txt" --limit 200 \
    >"$work/mixed.jsonl"

revision() {
    local rev
    rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
    git -C "$repo" diff-index --quiet HEAD -- 2>/dev/null || rev+=" with local changes"
    echo "$rev"
}
verdict() { if python3 -c "import sys; sys.exit(0 if $1 else 1)"; then echo ok; else echo MISSED; fi; }
started=$(date +%s)
echo "sudoku-service load benchmark: $(nproc) cores, wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}'), DURATION=$DURATION ROUNDS=$ROUNDS THREADS=$THREADS CONNECTIONS=$CONNECTIONS SOLVERS=$SOLVERS QUEUE=$QUEUE"

# ------------------------------------------------------------------ 1. throughput

if want 1; then
    start_server
    note "1. throughput /healthz vs /solve, $ROUNDS x $DURATION each"
    run_wrk "$work/warm-solve" warm-solve /solve "$work/sudoku17.jsonl" "$THREADS" "$CONNECTIONS" 2s
    run_wrk "$work/warm-health" warm-health /healthz "" "$THREADS" "$CONNECTIONS" 2s
    health_total=0 solve_total=0 ratios=()
    for r in $(seq "$ROUNDS"); do
        run_wrk "$work/health-$r" healthz /healthz "" "$THREADS" "$CONNECTIONS" "$DURATION"
        run_wrk "$work/solve-$r" solve /solve "$work/sudoku17.jsonl" "$THREADS" "$CONNECTIONS" "$DURATION"
        h=$(field "$work/health-$r" rps) s=$(field "$work/solve-$r" rps)
        bad=$(( $(field "$work/solve-$r" non2xx) + $(field "$work/solve-$r" errors) + $(field "$work/health-$r" non2xx) + $(field "$work/health-$r" errors) ))
        [[ $bad -eq 0 ]] || note "round $r: $bad failed requests (non-2xx or socket errors)"
        ratios+=("$(calc "round($s / $h, 3)")")
        note "round $r: /healthz $h req/s, /solve $s req/s, ratio ${ratios[-1]}"
        health_total=$(calc "$health_total + $h") solve_total=$(calc "$solve_total + $s")
    done
    health_rps=$(calc "round($health_total / $ROUNDS)")
    solve_rps=$(calc "round($solve_total / $ROUNDS)")
    ratio=$(calc "round($solve_total / $health_total, 3)")
    cat >>"$work/results" <<EOF

1. Throughput: wrk -t$THREADS -c$CONNECTIONS, $ROUNDS x $DURATION each, alternating; mean req/s
   GET  /healthz                          $health_rps req/s
   POST /solve (sudoku17, 5000 puzzles)   $solve_rps req/s
   ratio /solve : /healthz                $ratio (per round: ${ratios[*]})   target >= 0.70: $(verdict "$ratio >= 0.70")
EOF
fi

# ------------------------------------------------------------------ 2. latency under saturation

if want 2; then
    [[ -n $server_pid ]] || start_server
    note "2. easy-puzzle latency, alone and with $SOLVERS busy solves (timeout_ms $BUSY_TIMEOUT_MS) in flight, $ROUNDS x $DURATION each"
    wait_slots_free
    run_wrk "$work/warm-easy" warm-easy /solve "$work/easy.jsonl" 1 "$LAT_CONNECTIONS" 2s

    # One run of easy puzzles; besides wrk's figures, the server's own latency histogram
    # of the answered /solve requests (200) over the run goes to OUT.server.
    easy_run() {
        local out=$1 label=$2
        "${helper[@]}" hist-save "$base/metrics" sudoku_http_request_duration_seconds \
            "$out.h0" route=/solve status=200
        run_wrk "$out" "$label" /solve "$work/easy.jsonl" 1 "$LAT_CONNECTIONS" "$DURATION"
        "${helper[@]}" hist-save "$base/metrics" sudoku_http_request_duration_seconds \
            "$out.h1" route=/solve status=200
        "${helper[@]}" hist-report "$out.h0" "$out.h1" >"$out.server"
    }

    # One loaded run: `SOLVERS` connections keep sending the busy grid in the background while
    # the easy puzzles run; a sampler reads the slots-in-use gauge every 20 ms meanwhile.
    loaded_run() {
        local r=$1 full=0 busy_pid slots_pid _
        BENCH_LABEL=busy BENCH_BODIES=$work/busy.jsonl BENCH_MAX=0 \
            wrk -t 1 -c "$SOLVERS" -d "$(( $(seconds "$DURATION") + 10 ))s" --timeout 5s \
            -s "$here/wrk.lua" "$base/solve" >"$work/busy-$r.raw" 2>&1 &
        busy_pid=$!
        bg_pids+=("$busy_pid")
        for _ in $(seq 100); do
            [[ $(metric sudoku_solver_slots_in_use) == "$SOLVERS" ]] && { full=1; break; }
            sleep 0.05
        done
        [[ $full -eq 1 ]] || die "the busy load did not fill the $SOLVERS solver slots"
        sleep 0.5 # every slot is busy from here on, and each time-limit solve is followed by the next
        "${helper[@]}" sample-gauge "$base/metrics" sudoku_solver_slots_in_use "$SOLVERS" \
            "$(seconds "$DURATION")" >"$work/slots-$r" &
        slots_pid=$!
        bg_pids+=("$slots_pid")
        easy_run "$work/easy-loaded-$r" easy-loaded
        wait "$slots_pid" || die "the slots sampler failed"
        forget "$slots_pid"
        kill -INT "$busy_pid" 2>/dev/null || true
        wait "$busy_pid" || true
        forget "$busy_pid"
        grep '^BENCH ' "$work/busy-$r.raw" >"$work/busy-$r" ||
            { cat "$work/busy-$r.raw" >&2; die "no summary from the busy wrk"; }
        wait_slots_free
    }

    median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
    alone_p50s=() alone_p99s=() loaded_p50s=() loaded_p99s=() busy_shares=() loaded_bad=0 busy_answered=0 busy_non2xx=0
    for r in $(seq "$ROUNDS"); do
        easy_run "$work/easy-alone-$r" easy-alone
        loaded_run "$r"
        alone_p50s+=("$(field "$work/easy-alone-$r" p50_us)") alone_p99s+=("$(field "$work/easy-alone-$r" p99_us)")
        loaded_p50s+=("$(field "$work/easy-loaded-$r" p50_us)") loaded_p99s+=("$(field "$work/easy-loaded-$r" p99_us)")
        busy_shares+=("$(field "$work/slots-$r" at_target_pct)")
        loaded_bad=$(( loaded_bad + $(field "$work/easy-loaded-$r" non2xx) + $(field "$work/easy-loaded-$r" errors) ))
        busy_answered=$(( busy_answered + $(field "$work/busy-$r" requests) ))
        busy_non2xx=$(( busy_non2xx + $(field "$work/busy-$r" non2xx) ))
        note "round $r: easy p50/p99 alone $(us "${alone_p50s[-1]}") / $(us "${alone_p99s[-1]}"), loaded $(us "${loaded_p50s[-1]}") / $(us "${loaded_p99s[-1]}") ($(field "$work/easy-alone-$r" rps) and $(field "$work/easy-loaded-$r" rps) req/s; all slots busy in ${busy_shares[-1]}% of samples; server: over 10 ms $(field "$work/easy-alone-$r.server" over_10ms) and $(field "$work/easy-loaded-$r.server" over_10ms) of $(field "$work/easy-alone-$r.server" count) and $(field "$work/easy-loaded-$r.server" count))"
    done
    alone_p50=$(median "${alone_p50s[@]}") alone_p99=$(median "${alone_p99s[@]}")
    loaded_p50=$(median "${loaded_p50s[@]}") loaded_p99=$(median "${loaded_p99s[@]}")
    p99_ratio=$(calc "round($loaded_p99 / max($alone_p99, 1), 1)")
    busy_share=$(median "${busy_shares[@]}")
    rps_list() { local r out=(); for r in $(seq "$ROUNDS"); do out+=("$(calc "round($(field "$work/$1-$r" rps))")"); done; echo "${out[*]}"; }
    ms_list() { local v out=(); for v in "$@"; do out+=("$(calc "'%.2f' % ($v / 1000)")"); done; echo "${out[*]}"; }
    # The server's histogram over all rounds of one side: answers, p99 bound per round, slow answers.
    server_side() {
        local r count=0 over10=0 over100=0 p99s=()
        for r in $(seq "$ROUNDS"); do
            count=$(( count + $(field "$work/$1-$r.server" count) ))
            over10=$(( over10 + $(field "$work/$1-$r.server" over_10ms) ))
            over100=$(( over100 + $(field "$work/$1-$r.server" over_100ms) ))
            p99s+=("$(field "$work/$1-$r.server" p99_le_ms)")
        done
        echo "$count answers, p99 <= ${p99s[*]} ms, over 10 ms: $over10 ($(calc "round(100 * $over10 / max($count, 1), 2)")%), over 100 ms: $over100"
    }
    cat >>"$work/results" <<EOF

2. Easy-puzzle latency (easy50), wrk -t1 -c$LAT_CONNECTIONS, $ROUNDS x $DURATION each, alternating; median of the rounds
   server --solver-concurrency $SOLVERS --queue-length $QUEUE
   alone                                  p50 $(us "$alone_p50")   p99 $(us "$alone_p99")   (p99 per round, ms: $(ms_list "${alone_p99s[@]}"); req/s: $(rps_list easy-alone))
   all $SOLVERS slots busy (timeout_ms $BUSY_TIMEOUT_MS)     p50 $(us "$loaded_p50")   p99 $(us "$loaded_p99")   (p99 per round, ms: $(ms_list "${loaded_p99s[@]}"); req/s: $(rps_list easy-loaded))
   p99 loaded : alone                     ${p99_ratio}x   target <= 5x: $(verdict "$p99_ratio <= 5")
   (wrk corrects its percentiles for coordinated omission: bench/README.md. The server's own histogram, uncorrected:
    alone: $(server_side easy-alone)
    busy:  $(server_side easy-loaded))
   (all $SOLVERS slots in use in ${busy_share}% of the gauge samples (median); busy requests answered: $busy_answered, non-2xx $busy_non2xx; easy requests failed: $loaded_bad)
EOF
fi

# ------------------------------------------------------------------ 3. CPU after a timeout

if want 3; then
    [[ -n $server_pid ]] || start_server
    note "3. CPU after a timeout: $CPU_ROUNDS rounds of $SOLVERS busy requests with timeout_ms $BUSY_TIMEOUT_MS"
    sleep 0.5
    "${helper[@]}" cpu-after-timeout --url "$base/solve" --pid "$server_pid" \
        --timeout-ms "$BUSY_TIMEOUT_MS" --parallel "$SOLVERS" --rounds "$CPU_ROUNDS" \
        --sample-ms 5 --observe-ms 500 >"$work/cpu"
    cat "$work/cpu" >&2
    cpu_ticks=$(grep -o 'tick_delay_ms=[^ ]*' "$work/cpu" | cut -d= -f2 | sort -g | tail -1)
    cpu_precise=$(grep -o 'precise_delay_ms=[^ ]*' "$work/cpu" | cut -d= -f2 | sort -g | tail -1)
    cpu_after=$(grep -o 'cpu_after_ms=[^ ]*' "$work/cpu" | cut -d= -f2 | sort -g | tail -1)
    if [[ -n $cpu_precise && $cpu_precise != n/a ]]; then
        cpu_gate=$cpu_precise cpu_gate_source=schedstat
    else
        cpu_gate=${cpu_ticks:-0} cpu_gate_source=tick
fi
cpu_statuses=$(grep -o 'statuses=[^ ]*' "$work/cpu" | cut -d= -f2 | tr ',' '\n' | sort | uniq -c | awk '{printf "%s%s x %s", sep, $1, $2; sep=", "}')
cat >>"$work/results" <<EOF

3. CPU after a 503 solve_timeout ($CPU_ROUNDS rounds of $SOLVERS requests, timeout_ms $BUSY_TIMEOUT_MS; answers: $cpu_statuses)
   last CPU tick after the answer         ${cpu_ticks} ms (worst round; /proc/PID/stat, 1 tick = 10 ms, sampled every 5 ms)
   last >10%-of-a-core interval           ${cpu_precise} ms (worst round; /proc/PID/task/*/schedstat, ns, 5 ms intervals)
   CPU used in the 500 ms after           ${cpu_after} ms (worst round)
   target <= 50 ms: $(verdict "${cpu_gate} <= 50") (on the ${cpu_gate_source} figure)
EOF
fi
[[ -z $server_pid ]] || stop_server

# ------------------------------------------------------------------ 4. memory over a long run

if want 4; then
    quarter=$((MEM_REQUESTS / 4))
    note "4. RSS over $MEM_REQUESTS /solve requests (mixed easy puzzles), fresh server"
    start_server
    rss=("$("${helper[@]}" rss "$server_pid")")
    counts=(0)
    (while kill -0 "$server_pid" 2>/dev/null; do
        "${helper[@]}" rss "$server_pid" 2>/dev/null || true
        sleep 0.1
    done) >"$work/rss-samples" &
    bg_pids+=("$!")
    rss_sampler=$!
    for q in 1 2 3 4; do
        run_wrk_capped "$work/mem-$q" "mem-$q" /solve "$work/mixed.jsonl" "$THREADS" "$CONNECTIONS" "$quarter" 300s
        sleep 0.2 # requests cut off by the cap finish on the server
        counts+=("$(metric sudoku_http_requests_total route=/solve)")
        rss+=("$("${helper[@]}" rss "$server_pid")")
        note "after ${counts[-1]} /solve requests: VmRSS ${rss[-1]} KiB ($(field "$work/mem-$q" rps) req/s)"
    done
    sleep 2
    rss_idle=$("${helper[@]}" rss "$server_pid")
    kill "$rss_sampler" 2>/dev/null || true
    wait "$rss_sampler" 2>/dev/null || true
    forget "$rss_sampler"
    rss_peak=$(sort -n "$work/rss-samples" | tail -1)
    mem_bad=0
    for q in 1 2 3 4; do
        mem_bad=$((mem_bad + $(field "$work/mem-$q" non2xx) + $(field "$work/mem-$q" errors)))
    done
    non200=$(( $(metric sudoku_http_requests_total route=/solve) - $(metric sudoku_http_requests_total route=/solve status=200) ))
    growth=$((rss[4] - rss[1]))
    steps="$((rss[2] - rss[1])), $((rss[3] - rss[2])), $((rss[4] - rss[3]))"
    growth_pct=$(calc "round(100 * $growth / ${rss[1]}, 1)")
    stop_server
    cat >>"$work/results" <<EOF

4. RSS (VmRSS) over $MEM_REQUESTS /solve requests, mixed easy puzzles, wrk -t$THREADS -c$CONNECTIONS
   /solve requests   $(printf '%10s' "${counts[@]}")
   VmRSS KiB         $(printf '%10s' "${rss[@]}")
   growth per quarter KiB: $steps (a leak grows by the same step every quarter)
   growth from ${counts[1]} to ${counts[4]} requests: $growth KiB (${growth_pct}%, $(calc "round($growth * 1024 / max(${counts[4]} - ${counts[1]}, 1), 1)") bytes per request)
   peak during the run ${rss_peak} KiB; 2 s after ${rss_idle} KiB; non-200 answers: $non200, client errors: $mem_bad
   target flat (growth <= 1 MiB from ${counts[1]} to ${counts[4]} requests): $(verdict "$growth <= 1024")
EOF
fi

# ------------------------------------------------------------------ results

elapsed=$(( $(date +%s) - started ))

echo
built="built by this run"
[[ $built_now -eq 1 ]] || built="binary ${BIN#"$repo"/}, not rebuilt"
echo "Results (sudoku-service $(revision), $built; $(date -u +%Y-%m-%dT%H:%MZ), ${elapsed}s)"
cat "$work/results"
