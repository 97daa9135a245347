-- wrk script for bench/load.sh.
--
-- Environment (read by every wrk thread):
--   BENCH_BODIES  file with one JSON request body per line; the requests are POSTs
--                 rotating through them. Unset or empty: GET requests without a body.
--   BENCH_MAX     stop each thread after this many responses (0 or unset: run for the
--                 whole -d duration). load.sh sets it to requests / threads.
--   BENCH_LABEL   a name printed on the summary line.
--
-- Every request is built once in init(), so a GET and a POST run cost the client the same.
-- done() prints one machine-readable line that load.sh parses:
--   BENCH label=... requests=... duration_us=... rps=... non2xx=... errors=... p50_us=... ...

local bodies_file = os.getenv("BENCH_BODIES") or ""
local max_per_thread = tonumber(os.getenv("BENCH_MAX") or "0") or 0
local label = os.getenv("BENCH_LABEL") or "run"

local next_id = 0

function setup(thread)
   thread:set("id", next_id)
   next_id = next_id + 1
end

local requests = {}
local index = 1
local responses = 0

function init(args)
   if bodies_file == "" then
      requests[1] = wrk.format("GET", nil, nil, nil)
   else
      local headers = { ["Content-Type"] = "application/json" }
      for line in io.lines(bodies_file) do
         if line ~= "" then
            requests[#requests + 1] = wrk.format("POST", nil, headers, line)
         end
      end
      if #requests == 0 then
         error("no request bodies in " .. bodies_file)
      end
   end
   -- Threads start at different places in the list, so they do not send the same puzzle.
   local id = tonumber(wrk.thread:get("id")) or 0
   index = (id * 7919) % #requests + 1
end

function request()
   local r = requests[index]
   index = index % #requests + 1
   return r
end

if max_per_thread > 0 then
   function response(status, headers, body)
      responses = responses + 1
      if responses >= max_per_thread then
         wrk.thread:stop()
      end
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   local seconds = summary.duration / 1e6
   io.write(string.format(
      "BENCH label=%s requests=%d duration_us=%d rps=%.1f non2xx=%d errors=%d " ..
      "p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.1f\n",
      label, summary.requests, summary.duration, summary.requests / seconds,
      e.status, e.connect + e.read + e.write + e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99),
      latency.max, latency.mean))
end
