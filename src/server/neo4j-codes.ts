/**
 * graphdb's error codes as Neo4j's status codes, for the doors that speak Neo4j's protocols
 * (the HTTP transactional and Query APIs, Bolt). Clients act on them: the drivers retry a
 * `Neo.TransientError.*`, and tools match on the rest.
 */

import { toGraphDbError, TransactionError } from '../errors.js';

export interface Neo4jError {
  code: string;
  message: string;
}

export const NEO4J_CODES: Readonly<Record<string, string>> = {
  COMPILE_ERR: 'Neo.ClientError.Statement.SyntaxError',
  PARAMETER_MISSING: 'Neo.ClientError.Statement.ParameterMissing',
  TYPE_ERR: 'Neo.ClientError.Statement.TypeError',
  ARGUMENT_ERR: 'Neo.ClientError.Statement.ArgumentError',
  ARITHMETIC_ERR: 'Neo.ClientError.Statement.ArithmeticError',
  SEMANTIC_ERR: 'Neo.ClientError.Statement.SemanticError',
  ENTITY_NOT_FOUND: 'Neo.ClientError.Statement.EntityNotFound',
  CONSTRAINT_ERR: 'Neo.ClientError.Schema.ConstraintValidationFailed',
  READ_ONLY: 'Neo.ClientError.Cluster.NotALeader',
  CROSS_SITE_WRITE: 'Neo.ClientError.Security.Forbidden',
  PROCEDURE_ERR: 'Neo.ClientError.Procedure.ProcedureCallFailed',
  TIMEOUT: 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
  CANCELLED: 'Neo.TransientError.Transaction.Terminated',
  LIMIT_EXCEEDED: 'Neo.ClientError.Request.Invalid',
  MEMORY_LIMIT: 'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
  FILE_ACCESS_DENIED: 'Neo.ClientError.Security.Forbidden',
  FORBIDDEN: 'Neo.ClientError.Security.Forbidden',
  STORAGE_ERR: 'Neo.DatabaseError.General.UnknownError',
  INTERNAL_ERR: 'Neo.DatabaseError.General.UnknownError',
};

/** Neo4j's code and graphdb's message for any failure. */
export function neo4jError(err: unknown): Neo4jError {
  const e = toGraphDbError(err);
  if (e instanceof TransactionError) return { code: e.neo4jCode, message: e.message };
  if (e.detail === 'WriteInReadOnlyCall') return { code: 'Neo.ClientError.Statement.AccessMode', message: e.message };
  if (e.detail === 'ProcedureNotFound') return { code: 'Neo.ClientError.Procedure.ProcedureNotFound', message: e.message };
  return { code: NEO4J_CODES[e.code] ?? 'Neo.DatabaseError.General.UnknownError', message: e.message };
}
