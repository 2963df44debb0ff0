/**
 * Where graphdb's memory goes after the peer bench's load of one dataset (issue 33): loads a
 * generated dataset (bench/data/<name>, made by bench/run) the way the peer bench does, and
 * prints the process's resident size, V8 heap and array-buffer figures beside the store's own
 * accounting broken down by part: each property column (kind, capacity against the id bound,
 * bytes), the adjacency blocks, the label and type sets, the bulk load's entity arrays and the
 * indexes' frozen bases. Run compiled, with --expose-gc so the figures follow a full collection:
 *
 *   npm run build && node --expose-gc dist/bench/store-memory.js bench/data/snb-200k
 */

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { Database } from '../src/engine/database.js';
import { storeMemory } from '../src/store/memory.js';
import type { PropertyColumn } from '../src/store/columns/property-column.js';
import type { DatasetMeta } from './peer/data.js';
import { loadDataset } from './peer/engines/graphdb.js';

const MB = 2 ** 20;
const KINDS = ['empty', 'int', 'number', 'bool', 'string', 'generic', 'text'];

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function mb(bytes: number): string {
  return (bytes / MB).toFixed(1);
}

function usage(): NodeJS.MemoryUsage {
  // Twice: V8 frees dead array buffers on a background thread after a full collection and
  // waits for that sweep only at the start of the next one (bench/peer/worker.ts, `memory`).
  gc();
  gc();
  return process.memoryUsage();
}

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? 'bench/data/snb-50k');
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as DatasetMeta;
  const before = usage();
  const db = Database.openInMemory();
  const t0 = performance.now();
  await loadDataset(db, meta, dir);
  const loadMs = performance.now() - t0;
  const after = usage();
  await new Promise((r) => setTimeout(r, 1000));
  const later = usage();
  console.log(`a second after: RSS ${mb(later.rss)} MB, array buffers ${mb(later.arrayBuffers)}`);
  const g = db.graph;
  console.log(`# ${meta.name}: ${g.nodeCount} nodes, ${g.relCount} relationships, loaded in ${(loadMs / 1000).toFixed(2)} s`);
  console.log(`RSS ${mb(after.rss)} MB (growth ${mb(after.rss - before.rss)}), heap used ${mb(after.heapUsed)} (growth ${mb(after.heapUsed - before.heapUsed)}), external ${mb(after.external)}, array buffers ${mb(after.arrayBuffers)}`);
  const store = storeMemory(g);
  console.log(`store estimate: ${mb(store.totalBytes)} MB (properties ${mb(store.propertyBytes)}, structure ${mb(store.structureBytes)})`);

  console.log('\n| part | what | MB |\n| --- | --- | --- |');
  const columns = (kind: string, list: readonly (PropertyColumn | undefined)[], bound: number): void => {
    list.forEach((column, keyId) => {
      if (column === undefined || column.count === 0) return;
      const what = `${KINDS[column.kind]}, ${column.count} values, capacity ${column.capacity} of ${bound} ids`;
      console.log(`| ${kind} column ${g.keyName(keyId)} | ${what} | ${mb(column.memoryBytes())} |`);
    });
  };
  columns('node', g.nodeProps.columns, g.nextNodeId);
  columns('rel', g.relProps.columns, g.nextRelId);
  let adjacency = 0;
  let offsets = 0;
  for (const blocks of [g.adjOut, g.adjIn]) {
    for (const block of blocks) {
      if (block === undefined) continue;
      adjacency += block.memoryBytes();
      offsets += block.offsets.byteLength;
    }
  }
  console.log(`| adjacency | both directions, every type (offsets ${mb(offsets)}) | ${mb(adjacency)} |`);
  let sets = 0;
  for (const set of [...g.labelSets, ...g.typeSets]) if (set !== undefined) sets += set.memoryBytes();
  console.log(`| label and type sets | members and bitsets | ${mb(sets)} |`);
  console.log(`| bulk entity arrays | labels, types, ends by id | ${mb(g.bulk?.memoryBytes() ?? 0)} |`);
  let indexes = 0;
  for (const info of db.schema.listIndexes()) indexes += db.schema.index(info.label, info.key)?.baseBytes() ?? 0;
  console.log(`| indexes | frozen integer bases | ${mb(indexes)} |`);
  console.log('\nV8 heap spaces (used / size, MB):');
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_size > 0) console.log(`  ${space.space_name}: ${mb(space.space_used_size)} / ${mb(space.space_size)}`);
  }
  db.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
