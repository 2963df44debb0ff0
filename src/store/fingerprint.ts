/**
 * The graph fingerprint (SPEC "Graph fingerprint"): 64-bit FNV-1a over the little-endian
 * 8-byte forms of a few non-negative integers (generation, node count, relationship count,
 * mutation sequence), folded to 53 bits so that the decimal string is also an exact
 * JavaScript number and a JSON integer any client reads without loss.
 */

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;
const MASK53 = (1n << 53n) - 1n;

/** Hashes the given integers (each in 0..2^64) and returns the 53-bit result as a decimal string. */
export function fingerprintOf(numbers: readonly number[]): string {
  let hash = FNV_OFFSET;
  for (const n of numbers) {
    let v = BigInt(Math.trunc(n)) & MASK64;
    for (let byte = 0; byte < 8; byte++) {
      hash ^= v & 0xffn;
      hash = (hash * FNV_PRIME) & MASK64;
      v >>= 8n;
    }
  }
  return ((hash & MASK53) ^ (hash >> 53n)).toString();
}
