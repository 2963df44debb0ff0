/**
 * The streams the CLI writes to, gathered in one object so that commands can be run against
 * other streams (tests) and so that the rules for colour and table width live in one place.
 */

import { escapeForLog } from '../server/log-text.js';
import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
}

let pipeGuardInstalled = false;

/**
 * The process's own streams. A reader that goes away early (`graphdb query … | head -1`)
 * ends the process quietly instead of crashing it with EPIPE.
 */
export function processIo(): CliIo {
  if (!pipeGuardInstalled) {
    pipeGuardInstalled = true;
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw err;
      });
    }
  }
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/** Writes text and a line break. */
export function writeLine(stream: Writable, text = ''): void {
  stream.write(text + '\n');
}

/** A line of a long-running process's log (servers, replication, auto-sync): text from clients and peers in it is escaped (log-text.ts). */
export function logLine(stream: Writable, line: string): void {
  stream.write(escapeForLog(line) + '\n');
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR;
}

/** The width tables must fit in: the terminal's, or none for pipes and files. */
export function tableWidth(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0 ? stream.columns : undefined;
}
