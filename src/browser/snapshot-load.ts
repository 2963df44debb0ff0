/**
 * Loading a snapshot document (text) into an empty graph at its stored ids, counters and
 * schema: the OPFS store's recovery (src/browser/opfs-store.ts). The file-based twin is
 * `loadSnapshotExact` in src/store/persist/durable-store.ts.
 */
import { StorageError } from '../errors.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { restoreCounters } from '../store/persist/graph-counters.js';
import { GraphLoader } from '../store/persist/graph-loader.js';
import type { Json } from '../store/persist/json.js';
import { applySchemaDefinition, decodeSchemaDef } from '../store/persist/schema-def.js';
import { readSnapshotDocument } from '../store/persist/snapshot-reader.js';
import type { SnapshotHeader } from '../store/persist/snapshot-writer.js';

/** Parses `text` (throws SnapshotDamaged when it is not whole JSON) and loads it; returns its header. */
export function loadSnapshotText(graph: Graph, schema: Schema, text: string, what: string): SnapshotHeader {
  let data: Json;
  try {
    data = JSON.parse(text) as Json;
  } catch (err) {
    throw new StorageError(`${what} is not valid JSON (${err instanceof Error ? err.message : String(err)})`, 'SnapshotDamaged');
  }
  const loader = new GraphLoader(graph);
  let header: SnapshotHeader | undefined;
  readSnapshotDocument(data, what, {
    header: (h) => void (header = h),
    node: (c) => loader.apply(c),
    rel: (c) => loader.apply(c),
  });
  loader.flush();
  if (header === undefined) throw new StorageError(`${what} has no header`, 'SnapshotDamaged');
  const h: SnapshotHeader = header;
  if ((h.nodeCount >= 0 && h.nodeCount !== graph.nodeCount) || (h.relCount >= 0 && h.relCount !== graph.relCount)) {
    throw new StorageError(`${what} records ${h.nodeCount} nodes and ${h.relCount} relationships but holds ${graph.nodeCount} and ${graph.relCount}`, 'SnapshotDamaged');
  }
  restoreCounters(graph, h);
  applySchemaDefinition(schema, decodeSchemaDef(h.schema));
  return h;
}
