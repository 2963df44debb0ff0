/**
 * The sync routes on the HTTP server (SPEC "Sync routes"), registered only when the
 * database has sync switched on; the server's Bearer-key check (--api-key) covers them like
 * every other route, and both are administration (src/server/authorization.ts): a push
 * changes the graph and a pull records how far a peer got (which lets the feed be compacted),
 * so without a key only a local client that is not a web page may call them. `POST /api/sync/push` applies a SyncPayload and answers a SyncAck;
 * `GET /api/sync/pull?since=<seq>&peer_id=<id>[&scope=<JSON>]` answers the feed after `since`
 * (within the scope of a scoped peer). A payload
 * that breaks the contract (not JSON, wrong types, a gap, a backwards range, too large) gets
 * 400 with the error object, and nothing of it is applied.
 */

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpAuthorization } from '../server/http/auth.js';
import type { Database } from '../engine/database.js';
import { GraphDbError } from '../errors.js';
import { errorBody, toErrorBody } from '../server/wire-format.js';
import { SyncPayloadError } from './errors.js';
import type { ScopeFilter } from './options.js';
import { MAX_SYNC_BODY_BYTES } from './protocol.js';
import { checkScope } from './scopes.js';
import { PEER_ID_PATTERN } from './statements.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function fail(reply: FastifyReply, err: unknown): FastifyReply {
  const status = err instanceof SyncPayloadError ? 400 : err instanceof GraphDbError ? 400 : 500;
  return reply.code(status).type(JSON_TYPE).send(toErrorBody(err));
}

export function registerSyncRoutes(app: FastifyInstance, db: Database, auth: HttpAuthorization, maxBodyBytes = MAX_SYNC_BODY_BYTES): void {
  const sync = db.sync;
  if (!sync) return;
  // Checked before the body is read (onRequest): a page's text/plain POST must not reach the parser either.
  const administration = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!auth.requireAdmin(request, reply, `${request.method} ${request.url.split('?')[0]}`)) return reply;
  };
  app.post(
    '/api/sync/push',
    {
      bodyLimit: maxBodyBytes,
      onRequest: administration,
      errorHandler: (error: FastifyError, _request, reply) => {
        const tooLarge = error.statusCode === 413;
        const message = tooLarge ? `The sync payload is larger than ${maxBodyBytes} bytes; push smaller batches` : `Bad sync request: ${error.message}`;
        return reply.code(400).type(JSON_TYPE).send(errorBody('SYNC_BAD_PAYLOAD', message));
      },
    },
    async (request, reply) => {
      const raw = request.body;
      let data: unknown;
      try {
        data = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw ?? ''));
      } catch {
        return fail(reply, new SyncPayloadError('the body is not JSON'));
      }
      try {
        return reply.code(200).type(JSON_TYPE).send(JSON.stringify(sync.node.receive(data)));
      } catch (err) {
        return fail(reply, err);
      }
    },
  );
  app.get('/api/sync/pull', { onRequest: administration }, async (request, reply) => {
    const q = request.query as Record<string, string | string[] | undefined>;
    const sinceText = q.since;
    const peer = q.peer_id;
    if (typeof sinceText !== 'string' || !/^\d{1,15}$/.test(sinceText)) {
      return fail(reply, new SyncPayloadError('give since=<sequence>, a non-negative integer, once'));
    }
    if (peer !== undefined && (typeof peer !== 'string' || !PEER_ID_PATTERN.test(peer))) {
      return fail(reply, new SyncPayloadError('peer_id must be a peer id (1–64 letters, digits, _ or -)'));
    }
    try {
      let scope: ScopeFilter | undefined;
      if (q.scope !== undefined) {
        if (typeof q.scope !== 'string') throw new SyncPayloadError('give scope=<JSON {"labels": [...], "types": [...]}> once');
        let data: unknown;
        try {
          data = JSON.parse(q.scope);
        } catch {
          throw new SyncPayloadError('scope must be JSON: {"labels": [...], "types": [...]}');
        }
        scope = checkScope(data);
      }
      return reply.code(200).type(JSON_TYPE).send(JSON.stringify(sync.node.servePull(peer, Number(sinceText), scope)));
    } catch (err) {
      return fail(reply, err);
    }
  });
}

/** The start-up banner's lines for the sync routes (empty when sync is off). */
export function syncBannerLines(db: Database): string[] {
  if (!db.sync) return [];
  return [
    `  ${'POST'.padEnd(7)} ${'/api/sync/push'.padEnd(18)} apply a peer's SyncPayload (sync peer ${db.sync.peerId})`,
    `  ${'GET'.padEnd(7)} ${'/api/sync/pull'.padEnd(18)} this peer's sync feed: ?since=<seq>&peer_id=<id>[&scope=…]`,
  ];
}
