/**
 * The ONNX embedder's blocking wait for its worker honours the calling query's time limit: a
 * model whose load never finishes (model.onnx is a FIFO nobody writes, as a hung network
 * mount would behave) fails the query with TIMEOUT at its --query-timeout, through the real
 * binary, both for a model named in the call and for the --embedding-model default. Without
 * the deadline checks the wait would last the embedder's own 120 s call limit.
 */

import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onnxRuntimeMissing } from '../../src/embed/onnx-availability.js';
import { requiredUnderCi } from '../ci-required.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { BIN } from '../cli/run-cli.js';

afterAll(removeTempDirs);

/** A model directory whose tokenizer loads and whose model.onnx is a FIFO: opening it blocks until a writer comes. */
function hungModel(): string {
  const dir = tempDir('graphdb-hung-model-');
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'graph'];
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: vocab.slice(0, 4).map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])) },
  };
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ hidden_size: 8 }));
  execFileSync('mkfifo', [path.join(dir, 'model.onnx')]);
  return dir;
}

/**
 * Runs the binary; resolves with its first stdout line and how long after the start it came,
 * then kills it. (Its worker may still be blocked opening the FIFO, and onnxruntime-node cannot
 * be stopped inside that call: letting it return into a terminated worker aborts the process,
 * and leaving it blocked holds the exit; neither is what this test is about.)
 */
function firstLine(args: string[]): Promise<{ line: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', GRAPHDB_HISTORY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exit.then(() => clearTimeout(killer));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end < 0) return;
      const ms = performance.now() - started;
      child.kill('SIGKILL');
      resolve({ line: out.slice(0, end), ms });
    });
    void exit.then((code) => {
      if (!out.includes('\n')) reject(new Error(`exited ${code} before printing a line: ${out}`));
    });
  });
}

const missing = onnxRuntimeMissing();
requiredUnderCi(missing === null, 'onnxruntime-node', `the embedder deadline tests need onnxruntime-node (${missing})`);

describe.skipIf(missing !== null)('the ONNX embedder honours the query time limit', () => {
  it('a model named in genai.vector.encode whose load never finishes fails the query with TIMEOUT at --query-timeout', async () => {
    const dir = hungModel();
    const r = await firstLine(['query', `RETURN genai.vector.encode('graph', 'onnx', {model: ${JSON.stringify(dir)}}) AS v`, '--json', '--query-timeout', '300']);
    expect(JSON.parse(r.line)).toMatchObject({ error: true, code: 'TIMEOUT' });
    // Start-up included, and on a loaded machine: far below the embedder's own 120 s call limit.
    expect(r.ms).toBeLessThan(30_000);
  });

  it('the --embedding-model default, loaded by graphdb.embed.info(), fails the same way', async () => {
    const dir = hungModel();
    const r = await firstLine(['query', 'CALL graphdb.embed.info()', '--json', '--embedding-model', dir, '--query-timeout', '300']);
    expect(JSON.parse(r.line)).toMatchObject({ error: true, code: 'TIMEOUT' });
    expect(r.ms).toBeLessThan(30_000);
  });
});
