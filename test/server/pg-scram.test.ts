/**
 * The PG door's SCRAM-SHA-256 exchange (src/server/pg/scram.ts) against a client written here
 * from RFC 5802 (the real clients, psql and the `pg` driver, are in authorization.test.ts):
 * the right password passes and the server's signature checks out; a wrong one, a replayed
 * or altered nonce, and malformed messages are refused with an error, never a crash.
 */

import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PgError } from '../../src/server/pg/errors.js';
import { ScramExchange, scramVerifier } from '../../src/server/pg/scram.js';

const hmac = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();

function initial(clientFirst: string, mechanism = 'SCRAM-SHA-256'): Buffer {
  const data = Buffer.from(clientFirst);
  const len = Buffer.alloc(4);
  len.writeInt32BE(data.length);
  return Buffer.concat([Buffer.from(mechanism + '\0'), len, data]);
}

/** The client-final message for `password`, and the server signature it expects back. */
function clientFinal(password: string, clientFirstBare: string, serverFirst: string, gs2 = 'n,,'): { message: string; expected: string } {
  const attrs = new Map(serverFirst.split(',').map((p) => [p[0], p.slice(2)]));
  const salted = pbkdf2Sync(password, Buffer.from(attrs.get('s')!, 'base64'), Number(attrs.get('i')), 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  const storedKey = createHash('sha256').update(clientKey).digest();
  const withoutProof = `c=${Buffer.from(gs2).toString('base64')},r=${attrs.get('r')}`;
  const auth = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const signature = hmac(storedKey, auth);
  const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
  return { message: `${withoutProof},p=${proof.toString('base64')}`, expected: `v=${hmac(hmac(salted, 'Server Key'), auth).toString('base64')}` };
}

describe('SCRAM-SHA-256', () => {
  const verifier = scramVerifier('the-key');

  it('accepts the right password and signs the exchange', () => {
    const x = new ScramExchange(verifier, 'u');
    const serverFirst = x.first(initial('n,,n=,r=abcdefgh'));
    expect(serverFirst).toMatch(/^r=abcdefgh[A-Za-z0-9+/=]+,s=[A-Za-z0-9+/=]+,i=4096$/);
    const { message, expected } = clientFinal('the-key', 'n=,r=abcdefgh', serverFirst);
    expect(x.final(Buffer.from(message))).toBe(expected);
  });

  it('refuses a wrong password, another nonce or another binding flag with 28P01', () => {
    const x = new ScramExchange(verifier, 'u');
    const serverFirst = x.first(initial('n,,n=,r=abc'));
    expect(() => x.final(Buffer.from(clientFinal('not-the-key', 'n=,r=abc', serverFirst).message))).toThrow(PgError);
    const y = new ScramExchange(verifier, 'u');
    y.first(initial('n,,n=,r=abc'));
    // A proof made for the first exchange's nonce does not pass the second's.
    const replay = clientFinal('the-key', 'n=,r=abc', serverFirst).message;
    expect(() => y.final(Buffer.from(replay))).toThrow(/password authentication failed for user "u"/);
    const z = new ScramExchange(verifier, 'u');
    const zFirst = z.first(initial('y,,n=,r=abc'));
    expect(() => z.final(Buffer.from(clientFinal('the-key', 'n=,r=abc', zFirst, 'n,,').message))).toThrow(/password authentication failed/);
  });

  it('refuses malformed messages with a protocol error', () => {
    for (const body of [Buffer.alloc(0), Buffer.from('SCRAM-SHA-256'), initial('n,,n=,r=x', 'PLAIN'), initial('p=tls-server-end-point,,n=,r=x'), initial('n,,n=,m=ext,r=x'), initial('n,,r='), initial('n,,garbage')]) {
      expect(() => new ScramExchange(verifier, 'u').first(body)).toThrow(PgError);
    }
    const x = new ScramExchange(verifier, 'u');
    x.first(initial('n,,n=,r=abc'));
    for (const text of ['', 'c=biws', 'c=biws,r=abc,p=', 'x,y,p=zz']) expect(() => x.final(Buffer.from(text))).toThrow(PgError);
  });
});
