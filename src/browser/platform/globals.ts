/**
 * Node globals the engine uses, injected into the browser bundle by esbuild (`inject`):
 * `Buffer` (the `buffer` package, same API), `setImmediate` (a macrotask through
 * MessageChannel, so long work still yields to the event loop), and a small `process`
 * (memory figures from the page where Chromium gives them, an empty environment, stderr
 * to the console).
 */
import { Buffer } from 'buffer';

export { Buffer };

const channel = new MessageChannel();
const queue: (() => void)[] = [];
channel.port1.onmessage = () => queue.shift()?.();

export function setImmediate(fn: (...args: unknown[]) => void, ...args: unknown[]): number {
  queue.push(() => fn(...args));
  channel.port2.postMessage(0);
  return 0;
}

interface PageMemory {
  usedJSHeapSize: number;
  totalJSHeapSize: number;
}

function memoryUsage(): { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number } {
  const m = (globalThis.performance as unknown as { memory?: PageMemory }).memory;
  const used = m?.usedJSHeapSize ?? 0;
  return { rss: m?.totalJSHeapSize ?? used, heapUsed: used, heapTotal: m?.totalJSHeapSize ?? used, external: 0, arrayBuffers: 0 };
}

export const process = {
  env: {} as Record<string, string | undefined>,
  argv: [] as string[],
  pid: 1,
  platform: 'browser',
  arch: 'wasm',
  execPath: '',
  versions: {} as Record<string, string>,
  memoryUsage,
  stderr: { write: (text: string): boolean => (console.warn(text.trimEnd()), true) },
  stdout: { write: (text: string): boolean => (console.log(text.trimEnd()), true) },
  on: (): void => undefined,
  once: (): void => undefined,
  nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]): void => queueMicrotask(() => fn(...args)),
  hrtime: Object.assign((): [number, number] => {
    const ms = performance.now();
    return [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
  }, { bigint: (): bigint => BigInt(Math.round(performance.now() * 1e6)) }),
  cwd: (): string => '/',
  exitCode: undefined as number | undefined,
};

/**
 * The store allocates its columns on SharedArrayBuffer so Node's query workers can read them
 * without a copy. A page has it only when cross-origin isolated (COOP/COEP headers); the
 * browser build never shares these buffers between threads, so a plain ArrayBuffer serves
 * otherwise, and the bundle works with or without those headers.
 */
const PageSharedArrayBuffer: SharedArrayBufferConstructor =
  (globalThis as { SharedArrayBuffer?: SharedArrayBufferConstructor }).SharedArrayBuffer ?? (ArrayBuffer as unknown as SharedArrayBufferConstructor);
export { PageSharedArrayBuffer as SharedArrayBuffer };

/**
 * Node's timers answer an object with `unref`/`ref` (the engine unrefs its idle timers so
 * they do not keep a process alive); a page's answer a number. These give the Node shape over
 * the page's timers; nothing keeps a page alive, so `unref` changes nothing.
 */
class Timeout {
  constructor(readonly id: number) {}
  unref(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  hasRef(): boolean {
    return false;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

type TimerHandler = (...args: unknown[]) => void;
const pageSetTimeout = globalThis.setTimeout.bind(globalThis);
const pageClearTimeout = globalThis.clearTimeout.bind(globalThis);
const pageSetInterval = globalThis.setInterval.bind(globalThis);
const pageClearInterval = globalThis.clearInterval.bind(globalThis);
const timerId = (t: Timeout | number | undefined): number | undefined => (t instanceof Timeout ? t.id : t);

function nodeSetTimeout(fn: TimerHandler, ms?: number, ...args: unknown[]): Timeout {
  return new Timeout(pageSetTimeout(fn, ms, ...args) as unknown as number);
}
function nodeClearTimeout(t: Timeout | number | undefined): void {
  pageClearTimeout(timerId(t));
}
function nodeSetInterval(fn: TimerHandler, ms?: number, ...args: unknown[]): Timeout {
  return new Timeout(pageSetInterval(fn, ms, ...args) as unknown as number);
}
function nodeClearInterval(t: Timeout | number | undefined): void {
  pageClearInterval(timerId(t));
}

export { nodeSetTimeout as setTimeout, nodeClearTimeout as clearTimeout, nodeSetInterval as setInterval, nodeClearInterval as clearInterval };
