/**
 * A request body read within the door's size limit, for the answers made from node's own
 * request (plain-query.ts on the main thread, worker-door.ts on a query worker): a body that
 * declares or sends more than the limit is refused once, through the caller's answer, and the
 * rest of it is drained rather than buffered. And which bodies are JSON: the one test every
 * door that routes on it (tx-routes.ts, plain-query.ts, worker-door.ts) must agree on.
 */

import type { IncomingMessage } from 'node:http';

/** Whether a Content-Type names JSON (`application/json`, `application/<x>+json`, any parameters). */
export function isJsonType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

/** The body of `req` when it stays within `limit` bytes; else `refuse()` answers (413) and the result is undefined. */
export function bodyWithin(req: IncomingMessage, limit: number, refuse: () => void): Promise<Buffer | undefined> {
  const tooLarge = (): undefined => {
    refuse();
    req.resume();
    return undefined;
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > limit ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}
