/**
 * Whether ONNX inference can run here: onnxruntime-node is an optional dependency whose
 * install can fail quietly, so every ONNX path asks this first and fails at once with an
 * OnnxUnavailableError naming the package and the fix, instead of waiting on a worker that
 * never answers. The check resolves the package (no native load: the worker does that and
 * reports a load failure as quickly). The result is kept for the life of the process.
 */

import { createRequire } from 'node:module';
import { OnnxUnavailableError } from '../errors.js';

const FIX = 'install it with `npm install onnxruntime-node` (its install script downloads the native runtime; rerun it if that step failed)';

let missing: string | null | undefined;
let runtimePath: string | undefined;

/** Why onnxruntime-node cannot be used, or null when it can be found. */
export function onnxRuntimeMissing(): string | null {
  if (missing !== undefined) return missing;
  try {
    runtimePath = createRequire(import.meta.url).resolve('onnxruntime-node');
    missing = null;
  } catch (err) {
    missing = `onnxruntime-node is not installed (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
  }
  return missing;
}

/** The error for an ONNX path that cannot run: `why` is what failed (not found, did not load). */
export function onnxUnavailable(why: string): OnnxUnavailableError {
  return new OnnxUnavailableError(`ONNX inference is unavailable: ${why}; ${FIX}`);
}

/**
 * The file onnxruntime-node loads from, as this package resolves it (the process that loads
 * it may run from any directory); throws OnnxUnavailableError when it cannot be found.
 */
export function requireOnnxRuntime(): string {
  const why = onnxRuntimeMissing();
  if (why !== null || runtimePath === undefined) throw onnxUnavailable(why ?? 'onnxruntime-node is not installed');
  return runtimePath;
}

/** The start-up warning for `--embedding-model` without a usable runtime, or undefined. */
export function embeddingModelWarning(modelDir: string | undefined): string | undefined {
  if (modelDir === undefined) return undefined;
  const why = onnxRuntimeMissing();
  if (why === null) return undefined;
  return `graphdb: warning: --embedding-model ${modelDir} cannot be used: ${why}; queries that embed text will fail with ONNX_UNAVAILABLE until you ${FIX}`;
}
