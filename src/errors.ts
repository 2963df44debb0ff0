/**
 * The typed errors graphdb raises. Every error a user can cause is a GraphDbError
 * subclass with a stable `code` (what access layers report), a `kind` (the openCypher
 * TCK's error type), a `detail` (the TCK's detail code, e.g. `UndefinedVariable`) and
 * the `phase` it was raised in. Compile-phase errors all carry code `COMPILE_ERR`, as
 * SPEC.md requires; runtime errors carry a code of their own kind.
 */

export type ErrorPhase = 'compile' | 'runtime';

/** The TCK's error types, which double as our error kinds. */
export type ErrorKind =
  | 'SyntaxError'
  | 'SemanticError'
  | 'TypeError'
  | 'ArgumentError'
  | 'ArithmeticError'
  | 'EntityNotFound'
  | 'ConstraintVerificationFailed'
  | 'ConstraintValidationFailed'
  | 'ParameterMissing'
  | 'ProcedureError'
  | 'QueryTimeout'
  | 'QueryCancelled'
  | 'ResourceLimit'
  | 'MemoryLimit'
  | 'StorageError'
  | 'TransactionError'
  | 'InternalError';

/** A position in query text: 1-based line, 1-based column. */
export interface SourcePosition {
  line: number;
  column: number;
}

export abstract class GraphDbError extends Error {
  abstract readonly code: string;
  abstract readonly kind: ErrorKind;
  readonly detail: string;
  readonly phase: ErrorPhase;
  readonly position?: SourcePosition;

  constructor(message: string, detail: string, phase: ErrorPhase, position?: SourcePosition) {
    super(position ? `${message} (line ${position.line}, column ${position.column})` : message);
    this.name = new.target.name;
    this.detail = detail;
    this.phase = phase;
    this.position = position;
  }

  /** The SPEC's error object, as HTTP and TCP send it. */
  toJSON(): { error: true; code: string; message: string } {
    return { error: true, code: this.code, message: this.message };
  }
}

/** Query text that does not parse. */
export class QuerySyntaxError extends GraphDbError {
  readonly code = 'COMPILE_ERR';
  readonly kind = 'SyntaxError';
  /** `phase` is 'runtime' only for the few checks openCypher defers to run time (e.g. a SKIP parameter's value). */
  constructor(message: string, position?: SourcePosition, detail = 'InvalidSyntax', phase: ErrorPhase = 'compile') {
    super(message, detail, phase, position);
  }
}

/** Query text that parses but means nothing valid (unbound variable, misplaced aggregate, …). */
export class QuerySemanticError extends GraphDbError {
  readonly kind = 'SemanticError';
  get code(): string {
    return this.phase === 'compile' ? 'COMPILE_ERR' : 'SEMANTIC_ERR';
  }
  /** `phase` is 'runtime' for semantic rules that depend on values (e.g. MERGE on a null property). */
  constructor(message: string, detail: string, position?: SourcePosition, phase: ErrorPhase = 'compile') {
    super(message, detail, phase, position);
  }
}

/** A value of the wrong type; raised at compile time when it is evident from the text. */
export class ValueTypeError extends GraphDbError {
  readonly kind = 'TypeError';
  get code(): string {
    return this.phase === 'compile' ? 'COMPILE_ERR' : 'TYPE_ERR';
  }
  constructor(message: string, detail = 'InvalidArgumentType', phase: ErrorPhase = 'runtime', position?: SourcePosition) {
    super(message, detail, phase, position);
  }
}

/** A value of the right type but outside what the operation accepts. */
export class ArgumentError extends GraphDbError {
  readonly kind = 'ArgumentError';
  get code(): string {
    return this.phase === 'compile' ? 'COMPILE_ERR' : 'ARGUMENT_ERR';
  }
  constructor(message: string, detail = 'InvalidArgumentValue', phase: ErrorPhase = 'runtime', position?: SourcePosition) {
    super(message, detail, phase, position);
  }
}

/** A file a query may not read: file access is off, outside the import directory, not a regular file, too large. */
export class FileAccessError extends ArgumentError {
  override get code(): string {
    return 'FILE_ACCESS_DENIED';
  }
  constructor(message: string) {
    super(message, 'FileAccessDenied', 'runtime');
  }
}

/** Integer overflow, division of an integer by zero. */
export class ArithmeticError extends GraphDbError {
  readonly code = 'ARITHMETIC_ERR';
  readonly kind = 'ArithmeticError';
  constructor(message: string, detail = 'IntegerOverflow') {
    super(message, detail, 'runtime');
  }
}

/** Access to a node or relationship that was deleted. */
export class EntityNotFoundError extends GraphDbError {
  readonly code = 'ENTITY_NOT_FOUND';
  readonly kind = 'EntityNotFound';
  constructor(message: string, detail = 'DeletedEntityAccess') {
    super(message, detail, 'runtime');
  }
}

/** A write that would break the graph's rules (deleting a connected node, a constraint). */
export class ConstraintError extends GraphDbError {
  readonly code = 'CONSTRAINT_ERR';
  readonly kind = 'ConstraintVerificationFailed';
  constructor(
    message: string,
    detail: string,
    /** The node that breaks the constraint, where one does (a bulk import names its file and line from it). */
    readonly nodeId?: number,
  ) {
    super(message, detail, 'runtime');
  }
}

/** A `$name` the query uses that the caller did not supply. */
export class ParameterMissingError extends GraphDbError {
  readonly code = 'PARAMETER_MISSING';
  readonly kind = 'ParameterMissing';
  /** Raised before execution ('compile') when the query's parameters are checked up front. */
  constructor(name: string, phase: ErrorPhase = 'runtime') {
    super(`Expected parameter $${name} to be supplied`, 'MissingParameter', phase);
  }
}

/** A CALL to a procedure that does not exist or was called wrongly. */
export class ProcedureError extends GraphDbError {
  readonly kind = 'ProcedureError';
  get code(): string {
    return this.phase === 'compile' ? 'COMPILE_ERR' : 'PROCEDURE_ERR';
  }
  constructor(message: string, detail = 'ProcedureNotFound', phase: ErrorPhase = 'compile', position?: SourcePosition) {
    super(message, detail, phase, position);
  }
}

/**
 * A call outside what the caller's door granted it (src/server/authorization.ts): an
 * administration procedure without the key, a file export from a web page, and so on.
 */
export class AccessDeniedError extends GraphDbError {
  readonly code = 'FORBIDDEN';
  readonly kind = 'ProcedureError';
  constructor(message: string, detail = 'AccessDenied') {
    super(message, detail, 'runtime');
  }
}

/** A query that ran past its time limit. */
export class QueryTimeoutError extends GraphDbError {
  readonly code = 'TIMEOUT';
  readonly kind = 'QueryTimeout';
  constructor(limitMs: number, message = `Query exceeded its time limit of ${limitMs} ms and was stopped`) {
    super(message, 'QueryTimeout', 'runtime');
  }
}

/**
 * A query stopped on request: the client cancelled it (PG CancelRequest, Ctrl-C in the
 * shell, MCP `notifications/cancelled`) or went away (HTTP or TCP disconnect), or the
 * thread running it had to be replaced. Nothing it would have written was applied.
 */
export class QueryCancelledError extends GraphDbError {
  readonly code = 'CANCELLED';
  readonly kind = 'QueryCancelled';
  constructor(message = 'The query was cancelled at the client\'s request; nothing it would have written was applied') {
    super(message, 'QueryCancelled', 'runtime');
  }
}

/** Whether `err` ends the query on purpose (its time limit, or a cancel): code that recovers from other failures must let it through. */
export function endsTheQuery(err: unknown): boolean {
  return err instanceof QueryTimeoutError || err instanceof QueryCancelledError;
}

/** A request beyond a documented limit (body size, result size). */
export class ResourceLimitError extends GraphDbError {
  readonly code = 'LIMIT_EXCEEDED';
  readonly kind = 'ResourceLimit';
  constructor(message: string) {
    super(message, 'LimitExceeded', 'runtime');
  }
}

/** A query that would hold more memory than its limits allow (list, string or buffered rows). */
export class MemoryLimitError extends GraphDbError {
  readonly code = 'MEMORY_LIMIT';
  readonly kind = 'MemoryLimit';
  constructor(message: string) {
    super(message, 'MemoryLimitExceeded', 'runtime');
  }
}

/** A failure of the storage layer (I/O, damaged files). */
export class StorageError extends GraphDbError {
  readonly code = 'STORAGE_ERR';
  readonly kind = 'StorageError';
  constructor(message: string, detail = 'StorageFailure') {
    super(message, detail, 'runtime');
  }
}

/** A bug in graphdb itself; the message says so and the original error is kept. */
export class InternalError extends GraphDbError {
  readonly code = 'INTERNAL_ERR';
  readonly kind = 'InternalError';
  constructor(message: string, readonly original?: unknown) {
    super(message, 'Internal', 'runtime');
  }
}

/**
 * An explicit transaction's failures (src/engine/transaction.ts). `transient` ones are safe to
 * retry as a whole: nothing of the transaction was applied, and running it again against the
 * graph as it is now can succeed (`db.transaction()` and drivers retry them).
 */
export abstract class TransactionError extends GraphDbError {
  readonly kind = 'TransactionError';
  abstract readonly transient: boolean;
  /** Neo4j's status code for the same failure (the HTTP door's Neo4j routes report it). */
  abstract readonly neo4jCode: string;
  constructor(message: string, detail: string) {
    super(message, detail, 'runtime');
  }
}

/**
 * What a write transaction read no longer holds: another write committed since its snapshot.
 * Nothing of it was applied; retry it (SQLSTATE 40001).
 */
export class TransactionConflictError extends TransactionError {
  readonly code = 'TX_CONFLICT';
  readonly transient = true;
  readonly neo4jCode = 'Neo.TransientError.Transaction.Outdated';
  constructor(message = 'The transaction read data that another transaction has changed since; it was rolled back and can be retried') {
    super(message, 'SerializationFailure');
  }
}

/** A write transaction waited past its time limit for the writer slot (another transaction held it). Retry it. */
export class TransactionLockTimeoutError extends TransactionError {
  readonly code = 'TX_LOCK_TIMEOUT';
  readonly transient = true;
  readonly neo4jCode = 'Neo.TransientError.Transaction.LockAcquisitionTimeout';
  constructor(waitedMs: number) {
    super(`Waited ${waitedMs} ms for the writer slot, which another transaction holds; nothing was applied, retry later`, 'LockTimeout');
  }
}

/** A transaction that was idle past its time limit, and so was rolled back. */
export class TransactionTimedOutError extends TransactionError {
  readonly code = 'TX_TIMEOUT';
  readonly transient = false;
  readonly neo4jCode = 'Neo.ClientError.Transaction.TransactionTimedOut';
  constructor(limitMs: number) {
    super(`The transaction was idle for more than ${limitMs} ms and was rolled back`, 'TransactionTimedOut');
  }
}

/** Use of a transaction that has ended (committed, rolled back) or failed (after an error only rollback is possible). */
export class TransactionStateError extends TransactionError {
  readonly code = 'TX_STATE';
  readonly transient = false;
  readonly neo4jCode: string;
  constructor(message: string, detail: 'TransactionEnded' | 'TransactionFailed' | 'StatementInProgress') {
    super(message, detail);
    this.neo4jCode = detail === 'TransactionFailed' ? 'Neo.ClientError.Transaction.TransactionMarkedAsFailed' : 'Neo.ClientError.Transaction.TransactionNotFound';
  }
}

/** Whether retrying the whole transaction is the right answer to `err`. */
export function isTransientError(err: unknown): boolean {
  return err instanceof TransactionError && err.transient;
}

/** Wraps anything thrown into a GraphDbError so callers only ever see typed errors. */
export function toGraphDbError(err: unknown): GraphDbError {
  if (err instanceof GraphDbError) return err;
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new ResourceLimitError('Query is too deeply nested to evaluate (call stack exhausted)');
  }
  const message = err instanceof Error ? err.message : String(err);
  return new InternalError(`Internal error: ${message}`, err);
}

/** ONNX inference was asked for, but onnxruntime-node is not installed or does not load. */
export class OnnxUnavailableError extends GraphDbError {
  readonly code = 'ONNX_UNAVAILABLE';
  readonly kind = 'ArgumentError';
  constructor(message: string) {
    super(message, 'OnnxUnavailable', 'runtime');
  }
}

/** A feature that needs Node (files, processes, native modules) asked for in the browser build (`graphdb/browser`). */
export class BrowserUnsupportedError extends GraphDbError {
  readonly code = 'UNSUPPORTED_IN_BROWSER';
  readonly kind = 'ArgumentError';
  constructor(what: string) {
    super(`${what} is not available in the browser build of graphdb`, 'UnsupportedInBrowser', 'runtime');
  }
}

/** A write that would take the browser's local store past its size limit (docs/BROWSER.md). */
export class StoreFullError extends GraphDbError {
  readonly code = 'STORE_FULL';
  readonly kind = 'ResourceLimit';
  constructor(message: string) {
    super(message, 'StoreSizeLimit', 'runtime');
  }
}

/** The browser store is held by another tab (or worker) of the same origin. */
export class StoreLockedError extends GraphDbError {
  readonly code = 'STORE_LOCKED';
  readonly kind = 'StorageError';
  constructor(message: string) {
    super(message, 'StoreLocked', 'runtime');
  }
}
