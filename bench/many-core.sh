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
# PART=algo runs the algorithm steps, PART=serve the doors, writes and import (each well under a
# lent machine's 10 minutes per command; by default both, in one command of up to 15).
set -uo pipefail

OUT=${OUT:-/tmp/many-core}
mkdir -p "$OUT"
cores=$(nproc)
workers=$((cores > 1 ? cores - 1 : 1))
if [ "${SCALE:-full}" = small ]; then
  kron=14 nodes=20000 secs=2 acks=1 persons=10000
else
  kron=20 nodes=100000 secs=3 acks=3 persons=200000
fi
part=${PART:-all}
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
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

# Each part's time limits keep it under about 8 minutes (a lent machine's command may run 10).
if want algo; then
  # The worker pool's kernels on every core against one thread, same build.
  step algo-pool 150 '^\||speed-up|kron' node --expose-gc --stack-size=65500 dist/bench/algo-kernels.js --speedup --runs 3 --scale "$kron" --only pagerank,wcc,triangles
  # PageRank, WCC (Afforest), the direction-optimising BFS, SSSP (delta-stepping) and triangle
  # count against C on one thread and on every core (needs a C compiler there; skipped without one).
  if command -v cc >/dev/null; then
    step algo-vs-c 300 '^\||kron' node --expose-gc --stack-size=65500 dist/bench/algo-vs-c.js --scale "$kron" --runs 3 --threads "$cores" --only pagerank,wcc,bfs,sssp,triangles
  else
    echo "== algo-vs-c: skipped (no cc)" >>"$summary"
  fi
fi
if want serve; then
  # HTTP reads: the main thread alone, the router with `workers` query workers, the worker doors.
  step doors 130 '^(main thread|router|worker doors) |ratios|^  (point|twohop) ' node dist/bench/doors.js --nodes "$nodes" --secs "$secs" --conns 64 --clients 4 --workers "$workers" --rounds 1
  # 2-hop reads through the router against the main thread alone, 64 in flight.
  step router 80 'reads/s|×|^\|' node dist/bench/workers.js --nodes "$nodes" --secs "$secs" --inflight 64 --workers "$workers"
  # Durable small writes with 1, 8 and 64 clients (group commit).
  step acks 40 'writes/s|per fsync|clients' node --expose-gc dist/bench/durability.js --only acks --ack-secs "$acks"
  # The CSV import on 1, 4 and every core, of the peer bench's social network generated there
  # (the same seed as bench/run, so the same files as bench/data/snb-200k here).
  data=$(mktemp -d)
  step snb-generate 90 'generated' node -e "import('./dist/bench/peer/data.js').then((m) => { const t = Date.now(); m.generateSnb(process.argv[1], 'snb', Number(process.argv[2]), 20240611); console.log('generated', process.argv[2], 'persons in', Date.now() - t, 'ms'); })" "$data" "$persons"
  step import 150 '^threads' node --max-old-space-size=16000 dist/bench/import-threads.js "$data" 1 4 "$cores"
  rm -rf "$data"
fi

echo "done $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$summary"
cat "$summary"
