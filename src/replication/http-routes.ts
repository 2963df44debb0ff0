/**
 * The replication routes on the HTTP server, registered on every server whose database has
 * a replication manager (whatever its role: a replica answers that it is not a primary, and
 * serves streams once promoted). `GET /api/replication/stream?name=&from=&fingerprint=&epoch=`
 * streams newline-delimited JSON (protocol.ts) until the replica or the primary goes away;
 * `POST /api/replication/ack` records a replica's acknowledgement; `POST /api/replication/fence`
 * tells a primary of a newer replication term (it is then fenced). All need the
 * replication secret (header `X-Replication-Secret`, or the Bearer key), compared in
 * constant time; with --api-key on the server the Bearer check covers them as well. An
 * instance without a secret serves them only to callers that may administer it
 * (src/server/authorization.ts: on this machine, not a web page), or with
 * --replication-insecure to any caller that is not a web page; so a refused fence is never kept.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../engine/database.js';
import { GraphDbError } from '../errors.js';
import { hostForUrl } from '../server/running.js';
import type { HttpAuthorization } from '../server/http/auth.js';
import { mayAdminister } from '../server/authorization.js';
import { secretMatcher } from '../server/secret-compare.js';
import { errorBody, toErrorBody } from '../server/wire-format.js';
import { ReplicationError } from './errors.js';
import { checkPrimaryUrl, ReplicationManager } from './manager.js';

/** A replica's Bolt address as it gives it (host or [IPv6]:port). */
const BOLT_ADDRESS = /^(\[[0-9A-Fa-f:.]{2,60}\]|[A-Za-z0-9.-]{1,253}):\d{1,5}$/;
import { ACK_PATH, decodeAck, decodeFenceNotice, FENCE_PATH, REPLICA_NAME_PATTERN, SECRET_HEADER, STREAM_PATH, SUCCESSOR_HEADER, TERM_HEADER } from './protocol.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function statusFor(err: unknown): number {
  if (err instanceof ReplicationError) {
    if (err.detail === 'NotPrimary' || err.detail === 'TermNotNewer') return 409;
    if (err.detail === 'NotRegistered') return 403;
    return 400;
  }
  return err instanceof GraphDbError ? 400 : 500;
}

function fail(reply: FastifyReply, err: unknown): FastifyReply {
  return reply.code(statusFor(err)).type(JSON_TYPE).send(toErrorBody(err));
}

/** The secret from either header. */
function givenSecret(request: FastifyRequest): string | undefined {
  const header = request.headers[SECRET_HEADER];
  if (typeof header === 'string') return header;
  const bearer = /^Bearer[ \t]+(.*)$/i.exec(request.headers.authorization?.trim() ?? '');
  return bearer?.[1];
}

export function registerReplicationRoutes(app: FastifyInstance, db: Database, auth: HttpAuthorization): void {
  const manager = db.replication;
  if (!(manager instanceof ReplicationManager)) return;
  const matches = manager.secret === undefined ? undefined : secretMatcher(manager.secret);
  const authorised = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (matches === undefined) {
      // No secret: the stream (the whole graph) and fencing are administration under the shared
      // rule; --replication-insecure widens it to replicas on other machines, never to web pages.
      const caller = auth.caller(request);
      if (mayAdminister(caller) || (manager.insecure && caller.page === 'none')) return true;
      void reply
        .code(403)
        .type(JSON_TYPE)
        .send(
          errorBody(
            'FORBIDDEN',
            caller.page === 'none'
              ? 'This instance has no replication secret, so it serves replication to this machine only: start it with --replication-secret <secret> (or --replication-insecure)'
              : 'Replication is not served to web pages',
          ),
        );
      return false;
    }
    const given = givenSecret(request);
    if (given !== undefined && matches(given)) return true;
    void reply.code(401).type(JSON_TYPE).send(errorBody('UNAUTHORIZED', 'Replication needs the replication secret: send "X-Replication-Secret: <secret>"'));
    return false;
  };

  app.get(STREAM_PATH, async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    const q = request.query as Record<string, string | string[] | undefined>;
    const { name, from, fingerprint, term, bolt, epoch } = q;
    if (typeof name !== 'string' || !REPLICA_NAME_PATTERN.test(name)) {
      return fail(reply, new ReplicationError('give name=<replica name> (1–64 letters, digits, _ . or -)', 'BadStreamRequest'));
    }
    if (typeof from !== 'string' || !/^\d{1,15}$/.test(from) || typeof fingerprint !== 'string' || fingerprint.length > 200) {
      return fail(reply, new ReplicationError('give from=<mutation sequence> and fingerprint=<the replica\'s fingerprint>', 'BadStreamRequest'));
    }
    // A replica that has seen a newer term proves this primary was superseded: it is fenced.
    if (typeof term === 'string' && /^\d{1,15}$/.test(term)) manager.fence(Number(term), undefined);
    if (manager.role !== 'primary') {
      // The term (and a fenced primary's successor) let the replica follow on without an operator.
      void reply.header(TERM_HEADER, String(manager.term));
      if (manager.role === 'fenced' && manager.primaryUrl) void reply.header(SUCCESSOR_HEADER, manager.primaryUrl);
      return fail(reply, manager.notPrimary());
    }
    if (!manager.registered.admits(name)) return fail(reply, new ReplicationError(`The replica ${name} is not registered on this primary`, 'NotRegistered'));
    if (typeof bolt === 'string' && BOLT_ADDRESS.test(bolt)) manager.noteReplicaBolt(name, bolt);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    const socket = request.raw.socket;
    socket.setNoDelay(true);
    socket.setTimeout(0);
    const address = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`;
    try {
      // The epoch the replica claims its content follows; anything else claims none (a snapshot unless it stands at this primary's start).
      const claimed = typeof epoch === 'string' && /^[0-9A-Za-z-]{1,64}$/.test(epoch) ? epoch : undefined;
      manager.openStream(name, address, Number(from), fingerprint, claimed, {
        write: (line) => !res.destroyed && res.write(line),
        bufferedBytes: () => res.writableLength,
        end: (graceful) => (graceful ? res.end() : res.destroy()),
        onClose: (fn) => res.on('close', fn),
      });
    } catch (err) {
      res.end(JSON.stringify({ t: 'error', ...toErrorBody(err) }) + '\n');
    }
    return reply;
  });

  app.post(ACK_PATH, async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    const raw = request.body;
    try {
      const ack = decodeAck(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw ?? ''));
      manager.acknowledge(ack.name, ack.epoch, ack.n, ack.seq);
      return reply.code(204).send();
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.post(FENCE_PATH, async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    const raw = request.body;
    try {
      const notice = decodeFenceNotice(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw ?? ''));
      if (notice.primary !== undefined) checkPrimaryUrl(notice.primary);
      const before = manager.role;
      if (notice.term <= manager.term) {
        return fail(reply, new ReplicationError(`Replication term ${notice.term} is not newer than this instance's term ${manager.term} (it is ${before})`, 'TermNotNewer'));
      }
      const fenced = manager.fence(notice.term, notice.primary);
      return reply.code(200).type(JSON_TYPE).send({ fenced, previous_role: before, role: manager.role, term: manager.term });
    } catch (err) {
      return fail(reply, err);
    }
  });

  // Without --replication-advertise-url, the bound address names this instance to an old primary it fences (not a wildcard).
  app.addHook('onListen', async () => {
    const a = app.server.address();
    if (manager.advertiseUrl !== undefined || a === null || typeof a === 'string' || a.address === '0.0.0.0' || a.address === '::') return;
    manager.advertiseUrl = `http://${hostForUrl(a.address)}:${a.port}`;
  });

  // Open streams would hold the server's close until its drain period ends.
  app.addHook('preClose', async () => manager.closeStreams('the primary is shutting down'));
}
