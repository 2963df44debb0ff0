/**
 * Errors of the PostgreSQL wire layer and the mapping of engine errors to SQLSTATE codes.
 *
 * `PgError` is what every part of the layer throws when a client must be told something:
 * it carries the SQLSTATE, the severity (FATAL closes the connection) and the text. Engine
 * failures (`GraphDbError`) are translated by `fromEngineError` with the table below.
 *
 * | engine code        | SQLSTATE | PostgreSQL condition name                    |
 * |--------------------|----------|----------------------------------------------|
 * | COMPILE_ERR        | 42000    | syntax_error_or_access_rule_violation (SPEC)  |
 * | TIMEOUT            | 57014    | query_canceled (SPEC: query timeout)          |
 * | CANCELLED          | 57014    | query_canceled (CancelRequest, client gone)   |
 * | TX_CONFLICT (SERIALIZATION_ERR, CONFLICT) | 40001 | serialization_failure: retry the transaction |
 * | TX_LOCK_TIMEOUT    | 55P03    | lock_not_available (waited too long for the writer slot) |
 * | TX_TIMEOUT         | 25P03    | idle_in_transaction_session_timeout           |
 * | TX_STATE           | 25P02    | in_failed_sql_transaction                     |
 * | PARAMETER_MISSING  | 42P02    | undefined_parameter                           |
 * | TYPE_ERR           | 42804    | datatype_mismatch                             |
 * | ARGUMENT_ERR       | 22023    | invalid_parameter_value                       |
 * | ARITHMETIC_ERR     | 22012 / 22003 | division_by_zero / numeric_value_out_of_range |
 * | SEMANTIC_ERR       | 22000    | data_exception (a rule that depends on values) |
 * | ENTITY_NOT_FOUND   | 55000    | object_not_in_prerequisite_state (deleted entity) |
 * | CONSTRAINT_ERR     | 23000    | integrity_constraint_violation                |
 * | READ_ONLY          | 25006    | read_only_sql_transaction (a replica, a fenced primary) |
 * | PROCEDURE_ERR      | 38000    | external_routine_exception                    |
 * | LIMIT_EXCEEDED     | 54000    | program_limit_exceeded                        |
 * | FILE_ACCESS_DENIED | 42501    | insufficient_privilege (LOAD CSV not allowed)  |
 * | MEMORY_LIMIT       | 53200    | out_of_memory (a query over its memory limits) |
 * | STORAGE_ERR        | 58030    | io_error                                      |
 * | INTERNAL_ERR, other | XX000   | internal_error                                |
 *
 * Conditions of the protocol itself use: 08P01 protocol_violation, 28P01 invalid_password,
 * 28000 invalid_authorization_specification, 0A000 feature_not_supported, 22021
 * character_not_in_repertoire (invalid UTF-8), 22P02 / 22P03 invalid text / binary
 * representation (a bound parameter), 26000 invalid_sql_statement_name, 34000
 * invalid_cursor_name, 42P05 duplicate_prepared_statement, 53300 too_many_connections,
 * 54000 program_limit_exceeded (an oversized message).
 */

import { GraphDbError, toGraphDbError } from '../../errors.js';

export type PgSeverity = 'ERROR' | 'FATAL';

/** SQLSTATE codes the layer sends, by name. */
export const SqlState = {
  syntaxError: '42000',
  queryCanceled: '57014',
  serializationFailure: '40001',
  undefinedParameter: '42P02',
  datatypeMismatch: '42804',
  invalidParameterValue: '22023',
  divisionByZero: '22012',
  numericOutOfRange: '22003',
  dataException: '22000',
  objectNotInPrerequisiteState: '55000',
  integrityConstraintViolation: '23000',
  readOnlySqlTransaction: '25006',
  externalRoutineException: '38000',
  programLimitExceeded: '54000',
  ioError: '58030',
  internalError: 'XX000',
  protocolViolation: '08P01',
  invalidPassword: '28P01',
  invalidAuthorization: '28000',
  featureNotSupported: '0A000',
  characterNotInRepertoire: '22021',
  invalidTextRepresentation: '22P02',
  invalidBinaryRepresentation: '22P03',
  invalidStatementName: '26000',
  invalidCursorName: '34000',
  duplicatePreparedStatement: '42P05',
  undefinedObject: '42704',
  tooManyConnections: '53300',
  insufficientPrivilege: '42501',
  inFailedTransaction: '25P02',
  idleInTransactionTimeout: '25P03',
  lockNotAvailable: '55P03',
  outOfMemory: '53200',
} as const;

/** A condition reported to the client as an ErrorResponse. */
export class PgError extends Error {
  constructor(
    readonly sqlState: string,
    message: string,
    readonly severity: PgSeverity = 'ERROR',
    /** Extra detail (the engine's own error code). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PgError';
  }

  /** True when the connection must be closed after reporting (FATAL). */
  get fatal(): boolean {
    return this.severity === 'FATAL';
  }
}

/** A message that breaks the protocol: always fatal, the connection is closed. */
export class PgProtocolError extends PgError {
  constructor(message: string, sqlState: string = SqlState.protocolViolation) {
    super(sqlState, message, 'FATAL');
    this.name = 'PgProtocolError';
  }
}

const BY_ENGINE_CODE: Readonly<Record<string, string>> = {
  COMPILE_ERR: SqlState.syntaxError,
  TIMEOUT: SqlState.queryCanceled,
  CANCELLED: SqlState.queryCanceled,
  SERIALIZATION_ERR: SqlState.serializationFailure,
  CONFLICT: SqlState.serializationFailure,
  TX_CONFLICT: SqlState.serializationFailure,
  TX_LOCK_TIMEOUT: SqlState.lockNotAvailable,
  TX_TIMEOUT: SqlState.idleInTransactionTimeout,
  TX_STATE: SqlState.inFailedTransaction,
  PARAMETER_MISSING: SqlState.undefinedParameter,
  TYPE_ERR: SqlState.datatypeMismatch,
  ARGUMENT_ERR: SqlState.invalidParameterValue,
  SEMANTIC_ERR: SqlState.dataException,
  ENTITY_NOT_FOUND: SqlState.objectNotInPrerequisiteState,
  CONSTRAINT_ERR: SqlState.integrityConstraintViolation,
  READ_ONLY: SqlState.readOnlySqlTransaction,
  PROCEDURE_ERR: SqlState.externalRoutineException,
  LIMIT_EXCEEDED: SqlState.programLimitExceeded,
  FILE_ACCESS_DENIED: SqlState.insufficientPrivilege,
  FORBIDDEN: SqlState.insufficientPrivilege,
  MEMORY_LIMIT: SqlState.outOfMemory,
  STORAGE_ERR: SqlState.ioError,
  INTERNAL_ERR: SqlState.internalError,
};

/** The SQLSTATE of an engine error (see the table at the top of this module). */
export function sqlStateOf(err: GraphDbError): string {
  if (err.code === 'ARITHMETIC_ERR') {
    return /zero/i.test(err.detail) ? SqlState.divisionByZero : SqlState.numericOutOfRange;
  }
  return BY_ENGINE_CODE[err.code] ?? SqlState.internalError;
}

/** Any thrown value as a PgError the client can be sent. */
export function toPgError(err: unknown): PgError {
  if (err instanceof PgError) return err;
  const engineError = toGraphDbError(err);
  return new PgError(sqlStateOf(engineError), engineError.message, 'ERROR', `graphdb code ${engineError.code}`);
}
