/**
 * The conflict check of a write transaction when it takes the writer slot
 * (docs/TRANSACTIONS.md, "Serializable writes"): what it read before, on its snapshot, must
 * still hold. When nothing has committed since its snapshot that is certain. Otherwise, instead
 * of failing at once, its earlier reads are run again on the graph as it now is (the slot held,
 * so nothing else can change it) and their results compared with what the client was given:
 * all equal, the client cannot tell the transaction from one that ran entirely now, so it goes
 * on (serializable, no lost update, no write skew); any difference, or a read too large to keep
 * or too slow to run again within VALIDATE_MS on the main thread, is a conflict, as before.
 * Disjoint writers (each its own counter) then no longer fail each other.
 */

import type { QueryResult } from './types.js';
import type { QueryOptions, QueryParams } from './types.js';
import { decodeParams, encodeParams, encodeRecords } from './workers/value-transfer.js';

/** Result cells a transaction may keep for the check, all its reads together; beyond, it falls back to "any commit conflicts". */
export const MAX_VALIDATED_CELLS = 10_000;
/** Reads a transaction may keep for the check. */
export const MAX_VALIDATED_READS = 100;
/** Main-thread time the reads may take to run again at the slot; beyond, a conflict. */
export const VALIDATE_MS = 20;

/** One read made before the writer slot: what to run again, and the fingerprint of what it answered. */
export interface KeptRead {
  query: string;
  params: QueryParams | undefined;
  allow: QueryOptions['allow'];
  fingerprint: string;
}

/** The reads a transaction keeps, or 'unchecked' once they are too many or too large (then any commit since its snapshot conflicts). */
export type KeptReads = { reads: KeptRead[]; cells: number } | 'unchecked';

/** `kept` with one more read (or 'unchecked' past the bounds). */
export function keepRead(kept: KeptReads, query: string, params: QueryParams | undefined, allow: QueryOptions['allow'], result: QueryResult): KeptReads {
  if (kept === 'unchecked') return kept;
  const cells = kept.cells + result.records.length * Math.max(1, result.columns.length);
  if (cells > MAX_VALIDATED_CELLS || kept.reads.length >= MAX_VALIDATED_READS) return 'unchecked';
  let copy: QueryParams | undefined;
  try {
    // A copy: the caller may change its parameter object afterwards, and the rerun must ask what was asked.
    copy = params === undefined ? undefined : copyParams(params);
  } catch {
    return 'unchecked';
  }
  kept.reads.push({ query, params: copy, allow, fingerprint: resultFingerprint(result) });
  kept.cells = cells;
  return kept;
}

function copyParams(params: QueryParams): QueryParams {
  const encoded = encodeParams(params);
  return decodeParams(encoded.plain ? { plain: true, value: structuredClone(encoded.value) } : encoded) as QueryParams;
}

/**
 * Whether every kept read answers the same now: `runNow` runs a read on the live graph within
 * its time limit (any error, a timeout included, counts as a difference).
 */
export function readsStillHold(kept: KeptReads, runNow: (read: KeptRead, timeoutMs: number) => QueryResult): boolean {
  if (kept === 'unchecked') return false;
  const deadline = performance.now() + VALIDATE_MS;
  for (const read of kept.reads) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    try {
      if (resultFingerprint(runNow(read, Math.max(1, Math.ceil(left)))) !== read.fingerprint) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A string equal for two results only when their columns and values are (type included: 1 and
 * 1.0, '1' and 1 differ; entities by id, labels or type, ends and properties). Built on the
 * query workers' transfer encoding, which reduces every value to plain data and tags.
 */
export function resultFingerprint(result: QueryResult): string {
  const out: string[] = [];
  canonical(result.columns, out);
  canonical(encodeRecords(result.records), out);
  return out.join('');
}

function canonical(v: unknown, out: string[]): void {
  if (v === null || v === undefined) {
    out.push('z');
    return;
  }
  switch (typeof v) {
    case 'number':
      out.push(Object.is(v, -0) ? 'n-0;' : `n${v};`);
      return;
    case 'bigint':
      out.push(`b${v};`);
      return;
    case 'string':
      out.push(`s${v.length}:`, v);
      return;
    case 'boolean':
      out.push(v ? 'T' : 'F');
      return;
    case 'object':
      break;
    default:
      out.push(`?${typeof v};`);
      return;
  }
  if (Array.isArray(v)) {
    out.push(`[${v.length};`);
    for (const item of v) canonical(item, out);
    return;
  }
  if (v instanceof Map) {
    out.push(`{${v.size};`);
    for (const [k, item] of v) {
      canonical(k, out);
      canonical(item, out);
    }
    return;
  }
  if (ArrayBuffer.isView(v)) {
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    out.push(`t${v.constructor.name}${bytes.length}:`, Buffer.from(bytes).toString('base64'), ';');
    return;
  }
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push(`o${keys.length};`);
  for (const k of keys) {
    canonical(k, out);
    canonical(record[k], out);
  }
}
