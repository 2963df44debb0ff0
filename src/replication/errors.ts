/**
 * Errors of replication, in the engine's typed-error family so every door reports them with
 * a stable code: a write sent to a replica (`READ_ONLY`), and a replication exchange or
 * role change that failed (`REPLICATION_ERR`), including a synchronous write whose replica
 * acknowledgements did not arrive in time.
 */

import { GraphDbError } from '../errors.js';

/** A write (query, schema change) reached a replica, which only applies its primary's changes. */
export class ReadOnlyError extends GraphDbError {
  readonly code = 'READ_ONLY';
  readonly kind = 'SemanticError';
  constructor(primary: string | undefined) {
    super(
      `This instance is a read replica${primary ? ` of ${primary}` : ''}: it accepts no writes. ` +
        'Send writes to the primary, or promote this replica with CALL graphdb.replication.promote()',
      'ReadOnlyReplica',
      'runtime',
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
