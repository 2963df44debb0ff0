/**
 * The sync fingerprint (SPEC "Graph fingerprint", "Equal fingerprints mean identical
 * content"): each live element's content — global id, labels, type and endpoints, properties,
 * in a canonical order — hashes to 64 bits, and the fingerprint is the sum of those hashes
 * modulo 2^64, folded to 53 bits so that it is an exact JSON integer. A sum is independent of
 * the order elements were written in and is kept up to date element by element
 * (`ContentHash.update`), so two peers with the same content agree whatever path they took.
 */

import type { Value } from '../../runtime/values.js';
import { encodeValue } from '../store/persist/value-codec.js';

const MASK64 = (1n << 64n) - 1n;
const MASK53 = (1n << 53n) - 1n;

/** What an element holds, as the fingerprint and the exports compare it. */
export interface ElementContent {
  kind: 'node' | 'rel';
  gid: string;
  labels: readonly string[];
  type: string;
  start: string;
  end: string;
  props: ReadonlyMap<string, Value>;
}

/** The canonical text of an element: sorted labels and keys, tagged values. */
export function canonicalContent(c: ElementContent): string {
  const props = [...c.props.entries()].filter(([, v]) => v !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const encoded = props.map(([k, v]) => [k, encodeValue(v)]);
  return c.kind === 'node'
    ? JSON.stringify(['N', c.gid, [...c.labels].sort(), encoded])
    : JSON.stringify(['R', c.gid, c.type, c.start, c.end, encoded]);
}

/** 64-bit hash of a string: two independent 32-bit multiply-xorshift lanes. */
export function hash64(text: string): bigint {
  let h1 = 0x9e3779b9 ^ text.length;
  let h2 = 0x85ebca6b ^ Math.imul(text.length, 0xc2b2ae35);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x5bd1e995);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x27d4eb2f);
    h2 ^= h2 >>> 13;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ h2;
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35) ^ h1;
  h1 ^= h1 >>> 16;
  h2 ^= h2 >>> 16;
  return (BigInt(h1 >>> 0) << 32n) | BigInt(h2 >>> 0);
}

/** The running order-independent sum over live elements. */
export class ContentHash {
  private sum = 0n;
  private readonly byElement = new Map<string, bigint>();

  /** Records the element's current content (`undefined`: not live). */
  update(gid: string, content: ElementContent | undefined): void {
    const before = this.byElement.get(gid) ?? 0n;
    const after = content === undefined ? 0n : hash64(canonicalContent(content));
    if (after === 0n) this.byElement.delete(gid);
    else this.byElement.set(gid, after);
    this.sum = (this.sum - before + after) & MASK64;
  }

  /** The fingerprint as SPEC's integer (below 2^53). */
  value(): number {
    return Number((this.sum & MASK53) ^ (this.sum >> 53n));
  }
}
