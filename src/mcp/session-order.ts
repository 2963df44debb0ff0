/**
 * Per-session order of MCP requests (SPEC: read-your-writes per session): a request starts
 * only after every earlier write of the session has finished (its reply sent, so its commit
 * happened), and a write starts only after every earlier request has finished. Reads that
 * follow only reads start at once and overlap. A client that sends write_query, get_schema
 * and graph_rag without waiting therefore sees its write in the two reads, while a batch of
 * reads still runs concurrently. Which tools only read is listed here; any other tools/call
 * counts as a write, so a new tool is ordered safely until it is listed.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type RequestId = string | number;
type Kind = 'read' | 'write';

/** Tools that never change the graph. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['get_schema', 'get_capabilities', 'read_query', 'graph_rag']);

/** Whether a request may change the graph: a tools/call of a tool not known to only read. */
export function requestKind(message: JSONRPCMessage): Kind {
  if (!('method' in message) || message.method !== 'tools/call') return 'read';
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && READ_ONLY_TOOLS.has(name) ? 'read' : 'write';
}

export class SessionOrder {
  /** Forwarded to the server, not answered yet. */
  private readonly running = new Map<RequestId, Kind>();
  /** Waiting for their turn, in arrival order. */
  private readonly held: { id: RequestId; kind: Kind; message: JSONRPCMessage }[] = [];

  constructor(private readonly forward: (message: JSONRPCMessage) => void) {}

  /** A request read from the client: forwarded now, or once its turn comes. */
  submit(id: RequestId, message: JSONRPCMessage): void {
    this.held.push({ id, kind: requestKind(message), message });
    this.release();
  }

  /** The request was answered (or cancelled): what waited on it may start. */
  done(id: RequestId): void {
    const at = this.held.findIndex((h) => h.id === id);
    if (at >= 0) this.held.splice(at, 1);
    this.running.delete(id);
    this.release();
  }

  private release(): void {
    while (this.held.length > 0) {
      if ([...this.running.values()].includes('write')) return;
      const next = this.held[0];
      if (next.kind === 'write' && this.running.size > 0) return;
      this.held.shift();
      this.running.set(next.id, next.kind);
      this.forward(next.message);
    }
  }
}
