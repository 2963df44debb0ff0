/**
 * Built-in procedures every database has, one registration line per family: the graph
 * algorithms, `db.*`, `dbms.*`, `tx.*` and the APOC core subset. Each family lives in its
 * own module (the algorithms' and APOC's load on first call, lazy-families.ts); this list
 * is the single place that decides what `SHOW PROCEDURES` shows.
 */

import type { ProcedureRegistry } from './registry.js';
import { registerDbSchemaProcedures } from './db/schema.js';
import { registerDbAdminProcedures } from './db/admin.js';
import { registerDbmsProcedures } from './dbms/index.js';
import { registerTxProcedures } from './tx.js';
import { registerLazyFamilies } from './lazy-families.js';

export function registerBuiltinProcedures(registry: ProcedureRegistry): void {
  registerDbSchemaProcedures(registry);
  registerDbAdminProcedures(registry);
  registerDbmsProcedures(registry);
  registerTxProcedures(registry);
  // The algorithms and APOC: registered by signature, their code loaded on first call.
  registerLazyFamilies(registry);
}
