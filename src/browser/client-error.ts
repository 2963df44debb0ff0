/** The page client's error class (index.ts re-exports it): the engine's typed error after crossing to the page. */
import type { WireError } from './protocol.js';

/** An engine error on the page: `code` is the engine's (STORE_FULL, STORE_LOCKED, COMPILE_ERR...). */
export class GraphDBError extends Error {
  readonly code: string;
  readonly detail: string;
  constructor(error: WireError) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
    this.detail = error.detail;
  }
}

/** The wire form of anything a backend threw (a GraphDBError keeps its code). */
export function toWire(err: unknown): WireError {
  if (err instanceof GraphDBError) return { name: err.name, code: err.code, detail: err.detail, message: err.message };
  const e = err as { name?: string; code?: unknown; detail?: unknown; message?: string };
  return {
    name: e?.name ?? 'Error',
    code: typeof e?.code === 'string' ? e.code : 'INTERNAL_ERR',
    detail: typeof e?.detail === 'string' ? e.detail : '',
    message: e?.message ?? String(err),
  };
}
