/**
 * The ONNX path of PageRank (`device: 'onnx'`): on the generated graph families it agrees with
 * the JavaScript kernel to 1e-6 (plain and personalised), reports the execution provider it
 * ran on, and refuses a projection over its size limit with a typed error.
 */

import { describe, expect, it } from 'vitest';
import { ResourceLimitError } from '../../src/errors.js';
import { ONNX_MAX_NODES } from '../../procedures/algo/onnx-pagerank.js';
import type { Database } from '../../src/engine/database.js';
import { toJsNumber, type FloatBox } from '../../runtime/values.js';
import { families, load } from './algo.graphs.js';

/** Scores by the `i` property of each node (a 0.0 score comes back as a FloatBox). */
function scores(db: Database, query: string): Map<number, number> {
  const rows = db.executeSync(query).records;
  return new Map(rows.map((r) => [Number(r[0]), toJsNumber(r[1] as number | FloatBox)]));
}

describe('algo.pageRank on ONNX Runtime', () => {
  for (const g of families()) {
    it(`agrees with the JavaScript kernel on ${g.name}`, () => {
      const db = load(g);
      const plain = (device: string) => `CALL algo.pageRank({maxIterations: 60, tolerance: 1e-10, device: '${device}'}) YIELD node, score RETURN node.i, score`;
      const personalised = (device: string) =>
        `MATCH (s:V {i: 0}) CALL algo.pageRank({maxIterations: 60, tolerance: 1e-10, sourceNodes: [s], device: '${device}'}) YIELD node, score RETURN node.i, score`;
      for (const query of [plain, personalised]) {
        const js = scores(db, query('js'));
        const onnx = scores(db, query('onnx'));
        expect(onnx.size).toBe(js.size);
        for (const [i, s] of js) expect(Math.abs((onnx.get(i) ?? NaN) - s)).toBeLessThan(1e-6);
      }
      db.close();
    });
  }

  it('reports the execution provider it used', () => {
    const g = families()[0];
    const db = load(g);
    const summary = db.executeSync("CALL algo.pageRank.stats({device: 'onnx'}) YIELD summary RETURN summary.device AS device").records;
    expect(summary[0][0]).toBe('onnx:cpu');
    const js = db.executeSync('CALL algo.pageRank.stats({}) YIELD summary RETURN summary.device AS device').records;
    expect(js[0][0]).toBe('js');
    db.close();
  });

  it('refuses a graph over the size limit with a typed error', () => {
    const g = { ...families()[0], n: ONNX_MAX_NODES + 1, edges: [] };
    const db = load(g);
    expect(() => db.executeSync("CALL algo.pageRank({device: 'onnx'})")).toThrow(ResourceLimitError);
    expect(() => db.executeSync("CALL algo.pageRank({device: 'gpu'})")).toThrow(/device/);
    db.close();
  });
});
