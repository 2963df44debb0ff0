/**
 * One TCP client: reads lines, answers each with one JSON line, in order. Queries of one
 * client run one after another; between two queries the session yields to the event loop
 * so that a client sending thousands of lines at once cannot starve the others. Output
 * backpressure is per socket: when the client does not read its answers, this session
 * stops reading its input until the socket drains, and nobody else waits.
 *
 * When the server has an API key, the first non-blank line must be `AUTH <key>`: it is
 * answered `{"auth":"ok"}`; anything else (or nothing within the start-up time) gets an
 * UNAUTHORIZED error line and the connection closes. A first line that is an HTTP request
 * line (a web page made a browser send a request here) closes the connection at once; what
 * a client may run is the shared rule's (../authorization.ts). A connection idle (no query in
 * progress) for the idle time limit gets an IDLE_TIMEOUT error line and is closed.
 */

import type { Socket } from 'node:net';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { QueryExecutor } from '../../engine/types.js';
import type { ServerLimits } from '../limits.js';
import { runQueryText } from '../query-runner.js';
import { errorBody } from '../wire-format.js';
import { LineSplitter } from '../line-splitter.js';
import { secretMatcher } from '../secret-compare.js';
import { grantFor, isLoopback } from '../authorization.js';
import { drainedOrClosed } from '../running.js';
import type { ProcedureAccess } from '../../../procedures/registry.js';
import type { Database } from '../../engine/database.js';
import { StatementLines } from './statement-lines.js';

/** Lines waiting for an answer beyond which the session stops reading more input. */
const MAX_QUEUED_LINES = 256;
const CR = 0x0d;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The first line of an HTTP/1 request (`POST / HTTP/1.1`), which no query starts with. */
const HTTP_REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/\d(\.\d)?$/;

type Job = { kind: 'line'; bytes: Buffer } | { kind: 'overflow' };

export class TcpSession {
  private readonly splitter: LineSplitter;
  private readonly queue: Job[] = [];
  private running = false;
  private inputEnded = false;
  private closed = false;
  /** Checks an AUTH line's key; undefined once authenticated (or when no key is set). */
  private keyCheck: ((given: string) => boolean) | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  /** Aborted when the connection closes: the query in progress stops (nobody is left to read its answer). */
  private readonly gone = new AbortController();
  /** What this client may do (../authorization.ts): with a key, everything once authenticated. */
  private readonly allow: readonly ProcedureAccess[];
  /** No line answered yet: the first one is checked for an HTTP request line. */
  private firstLine = true;
  /** BEGIN/COMMIT/ROLLBACK and JSON lines (statement-lines.ts). */
  private readonly lines: StatementLines;

  constructor(
    private readonly socket: Socket,
    private readonly queries: QueryExecutor,
    private readonly limits: ServerLimits,
    apiKey?: string,
    db?: Database,
  ) {
    this.splitter = new LineSplitter(limits.maxLineBytes);
    this.allow = grantFor({ keyRequired: apiKey !== undefined, keyGiven: apiKey !== undefined, page: 'none', local: isLoopback(socket.remoteAddress), readOnlyRoute: false });
    this.lines = new StatementLines(db, queries, limits, this.allow);
    if (apiKey !== undefined) {
      this.keyCheck = secretMatcher(apiKey);
      this.authTimer = setTimeout(() => void this.refuse('no AUTH line within the start-up time'), limits.headersTimeoutMs);
      this.authTimer.unref();
    }
    if (limits.idleTimeoutMs > 0) {
      socket.setTimeout(limits.idleTimeoutMs, () => {
        if (this.running || this.closed) return;
        void this.sendAndClose(errorBody('IDLE_TIMEOUT', `The connection was idle for ${limits.idleTimeoutMs} ms and is closed`));
      });
    }
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.gone.abort();
      this.lines.close();
      this.queue.length = 0;
      clearTimeout(this.authTimer);
    });
  }

  /** Answers UNAUTHORIZED and closes (a missing or wrong AUTH line). */
  private async refuse(why: string): Promise<void> {
    await this.sendAndClose(
      errorBody('UNAUTHORIZED', `The server requires an API key (${why}): send "AUTH <API_KEY>" as the first line`),
    );
  }

  private async sendAndClose(body: object): Promise<void> {
    if (this.closed || this.inputEnded) return;
    this.queue.length = 0;
    this.inputEnded = true;
    await this.send(body);
    this.finish();
  }

  /** Finishes the answer in progress, then closes (server shutdown). */
  shutdown(): void {
    this.queue.length = 0;
    this.inputEnded = true;
    if (!this.running) this.finish();
  }

  private onData(chunk: Buffer): void {
    // After an overflow the rest of the input is read and dropped, so the peer's close is seen.
    if (this.inputEnded) return;
    const { lines, overflow } = this.splitter.push(chunk);
    for (const bytes of lines) this.queue.push({ kind: 'line', bytes });
    if (overflow) {
      this.queue.push({ kind: 'overflow' });
      this.inputEnded = true;
    } else if (this.queue.length >= MAX_QUEUED_LINES) {
      this.socket.pause();
    }
    void this.pump();
  }

  private onEnd(): void {
    const last = this.splitter.flush();
    if (last !== undefined) this.queue.push({ kind: 'line', bytes: last });
    this.inputEnded = true;
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed) {
        const job = this.queue.shift();
        if (job === undefined) break;
        if (job.kind === 'overflow') {
          await this.send(errorBody('LINE_TOO_LONG', `A query line is longer than the limit of ${this.limits.maxLineBytes} bytes; closing the connection`));
          this.queue.length = 0;
          break;
        }
        const answer = await this.answer(job.bytes);
        if (answer !== undefined) await this.send(answer);
        await yieldToLoop();
        if (!this.inputEnded && this.queue.length < MAX_QUEUED_LINES / 2 && this.socket.isPaused()) this.socket.resume();
      }
    } finally {
      this.running = false;
    }
    if (this.inputEnded && !this.closed) this.finish();
  }

  /** Ends our side; a peer that never closes its side is cut off after a grace period. */
  private finish(): void {
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 5000).unref();
  }

  /** The answer to one line, or undefined for a blank line (ignored). */
  private async answer(bytes: Buffer): Promise<object | undefined> {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    let text: string;
    try {
      text = strictUtf8.decode(bytes.subarray(0, end));
    } catch {
      return errorBody('BAD_ENCODING', 'The line is not valid UTF-8 text');
    }
    if (text.trim() === '') return undefined;
    if (this.firstLine) {
      this.firstLine = false;
      // A web page can make a browser send an HTTP request to this port, whose body lines would run as queries.
      if (HTTP_REQUEST_LINE.test(text)) {
        void this.sendAndClose(errorBody('BAD_REQUEST', 'This is the line-oriented TCP door, not HTTP: use the --http port (the connection is closed)'));
        return undefined;
      }
    }
    if (this.keyCheck !== undefined) return this.authenticate(text);
    const special = await this.lines.answer(text, this.gone.signal);
    if (special !== undefined) return special;
    const outcome = await runQueryText(this.queries, text, this.limits, { signal: this.gone.signal, allow: this.allow });
    return outcome.ok ? outcome.body : outcome.error;
  }

  /** The answer to the first line when a key is required. */
  private authenticate(line: string): object | undefined {
    const match = /^AUTH[ \t]+(.*?)[ \t]*$/.exec(line);
    if (match && this.keyCheck?.(match[1])) {
      this.keyCheck = undefined;
      clearTimeout(this.authTimer);
      return { auth: 'ok' };
    }
    void this.refuse(match ? 'the key is wrong' : 'the first line was not AUTH <key>');
    return undefined;
  }

  private async send(body: object): Promise<void> {
    if (this.closed) return;
    let line: string;
    try {
      line = JSON.stringify(body) + '\n';
    } catch {
      line = JSON.stringify(errorBody('LIMIT_EXCEEDED', 'The result is too large to send; narrow the query or add LIMIT')) + '\n';
    }
    if (this.socket.write(line)) return;
    await drainedOrClosed(this.socket);
  }
}
