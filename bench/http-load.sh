#!/usr/bin/env bash
# Load test of the HTTP server with wrk (Debian: apt-get install -y wrk). Starts
# `graphdb --http` (the built binary: run `npm run build` first) on an in-memory graph of
# NODES :Person nodes with DEGREE outgoing :KNOWS relationships each (id indexed), then for
# each query in QUERIES (point: a point lookup; twohop: a 2-hop neighbourhood count; random
# ids among IDS distinct ones; mix: 95% point lookups and 5% single-node creations on the
# same connections) and each connection count runs wrk for SECS seconds and prints
# requests/s and the latency percentiles. With WRITERS=k (default 2), a second wrk with k
# connections creates nodes during every run; meanwhile /health is polled (a new connection
# every PROBE_MS ms, default 20, as a probe does: bench/http-load/probe.ts) and each run
# reports its p50, p99 and slowest answer. Afterwards the script
# checks that the graph holds exactly as many new nodes as the writers had answered (no
# write lost) and that no run had errors.
#
# WORKERS=n passes --workers n (query worker threads; default: graphdb's own, one per core),
# so running it with WORKERS=0, 1 and 2 compares reads on the main thread, on one worker
# and on two.
#
# wrk runs on the same machine and, with 256 connections, takes a core's worth of CPU from
# the server and the probe. LOADGEN_NICE=19 runs the wrk processes at the lowest priority,
# so that the server and the probe go first, as with a load generator on another machine;
# its throughput is then bounded by the CPU left over, so compare probes, not requests/s.
#
#   bench/http-load.sh
#   NODES=100000 CONNS="1 16 64 256" SECS=10 WRITERS=4 bench/http-load.sh
#   for w in 0 1 2; do WORKERS=$w CONNS="16 64" bench/http-load.sh; done
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${NODES:-100000}
DEGREE=${DEGREE:-5}
CONNS=${CONNS:-"1 16 64 256"}
SECS=${SECS:-10}
THREADS=${THREADS:-4}
PORT=${PORT:-57474}
QUERIES=${QUERIES:-"point twohop mix"}
WRITERS=${WRITERS:-2}
LOADGEN_NICE=${LOADGEN_NICE:-0}
PROBE_MS=${PROBE_MS:-20}
export IDS=${IDS:-500}

command -v wrk >/dev/null || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }
[ -f dist/src/cli/main.js ] || { echo "not built: run npm run build" >&2; exit 1; }

base="http://127.0.0.1:${PORT}"
log=$(mktemp)
node bin/graphdb.js --http "$PORT" ${WORKERS:+--workers "$WORKERS"} 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do curl -sf "$base/health" >/dev/null && break; sleep 0.1; done

q() { curl -sf --data-binary "$1" "$base/query"; echo; }
echo "seeding $NODES :Person nodes, $DEGREE :KNOWS each" >&2
q "CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)" >/dev/null
q "UNWIND range(0, $NODES - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})" >/dev/null
for k in $(seq 1 "$DEGREE"); do
  q "MATCH (a:Person) WITH a, (a.id * 7919 + $k * 104729) % $NODES AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)" >/dev/null
done
curl -s "$base/status"; echo
# With query workers, reads wait until every worker has applied the load: let them catch up first.
t0=$(date +%s.%N)
pids=()
for _ in 1 2 3 4 5 6 7 8; do curl -s --data-binary "MATCH (p:Person) RETURN count(p)" "$base/query" >/dev/null & pids+=($!); done
wait "${pids[@]}"
echo "reads answered after the load in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
echo "query workers: ${WORKERS:-default (one per core)}" >&2

# Appends the time of each /health answer (seconds; 5 when none came) to file $1, until killed.
poll_health() {
  exec node dist/bench/http-load/probe.js "$base/health" "$1" "$PROBE_MS"
}
# p50, p99 and max of the answer times in file $1, in ms.
health_summary() {
  sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "no /health answer"; exit }
    i50 = int(NR * 0.5); if (i50 < 1) i50 = 1; i99 = int(NR * 0.99 + 0.999); if (i99 > NR) i99 = NR
    printf "/health (%d probes) p50 %.1f ms, p99 %.1f ms, max %.1f ms", NR, v[i50] * 1000, v[i99] * 1000, v[NR] * 1000 }'
}

before=$(curl -s --data-binary "MATCH (e:Event) RETURN count(e) AS c" "$base/query" | sed -E 's/.*"c":"([0-9]+)".*/\1/')
written=0
printf '%-7s %6s %10s %9s %9s %9s %9s %7s\n' query conns req/s p50 p90 p99 max errors
for query in $QUERIES; do
  for c in $CONNS; do
    t=$(( c < THREADS ? c : THREADS ))
    hfile=$(mktemp)
    poll_health "$hfile" & poller=$!
    wout=$(mktemp)
    if [ "$WRITERS" -gt 0 ]; then
      nice -n "$LOADGEN_NICE" wrk -t1 -c"$WRITERS" -d"${SECS}s" -s bench/http-load/writer.lua "$base" >"$wout" 2>&1 & writer=$!
    fi
    out=$(nice -n "$LOADGEN_NICE" wrk -t"$t" -c"$c" -d"${SECS}s" --latency -s "bench/http-load/$query.lua" "$base")
    [ "$WRITERS" -gt 0 ] && wait "$writer"
    kill "$poller" 2>/dev/null; wait "$poller" 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
    p50=$(awk '$1 == "50%" { print $2 }' <<<"$out"); p90=$(awk '$1 == "90%" { print $2 }' <<<"$out"); p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    max=$(awk '$1 == "Latency" { print $4 }' <<<"$out")
    errs=$(awk '/Non-2xx|Socket errors/ { print }' <<<"$out" | tr '\n' ' ')
    printf '%-7s %6s %10s %9s %9s %9s %9s %7s\n' "$query" "$c" "$rps" "$p50" "$p90" "$p99" "$max" "${errs:-0}"
    if [ "$WRITERS" -gt 0 ]; then
      wreq=$(sed -nE 's/^writer: ([0-9]+) requests, ([0-9]+) errors.*/\1 \2/p' "$wout")
      wrps=$(awk '/Requests\/sec/ { print $2 }' "$wout")
      echo "        + $WRITERS writers: ${wrps} writes/s ($(cut -d' ' -f2 <<<"$wreq") errors)"
      written=$(( written + $(cut -d' ' -f1 <<<"$wreq") ))
    fi
    echo "        $(health_summary "$hfile")"
    rm -f "$hfile" "$wout"
  done
done

after=$(curl -s --data-binary "MATCH (e:Event) RETURN count(e) AS c" "$base/query" | sed -E 's/.*"c":"([0-9]+)".*/\1/')
echo "writes answered by the server: $written; :Event nodes added: $(( after - before ))"
# wrk counts requests still in flight when the run ends as issued but not answered; those
# may have committed, so the graph may hold up to WRITERS more per run than were answered.
[ $(( after - before )) -ge "$written" ] || { echo "LOST WRITES" >&2; exit 1; }
curl -sf "$base/health" >/dev/null && echo "health: still answering"
