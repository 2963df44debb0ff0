/**
 * A truncated WAL that lost acknowledged records (issue 26): start-up through the real binary
 * prints only the refusal, not first a warning that it "cut a torn record … never
 * acknowledged", which contradicts it. A torn tail after the last acknowledged record is
 * still cut with that warning and the directory opens.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { crashImage, openDb, removeTempDirs, tempDir, walLayout } from './persist-helpers.js';

afterAll(removeTempDirs);

async function image(): Promise<string> {
  const dir = tempDir('graphdb-wal-message-');
  const db = await openDb(dir);
  for (let i = 0; i < 6; i++) db.executeSync(`CREATE (:N {i: ${i}})`);
  const copy = crashImage(dir);
  db.close();
  return copy;
}

describe('start-up messages for a damaged WAL (real binary)', () => {
  it('a WAL cut short of acknowledged records: only the refusal', async () => {
    const dir = await image();
    const wal = path.join(dir, 'graphdb.wal');
    fs.truncateSync(wal, walLayout(wal).end - 5);
    const run = runCli(['--data-dir', dir, 'query', 'MATCH (n) RETURN count(n)']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/acknowledged changes are damaged or missing/);
    expect(run.stderr).not.toMatch(/cut a torn record/);
    expect(run.stderr).not.toMatch(/never acknowledged/);
  });

  it('a torn tail after the last acknowledged record: cut with the warning, and the data opens', async () => {
    const dir = await image();
    fs.appendFileSync(path.join(dir, 'graphdb.wal'), Buffer.from([1, 2, 3, 4, 5, 6, 7]));
    const run = runCli(['--data-dir', dir, 'query', 'MATCH (n) RETURN count(n) AS n', '--json']);
    expect(run.stderr).toMatch(/cut a torn record at the end of .*graphdb\.wal/);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).rows).toEqual([{ n: '6' }]);
  });
});
