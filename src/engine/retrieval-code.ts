/**
 * The vector and full-text index code (src/vector/, src/fulltext/: the HNSW index, the inverted
 * index, their files and procedures), loaded on first use (src/lazy-module.ts): when a schema
 * makes or loads such an index, or a query calls or plans one of their procedures. Their
 * procedures' signatures come from procedures/families.generated.ts meanwhile. The `is…`
 * tests answer without loading anything: an index of a kind whose code never loaded cannot exist.
 */

import { LazyModule } from '../lazy-module.js';
import type { FulltextIndex } from '../fulltext/fulltext-index.js';
import type { VectorIndex } from '../vector/hnsw-index.js';

export const vectorCode = new LazyModule(import.meta.url, '../vector/procedures.js', () => import('../vector/procedures.js'));
export const fulltextCode = new LazyModule(import.meta.url, '../fulltext/procedures.js', () => import('../fulltext/procedures.js'));

export function isVectorIndex(index: unknown): index is VectorIndex {
  return vectorCode.loaded && index instanceof vectorCode.get().VectorIndex;
}

export function isFulltextIndex(index: unknown): index is FulltextIndex {
  return fulltextCode.loaded && index instanceof fulltextCode.get().FulltextIndex;
}

/** Full-text indexes being built in the background, in every database of the process. */
export function fulltextBuildsRunning(): number {
  return fulltextCode.loaded ? fulltextCode.get().FulltextIndex.buildsRunning : 0;
}
