/**
 * The MCP stdio transport: one JSON-RPC message per line on stdin, one per line on stdout
 * (SPEC "MCP server"). Unlike the SDK's stdio transport it answers broken input itself
 * (through `message-gate.ts`), caps the line length (an oversized line is dropped and
 * answered with a parse error; the session goes on), and on end of stdin closes only after
 * every request already read has been answered, so `echo '{…}' | graphdb-mcp` gets its
 * reply. Writes honour stdout backpressure.
 */

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter } from '../server/line-splitter.js';
import { type ErrorReply, gateLine, PARSE_ERROR } from './message-gate.js';

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
  private inputEnded = false;
  private closed = false;

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
    if ('id' in message && ('result' in message || 'error' in message)) this.inFlight.delete(message.id as RequestId);
    await this.write(message);
    this.closeIfDone();
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
      if (decision.requestId !== undefined && 'method' in decision.message) this.inFlight.add(decision.requestId);
      try {
        this.onmessage?.(decision.message);
      } catch (err) {
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  private async reply(reply: ErrorReply): Promise<void> {
    await this.write(reply);
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
