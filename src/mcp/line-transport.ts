/**
 * The MCP stdio transport: one JSON-RPC message per line on stdin, one per line on stdout
 * (SPEC "MCP server"). Unlike the SDK's stdio transport it answers broken input itself
 * (through `message-gate.ts`), caps the line length (an oversized line is dropped and
 * answered with a parse error; the session goes on), and on end of stdin closes only after
 * every request already read has been answered, so `echo '{…}' | graphdb-mcp` gets its
 * reply. Writes honour stdout backpressure.
 *
 * Replies leave in the order their requests arrived (the SDK finishes concurrent requests
 * in whatever order their handlers complete): each request, and each line answered by the
 * gate, takes a slot; a reply waits in its slot until every earlier slot has been written.
 * A request the client cancels (`notifications/cancelled`) gives up its slot: it gets no reply.
 * Requests start in the session's order (session-order.ts): after every earlier write has
 * been answered, reads overlapping only reads.
 */

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter } from '../server/line-splitter.js';
import { type ErrorReply, gateLine, PARSE_ERROR } from './message-gate.js';
import { plainErrorText } from './error-text.js';
import { SessionOrder } from './session-order.js';

const CR = 0x0d;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

type RequestId = string | number;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly splitter: LineSplitter;
  /** Requests forwarded to the server and not answered yet. */
  private readonly inFlight = new Set<RequestId>();
  /** Replies in request order: a slot per request read, filled when its reply is sent. */
  private readonly slots: { id: RequestId | null; reply?: object }[] = [];
  private inputEnded = false;
  private closed = false;
  private readonly order = new SessionOrder((message) => this.deliver(message));

  private readonly onData = (chunk: Buffer): void => {
    const { lines, skipped } = this.splitter.push(chunk);
    for (const line of lines) this.handleLine(line);
    for (let i = 0; i < (skipped ?? 0); i++) {
      void this.reply({
        jsonrpc: '2.0',
        id: null,
        error: { code: PARSE_ERROR, message: `Parse error: a message is longer than the limit of ${this.maxLineBytes} bytes; it was dropped` },
      });
    }
  };

  private readonly onEnd = (): void => {
    const last = this.splitter.flush();
    if (last !== undefined) this.handleLine(last);
    this.endOfInput();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
    this.endOfInput();
  };

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes = 16 * 1024 * 1024,
  ) {
    this.splitter = new LineSplitter(maxLineBytes, { skipOversized: true });
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', (error: Error) => {
      // The client went away (EPIPE): nobody is left to answer.
      this.onerror?.(error);
      void this.close();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const outgoing = plainErrorText(message);
    if ('id' in outgoing && ('result' in outgoing || 'error' in outgoing)) {
      const id = outgoing.id as RequestId;
      this.inFlight.delete(id);
      this.order.done(id);
      const slot = this.slots.find((s) => s.reply === undefined && s.id === id);
      if (slot) {
        slot.reply = outgoing;
        await this.flush();
      } else await this.write(outgoing);
    } else await this.write(outgoing);
    this.closeIfDone();
  }

  /** Writes the replies at the head of the queue whose turn has come. */
  private async flush(): Promise<void> {
    const ready: object[] = [];
    while (this.slots.length > 0 && this.slots[0].reply !== undefined) ready.push(this.slots.shift()!.reply!);
    // Every write is queued on stdout now, in order; only then is backpressure awaited.
    await Promise.all(ready.map((reply) => this.write(reply)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.onclose?.();
  }

  private handleLine(bytes: Buffer): void {
    if (this.closed || this.inputEnded) return;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    let text: string | undefined;
    try {
      text = strictUtf8.decode(bytes.subarray(0, end));
    } catch {
      text = undefined;
    }
    if (text !== undefined && text.trim() === '') return;
    const decision = gateLine(text);
    if (decision.kind === 'reply') {
      void this.reply(decision.reply);
    } else if (decision.kind === 'forward') {
      if (decision.requestId !== undefined && 'method' in decision.message) {
        this.inFlight.add(decision.requestId);
        this.slots.push({ id: decision.requestId });
        this.order.submit(decision.requestId, decision.message);
      } else {
        this.deliver(decision.message);
        this.forgetCancelled(decision.message);
      }
    }
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * A cancelled request gets no reply (MCP), so its slot is given up: the replies queued
   * behind it go out now instead of waiting for one that never comes.
   */
  private forgetCancelled(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return;
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id === undefined || !this.inFlight.delete(id)) return;
    this.order.done(id);
    const at = this.slots.findIndex((s) => s.reply === undefined && s.id === id);
    if (at >= 0) this.slots.splice(at, 1);
    void this.flush().then(() => this.closeIfDone());
  }

  private async reply(reply: ErrorReply): Promise<void> {
    this.slots.push({ id: reply.id, reply });
    await this.flush();
  }

  private endOfInput(): void {
    this.inputEnded = true;
    this.input.off('data', this.onData);
    this.closeIfDone();
  }

  private closeIfDone(): void {
    if (this.inputEnded && this.inFlight.size === 0) void this.close();
  }

  private write(message: object): Promise<void> {
    if (this.output.destroyed || this.output.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
