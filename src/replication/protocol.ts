/**
 * The replication stream's wire form: newline-delimited JSON messages the primary writes on
 * `GET /api/replication/stream` and the replica reads, plus the replica's acknowledgement
 * body for `POST /api/replication/ack`. Change records travel in the durability WAL's own
 * JSON encoding (src/store/persist/record-codec.ts), so values round-trip exactly.
 *
 * A stream is: `hello`, then either a snapshot (`snapshot`, `node`…, `rel`…, `snapshotEnd`)
 * or nothing, then `batch`es in commit order, with `ping`s while idle. A batch is one
 * committed transaction: `n` numbers it in this primary's stream (acknowledgements name it),
 * `before`/`after` are the primary's mutation sequence around it — a replica applies a batch
 * only when `before` equals its own mutation sequence, which is what keeps it in order.
 * `hello` carries the primary's replication term; a primary that is fenced while streaming
 * ends every stream with `fenced` (the new term, and the new primary when it knows it).
 */

import type { LoggedChange } from '../store/persist/record-codec.js';
import { decodeChange, encodeChange } from '../store/persist/record-codec.js';
import type { Json, JsonObject } from '../store/persist/json.js';
import { isJsonObject } from '../store/persist/json.js';
import { ReplicationError } from './errors.js';

export const STREAM_PATH = '/api/replication/stream';
export const ACK_PATH = '/api/replication/ack';
/** Where a newly promoted primary tells its old primary of the new term (it is then fenced). */
export const FENCE_PATH = '/api/replication/fence';
/** Header carrying the replication secret (the Bearer header carries it too, for --api-key primaries). */
export const SECRET_HEADER = 'x-replication-secret';
/** The headers carrying the replication secret (none without one). */
export function secretHeaders(secret: string | undefined): Record<string, string> {
  return secret === undefined ? {} : { authorization: `Bearer ${secret}`, [SECRET_HEADER]: secret };
}

/** On a refused stream (409): the instance's replication term, and a fenced primary's successor. */
export const TERM_HEADER = 'x-replication-term';
export const SUCCESSOR_HEADER = 'x-replication-successor';
/** Idle streams get a ping this often, so a replica notices a silent primary. */
export const PING_MS = 2000;

export interface Batch {
  n: number;
  before: number;
  after: number;
  /** Commit time on the primary (ms since the epoch), for lag in milliseconds. */
  at: number;
  changes: readonly LoggedChange[];
}

/** The counters a snapshot sets on the replica so that its fingerprint equals the primary's. */
export interface SnapshotMeta {
  mutationSeq: number;
  generation: number;
  nextNodeId: number;
  nextRelId: number;
  nodeCount: number;
  relCount: number;
  schema: Json;
}

export type StreamMessage =
  | { t: 'hello'; epoch: string; term: number; mode: string; n: number; seq: number; fingerprint: string }
  | { t: 'fenced'; term: number; primary?: string }
  | { t: 'snapshot'; meta: SnapshotMeta }
  | { t: 'node'; e: Json }
  | { t: 'rel'; e: Json }
  | { t: 'snapshotEnd'; n: number }
  | { t: 'batch'; batch: Batch }
  | { t: 'ping'; n: number; seq: number };

export function encodeBatch(b: Batch): string {
  return JSON.stringify({ t: 'batch', n: b.n, before: b.before, after: b.after, at: b.at, changes: b.changes.map(encodeChange) });
}

export function encodeMessage(m: Exclude<StreamMessage, { t: 'batch' }>): string {
  return JSON.stringify(m);
}

function num(o: JsonObject, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ReplicationError(`The replication stream sent a message whose '${key}' is not an integer`, 'BadStream');
  return v;
}

function decodeStreamChange(c: Json): LoggedChange {
  try {
    return decodeChange(c);
  } catch (err) {
    throw new ReplicationError(`A replication batch holds an unreadable change: ${err instanceof Error ? err.message : String(err)}`, 'BadStream');
  }
}

/** `text` as JSON; not JSON is a ReplicationError saying `notJson` with `detail`. */
function parseJson(text: string, notJson: string, detail: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new ReplicationError(notJson, detail);
  }
}

/** Parses one stream line; anything malformed is a ReplicationError (the replica reconnects). */
export function decodeMessage(line: string): StreamMessage {
  const data = parseJson(line, 'The replication stream sent a line that is not JSON', 'BadStream');
  if (!isJsonObject(data)) throw new ReplicationError('The replication stream sent a message that is not an object', 'BadStream');
  switch (data.t) {
    case 'hello':
      return { t: 'hello', epoch: String(data.epoch), term: num(data, 'term'), mode: String(data.mode), n: num(data, 'n'), seq: num(data, 'seq'), fingerprint: String(data.fingerprint) };
    case 'fenced':
      return { t: 'fenced', term: num(data, 'term'), ...(typeof data.primary === 'string' ? { primary: data.primary } : {}) };
    case 'snapshot': {
      const m = data.meta;
      if (!isJsonObject(m)) throw new ReplicationError('The replication snapshot has no meta object', 'BadStream');
      return {
        t: 'snapshot',
        meta: {
          mutationSeq: num(m, 'mutationSeq'),
          generation: num(m, 'generation'),
          nextNodeId: num(m, 'nextNodeId'),
          nextRelId: num(m, 'nextRelId'),
          nodeCount: num(m, 'nodeCount'),
          relCount: num(m, 'relCount'),
          schema: m.schema ?? null,
        },
      };
    }
    case 'node':
    case 'rel':
      return { t: data.t, e: data.e ?? null };
    case 'snapshotEnd':
      return { t: 'snapshotEnd', n: num(data, 'n') };
    case 'ping':
      return { t: 'ping', n: num(data, 'n'), seq: num(data, 'seq') };
    case 'batch': {
      const changes = data.changes;
      if (!Array.isArray(changes)) throw new ReplicationError('A replication batch has no list of changes', 'BadStream');
      return {
        t: 'batch',
        batch: { n: num(data, 'n'), before: num(data, 'before'), after: num(data, 'after'), at: num(data, 'at'), changes: changes.map(decodeStreamChange) },
      };
    }
    default:
      throw new ReplicationError(`The replication stream sent an unknown message type ${JSON.stringify(data.t)}`, 'BadStream');
  }
}

/**
 * What a replica acknowledges: the last batch (stream number) it holds durably, and its
 * mutation sequence. `epoch` names the primary process's stream numbering (from `hello`):
 * an acknowledgement of an earlier primary process's numbers must not count for this one's.
 */
export interface Ack {
  name: string;
  epoch: string;
  n: number;
  seq: number;
}

export function decodeAck(text: string): Ack {
  const data = parseJson(text, 'The acknowledgement is not JSON', 'BadAck');
  if (!isJsonObject(data) || typeof data.name !== 'string' || typeof data.epoch !== 'string') throw new ReplicationError('The acknowledgement needs {"name", "epoch", "n", "seq"}', 'BadAck');
  return { name: data.name, epoch: data.epoch, n: num(data, 'n'), seq: num(data, 'seq') };
}

/** A fence notice: the new term, and the new primary's URL when it knows its own. */
export interface FenceNotice {
  term: number;
  primary?: string;
}

export function decodeFenceNotice(text: string): FenceNotice {
  const data = parseJson(text, 'The fence notice is not JSON', 'BadFenceNotice');
  if (!isJsonObject(data) || (data.primary !== undefined && typeof data.primary !== 'string')) throw new ReplicationError('The fence notice needs {"term", "primary"?}', 'BadFenceNotice');
  return { term: num(data, 'term'), ...(typeof data.primary === 'string' ? { primary: data.primary } : {}) };
}

export const REPLICA_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
