/**
 * Sync statements: the `queries` a SyncPayload carries (SPEC "Sync records"). Each is one
 * canonical, idempotent change addressed by global element id, derived from committed change
 * records (never from the user's query text), in one of six forms:
 *
 *   CREATE NODE {"gid","hlc","labels":[…],"props":[[key,value]…]}
 *   CREATE REL  {"gid","hlc","type","start","end","props":[[key,value]…]}
 *   MERGE NODE  {"gid","hlc","set":[[key,value|null]…],"add":[label…],"remove":[label…]}
 *   MERGE REL   {"gid","hlc","set":[[key,value|null]…]}
 *   DELETE NODE {"gid","hlc"}
 *   DELETE REL  {"gid","hlc"}
 *
 * CREATE brings new data, MERGE updates the element with that global id, DELETE removes it;
 * values use the store's tagged JSON value encoding. The global id is not something the
 * query language can name (it lives in the sync state, not on the graph's elements), so
 * these statements are replayed by `state.ts`, not by the query compiler. `parseStatement`
 * is strict: anything else is a `SyncPayloadError` before anything is applied.
 */

import type { Value } from '../../runtime/values.js';
import { decodeValue, encodeValue } from '../store/persist/value-codec.js';
import { isJsonObject, type Json, type JsonObject } from '../store/persist/json.js';
import { parseHlc } from './hlc.js';
import { SyncPayloadError } from './errors.js';

export type ElementKind = 'node' | 'rel';

export interface CreateOp {
  verb: 'CREATE';
  kind: ElementKind;
  gid: string;
  hlc: string;
  labels: string[];
  /** Relationships only. */
  type: string;
  start: string;
  end: string;
  props: [string, Value][];
}

export interface MergeOp {
  verb: 'MERGE';
  kind: ElementKind;
  gid: string;
  hlc: string;
  /** A `null` value removes the key. */
  set: [string, Value][];
  add: string[];
  remove: string[];
}

export interface DeleteOp {
  verb: 'DELETE';
  kind: ElementKind;
  gid: string;
  hlc: string;
}

export type SyncOp = CreateOp | MergeOp | DeleteOp;

/** Peer ids and the global ids minted from them: short, printable, no separators of the text forms. */
export const PEER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const GID_PATTERN = /^[A-Za-z0-9_-]{1,64}:\d{1,15}$/;

function encodePairs(pairs: readonly [string, Value][]): Json[] {
  return pairs.map(([k, v]) => [k, encodeValue(v)]);
}

export function formatStatement(op: SyncOp): string {
  const head = `${op.verb} ${op.kind === 'node' ? 'NODE' : 'REL'} `;
  switch (op.verb) {
    case 'CREATE':
      return (
        head +
        JSON.stringify(
          op.kind === 'node'
            ? { gid: op.gid, hlc: op.hlc, labels: op.labels, props: encodePairs(op.props) }
            : { gid: op.gid, hlc: op.hlc, type: op.type, start: op.start, end: op.end, props: encodePairs(op.props) },
        )
      );
    case 'MERGE': {
      const body: JsonObject = { gid: op.gid, hlc: op.hlc, set: encodePairs(op.set) };
      if (op.kind === 'node') {
        body.add = op.add;
        body.remove = op.remove;
      }
      return head + JSON.stringify(body);
    }
    case 'DELETE':
      return head + JSON.stringify({ gid: op.gid, hlc: op.hlc });
  }
}

const HEAD = /^(CREATE|MERGE|DELETE) (NODE|REL) /;
/** Longest statement accepted (a create with many large properties). */
export const MAX_STATEMENT_CHARS = 1_000_000;

function bad(index: number, why: string): SyncPayloadError {
  return new SyncPayloadError(`queries[${index}]: ${why}`);
}

function str(o: JsonObject, key: string, index: number): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > 10_000) throw bad(index, `field "${key}" must be a non-empty string`);
  return v;
}

function gidField(o: JsonObject, key: string, index: number): string {
  const v = str(o, key, index);
  if (!GID_PATTERN.test(v)) throw bad(index, `field "${key}" is not a global element id (<peer>:<number>)`);
  return v;
}

function names(o: JsonObject, key: string, index: number): string[] {
  const v = o[key];
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string' && x.length > 0)) {
    throw bad(index, `field "${key}" must be a list of non-empty strings`);
  }
  return v;
}

function pairs(o: JsonObject, key: string, index: number, allowNull: boolean): [string, Value][] {
  const v = o[key];
  if (!Array.isArray(v)) throw bad(index, `field "${key}" must be a list of [key, value] pairs`);
  const seen = new Set<string>();
  return v.map((p) => {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || p[0].length === 0) {
      throw bad(index, `field "${key}" must be a list of [key, value] pairs`);
    }
    if (seen.has(p[0])) throw bad(index, `field "${key}" names the key ${JSON.stringify(p[0])} twice`);
    seen.add(p[0]);
    let value: Value;
    try {
      value = decodeValue(p[1]);
    } catch (err) {
      throw bad(index, `value of ${JSON.stringify(p[0])} cannot be decoded: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (value === null && !allowNull) throw bad(index, `a created element cannot carry a null property (${JSON.stringify(p[0])})`);
    return [p[0], value];
  });
}

/** Reads one statement; throws `SyncPayloadError` naming what is wrong. */
export function parseStatement(text: unknown, index: number): SyncOp {
  if (typeof text !== 'string') throw bad(index, 'must be a string');
  if (text.length > MAX_STATEMENT_CHARS) throw bad(index, `is longer than ${MAX_STATEMENT_CHARS} characters`);
  const m = HEAD.exec(text);
  if (!m) throw bad(index, 'must start with CREATE, MERGE or DELETE followed by NODE or REL');
  let body: Json;
  try {
    body = JSON.parse(text.slice(m[0].length)) as Json;
  } catch {
    throw bad(index, 'the statement body is not valid JSON');
  }
  if (!isJsonObject(body)) throw bad(index, 'the statement body must be a JSON object');
  const verb = m[1] as SyncOp['verb'];
  const kind: ElementKind = m[2] === 'NODE' ? 'node' : 'rel';
  const gid = gidField(body, 'gid', index);
  const hlc = str(body, 'hlc', index);
  const parts = parseHlc(hlc);
  if (!parts || !PEER_ID_PATTERN.test(parts.peer)) throw bad(index, 'field "hlc" is not a clock stamp');
  switch (verb) {
    case 'CREATE':
      return kind === 'node'
        ? { verb, kind, gid, hlc, labels: names(body, 'labels', index), type: '', start: '', end: '', props: pairs(body, 'props', index, false) }
        : {
            verb,
            kind,
            gid,
            hlc,
            labels: [],
            type: str(body, 'type', index),
            start: gidField(body, 'start', index),
            end: gidField(body, 'end', index),
            props: pairs(body, 'props', index, false),
          };
    case 'MERGE':
      return {
        verb,
        kind,
        gid,
        hlc,
        set: pairs(body, 'set', index, true),
        add: kind === 'node' ? names(body, 'add', index) : [],
        remove: kind === 'node' ? names(body, 'remove', index) : [],
      };
    case 'DELETE':
      return { verb, kind, gid, hlc };
  }
}
