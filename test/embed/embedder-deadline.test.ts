/**
 * The ONNX embedder's blocking wait for its worker honours the calling query's time limit: a
 * model whose load never finishes (model.onnx is a FIFO nobody writes, as a hung network
 * mount would behave) fails the query with TIMEOUT at its --query-timeout, through the real
 * binary, both for a model named in the call and for the --embedding-model default. Without
 * the deadline checks the wait would last the embedder's own 120 s call limit. The process then
 * exits by itself and leaves no ONNX process behind: the load runs in a child process that the
 * embedder kills when it gives up (with the load in a worker thread, the blocked native call
 * held the exit).
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

/** Processes whose command line mentions `text` (the ONNX child's names its model file). */
/**
 * Processes still running with `text` in their command line once they have had up to 5 s to
 * end: a SIGKILL sent as the CLI exits is delivered at once, but on a loaded machine the
 * child may not be reaped by the time the parent's exit is seen.
 */
async function processesLeft(text: string): Promise<number[]> {
  let found = processesMentioning(text);
  for (let i = 0; i < 50 && found.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    found = processesMentioning(text);
  }
  return found;
}

function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * Runs the binary to its exit; resolves with its first stdout line, its exit code and how long
 * it ran. A process still running after 60 s is killed and reported as `hung`.
 */
function runToExit(args: string[]): Promise<{ line: string; code: number | null; ms: number; hung: boolean }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', GRAPHDB_HISTORY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let hung = false;
  const killer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, 60_000);
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ line: out.split('\n')[0], code, ms: performance.now() - started, hung });
    });
  });
}

const missing = onnxRuntimeMissing();
requiredUnderCi(missing === null, 'onnxruntime-node', `the embedder deadline tests need onnxruntime-node (${missing})`);

describe.skipIf(missing !== null)('the ONNX embedder honours the query time limit', () => {
  it('a model named in genai.vector.encode whose load never finishes fails the query with TIMEOUT at --query-timeout', async () => {
    const dir = hungModel();
    const r = await runToExit(['query', `RETURN genai.vector.encode('graph', 'onnx', {model: ${JSON.stringify(dir)}}) AS v`, '--json', '--query-timeout', '300']);
    expect(JSON.parse(r.line)).toMatchObject({ error: true, code: 'TIMEOUT' });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    // Start-up included, and on a loaded machine: far below the embedder's own 120 s call limit.
    expect(r.ms).toBeLessThan(30_000);
    expect(await processesLeft(path.join(dir, 'model.onnx'))).toEqual([]);
  });

  it('the --embedding-model default, loaded by graphdb.embed.info(), fails the same way', async () => {
    const dir = hungModel();
    const r = await runToExit(['query', 'CALL graphdb.embed.info()', '--json', '--embedding-model', dir, '--query-timeout', '300']);
    expect(JSON.parse(r.line)).toMatchObject({ error: true, code: 'TIMEOUT' });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(30_000);
    expect(await processesLeft(path.join(dir, 'model.onnx'))).toEqual([]);
  });
});
