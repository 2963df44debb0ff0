/**
 * The code that runs ONNX inference for onnx-embedder.ts, kept as fixed strings so that it
 * loads the same way from the TypeScript sources and from dist/.
 *
 * onnxruntime-node runs in a child process, not in the worker thread itself: a native call
 * cannot be interrupted, so a model load that hangs (a stalled network mount) would hold the
 * process's exit, and stopping the thread under it aborts the whole process when the call
 * returns. A child can be killed. Between the two sits a relay worker thread (the calling
 * thread waits synchronously, with Atomics.wait, because query functions are synchronous): it
 * starts the child, passes each request on over the child's IPC channel (V8 serialisation,
 * so typed arrays travel as they are), posts each answer on its port and then wakes the
 * waiting thread through the shared flag. The child's pid sits in the shared array's second
 * slot so the calling thread can kill it. A child that exits answers every pending request
 * with an error. Each answer carries its request's id, so an answer arriving after its caller
 * gave up is recognised as late. A runtime that does not load is reported as `unavailable`.
 */

/** The relay worker thread (run with `eval: true`). */
export const ONNX_RELAY_SOURCE = `
const { workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { flagBuffer, port, childSource, childOptions } = workerData;
const shared = new Int32Array(flagBuffer);
function post(message) {
  port.postMessage(message);
  Atomics.store(shared, 0, 1);
  Atomics.notify(shared, 0);
}
const pending = new Set();
let gone;
// stdout is not the child's: a runtime's chatter must not mix with a CLI's answer.
const child = spawn(process.execPath, ['-e', childSource, JSON.stringify(childOptions)], {
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  serialization: 'advanced',
});
if (child.pid !== undefined) Atomics.store(shared, 1, child.pid);
function fail(why) {
  gone = why;
  for (const id of pending) post({ id, ok: false, message: why });
  pending.clear();
}
child.on('error', (err) => fail('the ONNX process did not start (' + String(err && err.message || err) + ')'));
child.on('exit', (code, signal) => fail('the ONNX process ended (' + (signal || 'exit code ' + code) + ')'));
child.on('message', (message) => {
  pending.delete(message.id);
  post(message);
});
port.on('message', (req) => {
  if (gone !== undefined) return post({ id: req.id, ok: false, message: gone });
  pending.add(req.id);
  child.send(req);
});
`;

/** The child process (run with `node -e`; its one argument is the JSON of `childOptions`). */
export const ONNX_CHILD_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { runtimePath, modelFile, providers } = JSON.parse(process.argv[1]);
// The parent went away (or closed the channel): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
const text = (err) => String((err && err.message) || err).split('\\n')[0];
let ort;
let session;
let executionProvider = 'cpu';
async function open() {
  try {
    ort = require(runtimePath);
  } catch (err) {
    return { ok: false, unavailable: true, message: 'onnxruntime-node did not load (' + text(err) + ')' };
  }
  // CUDA only when this onnxruntime build ships its provider library (else trying it just logs an error).
  let runtimeDir = path.dirname(runtimePath);
  while (!fs.existsSync(path.join(runtimeDir, 'package.json')) && path.dirname(runtimeDir) !== runtimeDir) runtimeDir = path.dirname(runtimeDir);
  const cudaLib = path.join(runtimeDir, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so');
  const usable = providers.filter((p) => p !== 'cuda' || fs.existsSync(cudaLib));
  let lastError;
  for (const p of usable) {
    try {
      session = await ort.InferenceSession.create(modelFile, { executionProviders: [p] });
      executionProvider = p;
      return { ok: true, inputs: session.inputNames, outputs: session.outputNames, executionProvider };
    } catch (err) {
      lastError = err;
    }
  }
  return { ok: false, message: String(lastError && lastError.message || lastError) };
}
async function run(req) {
  if (!session) return { ok: false, message: 'the model is not open' };
  const feeds = {};
  const dims = [req.batch, req.length];
  for (const name of session.inputNames) {
    const data = req.inputs[name];
    if (!data) return { ok: false, message: 'the model wants an input named ' + name + ', which a BERT tokenizer does not produce' };
    feeds[name] = new ort.Tensor('int64', data, dims);
  }
  const out = await session.run(feeds);
  const name = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0];
  const t = out[name];
  return { ok: true, data: t.data, dims: t.dims };
}
process.on('message', (req) => {
  const work = req.kind === 'open' ? open() : run(req);
  work.then(
    (message) => process.send({ ...message, id: req.id }),
    (err) => process.send({ id: req.id, ok: false, message: String(err && err.message || err) }),
  );
});
`;
