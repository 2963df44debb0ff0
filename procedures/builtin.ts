/**
 * Built-in procedures every database has, one registration line per family: the graph
 * algorithms, `db.*`, `dbms.*`, `tx.*` and the APOC core subset. Each family lives in its
 * own module; this list is the single place that decides what `SHOW PROCEDURES` shows.
 */

import type { ProcedureRegistry } from './registry.js';
import { registerAlgorithms } from './algo/index.js';
import { registerDbSchemaProcedures } from './db/schema.js';
import { registerDbAdminProcedures } from './db/admin.js';
import { registerDbmsProcedures } from './dbms/index.js';
import { registerTxProcedures } from './tx.js';
import { registerApocProcedures } from './apoc/index.js';

export function registerBuiltinProcedures(registry: ProcedureRegistry): void {
  registerAlgorithms(registry);
  registerDbSchemaProcedures(registry);
  registerDbAdminProcedures(registry);
  registerDbmsProcedures(registry);
  registerTxProcedures(registry);
  registerApocProcedures(registry);
}
