/**
 * `tx.setMetaData` / `tx.getMetaData`: metadata attached to the running transaction (one
 * query here), as drivers set it for logging and monitoring.
 */

import type { ProcedureRegistry } from './registry.js';
import { field, hostOf, mapOrEmpty, procedure, withAccess } from './define.js';

export function registerTxProcedures(registry: ProcedureRegistry): void {
  // Metadata lives and dies with the caller's own transaction: any caller may set and read it.
  registry.register(
    withAccess('read', procedure('tx.setMetaData', 'dbms', 'Attaches a map of metadata to the running transaction, replacing what was there.', [field('data', 'MAP')], [], (ctx, [data]) => {
      const meta = hostOf(ctx, 'tx.setMetaData').txMetadata;
      meta.clear();
      for (const [k, v] of mapOrEmpty(data, 'tx.setMetaData', 'data')) meta.set(k, v);
      return [];
    })),
  );
  registry.register(
    withAccess('read', procedure('tx.getMetaData', 'dbms', 'The metadata attached to the running transaction.', [], [field('metadata', 'MAP')], (ctx) => [[new Map(hostOf(ctx, 'tx.getMetaData').txMetadata)]])),
  );
}
