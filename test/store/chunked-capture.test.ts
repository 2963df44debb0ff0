/**
 * An asynchronous checkpoint captures the graph a few chunks per turn. The capture must still
 * show one moment: a write that arrives halfway makes it finish first (`Graph.beforeWrite`),
 * so no chunk holds the write and the WAL records after the checkpoint replay cleanly.
 */

import { afterAll, describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { Graph } from '../../src/store/graph.js';
import { ChunkedCapture, metaOf } from '../../src/store/persist/record-store.js';
import { crashImage, openDb, removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

const CHUNK = 65_536;

describe('chunked checkpoint capture', () => {
  it('shows the state of its start although a write lands between two of its turns', () => {
    const g = new Graph();
    g.begin();
    const ids: number[] = [];
    for (let i = 0; i < 2 * CHUNK + 10; i++) ids.push(g.createNode(['N'], new Map<string, Value>([['v', 0]])).id);
    g.commit();
    const capture = new ChunkedCapture(g, [0, 1, 2], [], metaOf(g, 0, { indexes: [], constraints: [] }));
    let finished = false;
    g.beforeWrite = () => {
      capture.finish();
      finished = true;
      g.beforeWrite = undefined;
    };
    capture.step(0); // one chunk only
    expect(capture.done).toBe(false);
    g.begin(); // the write waits for the rest of the capture
    expect(finished).toBe(true);
    for (const id of [1, CHUNK + 1, 2 * CHUNK + 1]) g.setProperty(g.node(id)!, 'v', 1);
    g.commit();
    const { chunks } = capture.finish();
    expect(chunks.map((c) => c.firstId)).toEqual([0, CHUNK, 2 * CHUNK]);
    for (const chunk of chunks) {
      const prop = chunk.props.find((p) => p.columnKind !== 0)!;
      expect(prop.ints![1]).toBe(0);
    }
  });

  it('keeps every write across a checkpoint with writes arriving during it, restart and crash alike', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync(`UNWIND range(0, ${2 * CHUNK + 100}) AS i CREATE (:N {i: i, v: 0})`);
    db.executeSync('MATCH (n:N) SET n.v = 1');
    const pending = db.checkpoint();
    const writes: Promise<void>[] = [];
    for (let k = 0; k < 5; k++) {
      writes.push(
        new Promise((resolve) =>
          setImmediate(() => {
            db.executeSync(`MATCH (n:N) WHERE n.i IN [${k}, ${CHUNK + k}, ${2 * CHUNK + k}] SET n.v = 2`);
            resolve();
          }),
        ),
      );
    }
    await Promise.all([pending, ...writes]);
    const crashed = crashImage(dir);
    await db.close();
    for (const where of [dir, crashed]) {
      const again = await openDb(where);
      expect(again.executeSync('MATCH (n:N) RETURN n.v AS v, count(*) AS c ORDER BY v').records).toEqual([
        [1, 2 * CHUNK + 101 - 15],
        [2, 15],
      ]);
      await again.close();
    }
  });
});
