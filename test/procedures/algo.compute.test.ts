/**
 * The compute report (procedures/algo/compute.ts): the ONNX execution provider is chosen once
 * (CUDA when it loads, else CPU), and on a machine without a GPU — ours — the CUDA attempt
 * fails and the CPU provider is chosen, with the reason kept. `dbms.info()` and the HTTP
 * `/status` of a real listening server report provider, cores, total memory and GPU, and the
 * ONNX PageRank path runs on the chosen provider.
 */

import { availableParallelism, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { computeInfo, detectGpu, sessionProviders } from '../../procedures/algo/compute.js';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';

describe('compute report', () => {
  it('falls back from CUDA to the CPU provider when there is no GPU', () => {
    const info = computeInfo();
    expect(info.cores).toBe(availableParallelism());
    expect(info.totalMemory).toBe(totalmem());
    expect(info.gpu).toBe(detectGpu());
    expect(info.onnxRuntime).toMatch(/^\d+\.\d+/); // onnxruntime-node is installed in this repository
    if (info.gpu === 'none') {
      expect(info.provider).toBe('cpu');
      expect(info.fallback).toMatch(/CUDA provider did not load/);
      expect(sessionProviders()).toEqual(['cpu']);
    } else {
      expect(['cuda', 'cpu']).toContain(info.provider);
    }
    expect(computeInfo()).toBe(info); // probed once per process
  });

  it('is reported by dbms.info()', () => {
    const db = Database.openInMemory();
    const r = db.executeSync('CALL dbms.info() YIELD executionProvider, cores, totalMemory, gpu RETURN executionProvider, cores, totalMemory, gpu').records[0];
    const info = computeInfo();
    expect(r).toEqual([info.provider, info.cores, info.totalMemory, info.gpu]);
  });

  it('is reported by GET /status', async () => {
    const db = Database.openInMemory();
    const server = await startHttpServer(db, { port: 0, log: () => undefined });
    try {
      const status = (await (await fetch(`http://127.0.0.1:${server.port}/status`)).json()) as { compute: Record<string, unknown> };
      const info = computeInfo();
      expect(status.compute).toMatchObject({ provider: info.provider, cores: info.cores, totalMemory: info.totalMemory, gpu: info.gpu });
    } finally {
      await server.close();
    }
  });

  it('is the provider ONNX PageRank runs on', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (a:V)-[:R]->(b:V)-[:R]->(c:V)-[:R]->(a)');
    const summary = db.executeSync("CALL algo.pageRank.stats({device: 'onnx'}) YIELD summary RETURN summary").records[0][0] as Map<string, unknown>;
    expect(summary.get('device')).toBe(`onnx:${computeInfo().provider}`);
  });
});
