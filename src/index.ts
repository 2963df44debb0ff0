/**
 * The package's public entry point for embedders: the Database handle, its result and
 * option types, the value classes results contain, and the typed errors.
 */

export { Database } from './engine/database.js';
export { importCsv } from './engine/csv-import.js';
export type { ImportInput, ImportOptions, ImportSummary } from './engine/csv-import.js';
export { FileAccessPolicy } from '../runtime/graph/file-access.js';
export type { QueryResult, QueryStats, QueryOptions, QueryParams, DatabaseOptions, EngineStats } from './engine/types.js';
export { FloatBox, Path } from '../runtime/values.js';
export type { Value, CypherMap } from '../runtime/values.js';
export { Node, Rel } from './store/entities.js';
export { toJs, fromJs, formatValue, cellText } from '../runtime/format.js';
export * from './errors.js';
