/**
 * The compute this process can give the algorithms, found once and then cached: CPU cores,
 * total memory, the GPU the system shows (if any), and the ONNX Runtime execution provider
 * the ONNX kernels (onnx-pagerank.ts) run on. `dbms.info()` and the HTTP `/status` report it
 * (SPEC runtime rule 4), and the server asks for it at start-up, so the choice is made before
 * the first query needs it.
 *
 * Provider choice: CUDA is tried first and kept when a session actually loads on it;
 * otherwise (no GPU, no CUDA provider library: the usual case, and ours) the CPU provider is
 * used, and the reason CUDA was passed over is kept in `fallback`. Without onnxruntime-node
 * (an optional dependency) the provider is `none` and graphdb runs its JavaScript kernels
 * only. ONNX Runtime's API is asynchronous while this answer is needed synchronously, so the
 * probe runs in a short-lived worker thread and the caller waits on a shared flag, as the
 * ONNX PageRank path does.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, totalmem } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { matMulModel } from './onnx-model.js';

export type ExecutionProvider = 'cuda' | 'cpu' | 'none';

export interface ComputeInfo {
  /** The ONNX Runtime execution provider chosen; `none` when ONNX Runtime is not usable. */
  provider: ExecutionProvider;
  /** onnxruntime-node's version, or null when it is not installed. */
  onnxRuntime: string | null;
  /** Cores available to this process. */
  cores: number;
  /** Total system memory, in bytes. */
  totalMemory: number;
  /** The GPU the system shows (`none` when there is none). */
  gpu: string;
  /** Why a better provider was not chosen (CUDA failed to load, ONNX Runtime missing). */
  fallback?: string;
}

/** The longest the start-up probe may take; a runtime that hangs longer is treated as absent. */
const PROBE_LIMIT_MS = 60_000;

const PROBE_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flagBuffer, runtimePath, model } = workerData;
const flag = new Int32Array(flagBuffer);
function reply(message) {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
const text = (err) => String((err && err.message) || err).split('\\n')[0];
async function main() {
  let ort;
  try { ort = require(runtimePath); } catch (err) { return { provider: 'none', version: null, fallback: 'onnxruntime-node could not be loaded: ' + text(err) }; }
  // The native logger would print the failed CUDA load on stderr; the reason is reported instead.
  try { ort.env.logLevel = 'fatal'; } catch {}
  const version = (ort.env && ort.env.versions && ort.env.versions.node) || null;
  let cuda;
  try {
    const s = await ort.InferenceSession.create(model, { executionProviders: ['cuda'], logSeverityLevel: 4 });
    await s.release();
    return { provider: 'cuda', version };
  } catch (err) { cuda = 'CUDA provider did not load: ' + text(err); }
  try {
    const s = await ort.InferenceSession.create(model, { executionProviders: ['cpu'], logSeverityLevel: 4 });
    await s.release();
    return { provider: 'cpu', version, fallback: cuda };
  } catch (err) { return { provider: 'none', version, fallback: cuda + '; CPU provider failed too: ' + text(err) }; }
}
main().then(reply, (err) => reply({ provider: 'none', version: null, fallback: String(err) }));
`;

interface ProbeAnswer {
  provider: ExecutionProvider;
  version: string | null;
  fallback?: string;
}

/** Runs the provider probe in a worker and waits for its answer. */
function probeProvider(): ProbeAnswer {
  let runtimePath: string;
  try {
    runtimePath = createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch (err) {
    return { provider: 'none', version: null, fallback: `onnxruntime-node is not installed (${(err as Error).message.split('\n')[0]})` };
  }
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { port: port2, flagBuffer: flag.buffer, runtimePath, model: matMulModel() }, transferList: [port2] });
  worker.unref();
  worker.on('error', () => undefined); // a dead worker shows as a missing answer
  try {
    const giveUpAt = Date.now() + PROBE_LIMIT_MS;
    while (Atomics.wait(flag, 0, 0, 50) === 'timed-out') {
      if (Date.now() > giveUpAt) return { provider: 'none', version: null, fallback: `the ONNX Runtime probe gave no answer within ${PROBE_LIMIT_MS / 1000} s` };
    }
    const answer = receiveMessageOnPort(port1)?.message as ProbeAnswer | undefined;
    return answer ?? { provider: 'none', version: null, fallback: 'the ONNX Runtime probe ended without an answer' };
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/** The GPU model the NVIDIA driver lists, `nvidia` when only the device node exists, else `none`. */
export function detectGpu(): string {
  const dir = '/proc/driver/nvidia/gpus';
  try {
    if (existsSync(dir)) {
      for (const bus of readdirSync(dir)) {
        const model = /^Model:\s*(.+)$/m.exec(readFileSync(`${dir}/${bus}/information`, 'utf8'));
        if (model) return model[1].trim();
      }
    }
  } catch {
    // An unreadable driver directory tells nothing more than the device node does.
  }
  return existsSync('/dev/nvidia0') ? 'nvidia' : 'none';
}

let cached: ComputeInfo | undefined;

/** What this process has to compute with (probed on the first call, then the same answer). */
export function computeInfo(): ComputeInfo {
  if (cached !== undefined) return cached;
  const probe = probeProvider();
  cached = {
    provider: probe.provider,
    onnxRuntime: probe.version,
    cores: availableParallelism(),
    totalMemory: totalmem(),
    gpu: detectGpu(),
    ...(probe.fallback === undefined ? {} : { fallback: probe.fallback }),
  };
  return cached;
}

/** The execution providers an ONNX session should be created with: the chosen one, CPU behind it. */
export function sessionProviders(): string[] {
  return computeInfo().provider === 'cuda' ? ['cuda', 'cpu'] : ['cpu'];
}
