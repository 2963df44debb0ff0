/**
 * `node:worker_threads` in the browser build. `isMainThread` is false: the engine then runs
 * backtracking regexes without the `vm` time box (which needs Node), as it does in its own
 * query workers; in a page, the default Web Worker mode keeps the page responsive meanwhile.
 * Node's `Worker` (parallel algorithms, ONNX) is refused with a typed error, so callers take
 * their single-threaded paths.
 */
import { BrowserUnsupportedError } from '../../errors.js';

export const isMainThread = false;
export const parentPort = null;
export const workerData = undefined;
export const threadId = 0;

export class Worker {
  constructor() {
    throw new BrowserUnsupportedError('Node worker threads');
  }
}

const PageMessageChannel = globalThis.MessageChannel;
export { PageMessageChannel as MessageChannel };

export function receiveMessageOnPort(): undefined {
  return undefined;
}
