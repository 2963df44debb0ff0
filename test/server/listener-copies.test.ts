/**
 * Copies of a listening socket for worker threads (src/server/listener-copies.ts), with real
 * sockets and real threads: each copy is a descriptor of its own, so threads accepting on the
 * copies and the main thread all get connections, and a thread that exits (as a replaced
 * query worker does) closes only its own copy — the port stays served by the others.
 */

import { connect, createServer, type Server } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ListenerCopier, listenerFd } from '../../src/server/listener-copies.js';

/** A thread answering every connection on descriptor `fd` with its name. */
function acceptingThread(fd: number, name: string): Promise<Worker> {
  const code = `
    const net = require('node:net');
    const { workerData, parentPort } = require('node:worker_threads');
    net.createServer((c) => c.end(workerData.name)).listen({ fd: workerData.fd }, () => parentPort.postMessage('up'));`;
  const worker = new Worker(code, { eval: true, workerData: { fd, name } });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

/** Who answers a new connection to `port`. */
function whoAnswers(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('listener copies', () => {
  let server: Server | undefined;
  let copier: ListenerCopier | undefined;
  const workers: Worker[] = [];
  afterEach(async () => {
    copier?.close();
    await Promise.all(workers.splice(0).map((w) => w.terminate()));
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('gives each thread a descriptor of its own; a thread that exits leaves the port served', async () => {
    server = createServer((c) => c.end('main'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as { port: number }).port;
    const mainFd = listenerFd(server);
    expect(mainFd).toBeTypeOf('number');
    copier = ListenerCopier.start(server);
    expect(copier).toBeDefined();
    const fds = [await copier!.copy(), await copier!.copy()];
    expect(new Set([mainFd, ...fds]).size).toBe(3);
    workers.push(await acceptingThread(fds[0], 'a'), await acceptingThread(fds[1], 'b'));

    const seen = new Set<string>();
    for (let i = 0; i < 60 && seen.size < 3; i++) seen.add(await whoAnswers(port));
    expect([...seen].sort()).toEqual(['a', 'b', 'main']);

    // Thread a exits: its descriptor closes, and only its.
    await workers.shift()!.terminate();
    const after = new Set<string>();
    for (let i = 0; i < 40; i++) after.add(await whoAnswers(port));
    expect(after.has('a')).toBe(false);
    expect([...after].every((t) => t === 'b' || t === 'main')).toBe(true);
    expect(listenerFd(server)).toBe(mainFd);
    expect(server.address()).not.toBeNull();
  }, 30_000);
});
