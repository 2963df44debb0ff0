/**
 * `db.*` housekeeping: identity (db.info), liveness (db.ping), the compiled-query cache
 * (db.clearQueryCaches) and checkpoints (db.checkpoint), with Neo4j 5's column names.
 */

import type { ProcedureRegistry } from '../registry.js';
import { field, hostOf, procedure } from '../define.js';

export function registerDbAdminProcedures(registry: ProcedureRegistry): void {
  registry.register(
    procedure('db.info', 'read', 'The identity of this database: id, name and when it was opened.', [], [field('id', 'STRING'), field('name', 'STRING'), field('creationDate', 'STRING')], (ctx) => {
      const i = hostOf(ctx, 'db.info').info();
      return [[i.id, i.name, i.creationDate]];
    }),
  );
  registry.register(
    procedure('db.ping', 'read', 'Answers true when the database can run queries (drivers use it as a health check).', [], [field('success', 'BOOLEAN')], () => [[true]]),
  );
  registry.register(
    procedure('db.clearQueryCaches', 'dbms', 'Empties the compiled-query cache; later queries are planned afresh.', [], [field('value', 'STRING')], (ctx) => {
      const n = hostOf(ctx, 'db.clearQueryCaches').clearQueryCaches();
      return [[n === 0 ? 'Query cache already empty.' : `Query caches successfully cleared of ${n} queries.`]];
    }),
  );
  registry.register(
    procedure('db.checkpoint', 'dbms', 'Folds the write-ahead log into the store (with a data directory).', [], [field('success', 'BOOLEAN'), field('message', 'STRING')], (ctx) => {
      const r = hostOf(ctx, 'db.checkpoint').checkpoint();
      return [[r.success, r.message]];
    }),
  );
}
