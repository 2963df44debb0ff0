/**
 * Copies of a listening TCP socket's file descriptor, so that worker threads can accept
 * connections on the same port as the main thread (the HTTP door served by the query
 * workers, `http/worker-door.ts`): the kernel spreads new connections over every thread that
 * accepts on the socket. Node 22.12 has `reusePort` for this; Node 20 does not.
 *
 * Each worker needs a descriptor of its own, not the main thread's number: a thread that
 * closes its server — or simply exits (a stuck query's worker is terminated and replaced) —
 * closes the descriptor it listens on, and with a shared number that would close the socket
 * under every other thread (and later close whatever file reused the number). Node has no
 * dup(); but a handle sent over a child process's IPC channel arrives as a new descriptor
 * (SCM_RIGHTS). So a tiny helper process is started, the main thread's listening handle is
 * sent to it, and it sends that handle back once per copy asked for, closing its own
 * descriptor each time. The helper never listens, so it never accepts a connection.
 *
 * The copies arrive as raw handles on the main thread, which keeps them (never closing
 * them: the worker owns the descriptor from then on) so that they are not collected.
 *
 * Reading a server's descriptor is `server._handle.fd`, which is not public API: it is read
 * here alone, checked (`canCopyListener`), and every caller falls back to the main thread
 * answering everything when it is missing.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:net';

/** The helper's whole program: echo each handle back as often as asked, keeping none. */
const HELPER = `
process.on('message', (m, handle) => {
  if (!handle || typeof m !== 'object' || m === null || m.copies !== 1) return;
  process.send({ copy: true }, handle, {}, () => handle.close());
});
process.on('disconnect', () => process.exit(0));
`;

/** How long the helper may take to start and answer before copying is given up. */
const COPY_TIMEOUT_MS = 10_000;

interface RawHandle {
  fd?: unknown;
  close?: () => void;
}

/** The descriptor a listening server accepts on, where the platform exposes one (POSIX; Node's private `_handle.fd`). */
export function listenerFd(server: Server): number | undefined {
  if (process.platform === 'win32') return undefined;
  const handle = (server as unknown as { _handle?: RawHandle | null })._handle;
  const fd = handle?.fd;
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : undefined;
}

/** Whether `server`'s listening socket can be copied for worker threads. */
export function canCopyListener(server: Server): boolean {
  return listenerFd(server) !== undefined;
}

/** Hands out copies of one listening socket's descriptor (see the module comment). */
export class ListenerCopier {
  /** Raw handles of the copies handed out: kept so that they are never collected (and closed) here. */
  private readonly kept: RawHandle[] = [];
  private readonly waiting: { resolve(fd: number): void; reject(err: Error): void; timer: NodeJS.Timeout }[] = [];
  private closed = false;

  private constructor(
    private readonly helper: ChildProcess,
    private readonly listener: Server,
  ) {
    helper.on('message', (_m: unknown, handle: unknown) => {
      const next = this.waiting.shift();
      if (next === undefined) return;
      clearTimeout(next.timer);
      const raw = handle as RawHandle | undefined;
      if (raw === undefined || typeof raw.fd !== 'number' || raw.fd < 0) return next.reject(new Error('the helper sent back no descriptor'));
      this.kept.push(raw);
      next.resolve(raw.fd);
    });
    const fail = (why: string): void => {
      for (const w of this.waiting.splice(0)) {
        clearTimeout(w.timer);
        w.reject(new Error(why));
      }
    };
    helper.on('exit', () => fail('the descriptor helper process stopped'));
    helper.on('error', (err) => fail(`the descriptor helper process failed: ${err.message}`));
  }

  /** A copier for `listener`, or undefined where its descriptor cannot be read. */
  static start(listener: Server): ListenerCopier | undefined {
    if (!canCopyListener(listener)) return undefined;
    // spawn, not fork: none of our exec arguments (a TypeScript loader, inspector flags) go to the plain-JavaScript helper.
    const helper = spawn(process.execPath, ['-e', HELPER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    // The helper must never hold the server process open.
    helper.unref();
    (helper as unknown as { channel?: { unref(): void } }).channel?.unref();
    return new ListenerCopier(helper, listener);
  }

  /** A new descriptor of the listening socket, for one worker thread to listen on (it owns and closes it). */
  copy(): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the listener copier is closed'));
    const handle = (this.listener as unknown as { _handle?: unknown })._handle;
    if (handle === undefined || handle === null) return Promise.reject(new Error('the server no longer listens'));
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.waiting.findIndex((w) => w.timer === timer);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new Error('the descriptor helper process did not answer'));
      }, COPY_TIMEOUT_MS);
      timer.unref();
      this.waiting.push({ resolve, reject, timer });
      // A raw TCP handle travels as 'net.Native': the helper gets it without listening on it.
      this.helper.send({ copies: 1 }, handle as Parameters<ChildProcess['send']>[1], {}, (err) => {
        if (err) reject(err);
      });
    });
  }

  /** Stops the helper; copies already handed out stay with their threads. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.helper.connected) this.helper.disconnect();
    this.helper.kill();
  }
}
