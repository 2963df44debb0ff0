/**
 * PageRank as tensor work through ONNX Runtime (`algo.pageRank({device: 'onnx'})`).
 *
 * The transition is laid out as a dense n × n matrix M (M[u][v] = d / out-degree(u) per
 * relationship u→v, parallel relationships adding up), and each round is the ONNX MatMul
 * `x · M` (onnx-model.ts) plus the teleport and dangling terms, computed exactly as the
 * JavaScript kernel in pagerank.ts does, with the same stopping rule; in doubles the two
 * agree to rounding. The dense matrix bounds the graph size: over `ONNX_MAX_NODES` nodes the
 * call fails with a ResourceLimitError instead of allocating gigabytes.
 *
 * ONNX Runtime's API is asynchronous and procedures are synchronous, so the whole iteration
 * runs in a worker thread (one per call) while the calling thread waits with Atomics.wait in
 * short slices, checking the query deadline between them; on a timeout the worker is
 * terminated. The session runs on the execution provider chosen at start-up (compute.ts: CUDA
 * when it loads, otherwise CPU), which the procedure puts in its summary.
 */

import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { ProcedureError, ResourceLimitError } from '../../src/errors.js';
import type { Csr } from './csr.js';
import type { Deadline } from './deadline.js';
import { sessionProviders } from './compute.js';
import { matMulModel } from './onnx-model.js';
import type { PageRankOptions, PageRankResult } from './pagerank.js';

/** Largest projection the dense ONNX path accepts (its matrix is 8·n² bytes: 128 MiB at 4096). */
export const ONNX_MAX_NODES = 4096;

export interface OnnxPageRankResult extends PageRankResult {
  /** The execution provider the session ran on, e.g. `cpu`. */
  provider: string;
}

const WAIT_SLICE_MS = 50;

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flagBuffer, runtimePath, model, providers, matrix, teleport, dangling, n, d, maxIterations, tolerance, uniform } = workerData;
const flag = new Int32Array(flagBuffer);
function reply(message) {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
async function main() {
  let ort;
  try { ort = require(runtimePath); } catch (err) { return { ok: false, unavailable: true, message: String(err && err.message || err) }; }
  let session;
  const provider = providers[0];
  try { ort.env.logLevel = 'fatal'; } catch {}
  try {
    session = await ort.InferenceSession.create(model, { executionProviders: providers, logSeverityLevel: 4 });
  } catch (err) {
    return { ok: false, unavailable: true, message: String(err && err.message || err) };
  }
  const m = new ort.Tensor('float64', matrix, [n, n]);
  let x = Float64Array.from(teleport);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    let lost = 0;
    for (let v = 0; v < n; v++) if (dangling[v] === 1) lost += x[v];
    const base = 1 - d + d * lost;
    const out = await session.run({ x: new ort.Tensor('float64', x, [1, n]), m });
    const y = out.y.data;
    const next = new Float64Array(n);
    let delta = 0;
    for (let v = 0; v < n; v++) {
      next[v] = (uniform ? base / n : base * teleport[v]) + y[v];
      delta += Math.abs(next[v] - x[v]);
    }
    x = next;
    if (delta < tolerance) { converged = true; break; }
  }
  return { ok: true, scores: x, iterations, converged, provider };
}
let replied = false;
process.on('exit', () => { if (!replied) reply({ ok: false, message: 'the ONNX worker exited without an answer' }); });
main().then((m) => { replied = true; reply(m); }, (err) => { replied = true; reply({ ok: false, message: String(err && err.message || err) }); });
`;

interface WorkerAnswer {
  ok: boolean;
  unavailable?: boolean;
  message?: string;
  scores?: Float64Array;
  iterations?: number;
  converged?: boolean;
  provider?: string;
}

/** The dense transition matrix, d / out-degree per relationship, row-major. */
function denseTransition(csr: Csr, d: number): Float64Array {
  const { n, offsets, targets } = csr;
  const m = new Float64Array(n * n);
  for (let u = 0; u < n; u++) {
    const deg = offsets[u + 1] - offsets[u];
    for (let e = offsets[u]; e < offsets[u + 1]; e++) m[u * n + targets[e]] += d / deg;
  }
  return m;
}

/** How long a call waits for the worker's answer at most, whatever the query's time limit. */
const ONNX_ANSWER_LIMIT_MS = 300_000;

export function onnxPageRank(csr: Csr, opts: PageRankOptions, deadline: Deadline, procedure = 'algo.pageRank'): OnnxPageRankResult {
  const { n, offsets } = csr;
  if (n > ONNX_MAX_NODES) {
    throw new ResourceLimitError(`${procedure}: device 'onnx' handles at most ${ONNX_MAX_NODES} nodes (dense transition matrix); the projection has ${n}. Use device 'js'.`);
  }
  if (n === 0) return { scores: new Float64Array(0), iterations: 0, converged: true, provider: 'cpu' };
  const teleport = new Float64Array(n);
  const sources = opts.sources ?? [];
  if (sources.length === 0) teleport.fill(1 / n);
  else for (const s of sources) teleport[s] += 1 / sources.length;
  const dangling = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (offsets[v + 1] === offsets[v]) dangling[v] = 1;
  let runtimePath: string;
  try {
    // Resolved here: an eval'd worker would resolve from the process's working directory.
    runtimePath = createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch (err) {
    throw new ProcedureError(`${procedure}: ONNX Runtime could not be loaded: ${(err as Error).message}`, 'OnnxUnavailable', 'runtime');
  }
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      port: port2, flagBuffer: flag.buffer, runtimePath, model: matMulModel(), providers: sessionProviders(), matrix: denseTransition(csr, opts.dampingFactor), teleport, dangling, n,
      d: opts.dampingFactor, maxIterations: opts.maxIterations, tolerance: opts.tolerance, uniform: sources.length === 0,
    },
    transferList: [port2],
  });
  worker.unref();
  worker.on('error', () => undefined); // failures reach the caller as the answer (or its absence)
  try {
    // The worker always answers (its failures included) unless it dies outright or never starts; the
    // cap keeps a query without a time limit from waiting forever on such a worker.
    const giveUpAt = Date.now() + ONNX_ANSWER_LIMIT_MS;
    while (Atomics.wait(flag, 0, 0, WAIT_SLICE_MS) === 'timed-out') {
      deadline();
      if (Date.now() > giveUpAt) {
        throw new ProcedureError(`${procedure}: the ONNX worker gave no answer within ${ONNX_ANSWER_LIMIT_MS / 1000} s`, 'OnnxUnavailable', 'runtime');
      }
    }
    const got = receiveMessageOnPort(port1);
    const answer = got?.message as WorkerAnswer | undefined;
    if (answer === undefined || !answer.ok) {
      const why = answer?.message ?? 'the ONNX worker ended without an answer';
      throw new ProcedureError(`${procedure}: ${answer?.unavailable ? 'ONNX Runtime could not be loaded' : 'the ONNX kernel failed'}: ${why}`, 'OnnxUnavailable', 'runtime');
    }
    return { scores: answer.scores as Float64Array, iterations: answer.iterations ?? 0, converged: answer.converged ?? false, provider: answer.provider ?? 'cpu' };
  } finally {
    port1.close();
    void worker.terminate();
  }
}
