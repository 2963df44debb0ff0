/**
 * SCRAM-SHA-256 password authentication for the PG door (RFC 5802 and 7677, as PostgreSQL
 * speaks it: SASL messages inside 'R' and 'p' frames, no channel binding since the door offers
 * no TLS). The server keeps a verifier (salt, iteration count, StoredKey, ServerKey) made once
 * from the password, so the password itself never crosses the wire: a listener learns nothing
 * it could replay, and the client can check that the server knew the password too.
 */

import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { PgError, PgProtocolError, SqlState } from './errors.js';

export const SCRAM_MECHANISM = 'SCRAM-SHA-256';
const ITERATIONS = 4096;

export interface ScramVerifier {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

/** The verifier of `password` (made once per server: PBKDF2 is deliberately slow). */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): ScramVerifier {
  const salted = pbkdf2Sync(Buffer.from(password.normalize('NFKC'), 'utf8'), salt, iterations, 32, 'sha256');
  return { salt, iterations, storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') };
}

/** `a=1,b=2` as a map of single-letter attributes; a repeated or malformed one is a protocol error. */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(',')) {
    const m = /^([A-Za-z])=(.*)$/s.exec(part);
    if (!m || out.has(m[1])) throw new PgProtocolError('malformed SCRAM message');
    out.set(m[1], m[2]);
  }
  return out;
}

function failed(user: string): PgError {
  return new PgError(SqlState.invalidPassword, `password authentication failed for user "${user}"`, 'FATAL');
}

/** One connection's exchange: `first` answers the client-first message, `final` checks the proof. */
export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private gs2Header = '';
  private nonce = '';

  constructor(
    private readonly verifier: ScramVerifier,
    private readonly user: string,
  ) {}

  /** The body of a SASLInitialResponse ('p'): mechanism, length, client-first message. Returns the server-first message. */
  first(body: Buffer): string {
    const end = body.indexOf(0);
    if (end < 0 || body.length < end + 5) throw new PgProtocolError('malformed SASLInitialResponse message');
    const mechanism = body.toString('utf8', 0, end);
    if (mechanism !== SCRAM_MECHANISM) throw new PgProtocolError(`SASL mechanism ${JSON.stringify(mechanism)} is not offered; use ${SCRAM_MECHANISM}`, SqlState.invalidAuthorization);
    const length = body.readInt32BE(end + 1);
    if (length !== body.length - end - 5) throw new PgProtocolError('malformed SASLInitialResponse message');
    const message = body.toString('utf8', end + 5);
    // gs2 header: n (no channel binding) or y (the client could bind, the server does not offer it), then an empty authzid.
    const m = /^([ny]),,(.*)$/s.exec(message);
    if (!m) throw new PgProtocolError('SCRAM channel binding and authorization identities are not supported', SqlState.invalidAuthorization);
    this.gs2Header = `${m[1]},,`;
    this.clientFirstBare = m[2];
    const attrs = attributes(this.clientFirstBare);
    const clientNonce = attrs.get('r');
    if (clientNonce === undefined || clientNonce === '' || attrs.has('m') || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce)) {
      throw new PgProtocolError('malformed SCRAM client-first message');
    }
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt.toString('base64')},i=${this.verifier.iterations}`;
    return this.serverFirst;
  }

  /** The body of a SASLResponse ('p'): the client-final message. Returns the server-final message; a wrong proof is 28P01. */
  final(body: Buffer): string {
    const message = body.toString('utf8');
    const at = message.lastIndexOf(',p=');
    if (at < 0) throw new PgProtocolError('malformed SCRAM client-final message');
    const withoutProof = message.slice(0, at);
    const attrs = attributes(withoutProof);
    if (attrs.get('c') !== Buffer.from(this.gs2Header).toString('base64') || attrs.get('r') !== this.nonce) throw failed(this.user);
    const proof = Buffer.from(message.slice(at + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const signature = hmac(this.verifier.storedKey, authMessage);
    if (proof.length !== signature.length) throw failed(this.user);
    const clientKey = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) clientKey[i] = proof[i] ^ signature[i];
    if (!timingSafeEqual(sha256(clientKey), this.verifier.storedKey)) throw failed(this.user);
    return `v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`;
  }
}
