/**
 * Without a usable onnxruntime-node (hidden here by an --import preload in real child
 * processes, as on a machine where the optional install failed), every ONNX path fails at
 * once with ONNX_UNAVAILABLE naming the package and the fix, `--embedding-model` warns at
 * start-up (graphdb and graphdb-mcp), and dbms.info() says why ONNX is not in use.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GRAPHDB_BIN, MCP_BIN } from '../server/helpers.js';

const HIDE = path.join(import.meta.dirname, 'fixtures', 'hide-onnxruntime.mjs');
const modelDir = mkdtempSync(path.join(tmpdir(), 'graphdb-no-onnx-'));
afterAll(() => rmSync(modelDir, { recursive: true, force: true }));

/** Runs a bin with onnxruntime-node hidden; returns its output and how long it took. */
function hidden(bin: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(HIDE).href, bin, ...args], { encoding: 'utf8', input, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}

describe('ONNX without onnxruntime-node', () => {
  it('genai.vector.encode with the onnx provider fails at once with ONNX_UNAVAILABLE and the fix', () => {
    const r = hidden(GRAPHDB_BIN, ['query', `RETURN genai.vector.encode('hello', 'onnx', {model: ${JSON.stringify(modelDir)}}) AS v`, '--json', '--query-timeout', '5000']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { code: string; message: string };
    expect(out.code).toBe('ONNX_UNAVAILABLE');
    expect(out.message).toMatch(/onnxruntime-node is not installed/);
    expect(out.message).toMatch(/npm install onnxruntime-node/);
    expect(r.ms).toBeLessThan(5000);
  });

  it('--embedding-model warns at start-up, and graphdb.embed.info() fails at once', () => {
    const r = hidden(GRAPHDB_BIN, ['query', 'CALL graphdb.embed.info()', '--json', '--embedding-model', modelDir]);
    expect(r.stderr).toMatch(/warning: --embedding-model .* cannot be used: onnxruntime-node is not installed/);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as { code: string }).code).toBe('ONNX_UNAVAILABLE');
    expect(r.ms).toBeLessThan(5000);
  });

  it('dbms.info() says why ONNX is not in use', () => {
    const r = hidden(GRAPHDB_BIN, ['query', 'CALL dbms.info() YIELD executionProvider, onnxRuntime RETURN executionProvider, onnxRuntime', '--json']);
    expect(r.status).toBe(0);
    const row = (JSON.parse(r.stdout) as { rows: { executionProvider: string; onnxRuntime: string }[] }).rows[0];
    expect(row.executionProvider).toBe('none');
    expect(row.onnxRuntime).toMatch(/onnxruntime-node is not installed.*npm install onnxruntime-node/);
  });

  it('graphdb-mcp --embedding-model warns at start-up', () => {
    const r = hidden(MCP_BIN, ['--embedding-model', modelDir], '');
    expect(r.stderr).toMatch(/^graphdb-mcp: warning: --embedding-model .* cannot be used: onnxruntime-node is not installed/m);
    expect(r.status).toBe(0);
  });
});
