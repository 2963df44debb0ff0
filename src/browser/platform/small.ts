/**
 * The rest of Node's built-ins the engine imports, in the browser build: `node:vm`,
 * `node:v8`, `node:child_process`, `node:readline`, `node:zlib`, `node:crypto`. What a page
 * can do is done (random UUIDs and bytes through Web Crypto); the rest is a typed refusal.
 */
import { BrowserUnsupportedError } from '../../errors.js';

/** Made at module load by runtime/bounded-run.ts; only running it is refused (the browser build never does: worker-threads.ts). */
export class Script {
  runInThisContext(): never {
    throw new BrowserUnsupportedError('Time-boxed evaluation (node:vm)');
  }
  runInContext(): never {
    return this.runInThisContext();
  }
}

/** V8 flags cannot be set from a page; the engine falls back to its backtracking regex path. */
export function setFlagsFromString(_flags: string): void {}

export function spawnSync(): never {
  throw new BrowserUnsupportedError('Starting processes');
}
export const spawn = spawnSync;
export const execFileSync = spawnSync;

export function createInterface(): never {
  throw new BrowserUnsupportedError('Reading files line by line');
}

export const randomUUID = (): string => globalThis.crypto.randomUUID();

export function randomBytes(n: number): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(n)));
}

export function createHash(algorithm: string): never {
  throw new BrowserUnsupportedError(`Hashing with ${algorithm} (node:crypto)`);
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

// node:zlib: no `crc32` export, so src/store/persist/crc32.ts takes its portable path.
export function gzipSync(): never {
  throw new BrowserUnsupportedError('Compression (node:zlib)');
}
export const gunzipSync = gzipSync;
/** Absent on purpose: src/store/persist/crc32.ts then uses its portable implementation. */
export const crc32: undefined = undefined;
