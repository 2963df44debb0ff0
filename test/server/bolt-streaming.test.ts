/**
 * True streaming at the Bolt door: a read on a query worker hands its rows over in pages
 * while it runs, held back while the client does not pull (docs/BOLT.md). Through the real
 * `graphdb --bolt` binary: a million rows through neo4j-driver with the server's resident
 * memory sampled all along, beside the growth the same result causes when it is built whole
 * (inside an explicit transaction, which does not stream); a client that pulls a few rows
 * and stops holds the query back; DISCARD and RESET stop the producer, so the only worker
 * serves the next read at once. Assumes `npm run build`.
 */

import { readFileSync } from 'node:fs';
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackValue } from '../../src/server/bolt/packstream.js';
import { IGNORED, map, message, rawLoggedIn, RECORD, SUCCESS } from './bolt-raw.js';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

const KEY = 'stream-key';
const MILLION = "UNWIND range(1, 1000000) AS i RETURN i, 'row ' + toString(i) + ' of a million streamed rows' AS text";
/** Rows without end, cheaply made: only a stream can serve its start. */
const ENDLESS = 'UNWIND range(1, 1000000) AS a UNWIND range(1, 1000000) AS i RETURN i';
let servers: SpawnedServers;
let driver: Driver;

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1', '--query-timeout', '300000']);
  driver = neo4j.driver(`bolt://127.0.0.1:${servers.ports.bolt}`, neo4j.auth.basic('u', KEY));
}, 30_000);

afterAll(async () => {
  await driver?.close();
  await servers?.stop();
});

/** The server process's resident set in bytes. */
function rss(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${servers.child.pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

/** Runs `work` while sampling the server's RSS every 20 ms; answers the peak's growth over the RSS before. */
async function peakGrowth(work: () => Promise<void>): Promise<number> {
  const before = rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rss()) - before;
}

/** Counts the rows of `query` through a session (or a transaction) without keeping them. */
async function countRows(query: string, inTransaction: boolean): Promise<{ n: number; last: number }> {
  const session = driver.session({ fetchSize: 1000 });
  try {
    const tx = inTransaction ? await session.beginTransaction() : undefined;
    const result = (tx ?? session).run(query);
    let n = 0;
    let last = 0;
    for await (const record of result) {
      n++;
      last = record.get('i').toNumber();
    }
    await tx?.commit();
    return { n, last };
  } finally {
    await session.close();
  }
}

describe('streaming', () => {
  it('a million rows stream with bounded server memory, far below the whole result', async () => {
    let streamed = { n: 0, last: 0 };
    const streamedGrowth = await peakGrowth(async () => {
      streamed = await countRows(MILLION, false);
    });
    expect(streamed).toEqual({ n: 1_000_000, last: 1_000_000 });
    let whole = { n: 0, last: 0 };
    const wholeGrowth = await peakGrowth(async () => {
      whole = await countRows(MILLION, true);
    });
    expect(whole.n).toBe(1_000_000);
    console.log(`server RSS growth: streamed ${(streamedGrowth / 2 ** 20).toFixed(1)} MiB, built whole ${(wholeGrowth / 2 ** 20).toFixed(1)} MiB`);
    // Generous: a handful of 1000-row pages, the UNWIND's list and the heap's own slack, against a million rows of text.
    expect(streamedGrowth).toBeLessThan(96 * 2 ** 20);
    expect(streamedGrowth).toBeLessThan(wholeGrowth / 2);
  }, 240_000);

  it('a client that stops pulling holds the query back; DISCARD stops it and the only worker serves the next read', async () => {
    const c = await rawLoggedIn(servers.ports.bolt!, KEY);
    try {
      c.write(message(0x10, ENDLESS, map({}), map({})));
      expect((await c.next(20_000)).tag).toBe(SUCCESS);
      c.write(message(0x3f, map({ n: 5 })));
      for (let i = 1; i <= 5; i++) {
        const rec = await c.next();
        expect(rec.tag).toBe(RECORD);
        expect(rec.fields[0]).toEqual([i]);
      }
      const more = await c.next();
      expect(more.tag).toBe(SUCCESS);
      expect((more.fields[0] as Map<string, PackValue>).get('has_more')).toBe(true);
      // Pulled on after a pause: the rows go on where they stopped.
      await new Promise((r) => setTimeout(r, 300));
      c.write(message(0x3f, map({ n: 3000 })));
      let last = 0;
      for (let i = 0; i < 3000; i++) last = ((await c.next()).fields[0] as number[])[0];
      expect(last).toBe(3005);
      expect((await c.next()).tag).toBe(SUCCESS);
      c.write(message(0x2f, map({ n: -1 })));
      const done = await c.next();
      expect(done.tag).toBe(SUCCESS);
      expect((done.fields[0] as Map<string, PackValue>).get('has_more')).toBeUndefined();
      // The one worker is free again: a read never run before (so not run inline) answers at once.
      const t0 = Date.now();
      c.write(message(0x10, 'RETURN 7 AS after_discard', map({}), map({})));
      c.write(message(0x3f, map({ n: -1 })));
      expect((await c.next(5000)).tag).toBe(SUCCESS);
      expect((await c.next(5000)).fields[0]).toEqual([7]);
      expect((await c.next(5000)).tag).toBe(SUCCESS);
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      c.close();
    }
  }, 60_000);

  it('RESET during a streamed result stops the producer; the session and the worker serve again', async () => {
    const c = await rawLoggedIn(servers.ports.bolt!, KEY);
    try {
      c.write(message(0x10, ENDLESS, map({}), map({})));
      expect((await c.next(20_000)).tag).toBe(SUCCESS);
      c.write(message(0x3f, map({ n: 2 })));
      expect((await c.next()).tag).toBe(RECORD);
      expect((await c.next()).tag).toBe(RECORD);
      expect((await c.next()).tag).toBe(SUCCESS);
      c.write(message(0x0f));
      expect((await c.next()).tag).toBe(SUCCESS);
      c.write(message(0x10, 'RETURN 8 AS after_reset', map({}), map({})));
      c.write(message(0x3f, map({ n: -1 })));
      const answer = await c.next(5000);
      expect([SUCCESS, IGNORED]).toContain(answer.tag);
      expect(answer.tag).toBe(SUCCESS);
      expect((await c.next(5000)).fields[0]).toEqual([8]);
    } finally {
      c.close();
    }
    // A connection that goes away mid-stream frees the worker too.
    const gone = await rawLoggedIn(servers.ports.bolt!, KEY);
    gone.write(message(0x10, ENDLESS, map({}), map({})));
    gone.write(message(0x3f, map({ n: 10 })));
    expect((await gone.next(20_000)).tag).toBe(SUCCESS);
    gone.close();
    const t0 = Date.now();
    const { records } = await driver.executeQuery('RETURN 9 AS after_close');
    expect(records[0].get('after_close').toNumber()).toBe(9);
    expect(Date.now() - t0).toBeLessThan(3000);
  }, 60_000);
});
