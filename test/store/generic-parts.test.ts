/**
 * GENERIC property blocks (lists, maps, temporal values) hold their values as JSON in parts,
 * so that a chunk of long lists never needs one string longer than V8 allows; blocks written
 * before parts, with one JSON array, still read the same.
 */

import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { Graph } from '../../src/store/graph.js';
import { BlockKind, BlockWriter, sealBlock } from '../../src/store/persist/block-format.js';
import { blockKey, captureNodeChunk, decodeChunk, decodedValues, decodeProps, encodeChunk, jsonParts } from '../../src/store/persist/graph-blocks.js';
import { encodeValue } from '../../src/store/persist/value-codec.js';
import { GENERIC } from '../../src/store/columns/property-column.js';

/** A graph of `n` nodes whose `l` property is a GENERIC value of varied shape and length. */
function graphWithLists(n: number): { graph: Graph; expected: Value[] } {
  const graph = new Graph();
  const expected: Value[] = [];
  graph.begin();
  for (let i = 0; i < n; i++) {
    const value: Value = [i, 'x'.repeat(i % 13), [i % 2 === 0, null], new Map<string, Value>([['k', i]])];
    expected.push(value);
    graph.createNode(['A'], new Map<string, Value>([['l', value]]));
  }
  graph.commit();
  return { graph, expected };
}

/** The `l` values a node chunk's blocks read back as. */
function readBack(blocks: Map<string, Uint8Array | null>, idLimit: number): Value[] {
  const chunk = decodeChunk('node', blocks.get(blockKey.nodes(0))!, 0, idLimit);
  const propsKey = [...blocks.keys()].find((k) => k !== blockKey.nodes(0))!;
  const props = decodeProps('node', blocks.get(propsKey)!, chunk);
  return [...decodedValues(props)].map(([, v]) => v);
}

describe('GENERIC property blocks in parts', () => {
  it('splits values into JSON arrays of about the given size, which together hold every value in order', () => {
    const values = Array.from({ length: 50 }, (_, i) => ({ i, s: 'v'.repeat(i) }));
    const parts = jsonParts(values.keys(), (i) => values[i], 200);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts.slice(0, -1)) expect(part.length).toBeLessThan(200 + 100);
    expect(parts.flatMap((p) => JSON.parse(p) as unknown[])).toEqual(values);
    expect(jsonParts([], () => null, 200)).toEqual(['[]']);
  });

  it('reads back every value whether a chunk is written in one part or in many', () => {
    const { graph, expected } = graphWithLists(3000);
    const capture = captureNodeChunk(graph, 0);
    expect(capture.props.map((p) => p.columnKind)).toEqual([GENERIC]);
    expect(readBack(encodeChunk(capture), graph.nodes.length)).toEqual(expected);
    expect(readBack(encodeChunk(capture, 1000), graph.nodes.length)).toEqual(expected);
  });

  it('reads a block written before parts (one JSON array of values)', () => {
    const { graph, expected } = graphWithLists(500);
    const capture = captureNodeChunk(graph, 0);
    const prop = capture.props[0];
    const w = new BlockWriter();
    w.u32(GENERIC);
    w.array(prop.present);
    w.json(expected.map((v) => encodeValue(v)));
    const blocks = encodeChunk(capture);
    const propsKey = [...blocks.keys()].find((k) => k !== blockKey.nodes(0))!;
    blocks.set(propsKey, sealBlock({ kind: BlockKind.NodeProps, count: capture.count, firstId: capture.firstId }, w.finish()));
    expect(readBack(blocks, graph.nodes.length)).toEqual(expected);
  });
});
