/**
 * Errors of the sync subsystem, in the engine's typed-error family so every door reports
 * them with a stable code: a payload that breaks the sync contract (`SYNC_BAD_PAYLOAD`,
 * HTTP 400, nothing applied) and a failed exchange with a peer (`SYNC_PEER_ERR`).
 */

import { GraphDbError } from '../errors.js';

export class SyncPayloadError extends GraphDbError {
  readonly code = 'SYNC_BAD_PAYLOAD';
  readonly kind = 'ArgumentError';
  constructor(message: string) {
    super(message, 'InvalidSyncPayload', 'runtime');
  }
}

export class SyncPeerError extends GraphDbError {
  readonly code = 'SYNC_PEER_ERR';
  readonly kind = 'StorageError';
  constructor(message: string) {
    super(message, 'SyncPeerUnavailable', 'runtime');
  }
}
