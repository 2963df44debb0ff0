/**
 * Property blocks of TEXT columns (mostly distinct strings) hold the strings' UTF-8 bytes and
 * a length per id: a checkpoint copies them out of the column's byte heap without making
 * strings, and a load copies them back. Every string must come back exactly (multi-byte
 * characters, empty strings), a chunk holding a string UTF-8 cannot carry (a lone surrogate)
 * goes as GENERIC and still reads back, a column that later holds other kinds mixes both
 * block kinds, and a block whose lengths do not add up is refused as damaged.
 */

import { afterAll, describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { Graph } from '../../src/store/graph.js';
import { BlockDamage, BlockKind, BlockWriter, sealBlock } from '../../src/store/persist/block-format.js';
import { blockKey, captureNodeChunk, CHUNK_IDS, decodeChunk, decodedValues, decodeProps, encodeChunk } from '../../src/store/persist/graph-blocks.js';
import { GENERIC, TEXT } from '../../src/store/columns/property-column.js';
import { openDb, removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

/** The string node `i` holds: distinct, some multi-byte (2, 3 and 4 bytes a character), some empty. */
function textOf(i: number): string {
  if (i % 101 === 0) return '';
  return i % 3 === 0 ? `message ${i}: ünïcødé ✓ 😀 ${'x'.repeat(i % 70)}` : `message ${i}`;
}

function graphWithText(n: number, odd?: number): Graph {
  const graph = new Graph();
  graph.begin();
  for (let i = 0; i < n; i++) graph.createNode(['M'], new Map<string, Value>([['body', i === odd ? `lone \uD800 surrogate ${i}` : textOf(i)]]));
  graph.commit();
  return graph;
}

/** The `body` values and column kind of chunk 0's property block, read back. */
function readBack(graph: Graph): { kind: number; values: Map<number, Value> } {
  const blocks = encodeChunk(captureNodeChunk(graph, 0));
  const chunk = decodeChunk('node', blocks.get(blockKey.nodes(0))!, 0, graph.nextNodeId);
  const key = [...blocks.keys()].find((k) => k !== blockKey.nodes(0))!;
  const props = decodeProps('node', blocks.get(key)!, chunk);
  return { kind: props.columnKind, values: new Map(decodedValues(props)) };
}

describe('TEXT property blocks', () => {
  it('a TEXT column is stored as its bytes and every string reads back exactly', () => {
    const graph = graphWithText(6000);
    expect(graph.nodeProps.column('body')?.kind).toBe(TEXT);
    const { kind, values } = readBack(graph);
    expect(kind).toBe(TEXT);
    expect(values.size).toBe(6000);
    for (let i = 0; i < 6000; i++) expect(values.get(i)).toBe(textOf(i));
  });

  it('a chunk with a string UTF-8 cannot carry goes as GENERIC, exactly', () => {
    const graph = graphWithText(6000, 4321);
    expect(graph.nodeProps.column('body')?.kind).toBe(TEXT);
    const { kind, values } = readBack(graph);
    expect(kind).toBe(GENERIC);
    expect(values.get(4321)).toBe('lone \uD800 surrogate 4321');
    expect(values.get(4322)).toBe(textOf(4322));
  });

  it('refuses a block whose lengths do not add up to its bytes', () => {
    const graph = graphWithText(6000);
    const blocks = encodeChunk(captureNodeChunk(graph, 0));
    const chunk = decodeChunk('node', blocks.get(blockKey.nodes(0))!, 0, graph.nextNodeId);
    const present = new Uint32Array(Math.ceil(chunk.count / 32));
    present[0] = 0b11;
    const lengths = new Int32Array(chunk.count);
    lengths[0] = 3;
    lengths[1] = 4;
    const w = new BlockWriter();
    w.u32(TEXT);
    w.array(present);
    w.array(lengths);
    w.bytes(new TextEncoder().encode('abcdef'));
    const bad = sealBlock({ kind: BlockKind.NodeProps, count: chunk.count, firstId: 0 }, w.finish());
    expect(() => decodeProps('node', bad, chunk)).toThrow(BlockDamage);
    expect(() => decodeProps('node', bad, chunk)).toThrow(/add up to 7 bytes, but it holds 6/);
  });

  it('a data directory keeps TEXT strings across a checkpoint and reopen, mixed kinds and a lone surrogate included', async () => {
    const dir = tempDir();
    const n = CHUNK_IDS + 5000;
    let db = await openDb(dir);
    db.executeSync(`UNWIND range(0, ${n - 1}) AS i CREATE (:M {i: i})`);
    const bodies = Array.from({ length: n }, (_, i) => textOf(i));
    db.executeSync('MATCH (m:M) SET m.body = $bodies[m.i]', { bodies });
    expect(db.graph.nodeProps.column('body')?.kind).toBe(TEXT);
    await db.checkpoint();
    // After the checkpoint, a lone surrogate in the second chunk: closing writes that chunk as GENERIC, the first stays TEXT.
    db.executeSync("MATCH (m:M {i: $i}) SET m.body = 'odd \uDC00 one'", { i: CHUNK_IDS + 7 });
    db.close();

    db = await openDb(dir);
    expect(db.graph.nodeProps.column('body')?.kind).toBe(TEXT);
    const read = (): Map<number, unknown> => new Map(db.executeSync('MATCH (m:M) RETURN m.i AS i, m.body AS body').records.map((r) => [Number(r[0]), r[1]]));
    let got = read();
    expect(got.size).toBe(n);
    for (let i = 0; i < n; i++) expect(got.get(i), `node ${i}`).toBe(i === CHUNK_IDS + 7 ? 'odd \uDC00 one' : textOf(i));
    await db.checkpoint();
    db.executeSync('MATCH (m:M {i: 5}) SET m.body = [1, 2]');
    await db.checkpoint();
    db.close();

    db = await openDb(dir);
    got = read();
    expect(got.get(5)).toEqual([1, 2]);
    expect(got.get(CHUNK_IDS + 7)).toBe('odd \uDC00 one');
    for (const i of [0, 1, 3, 101, 4096, CHUNK_IDS, CHUNK_IDS + 4999]) expect(got.get(i), `node ${i}`).toBe(textOf(i));
    db.close();
  });
});
