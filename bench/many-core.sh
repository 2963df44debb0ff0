#!/usr/bin/env bash
# Issue 33's many-core figures in one short run, for a machine lent for a few minutes (the
# workplace's `device` tool): the algorithm pool against one thread, the HTTP door on the main
# thread against the router and the worker doors, the router against the main thread, and
# durable small writes. Each benchmark's own output goes to $OUT/<name>.txt and a summary (the
# machine, each command, its exit status and the lines with its figures) to $OUT/summary.txt.
#
# On the lent machine, from a bundle made here after `npm run build` with
# ../shared/tools/bundle-for-remote.sh (Node, production packages, dist/, bench/) and carried as
# `.remote`:
#   D=/tmp/g; mkdir -p $D/bin $D/g && xz -dc .remote/node.xz > $D/bin/node && chmod +x $D/bin/node \
#     && export PATH=$D/bin:$PATH && tar xJf .remote/graphdb.tar.xz -C $D/g && cd $D/g && bash bench/many-core.sh
# SCALE=small runs every step on small sizes (a rehearsal on a small machine, about 3 minutes).
set -uo pipefail

OUT=${OUT:-/tmp/many-core}
mkdir -p "$OUT"
cores=$(nproc)
workers=$((cores > 1 ? cores - 1 : 1))
if [ "${SCALE:-full}" = small ]; then
  kron=14 nodes=20000 secs=2 acks=1
else
  kron=20 nodes=100000 secs=3 acks=3
fi
summary="$OUT/summary.txt"
{
  echo "many-core run $(date -u +%FT%TZ): $cores cores, node $(node --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -m1 'model name' /proc/cpuinfo || true
} >"$summary"

# step NAME SECONDS PATTERN COMMAND...: runs COMMAND under a time limit, keeps its output, and
# copies the lines matching PATTERN (its figures) into the summary.
step() {
  local name=$1 limit=$2 pattern=$3
  shift 3
  echo "== $name ($(date -u +%T)): $*" >>"$summary"
  timeout "$limit" "$@" >"$OUT/$name.txt" 2>&1
  local status=$?
  grep -E "$pattern" "$OUT/$name.txt" >>"$summary" || true
  echo "-- exit $status" >>"$summary"
}

# Each step's time limit keeps the whole run under about 9 minutes (a lent machine's command
# may run 10).
# The worker pool's kernels on every core against one thread, same build.
step algo-pool 150 '^\||speed-up|kron' node --expose-gc --stack-size=65500 dist/bench/algo-kernels.js --speedup --runs 3 --scale "$kron" --only pagerank,wcc,triangles
# PageRank, WCC (Afforest) and the direction-optimising BFS against C on one thread and on
# every core (needs a C compiler there; skipped without one).
if command -v cc >/dev/null; then
  step algo-vs-c 150 '^\||kron' node --expose-gc --stack-size=65500 dist/bench/algo-vs-c.js --scale "$kron" --runs 3 --threads "$cores" --only pagerank,wcc,bfs
else
  echo "== algo-vs-c: skipped (no cc)" >>"$summary"
fi
# HTTP reads: the main thread alone, the router with `workers` query workers, the worker doors.
step doors 130 '^(main thread|router|worker doors) |ratios|^  (point|twohop) ' node dist/bench/doors.js --nodes "$nodes" --secs "$secs" --conns 64 --clients 4 --workers "$workers" --rounds 1
# 2-hop reads through the router against the main thread alone, 64 in flight.
step router 80 'reads/s|×|^\|' node dist/bench/workers.js --nodes "$nodes" --secs "$secs" --inflight 64 --workers "$workers"
# Durable small writes with 1, 8 and 64 clients (group commit).
step acks 40 'writes/s|per fsync|clients' node --expose-gc dist/bench/durability.js --only acks --ack-secs "$acks"

echo "done $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$summary"
cat "$summary"
