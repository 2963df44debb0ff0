/**
 * Re-renders a benchmark report's Markdown from its raw JSON (bench/results/*.json), so a
 * change to the report's layout does not need a new run: `npx tsx bench/peer/rerender.ts <file.json>`.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { markdown, type Row, type RunInfo } from './report.js';
import type { WorkerReport } from './worker.js';

const file = process.argv[2];
if (!file || !file.endsWith('.json')) {
  console.error('usage: tsx bench/peer/rerender.ts <results.json>');
  process.exit(2);
}
const data = JSON.parse(readFileSync(file, 'utf8')) as { info: RunInfo; reports: WorkerReport[]; rows: Row[] };
const previous = readFileSync(file.replace(/\.json$/, '.md'), 'utf8');
const wall = /\nTotal wall time .*\n?$/.exec(previous)?.[0] ?? '\n';
writeFileSync(file.replace(/\.json$/, '.md'), `${markdown(data.rows, data.reports, data.info)}${wall}`);
console.log(`rewrote ${file.replace(/\.json$/, '.md')}`);
