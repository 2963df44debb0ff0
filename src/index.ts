/**
 * The package's public entry point for embedders: the Database handle, its result and
 * option types, the value classes results contain, and the typed errors.
 */

import type { Database } from './engine/database.js';
import type { ImportInput, ImportOptions, ImportSummary } from './engine/csv-import.js';

export { Database } from './engine/database.js';
export type { ImportInput, ImportOptions, ImportSummary } from './engine/csv-import.js';

/**
 * Bulk-loads CSV files into `db` (what `graphdb import` runs). Its module, with the
 * store-of-record block writer it appends through, loads on the first call rather than with
 * the package.
 */
export async function importCsv(db: Database, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<ImportSummary> {
  const { importCsv: run } = await import('./engine/csv-import.js');
  return run(db, inputs, options);
}
export { FileAccessPolicy } from '../runtime/graph/file-access.js';
export type { QueryResult, QueryStats, QueryOptions, QueryParams, DatabaseOptions, EngineStats } from './engine/types.js';
export { FloatBox, Path } from '../runtime/values.js';
export type { Value, CypherMap } from '../runtime/values.js';
export { Node, Rel } from './store/entities.js';
export { toJs, fromJs, formatValue, cellText } from '../runtime/format.js';
export * from './errors.js';
