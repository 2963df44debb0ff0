/**
 * Group-commit crash child: opens the Database on the data directory given as the first
 * argument and runs `WRITERS` (second argument) writers through the library's async door
 * (`mutate`), each one write at a time, with `storage.walSync.concurrent` the third argument
 * (default 4). A line `ack <writer> <i> <records> <fsyncs> <overlapped>` goes to stdout only
 * after a write's promise has resolved (it is durable), with the log's records, fsyncs and
 * fsyncs started beside another so far; stdout to a pipe is written synchronously on Linux, so every line the parent
 * reads names a write that was acknowledged before the parent's SIGKILL.
 */

import { Database } from '../../src/engine/database.js';

const dir = process.argv[2];
const writers = Number(process.argv[3] ?? 64);
const concurrent = Number(process.argv[4] ?? 4);
if (!dir) throw new Error('usage: group-commit-child.ts <data-dir> [writers] [concurrent fsyncs]');
const db = await Database.open({ dataDir: dir, storage: { log: null, walSync: { concurrent } } });
const storage = db.storage;
if (storage === undefined) throw new Error('no storage');
process.stderr.write('ready\n');
await Promise.all(
  Array.from({ length: writers }, async (_, c) => {
    for (let i = 0; ; i++) {
      await db.mutate('CREATE (:G {c: $c, i: $i})-[:R]->(:H {c: $c, i: $i})', { c, i });
      const { records, syncs, overlapped } = storage.walActivity;
      process.stdout.write(`ack ${c} ${i} ${records} ${syncs} ${overlapped}\n`);
    }
  }),
);
