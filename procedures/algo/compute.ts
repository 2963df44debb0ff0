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
 *
 * That probe loads the native runtime and runs a model twice, half a second of a server's
 * start, so its answer is kept in the user's cache directory (src/code-cache.ts) under a name
 * made of everything it depends on: the runtime's files, Node's version, the GPU the system
 * shows and the environment the CUDA libraries are found through. A kept answer is used for a
 * day at most, so that a CUDA library installed without any of that changing is still found.
 */

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { readUserCache, writeUserCache } from '../../src/code-cache.js';
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
function probeProvider(gpu: string): ProbeAnswer {
  let runtimePath: string;
  try {
    runtimePath = createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch (err) {
    return { provider: 'none', version: null, fallback: `onnxruntime-node is not installed (${(err as Error).message.split('\n')[0]}); install it with \`npm install onnxruntime-node\`` };
  }
  const cacheName = probeCacheName(runtimePath, gpu);
  const kept = cacheName === undefined ? undefined : keptAnswer(cacheName);
  if (kept !== undefined) return kept;
  const result = spawnSync(process.execPath, ['-e', PROBE_SOURCE], {
    input: JSON.stringify({ runtimePath, model: Buffer.from(matMulModel()).toString('base64') }),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
    timeout: PROBE_LIMIT_MS,
  });
  if (result.error !== undefined) return { provider: 'none', version: null, fallback: `the ONNX Runtime probe failed: ${result.error.message}` };
  try {
    const answer = JSON.parse(result.stdout) as ProbeAnswer;
    if (cacheName !== undefined) writeUserCache(cacheName, Buffer.from(JSON.stringify({ probedAt: Date.now(), answer })));
    return answer;
  } catch {
    const how = result.signal ? `was killed (${result.signal})` : `ended with status ${result.status}`;
    return { provider: 'none', version: null, fallback: `the ONNX Runtime probe ${how} without an answer` };
  }
}

/** How long a kept probe answer is used. */
const PROBE_KEPT_MS = 24 * 3600_000;

/**
 * The cache file name of the probe's answer for this runtime, Node, GPU and CUDA environment;
 * undefined when the runtime's files cannot be read (the probe then runs, and is not kept).
 */
function probeCacheName(runtimePath: string, gpu: string): string | undefined {
  try {
    const facts: unknown[] = [runtimePath, process.versions.node, process.versions.modules, process.arch, process.platform, gpu];
    // The package's files, its native libraries (under bin/) included: a reinstall changes them.
    const describe = (path: string, depth: number): void => {
      const stat = statSync(path);
      facts.push(path, stat.size, stat.mtimeMs);
      if (stat.isDirectory() && depth > 0) for (const entry of readdirSync(path).sort()) describe(join(path, entry), depth - 1);
    };
    describe(join(dirname(runtimePath), '..'), 5);
    for (const name of ['LD_LIBRARY_PATH', 'CUDA_PATH', 'CUDA_HOME', 'CUDA_VISIBLE_DEVICES']) facts.push(process.env[name] ?? null);
    return `onnx-provider-${createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 24)}.json`;
  } catch {
    return undefined;
  }
}

/** A kept probe answer under `name`, when there is one of the last day that reads whole. */
function keptAnswer(name: string): ProbeAnswer | undefined {
  const data = readUserCache(name);
  if (data === undefined) return undefined;
  try {
    const kept = JSON.parse(data.toString('utf8')) as { probedAt?: unknown; answer?: Partial<ProbeAnswer> };
    const answer = kept.answer;
    const fresh = typeof kept.probedAt === 'number' && Date.now() - kept.probedAt < PROBE_KEPT_MS && kept.probedAt <= Date.now();
    if (!fresh || answer === undefined || !['cuda', 'cpu', 'none'].includes(answer.provider as string)) return undefined;
    if (answer.version !== null && typeof answer.version !== 'string') return undefined;
    if (answer.fallback !== undefined && typeof answer.fallback !== 'string') return undefined;
    return { provider: answer.provider as ExecutionProvider, version: answer.version ?? null, ...(answer.fallback === undefined ? {} : { fallback: answer.fallback }) };
  } catch {
    return undefined;
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
  const gpu = detectGpu();
  const probe = probeProvider(gpu);
  cached = {
    provider: probe.provider,
    onnxRuntime: probe.version,
    cores: availableParallelism(),
    totalMemory: totalmem(),
    gpu,
    ...(probe.fallback === undefined ? {} : { fallback: probe.fallback }),
  };
  return cached;
}

/** The execution providers an ONNX session should be created with: the chosen one, CPU behind it. */
export function sessionProviders(): string[] {
  return computeInfo().provider === 'cuda' ? ['cuda', 'cpu'] : ['cpu'];
}
