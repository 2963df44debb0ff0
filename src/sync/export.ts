/**
 * A canonical export of what a sync-enabled graph holds, read from the store itself (not from
 * the replicated state): every live node and relationship by global id, labels and keys
 * sorted, values in the tagged encoding. Two peers with identical content export identical
 * text; the convergence tests and `graphdb sync` diagnostics compare these.
 */

import type { Graph } from '../store/graph.js';
import type { SyncHandle } from './attach.js';
import { canonicalContent, ContentHash } from './content-hash.js';
import { liveNodeIds, liveRelIds, nodeContent, relContent } from './graph-view.js';

/** A database with sync on, as the exports read it. */
interface SyncedGraph {
  readonly graph: Graph;
  readonly sync: SyncHandle | undefined;
}

export function exportSyncedGraph(db: SyncedGraph): string[] {
  const sync = db.sync;
  if (!sync) throw new Error('sync is not switched on for this database');
  const ids = sync.node.ids;
  const lookup = { nodeGid: (id: number) => ids.nodeGid(id), relGid: (id: number) => ids.relGid(id) };
  const lines: string[] = [];
  for (const id of liveNodeIds(db.graph)) {
    const c = nodeContent(db.graph, id, ids.nodeGid(id) ?? `?local-node-${id}`);
    if (c) lines.push(canonicalContent(c));
  }
  for (const id of liveRelIds(db.graph)) {
    const c = relContent(db.graph, id, ids.relGid(id) ?? `?local-rel-${id}`, lookup);
    if (c) lines.push(canonicalContent(c));
  }
  return lines.sort();
}

/** The fingerprint recomputed from scratch from the store's content (a check on the incremental one). */
export function recomputedFingerprint(db: SyncedGraph): string {
  const sync = db.sync;
  if (!sync) throw new Error('sync is not switched on for this database');
  const ids = sync.node.ids;
  const lookup = { nodeGid: (id: number) => ids.nodeGid(id), relGid: (id: number) => ids.relGid(id) };
  const hash = new ContentHash();
  for (const id of liveNodeIds(db.graph)) {
    const gid = ids.nodeGid(id) ?? `?local-node-${id}`;
    hash.update(gid, nodeContent(db.graph, id, gid));
  }
  for (const id of liveRelIds(db.graph)) {
    const gid = ids.relGid(id) ?? `?local-rel-${id}`;
    hash.update(gid, relContent(db.graph, id, gid, lookup));
  }
  return String(hash.value());
}
