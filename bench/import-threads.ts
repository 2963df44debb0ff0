/**
 * The CSV import's load time by thread count: `importCsv` of a peer-benchmark dataset
 * (bench/data/<name>, its meta.json, the peer loader's admin-import headers and integer ids)
 * into an empty in-memory database, once per `--threads` value, printing wall time, the
 * process's CPU time (all threads) and the 1-minute load average before and after, and the
 * three phases — node files, relationship files, the commit — each with how long the main
 * thread was busy in it (event-loop utilisation): where the main thread is busy for most of a
 * phase, more threads cannot shorten it.
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
const nodeRows = meta.nodes.reduce((sum, n) => sum + (meta.counts[n.file] ?? 0), 0);
const totalRows = Object.values(meta.counts).reduce((sum, n) => sum + n, 0);

/** Times the import's phases from its row count (`onRow`): node rows come first, then relationships, then the commit. */
class PhaseClock {
  private readonly marks: { at: number; busy: number }[] = [];
  private readonly start = performance.now();
  private readonly loop = performance.eventLoopUtilization();

  constructor(
    private readonly nodeRows: number,
    private readonly totalRows: number,
  ) {}

  row(n: number): void {
    if (n === this.nodeRows || n === this.totalRows) this.mark();
  }

  /** Ends the clock; returns the whole time in ms. */
  end(): number {
    while (this.marks.length < 3) this.mark();
    return this.marks[2].at - this.start;
  }

  describe(): string {
    const names = ['node files', 'relationship files', 'commit'];
    return names
      .map((name, i) => {
        const before = i === 0 ? { at: this.start, busy: 0 } : this.marks[i - 1];
        return `${name} ${((this.marks[i].at - before.at) / 1000).toFixed(2)} s (main thread busy ${((this.marks[i].busy - before.busy) / 1000).toFixed(2)})`;
      })
      .join(', ');
  }

  private mark(): void {
    this.marks.push({ at: performance.now(), busy: performance.eventLoopUtilization(this.loop).active });
  }
}
for (const threads of counts.length > 0 ? counts.map(Number) : [1, 2]) {
  const db = Database.openInMemory();
  const load = loadavg()[0];
  const cpu = process.cpuUsage();
  const phases = new PhaseClock(nodeRows, totalRows);
  const summary = await importCsv(db, importInputs(meta, dir), { idType: 'integer', threads, onRow: (n) => phases.row(n) });
  const wall = phases.end() / 1000;
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  console.log(`threads ${threads}: ${wall.toFixed(2)} s wall, ${seconds.toFixed(2)} s CPU, ${summary.nodes} nodes, ${summary.relationships} relationships; load ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}; ${phases.describe()}`);
  db.close();
  (globalThis as { gc?: () => void }).gc?.();
}
