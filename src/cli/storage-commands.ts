/**
 * The REPL's storage meta-commands: `:export <file>` writes the current graph as a JSON
 * snapshot (the format of graphdb.snapshot.json and of browser exports), `:restore
 * <file>` loads such a snapshot into the current graph (new ids, its indexes and
 * constraints too; all or nothing; durable with --data-dir), and `:checkpoint` folds the
 * WAL into the store of record and rewrites the snapshot. Registered on import.
 */

import * as path from 'node:path';
import { writeGraphSnapshot } from '../store/persist/durable-store.js';
import { importSnapshot } from '../store/persist/snapshot-import.js';
import { registerMetaCommand, type MetaContext, type MetaOutcome } from './meta-commands.js';

function fileArg(ctx: MetaContext, arg: string, usage: string): string | undefined {
  const text = arg.trim().replace(/;\s*$/, '');
  const unquoted = /^(['"])(.*)\1$/.exec(text)?.[2] ?? text;
  if (unquoted === '') ctx.printError(`Usage: ${usage}`);
  return unquoted === '' ? undefined : path.resolve(unquoted);
}

registerMetaCommand({
  name: 'export',
  args: '<file>',
  summary: 'write the graph to a JSON snapshot file (what :restore loads)',
  run(ctx, arg) {
    const file = fileArg(ctx, arg, ':export <file>');
    if (file === undefined) return 'continue';
    const started = performance.now();
    writeGraphSnapshot(ctx.db.graph, ctx.db.schema, file, ctx.db.storage?.seq ?? 0);
    const s = ctx.db.stats();
    ctx.print(`Exported ${s.nodes} nodes and ${s.relationships} relationships to ${file} in ${Math.round(performance.now() - started)} ms.`);
    return 'continue';
  },
});

registerMetaCommand({
  name: 'restore',
  args: '<file>',
  summary: 'load a JSON snapshot (from :export or a browser instance) into the current graph',
  async run(ctx, arg): Promise<MetaOutcome> {
    const file = fileArg(ctx, arg, ':restore <file>');
    if (file === undefined) return 'continue';
    const started = performance.now();
    const r = await importSnapshot(file, (fn) => ctx.db.writeTransaction(fn));
    ctx.print(`Restored ${r.nodes} nodes and ${r.relationships} relationships from ${file} in ${Math.round(performance.now() - started)} ms.`);
    if (r.schemaAdded.length > 0) ctx.print(`Added ${r.schemaAdded.join(', ')}.`);
    if (r.schemaSkipped.length > 0) ctx.print(`Already present (kept as they are): ${r.schemaSkipped.join(', ')}.`);
    return 'continue';
  },
});

registerMetaCommand({
  name: 'checkpoint',
  summary: 'with --data-dir: fold the write-ahead log into the store and rewrite the snapshot',
  async run(ctx): Promise<MetaOutcome> {
    if (!ctx.db.storage) {
      ctx.print('Nothing to do: the graph is in memory (start graphdb with --data-dir for durable storage).');
      return 'continue';
    }
    await ctx.db.checkpoint({ snapshot: true });
    ctx.print(`Checkpoint written in ${ctx.db.storage.dir}.`);
    return 'continue';
  },
});
