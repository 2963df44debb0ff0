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
 * probe runs in a short-lived child process that the caller waits for (a child rather than
 * a worker so that the native logger's report of the failed CUDA load can be dropped).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, totalmem } from 'node:os';
import { spawnSync } from 'node:child_process';
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

/**
 * Run in a child process (not a worker): ONNX Runtime's native logger writes a failed CUDA
 * load to the process's stderr whatever the log level, and a child's stderr can be dropped.
 * Reads `{runtimePath, model}` (model in base64) on stdin, writes the answer as JSON.
 */
const PROBE_SOURCE = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const { runtimePath, model: model64 } = JSON.parse(input);
  const model = new Uint8Array(Buffer.from(model64, 'base64'));
  const text = (err) => String((err && err.message) || err).split('\\n')[0];
  async function main() {
    let ort;
    try { ort = require(runtimePath); } catch (err) { return { provider: 'none', version: null, fallback: 'onnxruntime-node could not be loaded: ' + text(err) }; }
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
  main().then(
    (answer) => process.stdout.write(JSON.stringify(answer)),
    (err) => process.stdout.write(JSON.stringify({ provider: 'none', version: null, fallback: String(err) })),
  );
});
`;

interface ProbeAnswer {
  provider: ExecutionProvider;
  version: string | null;
  fallback?: string;
}

/** Runs the provider probe in a child process and waits for its answer. */
function probeProvider(): ProbeAnswer {
  let runtimePath: string;
  try {
    runtimePath = createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch (err) {
    return { provider: 'none', version: null, fallback: `onnxruntime-node is not installed (${(err as Error).message.split('\n')[0]}); install it with \`npm install onnxruntime-node\`` };
  }
  const result = spawnSync(process.execPath, ['-e', PROBE_SOURCE], {
    input: JSON.stringify({ runtimePath, model: Buffer.from(matMulModel()).toString('base64') }),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
    timeout: PROBE_LIMIT_MS,
  });
  if (result.error !== undefined) return { provider: 'none', version: null, fallback: `the ONNX Runtime probe failed: ${result.error.message}` };
  try {
    return JSON.parse(result.stdout) as ProbeAnswer;
  } catch {
    const how = result.signal ? `was killed (${result.signal})` : `ended with status ${result.status}`;
    return { provider: 'none', version: null, fallback: `the ONNX Runtime probe ${how} without an answer` };
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
