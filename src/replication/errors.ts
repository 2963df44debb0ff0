/**
 * Errors of replication, in the engine's typed-error family so every door reports them with
 * a stable code: a write sent to a replica (`READ_ONLY`), and a replication exchange or
 * role change that failed (`REPLICATION_ERR`), including a synchronous write whose replica
 * acknowledgements did not arrive in time.
 */

import { GraphDbError } from '../errors.js';

/**
 * A write (query, schema change) reached an instance that accepts none: a read replica, which
 * only applies its primary's changes, or a fenced primary, superseded by a newer term. Both
 * are the one code READ_ONLY on every door (HTTP 409, PostgreSQL SQLSTATE 25006); the
 * detail tells them apart.
 */
export class ReadOnlyError extends GraphDbError {
  readonly code = 'READ_ONLY';
  readonly kind = 'SemanticError';
  private constructor(message: string, detail: 'ReadOnlyReplica' | 'FencedPrimary') {
    super(message, detail, 'runtime');
  }

  static replica(primary: string | undefined): ReadOnlyError {
    return new ReadOnlyError(
      `This instance is a read replica${primary ? ` of ${primary}` : ''}: it accepts no writes. ` +
        'Send writes to the primary, or promote this replica with CALL graphdb.replication.promote()',
      'ReadOnlyReplica',
    );
  }

  static fenced(term: number, newPrimary: string | undefined): ReadOnlyError {
    return new ReadOnlyError(
      `This instance was a primary, but replication term ${term} has begun${newPrimary ? ` with the primary ${newPrimary}` : ' elsewhere'}: it is fenced and accepts no writes. ` +
        `Send writes to the new primary; CALL graphdb.replication.demote('<new primary URL>') makes this instance follow it (its writes the new primary lacks are discarded)`,
      'FencedPrimary',
    );
  }
}

export class ReplicationError extends GraphDbError {
  readonly code = 'REPLICATION_ERR';
  readonly kind = 'StorageError';
  constructor(message: string, detail = 'ReplicationFailed') {
    super(message, detail, 'runtime');
  }
}
