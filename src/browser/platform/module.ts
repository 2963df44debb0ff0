/**
 * `node:module` in the browser build: `createRequire` gives a `require` that knows the
 * browser replacements of graphdb's native dependencies (hnswlib-node: exact search,
 * browser/exact-knn.ts) and answers any other name as Node does for a missing optional
 * dependency (MODULE_NOT_FOUND), which the engine already reports as unavailable.
 */
import * as exactKnn from '../exact-knn.js';

const known: Record<string, unknown> = { 'hnswlib-node': { ...exactKnn, default: exactKnn } };

export function createRequire(_from: string | URL): (name: string) => unknown {
  const require = (name: string): unknown => {
    if (name in known) return known[name];
    const err = new Error(`Cannot find module '${name}' (not available in the browser build of graphdb)`) as Error & { code: string };
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  };
  return require;
}
