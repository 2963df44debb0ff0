/**
 * Which HTTP status each error code gets. SPEC fixes 400 for COMPILE_ERR and 401 for a
 * missing key; the rest are ours: a query that compiles but fails while running is 422,
 * a constraint violation 409, a
 * file the server may not read 403, a cross-site write without the key 403, a call beyond
 * what the caller may do (FORBIDDEN, src/server/authorization.ts) 403, a write through
 * GET 405, a query time-out 503 (the server gave up on it), a limit 413, a write to a read
 * replica or a fenced primary 409 (READ_ONLY: the instance's current role conflicts with the
 * request, as a constraint does; no credential would change the answer, so not 403).
 */

const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  COMPILE_ERR: 400,
  BAD_REQUEST: 400,
  BAD_ENCODING: 400,
  PAYLOAD_TOO_LARGE: 413,
  LIMIT_EXCEEDED: 413,
  MEMORY_LIMIT: 413,
  NOT_FOUND: 404,
  CURSOR_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONSTRAINT_ERR: 409,
  READ_ONLY: 409,
  FILE_ACCESS_DENIED: 403,
  WRITE_NOT_ALLOWED: 405,
  CROSS_SITE_WRITE: 403,
  FORBIDDEN: 403,
  TIMEOUT: 503,
  CANCELLED: 503,
  INTERNAL_ERR: 500,
  STORAGE_ERR: 500,
};

/** Runtime query failures (TYPE_ERR, ARITHMETIC_ERR, PARAMETER_MISSING, …) not listed above. */
const QUERY_FAILED = 422;

export function httpStatusFor(code: string): number {
  return STATUS_BY_CODE[code] ?? QUERY_FAILED;
}
