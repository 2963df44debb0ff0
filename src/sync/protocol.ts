/**
 * The wire records of sync (SPEC "Sync records"): SyncPayload (push body, pull answer),
 * SyncAck, and the checks a received payload must pass before anything of it is applied.
 * Beyond SPEC's fields, SyncAck names the acknowledging peer (`peer_id`) and the pull answer
 * says how far the responder's feed goes (`last_seq`), so a client knows whether to ask again.
 */

import { SyncPayloadError } from './errors.js';
import { PEER_ID_PATTERN } from './statements.js';

export interface SyncPayload {
  peer_id: string;
  seq_start: number;
  /** `seq_start - 1` for an empty batch. */
  seq_end: number;
  queries: string[];
  fingerprint: number;
}

export interface SyncAck {
  acked_seq: number;
  fingerprint: number;
  peer_id: string;
}

export interface SyncPullResponse extends SyncPayload {
  last_seq: number;
}

/** Most statements one payload may carry. */
export const MAX_PAYLOAD_QUERIES = 200_000;
/** Largest push body the sync route reads. */
export const MAX_SYNC_BODY_BYTES = 64 * 1024 * 1024;

function seqField(o: Record<string, unknown>, key: string, min: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new SyncPayloadError(`"${key}" must be an integer ≥ ${min}`);
  }
  return v;
}

/** The payload's shape and sequence range (statements are checked by `parseStatement`). */
export function checkPayload(data: unknown): SyncPayload {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new SyncPayloadError('the payload must be a JSON object');
  const o = data as Record<string, unknown>;
  if (typeof o.peer_id !== 'string' || !PEER_ID_PATTERN.test(o.peer_id)) {
    throw new SyncPayloadError('"peer_id" must be a peer id (1–64 letters, digits, _ or -)');
  }
  const seqStart = seqField(o, 'seq_start', 1);
  const seqEnd = seqField(o, 'seq_end', 0);
  if (seqEnd < seqStart - 1) throw new SyncPayloadError(`the sequence goes backwards: seq_end ${seqEnd} < seq_start ${seqStart}`);
  if (!Array.isArray(o.queries)) throw new SyncPayloadError('"queries" must be a list of strings');
  if (o.queries.length > MAX_PAYLOAD_QUERIES) throw new SyncPayloadError(`"queries" holds more than ${MAX_PAYLOAD_QUERIES} statements; send smaller batches`);
  if (o.queries.length > 0 && seqEnd < seqStart) throw new SyncPayloadError('an empty sequence range cannot carry queries');
  const fingerprint = seqField(o, 'fingerprint', 0);
  return { peer_id: o.peer_id, seq_start: seqStart, seq_end: seqEnd, queries: o.queries as string[], fingerprint };
}

export function checkAck(data: unknown): SyncAck {
  const o = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof o.peer_id !== 'string' || !PEER_ID_PATTERN.test(o.peer_id)) throw new SyncPayloadError('the ack has no valid "peer_id"');
  return { acked_seq: seqField(o, 'acked_seq', 0), fingerprint: seqField(o, 'fingerprint', 0), peer_id: o.peer_id };
}

export function checkPullResponse(data: unknown): SyncPullResponse {
  const p = checkPayload(data);
  return { ...p, last_seq: seqField(data as Record<string, unknown>, 'last_seq', 0) };
}
