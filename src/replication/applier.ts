/**
 * `ReplicaApplier`: the only code that changes a replica's graph. It applies the primary's
 * batches strictly in order — a batch is applied only when its `before` sequence equals the
 * replica's mutation sequence — through `Database.writeTransaction`, so each group of
 * batches is one transaction made durable in the replica's own WAL before the replica
 * acknowledges it. It also installs a snapshot: everything the replica held is deleted, the
 * primary's entities are created at their ids, and the counters are set so that the
 * replica's fingerprint equals the primary's (then a checkpoint stores those counters).
 *
 * The replica's position is its graph's own mutation sequence, so it is exactly as durable
 * as the data: there is no separate position file to disagree with it after a crash.
 */

import type { Database } from '../engine/database.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import type { Json } from '../store/persist/json.js';
import { applySchemaDefinition, decodeSchemaDef, schemaDefinition, type SchemaDef } from '../store/persist/schema-def.js';
import { nodeChange, relChange } from '../store/persist/stored-entity.js';
import { ReplicationError } from './errors.js';
import { checkBatchIds } from './limits.js';
import type { Batch, SnapshotMeta } from './protocol.js';

function setSchema(schema: Schema, def: SchemaDef): void {
  // Re-applying the same definition would rebuild every index for nothing.
  if (JSON.stringify(schemaDefinition(schema)) !== JSON.stringify(def)) applySchemaDefinition(schema, def);
}

export class ReplicaApplier {
  constructor(private readonly db: Database) {}

  /** The replica's position: its graph's mutation sequence. */
  get seq(): number {
    return this.db.graph.mutationSeq;
  }

  fingerprint(): string {
    return this.db.graph.fingerprint();
  }

  /**
   * Applies `batches` (consecutive, in stream order) as one durable transaction. Batches the
   * replica already holds are skipped; a gap is a ReplicationError and nothing is applied.
   * Returns the batches applied.
   */
  apply(batches: readonly Batch[]): Batch[] {
    const todo = batches.filter((b) => !(b.after > b.before && b.after <= this.seq));
    if (todo.length === 0) return [];
    // Before the transaction: an id past the bounds must not allocate anything, even to be rolled back.
    for (const b of todo) checkBatchIds(b.changes, this.db.graph.nextNodeId, this.db.graph.nextRelId);
    this.db.writeTransaction((graph: Graph, schema: Schema) => {
      for (const b of todo) {
        if (b.before !== graph.mutationSeq) {
          throw new ReplicationError(
            `Replication batch ${b.n} starts at mutation sequence ${b.before}, but this replica is at ${graph.mutationSeq}: a batch is missing`,
            'ReplicationGap',
          );
        }
        for (const change of b.changes) {
          if (change.op === 'schema') setSchema(schema, change.def);
          else graph.applyChange(change);
        }
        if (graph.mutationSeq !== b.after) {
          throw new ReplicationError(`Replication batch ${b.n} should end at mutation sequence ${b.after}, but ended at ${graph.mutationSeq}`, 'ReplicationMismatch');
        }
      }
    });
    return todo;
  }

  /** Replaces the replica's whole content with the primary's snapshot, then stores the counters with a checkpoint. */
  async installSnapshot(meta: SnapshotMeta, nodes: readonly Json[], rels: readonly Json[]): Promise<void> {
    const db = this.db;
    if (db.graph.nodeCount > 0 || db.graph.relCount > 0) {
      db.writeTransaction((graph) => {
        for (const rel of [...graph.allRels()]) graph.deleteRel(rel);
        for (const node of [...graph.allNodes()]) graph.deleteNode(node);
      });
    }
    let def: SchemaDef;
    try {
      def = decodeSchemaDef(meta.schema);
    } catch (err) {
      throw new ReplicationError(`The primary's snapshot has an unreadable schema: ${err instanceof Error ? err.message : String(err)}`, 'BadStream');
    }
    db.writeTransaction((graph, schema) => {
      for (const n of nodes) graph.applyChange(nodeChange(n));
      for (const r of rels) graph.applyChange(relChange(r));
      setSchema(schema, def);
    });
    const g = db.graph;
    if (g.nodeCount !== meta.nodeCount || g.relCount !== meta.relCount) {
      throw new ReplicationError(`The primary's snapshot announced ${meta.nodeCount} nodes and ${meta.relCount} relationships but held ${g.nodeCount} and ${g.relCount}`, 'BadStream');
    }
    g.mutationSeq = meta.mutationSeq;
    g.generation = meta.generation;
    g.nextNodeId = Math.max(g.nextNodeId, meta.nextNodeId);
    g.nextRelId = Math.max(g.nextRelId, meta.nextRelId);
    // The counters live in the store's meta: a checkpoint writes them. A crash before it leaves
    // a replica whose fingerprint matches no primary state, which simply asks for a new snapshot.
    await db.checkpoint();
  }
}
