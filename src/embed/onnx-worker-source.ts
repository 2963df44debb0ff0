/**
 * The source of the worker thread that runs ONNX inference for onnx-embedder.ts. It is
 * kept as a fixed string (run with `eval: true`) so that it loads the same way from the
 * TypeScript sources and from dist/. It holds one InferenceSession; each request carries
 * token ids, masks and type ids as flat BigInt64Arrays and gets back the model's
 * last_hidden_state (or its first output) as a Float32Array; it answers on its port and
 * then wakes the waiting main thread through the shared flag. Each answer carries its
 * request's id, so that an answer arriving after its caller gave up is recognised as late.
 * A runtime that does not load is reported as `unavailable`, not thrown at load time.
 */

export const ONNX_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { modelFile, flagBuffer, port } = workerData;
const fs = require('node:fs');
const path = require('node:path');
const flag = new Int32Array(flagBuffer);
function reply(id, message) {
  port.postMessage({ ...message, id });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
const text = (err) => String((err && err.message) || err).split('\\n')[0];
let ort;
let session;
let executionProvider = 'cpu';
async function open() {
  try {
    ort = require('onnxruntime-node');
  } catch (err) {
    return { ok: false, unavailable: true, message: 'onnxruntime-node did not load (' + text(err) + ')' };
  }
  // CUDA only when this onnxruntime build ships its provider library (else trying it just logs an error).
  const runtimeDir = path.dirname(require.resolve('onnxruntime-node/package.json'));
  const cudaLib = path.join(runtimeDir, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so');
  const providers = workerData.providers.filter((p) => p !== 'cuda' || fs.existsSync(cudaLib));
  let lastError;
  for (const p of providers) {
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
port.on('message', (req) => {
  const work = req.kind === 'open' ? open() : run(req);
  work.then((message) => reply(req.id, message), (err) => reply(req.id, { ok: false, message: String(err && err.message || err) }));
});
`;
