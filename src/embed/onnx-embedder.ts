/**
 * Sentence-transformers models in ONNX form, from a local directory holding `model.onnx`,
 * `tokenizer.json` (and optionally `tokenizer_config.json`, `config.json`). Text is tokenised
 * here with `@huggingface/tokenizers`; inference runs on `onnxruntime-node` (CUDA when the
 * runtime offers it, else CPU) in a child process behind a relay worker thread
 * (onnx-worker-source.ts says why), which the calling thread waits for with Atomics.wait,
 * because query functions are synchronous. The token vectors
 * are mean-pooled over the attention mask and normalised to unit length.
 *
 * Without a usable onnxruntime-node the constructor throws OnnxUnavailableError at once. The
 * wait for the worker is cut into short slices that check the running query's deadline and
 * cancellation, so an inference (or a worker that never answers) cannot outlast the query's
 * time limit. A model load that gives up kills its child, so a load stuck inside the native
 * runtime cannot hold the process's exit.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { Tokenizer } from '@huggingface/tokenizers';
import { ArgumentError, InternalError } from '../errors.js';
import { checkActiveDeadline } from '../../runtime/governor.js';
import type { Embedder } from './types.js';
import { ONNX_CHILD_SOURCE, ONNX_RELAY_SOURCE } from './onnx-worker-source.js';
import { onnxUnavailable, requireOnnxRuntime } from './onnx-availability.js';

/** One inference call may take this long before the query fails. */
const CALL_TIMEOUT_MS = 120_000;
/** How long one wait lasts before the query's deadline is checked again. */
const WAIT_SLICE_MS = 50;
const MAX_TOKENS = 512;

type WorkerReply = ({ ok: false; message: string; unavailable?: boolean } | { ok: true; [key: string]: unknown }) & { id?: number };

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    throw new ArgumentError(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`, 'InvalidEmbeddingModel');
  }
}

/** Execution providers to try, best first: CUDA only when this onnxruntime build can load it. */
function providers(): string[] {
  if (process.env.GRAPHDB_EMBED_CPU_ONLY === '1') return ['cpu'];
  return ['cuda', 'cpu'];
}

export class OnnxEmbedder implements Embedder {
  readonly provider = 'onnx';
  readonly model: string;
  readonly dimensions: number;
  readonly executionProvider: string;
  private readonly tokenizer: Tokenizer;
  private readonly maxTokens: number;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: set when an answer is posted (the wait's flag); [1]: the child process's pid once started. */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private readonly inputs: string[];
  private lastRequest = 0;

  constructor(dir: string) {
    const runtimePath = requireOnnxRuntime();
    const modelFile = path.join(dir, 'model.onnx');
    for (const f of [modelFile, path.join(dir, 'tokenizer.json')]) {
      if (!fs.existsSync(f)) throw new ArgumentError(`The embedding model directory ${dir} has no ${path.basename(f)}`, 'InvalidEmbeddingModel');
    }
    const configFile = path.join(dir, 'tokenizer_config.json');
    const tokenizerConfig = fs.existsSync(configFile) ? readJson(configFile) : {};
    this.tokenizer = new Tokenizer(readJson(path.join(dir, 'tokenizer.json')) as object, tokenizerConfig as object);
    const limit = (tokenizerConfig as { model_max_length?: unknown }).model_max_length;
    this.maxTokens = typeof limit === 'number' && limit > 2 && limit < MAX_TOKENS ? limit : MAX_TOKENS;
    this.model = path.resolve(dir);
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker = new Worker(ONNX_RELAY_SOURCE, {
      eval: true,
      workerData: {
        flagBuffer: this.flag.buffer,
        port: channel.port2,
        childSource: ONNX_CHILD_SOURCE,
        childOptions: { runtimePath, modelFile, providers: providers() },
      },
      transferList: [channel.port2],
    });
    this.worker.unref();
    let opened: WorkerReply;
    try {
      opened = this.call({ kind: 'open' });
    } catch (err) {
      this.close();
      throw err;
    }
    if (!opened.ok) {
      this.close();
      if (opened.unavailable === true) throw onnxUnavailable(opened.message);
      throw new ArgumentError(`Cannot load the embedding model ${modelFile}: ${opened.message}`, 'InvalidEmbeddingModel');
    }
    this.inputs = opened.inputs as string[];
    this.executionProvider = String(opened.executionProvider);
    // The width of the model's output: from config.json, else by embedding a probe text.
    const config = fs.existsSync(path.join(dir, 'config.json')) ? (readJson(path.join(dir, 'config.json')) as { hidden_size?: unknown }) : {};
    this.dimensions = typeof config.hidden_size === 'number' ? config.hidden_size : 0;
    if (this.dimensions === 0) (this as { dimensions: number }).dimensions = this.embed(['probe'])[0].length;
  }

  /**
   * Sends one request and blocks until the worker answers, the running query's time limit
   * passes or it is cancelled (checkActiveDeadline throws), or CALL_TIMEOUT_MS passes.
   */
  private call(request: object): WorkerReply {
    const id = ++this.lastRequest;
    this.port.postMessage({ ...request, id });
    const giveUp = performance.now() + CALL_TIMEOUT_MS;
    for (;;) {
      // Clear the flag before looking, so an answer posted after the look wakes the wait.
      Atomics.store(this.flag, 0, 0);
      const got = receiveMessageOnPort(this.port);
      if (got) {
        const reply = got.message as WorkerReply;
        if (reply.id === id) return reply;
        continue; // the late answer of a call that gave up
      }
      const left = giveUp - performance.now();
      if (left <= 0) throw new InternalError('The embedding model did not answer in time');
      if (Atomics.wait(this.flag, 0, 0, Math.min(WAIT_SLICE_MS, left)) === 'timed-out') checkActiveDeadline();
    }
  }

  embed(texts: readonly string[]): Float32Array[] {
    if (texts.length === 0) return [];
    const encodings = texts.map((t) => {
      const e = this.tokenizer.encode(t, { return_token_type_ids: true });
      const n = Math.min(e.ids.length, this.maxTokens);
      return { ids: e.ids.slice(0, n), mask: e.attention_mask.slice(0, n), types: (e.token_type_ids ?? []).slice(0, n) };
    });
    const batch = texts.length;
    const length = Math.max(1, ...encodings.map((e) => e.ids.length));
    const ids = new BigInt64Array(batch * length);
    const mask = new BigInt64Array(batch * length);
    const types = new BigInt64Array(batch * length);
    encodings.forEach((e, b) => {
      for (let i = 0; i < e.ids.length; i++) {
        ids[b * length + i] = BigInt(e.ids[i]);
        mask[b * length + i] = BigInt(e.mask[i]);
        types[b * length + i] = BigInt(e.types[i] ?? 0);
      }
    });
    const inputs: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const wanted: Record<string, BigInt64Array> = {};
    for (const name of this.inputs) if (inputs[name]) wanted[name] = inputs[name];
    const out = this.call({ kind: 'run', batch, length, inputs: wanted });
    if (!out.ok) throw new ArgumentError(`The embedding model failed: ${out.message}`, 'EmbeddingFailed');
    const data = out.data as Float32Array;
    const dims = out.dims as number[];
    if (dims.length !== 3 || dims[0] !== batch || dims[1] !== length) {
      throw new ArgumentError(`The embedding model's output has shape [${dims.join(', ')}], not [batch, tokens, hidden]`, 'InvalidEmbeddingModel');
    }
    const hidden = dims[2];
    return encodings.map((_, b) => {
      // Mean over the tokens the attention mask keeps, then unit length.
      const v = new Float32Array(hidden);
      let count = 0;
      for (let i = 0; i < length; i++) {
        if (mask[b * length + i] === 0n) continue;
        count++;
        const base = (b * length + i) * hidden;
        for (let j = 0; j < hidden; j++) v[j] += data[base + j];
      }
      let norm = 0;
      for (let j = 0; j < hidden; j++) {
        v[j] /= Math.max(count, 1);
        norm += v[j] * v[j];
      }
      norm = Math.sqrt(norm);
      if (norm > 0) for (let j = 0; j < hidden; j++) v[j] /= norm;
      return v;
    });
  }

  /** Ends the child process (a native call in it cannot be interrupted any other way) and the relay. */
  close(): void {
    const pid = Atomics.load(this.flag, 1);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    void this.worker.terminate();
  }
}
