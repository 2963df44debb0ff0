/**
 * The settings a query worker's own Database is opened with. Apart from the worker protocol
 * (protocol.ts) because Database's public type names it: its declaration must reach no
 * Node-only type, so that an embedder's TypeScript needs no @types/node.
 */

import type { FileAccessPlain } from '../../../runtime/graph/file-access.js';
import type { MemoryLimits } from '../../../runtime/governor.js';

/** What a worker's own Database is opened with (the primary's settings that shape query results). */
export interface WorkerDatabaseOptions {
  queryTimeoutMs?: number;
  memoryLimits?: Partial<MemoryLimits>;
  fileAccess?: FileAccessPlain;
  embeddingModel?: string;
  planCacheSize?: number;
}
