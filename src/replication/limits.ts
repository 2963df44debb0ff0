/**
 * What a replica accepts from its primary before it allocates anything for it. The graph
 * keeps its entities in arrays indexed by id (property columns, labels, adjacency), so one
 * entity at id 4e9 would make the replica allocate for four billion slots; the primary is
 * trusted with the data, not with the replica's memory. A snapshot's counters must agree with
 * one another, every entity must lie within the id span the snapshot announced, and that span
 * (like any id a streamed batch creates) must fit both the store's id range and a share of
 * this machine's memory. Lines of the stream are bounded too. A breach is a
 * `ReplicationError` (detail `ReplicaLimit`) naming the bound; the client logs it, shows it
 * in db.replicationStatus() and refuses the stream.
 */

import { totalmem } from 'node:os';
import type { LoggedChange } from '../store/persist/record-codec.js';
import { ReplicationError } from './errors.js';
import type { SnapshotMeta } from './protocol.js';

/** Ids are used as 32-bit array indexes throughout the store. */
export const MAX_ENTITY_ID = 2 ** 31 - 2;
/** A generous estimate of what one id slot costs across the id-indexed arrays, in bytes. */
const BYTES_PER_ID_SLOT = 64;
/** Longest line of the replication stream (one entity or one batch), in characters. */
export const MAX_STREAM_LINE_CHARS = 64 * 1024 * 1024;

/** Most node and relationship ids together a replica of this machine may span: a quarter of its memory's worth. */
export function idSpanBudget(memoryBytes = totalmem()): number {
  return Math.min(MAX_ENTITY_ID, Math.floor(memoryBytes / 4 / BYTES_PER_ID_SLOT));
}

function refuse(message: string): ReplicationError {
  return new ReplicationError(`Refused the primary's replication stream: ${message}`, 'ReplicaLimit');
}

/** Checks a snapshot's announced counters before any entity of it is kept. */
export function checkSnapshotMeta(meta: SnapshotMeta, budget = idSpanBudget()): void {
  for (const [name, v] of Object.entries({ nextNodeId: meta.nextNodeId, nextRelId: meta.nextRelId, nodeCount: meta.nodeCount, relCount: meta.relCount })) {
    if (v < 0 || v > MAX_ENTITY_ID + 1) throw refuse(`the snapshot's ${name} ${v} is outside 0..${MAX_ENTITY_ID + 1}`);
  }
  if (meta.nodeCount > meta.nextNodeId) throw refuse(`the snapshot announces ${meta.nodeCount} nodes but node ids below ${meta.nextNodeId}`);
  if (meta.relCount > meta.nextRelId) throw refuse(`the snapshot announces ${meta.relCount} relationships but relationship ids below ${meta.nextRelId}`);
  if (meta.nextNodeId + meta.nextRelId > budget) {
    throw refuse(`the snapshot spans ${meta.nextNodeId} node and ${meta.nextRelId} relationship ids, more than the ${budget} this machine's memory allows a replica`);
  }
}

/** Checks one entity of a snapshot (its id, and how many came so far) against the announced counters. */
export function checkSnapshotEntity(kind: 'node' | 'rel', e: unknown, seen: number, meta: SnapshotMeta): void {
  const [count, next, what] = kind === 'node' ? [meta.nodeCount, meta.nextNodeId, 'node'] : [meta.relCount, meta.nextRelId, 'relationship'];
  if (seen >= count) throw refuse(`the snapshot sends more than the ${count} ${what}s it announced`);
  const id = typeof e === 'object' && e !== null && !Array.isArray(e) ? (e as Record<string, unknown>).id : undefined;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= next) {
    throw refuse(`the snapshot holds a ${what} with id ${JSON.stringify(id)}, outside the ids below ${next} it announced`);
  }
}

/** Checks the ids a streamed batch creates against the store's id range and this machine's memory. */
export function checkBatchIds(changes: readonly LoggedChange[], nextNodeId: number, nextRelId: number, budget = idSpanBudget()): void {
  let nodes = nextNodeId;
  let rels = nextRelId;
  for (const c of changes) {
    if (c.op === 'createNode') nodes = Math.max(nodes, c.id + 1);
    else if (c.op === 'createRel') rels = Math.max(rels, c.id + 1);
    else continue;
    if (c.id > MAX_ENTITY_ID) throw refuse(`a batch creates an entity with id ${c.id}, past the largest id ${MAX_ENTITY_ID}`);
    if (nodes + rels > budget) throw refuse(`a batch creates an entity with id ${c.id}: the replica would span ${nodes} node and ${rels} relationship ids, more than the ${budget} this machine's memory allows`);
  }
}
