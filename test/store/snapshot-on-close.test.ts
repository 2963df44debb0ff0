/**
 * A clean close rewrites graphdb.snapshot.json only when the graph moved on since the one
 * there was written: `graphdb query` reading a large data directory must not spend seconds
 * rewriting the same snapshot. Through the real binary and real files.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

const identity = (file: string): string => {
  const s = fs.statSync(file, { bigint: true });
  return `${s.ino}:${s.mtimeNs}`;
};
const headerSeq = (file: string): number => (JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0].replace(/,$/, '}')) as { seq: number }).seq;

describe('the snapshot written at close', () => {
  it('is left alone by a process that only reads, and rewritten after a write', () => {
    const dir = tempDir('graphdb-close-snapshot-');
    const snapshot = path.join(dir, 'graphdb.snapshot.json');
    const write = runCli(['query', 'UNWIND range(1, 50) AS i CREATE (:P {i: i})', '--data-dir', dir]);
    expect(write.status, write.stderr).toBe(0);
    const first = identity(snapshot);
    const seq = headerSeq(snapshot);

    const read = runCli(['query', 'MATCH (p:P) RETURN count(p) AS n', '--data-dir', dir, '--json']);
    expect(read.status, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout).rows).toEqual([{ n: '50' }]);
    expect(identity(snapshot)).toBe(first);

    const again = runCli(['query', 'CREATE (:P {i: 51})', '--data-dir', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(identity(snapshot)).not.toBe(first);
    expect(headerSeq(snapshot)).toBeGreaterThan(seq);
    expect(fs.readFileSync(snapshot, 'utf8')).toContain('"nodeCount":51');
  });

  it('is written again when it is missing, though nothing changed', () => {
    const dir = tempDir('graphdb-close-snapshot-');
    const snapshot = path.join(dir, 'graphdb.snapshot.json');
    expect(runCli(['query', 'CREATE (:P {i: 1})', '--data-dir', dir]).status).toBe(0);
    fs.rmSync(snapshot);
    const read = runCli(['query', 'MATCH (p:P) RETURN count(p) AS n', '--data-dir', dir]);
    expect(read.status, read.stderr).toBe(0);
    expect(fs.readFileSync(snapshot, 'utf8')).toContain('"nodeCount":1');
  });
});
