/**
 * What every embedder offers, and the per-database service that picks one: the configured
 * default (the ONNX model given by `--embedding-model`, else the built-in hashing embedder)
 * or one named by a query's `provider` argument. Embedding runs synchronously, because
 * queries do: the ONNX embedder blocks on a worker thread (see onnx-embedder.ts).
 */

import { ArgumentError } from '../errors.js';
import { HashingEmbedder } from './hashing-embedder.js';
import type { Embedder } from './types.js';

export type { Embedder } from './types.js';

/** Builds the ONNX embedder for a model directory (injected to keep onnxruntime out of this module's imports). */
export type OnnxLoader = (dir: string) => Embedder;

export class EmbeddingService {
  private readonly hashers = new Map<number, HashingEmbedder>();
  private readonly onnx = new Map<string, Embedder>();

  constructor(
    private readonly modelDir: string | undefined,
    private readonly loadOnnx: OnnxLoader,
  ) {}

  /** The default embedder: the configured model when there is one. */
  get default(): Embedder {
    return this.modelDir !== undefined ? this.onnxAt(this.modelDir) : this.hasher(384);
  }

  private hasher(dimensions: number): HashingEmbedder {
    let h = this.hashers.get(dimensions);
    if (!h) this.hashers.set(dimensions, (h = new HashingEmbedder(dimensions)));
    return h;
  }

  private onnxAt(dir: string): Embedder {
    let e = this.onnx.get(dir);
    if (!e) this.onnx.set(dir, (e = this.loadOnnx(dir)));
    return e;
  }

  /**
   * The embedder for a `provider` argument (null: the default) and its `configuration` map:
   * `hash` takes `dimensions`; `onnx` takes `model` (a directory; default the configured one).
   */
  resolve(provider: string | null, config: ReadonlyMap<string, unknown> | null): Embedder {
    const p = provider?.toLowerCase() ?? null;
    if (p === null || p === 'default') return this.default;
    if (p === 'hash') {
      const d = config?.get('dimensions') ?? 384;
      if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 4096) {
        throw new ArgumentError('The hash embedder takes `dimensions`, an integer from 1 to 4096', 'InvalidEmbeddingConfig');
      }
      return this.hasher(d);
    }
    if (p === 'onnx') {
      const dir = config?.get('model') ?? this.modelDir;
      if (typeof dir !== 'string') throw new ArgumentError('The onnx embedder needs `model`, a model directory (or start with --embedding-model)', 'InvalidEmbeddingConfig');
      return this.onnxAt(dir);
    }
    throw new ArgumentError(`Unknown embedding provider '${provider}'; available: hash, onnx`, 'UnknownEmbeddingProvider');
  }

  /** Frees model sessions. */
  close(): void {
    for (const e of this.onnx.values()) (e as { close?: () => void }).close?.();
    this.onnx.clear();
  }
}
