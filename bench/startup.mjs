#!/usr/bin/env node
// Start-up benchmark (issue 28): how long a fresh process takes to do the smallest thing each
// entry does, as a ratio to a bare `node -e 0` measured in the same run on the same machine,
// so the figures mean the same on a fast laptop and on a loaded 2-core runner.
//
//   node bench/startup.mjs            graphdb --help, graphdb query "RETURN 1", import('graphdb')
//   BIG=1 node bench/startup.mjs      also `graphdb query` on a 100k-node / 500k-relationship
//                                     data directory (built once under bench/data/startup-100k)
//   RUNS=15 ...                       runs per case (default 9); the median is reported
//   BASE=/path/to/checkout ...        also every case from another built checkout (e.g. a
//                                     worktree of the commit before a change), interleaved with
//                                     these in the same run, for a before/after table
//
// Needs `npm run build` (it runs bin/graphdb.js and dist/). Targets: --help <= 3x, query <= 4x,
// import <= 3x the bare node; the 100k query <= 1.0 s and <= 150 bytes of RSS per node+rel
// above an empty start.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'graphdb.js');
const runs = Number(process.env.RUNS ?? 9);
const hasTime = existsSync('/usr/bin/time');

/** One run: wall milliseconds and peak RSS in kB (from /usr/bin/time where there is one). */
function once(args, cwd = root) {
  const argv = hasTime ? ['/usr/bin/time', ['-f', '%M', process.execPath, ...args]] : [process.execPath, args];
  const started = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv[1], { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rssKb = hasTime ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  return { ms, rssKb };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs the cases interleaved (so a burst of load hits them all alike) and returns medians. */
function measure(cases) {
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (const c of cases) once(c.args, c.cwd); // warm the file cache
  for (let i = 0; i < runs; i++) for (const c of cases) samples.get(c.name).push(once(c.args, c.cwd));
  return cases.map((c) => {
    const s = samples.get(c.name);
    return { ...c, ms: median(s.map((x) => x.ms)), rssKb: median(s.map((x) => x.rssKb)) };
  });
}

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'graphdb --help', args: [bin, '--help'], limit: 3 },
  { name: 'graphdb query "RETURN 1"', args: [bin, 'query', 'RETURN 1'], limit: 4 },
  { name: "import('graphdb')", args: ['--input-type=module', '-e', "await import('graphdb')"], limit: 3 },
];

if (process.env.BIG) {
  const dir = join(root, 'bench', 'data', 'startup-100k');
  if (!existsSync(dir)) {
    process.stderr.write(`building ${dir} (100k nodes, 500k relationships)...\n`);
    const build = `
      const { Database } = await import('graphdb');
      const db = await Database.open({ dataDir: ${JSON.stringify(dir)} });
      await db.execute('UNWIND range(0, 99999) AS i CREATE (:P {id: i, name: "p" + toString(i)})');
      await db.execute('CREATE INDEX FOR (p:P) ON (p.id)');
      for (let k = 1; k <= 5; k++) {
        await db.execute('MATCH (a:P) MATCH (b:P {id: (a.id * 7 + $k * 13) % 100000}) CREATE (a)-[:R {w: $k}]->(b)', { k });
      }
      db.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', build], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(1);
  }
  cases.push({ name: 'graphdb query, empty --data-dir', args: [bin, 'query', 'MATCH (n) RETURN count(n)', '--data-dir', join(root, 'bench', 'data', 'startup-empty')] });
  cases.push({ name: 'graphdb query, 100k/500k --data-dir', args: [bin, 'query', 'MATCH (n) RETURN count(n)', '--data-dir', dir], limitMs: 1000 });
}

// The same cases from the BASE checkout: its bin and its package (import('graphdb') resolves
// the package of the working directory), under names marked "(base)".
if (process.env.BASE) {
  const base = resolve(process.env.BASE);
  const own = cases.slice(1).map((c) => ({
    ...c,
    name: `${c.name} (base)`,
    cwd: base,
    args: c.args.map((a) => (a === bin ? join(base, 'bin', 'graphdb.js') : a)),
  }));
  cases.push(...own);
}

const results = measure(cases);
const base = results[0].ms;
process.stdout.write(`node ${process.version}, ${runs} runs each, medians\n`);
for (const r of results) {
  const ratio = r.ms / base;
  let verdict = '';
  if (r.limit !== undefined) verdict = ratio <= r.limit ? `ok (<= ${r.limit}x)` : `OVER (target <= ${r.limit}x)`;
  if (r.limitMs !== undefined) verdict = r.ms <= r.limitMs ? `ok (<= ${r.limitMs} ms)` : `OVER (target <= ${r.limitMs} ms)`;
  const rss = Number.isNaN(r.rssKb) ? '' : `  RSS ${(r.rssKb / 1024).toFixed(0)} MB`;
  process.stdout.write(`${r.name.padEnd(45)} ${r.ms.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(5)}x${rss}  ${verdict}\n`);
}
for (const suffix of ['', ' (base)']) {
  const empty = results.find((r) => r.name === `graphdb query, empty --data-dir${suffix}`);
  const big = results.find((r) => r.name === `graphdb query, 100k/500k --data-dir${suffix}`);
  if (empty && big && !Number.isNaN(big.rssKb)) {
    const perEntity = ((big.rssKb - empty.rssKb) * 1024) / 600000;
    process.stdout.write(`RSS above an empty start per node+relationship${suffix}: ${perEntity.toFixed(0)} bytes (target <= 150)\n`);
  }
}
