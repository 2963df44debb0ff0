/**
 * The crash test's moving parts: start a graphdb TCP server on a data directory (the real
 * CLI, `graphdb --serve 0 --data-dir <dir>`, when it is built; else `tcp-child.ts`), drive
 * it with several connections each sending one mutating query at a time, SIGKILL it at a
 * random moment, and check the directory afterwards.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../src/engine/database.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Server {
  child: ChildProcess;
  port: number;
  stderr: () => string;
}

/** True when dist/ holds a CLI that serves TCP and knows --data-dir. */
function builtCliServes(): boolean {
  return fs.existsSync(`${ROOT}dist/src/cli/serve.js`) && fs.existsSync(`${ROOT}dist/src/cli/data-dir.js`);
}

/** `checkpointRecords` small makes checkpoints (and background snapshots, every third) frequent, so some kills land in the middle of one. */
export function startServer(dir: string, checkpointRecords = 100_000): Promise<Server> {
  const args = builtCliServes()
    ? // One query worker, as test/server/helpers.ts starts its servers: the writes (and so the WAL) stay on the main thread either way.
      [`${ROOT}bin/graphdb.js`, '--serve', '0', '--data-dir', dir, '--workers', '1']
    : ['--import', 'tsx', `${ROOT}test/crash/tcp-child.ts`, dir];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GRAPHDB_HISTORY: '', GRAPHDB_CHECKPOINT_RECORDS: String(checkpointRecords), GRAPHDB_SNAPSHOT_RECORDS: String(checkpointRecords * 3) } });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 30_000);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      err += chunk;
      const m = /TCP server listening on [^\s]*:(\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${err}`));
    });
  });
}

/** Resolves once the child has exited and been reaped (a zombie would still look alive to the lock). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface Writer {
  /** Writes acknowledged by the server (index numbers). */
  acked: number[];
  /** The write sent and not yet answered, if any. */
  inFlight: number | undefined;
  errors: string[];
}

/** One connection writing `query(i)` for i = 0, 1, … one at a time until the socket dies. */
export function writeLoop(port: number, query: (i: number) => string): { writer: Writer; done: Promise<void> } {
  const writer: Writer = { acked: [], inFlight: undefined, errors: [] };
  const done = new Promise<void>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    let i = 0;
    const send = (): void => {
      writer.inFlight = i;
      socket.write(query(i) + '\n');
    };
    socket.setEncoding('utf8');
    socket.on('connect', send);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const reply = JSON.parse(line) as { error?: boolean; message?: string };
        if (reply.error) writer.errors.push(reply.message ?? line);
        else writer.acked.push(i);
        writer.inFlight = undefined;
        i++;
        send();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
  return { writer, done };
}

/** Checks the recovered graph's internal consistency; returns the problems found. */
export function consistencyProblems(db: Database): string[] {
  const g = db.graph;
  const problems: string[] = [];
  let nodes = 0;
  let outEntries = 0;
  let inEntries = 0;
  for (const node of g.allNodes()) {
    nodes++;
    g.adjOut.forEach((_block, typeId) => {
      g.forEachAdjacent(node, [typeId], 'out', (relId, nbrId) => {
        const rel = g.relAt(relId);
        if (!rel || rel.start !== node || rel.typeId !== typeId || rel.end.id !== nbrId) problems.push(`bad out entry on node ${node.id}`);
        outEntries++;
      });
    });
    g.adjIn.forEach((_block, typeId) => {
      g.forEachAdjacent(node, [typeId], 'in', (relId, nbrId) => {
        const rel = g.relAt(relId);
        if (!rel || rel.end !== node || rel.typeId !== typeId || rel.start.id !== nbrId) problems.push(`bad in entry on node ${node.id}`);
        inEntries++;
      });
    });
  }
  let rels = 0;
  for (const rel of g.allRels()) {
    rels++;
    if (g.nodeAt(rel.start.id) !== rel.start || g.nodeAt(rel.end.id) !== rel.end) problems.push(`relationship ${rel.id} points at a missing node`);
  }
  if (nodes !== g.nodeCount) problems.push(`node count ${g.nodeCount} but ${nodes} nodes`);
  if (rels !== g.relCount) problems.push(`relationship count ${g.relCount} but ${rels} relationships`);
  if (outEntries !== rels || inEntries !== rels) problems.push(`adjacency has ${outEntries} out / ${inEntries} in entries for ${rels} relationships`);
  for (const label of g.labels()) {
    let n = 0;
    for (const node of g.allNodes()) if (node.labels.includes(label)) n++;
    if (n !== g.labelCount(label)) problems.push(`label ${label}: index says ${g.labelCount(label)}, scan finds ${n}`);
  }
  return problems.slice(0, 20);
}
