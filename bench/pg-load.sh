#!/usr/bin/env bash
# Load test of the PostgreSQL wire server with pgbench (Debian: postgresql-15 or
# postgresql-client-15 ships it). Starts a graphdb PG server on an in-memory graph of
# NODES :Person nodes with DEGREE outgoing :KNOWS relationships each (id indexed), then runs
# bench/pg-load.pgbench — a point lookup and a 2-hop neighbourhood count, each with a random
# id — for each client count, and prints pgbench's tps and latency percentiles. With
# WRITERS=k (default 2), k more clients create nodes during every run; afterwards the script
# checks that the graph holds exactly as many new nodes as pgbench reports written (no write
# lost) and that no run failed or stalled.
#
#   bench/pg-load.sh                      # defaults below
#   NODES=100000 CLIENTS="1 4 16 64" SECS=10 MODE=prepared bench/pg-load.sh
#
# WORKERS=n runs reads on n query worker threads (default 0: every query on the main
# thread), e.g. `for w in 0 1 2; do WORKERS=$w bench/pg-load.sh; done`.
#
# MODE is pgbench's query mode: prepared (Parse once, Bind/Execute per query: the id travels
# as parameter $1), extended (Parse/Bind/Execute per query) or simple (the id is written
# into the query text, so every distinct id is a distinct query to compile).
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${NODES:-100000}
DEGREE=${DEGREE:-5}
CLIENTS=${CLIENTS:-"1 4 16 64"}
SECS=${SECS:-10}
MODE=${MODE:-prepared}
PORT=${PORT:-55432}
QUERIES=${QUERIES:-"point twohop"}
WRITERS=${WRITERS:-2}

command -v pgbench >/dev/null || { echo "pgbench not found: apt-get install -y postgresql-15 (or postgresql-client-15)" >&2; exit 1; }
command -v psql >/dev/null || { echo "psql not found: apt-get install -y postgresql-client" >&2; exit 1; }

log=$(mktemp)
logdir=$(mktemp -d)
node --import tsx --input-type=module -e "
  const { Database } = await import('./src/engine/database.ts');
  const { startPgServer } = await import('./src/server/pg/index.ts');
  const { QueryWorkerPool } = await import('./src/engine/workers/worker-pool.ts');
  const { QueryRouter } = await import('./src/engine/workers/query-router.ts');
  const db = Database.openInMemory();
  const workers = ${WORKERS:-0};
  const pool = workers > 0 ? await QueryWorkerPool.start(db, workers) : undefined;
  await startPgServer(db, { port: ${PORT}, queryTimeoutMs: 0, queries: new QueryRouter(db, pool) });
" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$log" "$logdir"' EXIT

for _ in $(seq 1 100); do
  grep -q listening "$log" && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done

export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=bench PGDATABASE=graphdb
echo "loading $NODES nodes, $((NODES * DEGREE)) relationships ..."
psql -X -q -c "UNWIND range(1, $NODES) AS i CREATE (:Person {id: i, name: 'p' + toString(i)})" \
     -c "CREATE INDEX person_id FOR (p:Person) ON (p.id)" \
     -c "MATCH (a:Person) UNWIND range(1, $DEGREE) AS k
         MATCH (b:Person {id: (a.id * 7919 + k * 104729) % $NODES + 1}) CREATE (a)-[:KNOWS]->(b)" >/dev/null
# With query workers, reads wait until every worker has applied the load: let them catch up first.
t0=$(date +%s.%N)
pids=()
for _ in 1 2 3 4 5 6 7 8; do psql -X -q -At -c "MATCH (p:Person) RETURN count(p)" >/dev/null & pids+=($!); done
wait "${pids[@]}"
echo "reads answered after the load in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

expected_posts=0
printf '\n%-7s %7s %9s %9s %8s %8s %8s %7s %9s\n' query clients tps 'avg ms' 'p50 ms' 'p95 ms' 'p99 ms' failed 'write tps'
for q in $QUERIES; do
  qn=$([ "$q" = point ] && echo 1 || echo 2)
  for c in $CLIENTS; do
    rm -f "$logdir"/tx*
    if [ "$WRITERS" -gt 0 ]; then
      pgbench -n -M "$MODE" -f bench/pg-load.pgbench -D q=3 -D n="$NODES" -c "$WRITERS" -T "$SECS" >"$logdir/writers.out" 2>&1 &
      writer=$!
    fi
    out=$(pgbench -n -M "$MODE" -f bench/pg-load.pgbench -D q="$qn" -D n="$NODES" -c "$c" -j "$(( c < 8 ? c : 8 ))" -T "$SECS" \
          -l --log-prefix="$logdir/tx" 2>&1) || { echo "$out" >&2; exit 1; }
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
    avg=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
    failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$out")
    # Per-transaction log: the third field is the latency in microseconds.
    read -r p50 p95 p99 < <(cat "$logdir"/tx* | awk '{print $3}' | sort -n | awk '
      { v[NR] = $1 } END { if (NR == 0) { print "- - -"; exit }
        printf "%.3f %.3f %.3f\n", v[int(NR*0.50)+ (NR*0.50 < 1)]/1000, v[int(NR*0.95)+(NR*0.95 < 1)]/1000, v[int(NR*0.99)+(NR*0.99 < 1)]/1000 }')
    wtps=-
    if [ "$WRITERS" -gt 0 ]; then
      wait "$writer" || { cat "$logdir/writers.out" >&2; exit 1; }
      written=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$logdir/writers.out")
      wtps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$logdir/writers.out" | cut -d. -f1)
      expected_posts=$((expected_posts + written))
    fi
    printf '%-7s %7s %9.0f %9s %8s %8s %8s %7s %9s\n' "$q" "$c" "$tps" "$avg" "$p50" "$p95" "$p99" "${failed:-0}" "$wtps"
  done
done

if [ "$WRITERS" -gt 0 ]; then
  posts=$(psql -X -A -t -c "MATCH (p:Post) RETURN count(p)")
  echo
  echo "writes acknowledged to pgbench: $expected_posts; :Post nodes in the graph: $posts"
  [ "$posts" = "$expected_posts" ] || { echo "MISMATCH: writes were lost or duplicated" >&2; exit 1; }
fi
