/**
 * Importing a snapshot file into a graph that may already hold data (the REPL's
 * `:restore`), all or nothing:
 *
 * 1. the file is read and checked whole first (every line parsed and decoded, node ids
 *    unique, every relationship's ends present in the file), before the graph is touched;
 * 2. then one write transaction of the caller creates every node and relationship anew,
 *    with fresh ids (relationships re-pointed at the new nodes), and adds the file's
 *    indexes and constraints (constraints are checked against all the data, old and new).
 *
 * If anything fails — a damaged line, a dangling relationship, a constraint the data
 * breaks — nothing of the file remains. With --data-dir the transaction is logged as one
 * (a group of WAL records when large), so a crash midway also leaves nothing.
 *
 * Memory: the decoded entities of the file are held until the transaction (the graph
 * then holds them once more); the current graph is not copied.
 */

import { StorageError } from '../../errors.js';
import type { CreateNodeChange, CreateRelChange } from '../changes.js';
import type { Node } from '../entities.js';
import type { Graph } from '../graph.js';
import type { Schema } from '../schema.js';
import { decodeSchemaDef, type SchemaDef } from './schema-def.js';
import { readSnapshot, type SnapshotSink } from './snapshot-reader.js';
import { ValueDecodeError } from './value-codec.js';

export interface ImportResult {
  nodes: number;
  relationships: number;
  /** Indexes and constraints of the file that were added. */
  schemaAdded: string[];
  /** Those the graph already had (same label and key), or whose name was taken. */
  schemaSkipped: string[];
}

/** `write(fn)` must run `fn` in one committed (and, when durable, logged) transaction, or undo all of it. */
export async function importSnapshot(file: string, write: (fn: (graph: Graph, schema: Schema) => void) => void): Promise<ImportResult> {
  return importSnapshotFrom(`Snapshot ${file}`, (sink) => readSnapshot(file, sink), write);
}

/** `importSnapshot` from any reader of a snapshot (`what` names it in errors): the browser build imports text this way. */
export async function importSnapshotFrom(
  what: string,
  read: (sink: SnapshotSink) => Promise<void> | void,
  write: (fn: (graph: Graph, schema: Schema) => void) => void,
): Promise<ImportResult> {
  const nodes: CreateNodeChange[] = [];
  const rels: CreateRelChange[] = [];
  const nodeIds = new Set<number>();
  let def: SchemaDef = { indexes: [], constraints: [] };
  await read({
    header(h) {
      try {
        def = decodeSchemaDef(h.schema);
      } catch (err) {
        if (!(err instanceof ValueDecodeError)) throw err;
        throw new StorageError(`${what}: its schema is unreadable (${err.message})`, 'SnapshotDamaged');
      }
    },
    node(c) {
      if (nodeIds.has(c.id)) throw new StorageError(`${what}: node ${c.id} appears twice`, 'SnapshotDamaged');
      nodeIds.add(c.id);
      nodes.push(c);
    },
    rel(c) {
      for (const end of [c.start, c.end]) {
        if (!nodeIds.has(end)) {
          throw new StorageError(`${what}: relationship ${c.id} joins node ${end}, which the snapshot does not contain (before it)`, 'SnapshotDamaged');
        }
      }
      rels.push(c);
    },
  });
  const result: ImportResult = { nodes: 0, relationships: 0, schemaAdded: [], schemaSkipped: [] };
  write((g, schema) => {
    const created = new Map<number, Node>();
    for (const c of nodes) created.set(c.id, g.createNode(c.labels, c.props));
    for (const c of rels) g.createRel(c.type, created.get(c.start) as Node, created.get(c.end) as Node, c.props);
    for (const c of def.constraints) {
      const what = `constraint ${c.name} (:${c.label}.${c.key} ${c.kind === 'unique' ? 'unique' : 'not null'})`;
      (schema.createConstraint(c.name, c.label, c.key, c.kind, true) ? result.schemaAdded : result.schemaSkipped).push(what);
    }
    for (const i of def.indexes) {
      const what = `index ${i.name} (:${i.label}.${i.key})`;
      (schema.createIndex(i.name, i.label, i.key, true) ? result.schemaAdded : result.schemaSkipped).push(what);
    }
    result.nodes = nodes.length;
    result.relationships = rels.length;
  });
  return result;
}
