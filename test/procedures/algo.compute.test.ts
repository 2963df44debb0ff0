/**
 * The compute report (procedures/algo/compute.ts): the ONNX execution provider is chosen once
 * (CUDA when it loads, else CPU), and on a machine without a GPU — ours — the CUDA attempt
 * fails and the CPU provider is chosen, with the reason kept. `dbms.info()` and the HTTP
 * `/status` of a real listening server report provider, cores, total memory and GPU, and the
 * ONNX PageRank path runs on the chosen provider. The probe's answer is kept in the user's
 * cache directory, which the built CLI shows in separate processes.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  describe('the probe answer kept between processes', () => {
    const bin = fileURLToPath(new URL('../../bin/graphdb.js', import.meta.url));
    const provider = (cacheDir: string): { provider: string; note: string | null } => {
      const out = execFileSync(process.execPath, [bin, 'query', 'CALL dbms.info() YIELD executionProvider, onnxRuntime RETURN executionProvider, onnxRuntime', '--json'], {
        env: { ...process.env, GRAPHDB_CACHE_DIR: cacheDir },
        encoding: 'utf8',
      });
      const row = (JSON.parse(out) as { rows: { executionProvider: string; onnxRuntime: string | null }[] }).rows[0];
      return { provider: row.executionProvider, note: row.onnxRuntime };
    };

    it('is written by the first process, read by the next, and probed again once a day old', () => {
      const cacheDir = mkdtempSync(join(tmpdir(), 'graphdb-probe-cache-'));
      try {
        const first = provider(cacheDir);
        const kept = readdirSync(cacheDir).filter((f) => f.startsWith('onnx-provider-'));
        expect(kept).toHaveLength(1);
        const file = join(cacheDir, kept[0]);
        const record = JSON.parse(readFileSync(file, 'utf8')) as { probedAt: number; answer: { provider: string } };
        expect(record.answer.provider).toBe(first.provider);
        expect(Date.now() - record.probedAt).toBeLessThan(120_000);

        // A kept answer is what the next process reports, without probing.
        writeFileSync(file, JSON.stringify({ probedAt: Date.now(), answer: { provider: 'none', version: null, fallback: 'kept by an earlier process' } }));
        expect(provider(cacheDir)).toEqual({ provider: 'none', note: 'kept by an earlier process' });

        // A day old, or not whole, it is probed again (and the fresh answer kept).
        for (const stale of [JSON.stringify({ probedAt: Date.now() - 25 * 3600_000, answer: { provider: 'none', version: null, fallback: 'old' } }), '{"probedAt": 1, "ans']) {
          writeFileSync(file, stale);
          expect(provider(cacheDir)).toEqual(first);
          expect((JSON.parse(readFileSync(file, 'utf8')) as { answer: { provider: string } }).answer.provider).toBe(first.provider);
        }
      } finally {
        rmSync(cacheDir, { recursive: true, force: true });
      }
    }, 60_000);
  });
});
