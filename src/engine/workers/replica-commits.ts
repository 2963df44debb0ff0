/**
 * How a query worker's replica follows one of the primary's commits (`ToWorker` 'commit'):
 * its records applied through the `ReplicaApplier` (skipped when the replica holds them
 * already), then the adjacency bases the primary's merge made at that commit adopted in place
 * of the replica's own, so both threads hold one copy of them. A replica past the commit (its
 * image was captured later) has that merge's result already and adopts nothing.
 */

import type { ReplicaApplier } from '../../replication/applier.js';
import { decodeTransaction, type LoggedChange } from '../../store/persist/record-codec.js';
import type { Database } from '../database.js';
import type { ToWorker } from './protocol.js';

export function followCommit(replica: Database, applier: ReplicaApplier, m: Extract<ToWorker, { t: 'commit' }>): void {
  // Vector and full-text queries run on the primary: the replica does not build those indexes.
  const changes: LoggedChange[] = m.payloads.flatMap((p) => decodeTransaction(p)).map((c) => (c.op === 'schema' ? { ...c, def: { ...c.def, extensions: [] } } : c));
  applier.apply([{ n: 0, before: m.before, after: m.after, at: 0, changes }]);
  if (m.merged.length > 0 && replica.graph.mutationSeq === m.after) replica.graph.adoptMergedBases(m.merged);
}
