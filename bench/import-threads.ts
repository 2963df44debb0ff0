/**
 * The CSV import's load time by thread count: `importCsv` of a peer-benchmark dataset
 * (bench/data/<name>, its meta.json, the peer loader's admin-import headers and integer ids)
 * into an empty in-memory database, once per `--threads` value, printing wall time, the
 * process's CPU time (all threads) and the 1-minute load average before and after.
 *
 *   node --max-old-space-size=12000 --import tsx bench/import-threads.ts bench/data/snb-1000k 1 2
 */

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { importCsv } from '../src/engine/csv-import.js';
import { Database } from '../src/engine/database.js';
import { importInputs } from './peer/engines/graphdb.js';
import type { DatasetMeta } from './peer/data.js';

const [dir, ...counts] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: import-threads.ts <dataset dir> <threads>...');
const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as DatasetMeta;
for (const threads of counts.length > 0 ? counts.map(Number) : [1, 2]) {
  const db = Database.openInMemory();
  const load = loadavg()[0];
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const summary = await importCsv(db, importInputs(meta, dir), { idType: 'integer', threads });
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  console.log(`threads ${threads}: ${wall.toFixed(2)} s wall, ${seconds.toFixed(2)} s CPU, ${summary.nodes} nodes, ${summary.relationships} relationships; load ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
  db.close();
  (globalThis as { gc?: () => void }).gc?.();
}
