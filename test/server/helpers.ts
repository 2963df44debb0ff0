/**
 * Shared helpers of the server tests: raw socket conversations (send bytes, collect what
 * comes back until the server closes or goes quiet) and spawning the real `graphdb`
 * binary with servers on free ports (read back from its start-up lines).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

export const GRAPHDB_BIN = fileURLToPath(new URL('../../bin/graphdb.js', import.meta.url));
export const MCP_BIN = fileURLToPath(new URL('../../bin/graphdb-mcp.js', import.meta.url));

export interface Conversation {
  text: string;
  /** True when the server closed the connection (rather than us timing out). */
  closedByServer: boolean;
}

/** Connects, writes each chunk in turn, and collects the reply until close or `quietMs` of silence. */
export function converse(port: number, chunks: (string | Uint8Array)[], opts: { end?: boolean; quietMs?: number } = {}): Promise<Conversation> {
  const quietMs = opts.quietMs ?? 1500;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(parts).toString('utf8'), closedByServer });
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), quietMs);
    };
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      arm();
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (opts.end) socket.end();
      arm();
    });
  });
}

export interface SpawnedServers {
  child: ChildProcess;
  stderr: () => string;
  ports: { http?: number; tcp?: number; pg?: number; bolt?: number };
  stop(): Promise<number | null>;
}

export interface SpawnOptions {
  /** Start the binary's own default number of query workers (one per core, at most 4) when `args` name none: for tests of the configuration as shipped. */
  defaultWorkers?: boolean;
}

/**
 * A test server's query workers when its test names no count: one, so the worker path (routing,
 * writes replayed into the worker's replica) runs as it does by default, while each further
 * worker would cost every spawned server another half second of CPU (a fresh isolate loading the
 * engine) and replay every write once more. Tests about several workers pass `--workers`, and
 * tests of the default configuration `defaultWorkers`.
 */
function withTestWorkers(args: string[], options: SpawnOptions): string[] {
  if (options.defaultWorkers === true || args.some((a) => a === '--workers' || a.startsWith('--workers='))) return args;
  return [...args, '--workers', '1'];
}

/** Starts `graphdb <args>` (under node with `nodeFlags`) and waits until its "serving" line, reading the ports from the banner. */
export function spawnGraphdb(args: string[], nodeFlags: string[] = [], options: SpawnOptions = {}): Promise<SpawnedServers> {
  const child = spawn(process.execPath, [...nodeFlags, GRAPHDB_BIN, ...withTestWorkers(args, options)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let err = '';
  return new Promise((resolve, reject) => {
    // Only a server that never starts trips this: on a loaded machine starting the query worker
    // threads (each loads the engine and maps the graph) takes several seconds.
    const timer = setTimeout(() => reject(new Error(`graphdb did not start:\n${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      if (!err.includes('graphdb: serving')) return;
      clearTimeout(timer);
      const num = (re: RegExp): number | undefined => {
        const m = re.exec(err);
        return m ? Number(m[1]) : undefined;
      };
      resolve({
        child,
        stderr: () => err,
        ports: {
          http: num(/HTTP server listening on http:\/\/[^:]+:(\d+)/),
          tcp: num(/TCP server listening on [^:]+:(\d+)/),
          pg: num(/PostgreSQL wire server listening on [^:]+:(\d+)/),
          bolt: num(/Bolt server listening on bolt(?:\+s)?:\/\/[^:]+:(\d+)/),
        },
        stop: () =>
          new Promise((res) => {
            if (child.exitCode !== null) return res(child.exitCode);
            child.once('exit', (code) => res(code));
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`graphdb exited with ${code}:\n${err}`));
    });
  });
}

/** Random bytes from a seeded generator (reproducible garbage). */
export function garbage(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Stops servers `spawnGraphdb` started, killing them if they have not exited within 10 s (a hung shutdown fails the hook, not the run). */
export async function stopSpawned(s: SpawnedServers | undefined): Promise<void> {
  if (s === undefined) return;
  const late = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  await s.stop();
  clearTimeout(late);
}
