/**
 * Importing a snapshot file into a graph that may already hold data (the REPL's
 * `:restore`): every node and relationship is created anew, with fresh ids, through the
 * caller's write transaction (so the import is logged and durable like any write), in
 * chunks of 10 000 entities. Relationships are re-pointed at the new node ids. The
 * snapshot's schema (indexes, constraints) is reported, not applied.
 */

import { StorageError } from '../../errors.js';
import type { CreateNodeChange, CreateRelChange } from '../changes.js';
import type { Node } from '../entities.js';
import type { Graph } from '../graph.js';
import { readSnapshot } from './snapshot-reader.js';

const CHUNK = 10_000;

export interface ImportResult {
  nodes: number;
  relationships: number;
}

/** `write(fn)` must run `fn` in one committed (and, when durable, logged) transaction. */
export async function importSnapshot(file: string, write: (fn: (graph: Graph) => void) => void): Promise<ImportResult> {
  const nodeMap = new Map<number, Node>();
  let pending: (CreateNodeChange | CreateRelChange)[] = [];
  const result: ImportResult = { nodes: 0, relationships: 0 };
  const flush = (): void => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    write((g) => {
      for (const c of batch) {
        if (c.op === 'createNode') {
          nodeMap.set(c.id, g.createNode(c.labels, c.props));
          result.nodes++;
          continue;
        }
        const start = nodeMap.get(c.start);
        const end = nodeMap.get(c.end);
        if (!start || !end) {
          throw new StorageError(
            `Snapshot ${file}: relationship ${c.id} joins node ${start ? c.end : c.start}, which the snapshot does not contain`,
            'SnapshotDamaged',
          );
        }
        g.createRel(c.type, start, end, c.props);
        result.relationships++;
      }
    });
  };
  const add = (c: CreateNodeChange | CreateRelChange): void => {
    pending.push(c);
    if (pending.length >= CHUNK) flush();
  };
  await readSnapshot(file, { header: () => undefined, node: add, rel: add });
  flush();
  return result;
}
