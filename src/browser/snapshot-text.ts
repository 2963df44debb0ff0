/**
 * The graph as the JSON snapshot document (the format of graphdb.snapshot.json, `:export`
 * and `:restore`; src/store/persist/snapshot-writer.ts), made as text in the page: what
 * `exportSnapshot()` returns and what the OPFS store keeps as its base image. Node ids,
 * counters and schema are kept exactly, so a data directory started from it (or this store
 * reloaded) has the same fingerprint.
 */
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { graphCounters } from '../store/persist/graph-counters.js';
import { encodeSchemaDef, schemaDefinition } from '../store/persist/schema-def.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotText } from '../store/persist/snapshot-writer.js';
import { storeNode, storeRel } from '../store/persist/stored-entity.js';

/** The document's bytes, in pieces of about 1 MiB (`SnapshotText`'s chunks). */
export function* snapshotChunks(graph: Graph, schema: Schema, seq: number): Generator<Uint8Array> {
  const text = new SnapshotText({
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    seq,
    ...graphCounters(graph),
    createdAt: new Date().toISOString(),
    schema: encodeSchemaDef(schemaDefinition(schema)),
  });
  for (const node of graph.allNodes()) {
    text.node(storeNode(node));
    const bytes = text.take();
    if (bytes) yield bytes;
  }
  for (const rel of graph.allRels()) {
    text.rel(storeRel(rel));
    const bytes = text.take();
    if (bytes) yield bytes;
  }
  text.end();
  const rest = text.take(true);
  if (rest) yield rest;
}

export function snapshotString(graph: Graph, schema: Schema, seq: number): string {
  const decoder = new TextDecoder();
  let out = '';
  for (const chunk of snapshotChunks(graph, schema, seq)) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}
