/**
 * The ONNX path of PageRank (`device: 'onnx'`): on the generated graph families it agrees with
 * the JavaScript kernel to 1e-6 (plain and personalised), reports the execution provider it
 * ran on, and refuses a projection over its size limit with a typed error.
 */

import { describe, expect, it } from 'vitest';
import { ResourceLimitError } from '../../src/errors.js';
import { ONNX_MAX_NODES } from '../../procedures/algo/onnx-pagerank.js';
import type { Database } from '../../src/engine/database.js';
import { toJsNumber } from '../../runtime/values.js';
import { families, load } from './algo.graphs.js';

function scores(db: Database, config: string): Map<number, number> {
  const rows = db.executeSync(`CALL algo.pageRank(${config}) YIELD node, score RETURN node.i AS i, score`).records;
  return new Map(rows.map((r) => [Number(r[0]), Number(toJsNumber(r[1]))]));
}

describe('algo.pageRank on ONNX Runtime', () => {
  for (const g of families()) {
    it(`agrees with the JavaScript kernel on ${g.name}`, () => {
      const db = load(g);
      for (const extra of ['', ', sourceNodes: [$s]']) {
        const params = `{maxIterations: 60, tolerance: 1e-10${extra}`;
        if (extra !== '' && g.n === 0) continue;
        const run = (device: string) => {
          const rows = db.executeSync(`MATCH (s:V {i: 0}) CALL algo.pageRank(${params.replace('$s', 's')}, device: '${device}'}) YIELD node, score RETURN node.i AS i, score`).records;
          return new Map(rows.map((r) => [Number(r[0]), Number(toJsNumber(r[1]))]));
        };
        const js = g.n === 0 ? scores(db, `${params}, device: 'js'}`) : run('js');
        const onnx = g.n === 0 ? scores(db, `${params}, device: 'onnx'}`) : run('onnx');
        expect(onnx.size).toBe(g.n);
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
