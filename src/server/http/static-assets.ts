/**
 * The console's files as HTTP representations: each file with the compressed copies that
 * scripts/build-console.mjs writes beside it (`<name>.br`, `<name>.gz`), a strong ETag per
 * representation, and the choice among them from a request's `Accept-Encoding` and
 * `If-None-Match`. A build from the repository writes the copies, so no request waits for
 * brotli; the npm package leaves them out (they would add half a megabyte that does not
 * compress), so there a file without its copies is compressed once, off the event loop, when
 * it is first loaded.
 */

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A compressed copy made when the build left none: brotli's quality 9 is within a few per cent of 11 at a fraction of its time. */
function compressNow(coding: Exclude<ContentCoding, 'identity'>, body: Buffer): Promise<Buffer> {
  return coding === 'br' ? brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : gzipAsync(body, { level: 9 });
}

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Below this a file is sent as it is when it has no compressed copy (compression would save little). */
const MIN_COMPRESS_BYTES = 1024;

/** The codings the build writes, best first, and the suffix of each one's file. */
const CODINGS: readonly { coding: Exclude<ContentCoding, 'identity'>; suffix: string }[] = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

export interface Representation {
  coding: ContentCoding;
  body: Buffer;
  etag: string;
}

/** One file and its compressed copies. */
export interface StaticAsset {
  representations: ReadonlyMap<ContentCoding, Representation>;
}

async function readIfThere(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/** Reads `name` and its compressed copies from `dir`; undefined when the file itself is missing. */
export async function loadAsset(dir: string, name: string): Promise<StaticAsset | undefined> {
  const body = await readIfThere(join(dir, name));
  if (body === undefined) return undefined;
  // The tag names the content: a rebuilt console gets new tags, so browsers revalidating see the change.
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const representations = new Map<ContentCoding, Representation>([['identity', { coding: 'identity', body, etag: `"${tag}"` }]]);
  for (const { coding, suffix } of CODINGS) {
    const compressed = (await readIfThere(join(dir, name + suffix))) ?? (body.length >= MIN_COMPRESS_BYTES ? await compressNow(coding, body) : undefined);
    // A copy no smaller than the file saves nothing; one left from an older build would not match its tag.
    if (compressed !== undefined && compressed.length < body.length) representations.set(coding, { coding, body: compressed, etag: `"${tag}-${coding}"` });
  }
  return { representations };
}

/** The weight (q) a client's `Accept-Encoding` gives each coding we have (RFC 9110 §12.5.3). */
function weights(acceptEncoding: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (token === '') continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    out.set(token.trim(), q);
  }
  return out;
}

/** The representation to send: the best coding the client accepts, else the file as it is. */
export function chooseRepresentation(asset: StaticAsset, acceptEncoding: string | undefined): Representation {
  const identity = asset.representations.get('identity')!;
  if (acceptEncoding === undefined || acceptEncoding.trim() === '') return identity;
  const accepted = weights(acceptEncoding);
  const star = accepted.get('*');
  let best: Representation | undefined;
  let bestQ = 0;
  for (const { coding } of CODINGS) {
    const rep = asset.representations.get(coding);
    if (rep === undefined) continue;
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3).
    const q = accepted.get(coding) ?? (coding === 'gzip' ? accepted.get('x-gzip') : undefined) ?? star ?? 0;
    if (q > bestQ) {
      best = rep;
      bestQ = q;
    }
  }
  return best ?? identity;
}

/** True when `ifNoneMatch` names `etag` (weak comparison, as RFC 9110 §13.1.2 asks for this header), or is `*`. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
