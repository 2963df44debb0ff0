/**
 * Sync transports (SPEC "Sync routes", client contract): `push(payload)` answers a SyncAck,
 * `pull(peerId, since)` answers the remote feed after `since`. `InProcessTransport` talks to
 * another SyncNode in this process (tests, loopback) through a JSON round trip, so it sees
 * exactly what the wire would carry; `HttpTransport` talks to a peer's `/api/sync/*` routes.
 */

import { SyncPeerError, SyncPayloadError } from './errors.js';
import { checkAck, checkPullResponse, type SyncAck, type SyncPayload, type SyncPullResponse } from './protocol.js';
import type { ScopeFilter } from './options.js';
import { checkScope } from './scopes.js';
import type { SyncNode } from './sync-node.js';

export interface SyncTransport {
  /** For messages: which peer this is. */
  readonly label: string;
  push(payload: SyncPayload): Promise<SyncAck>;
  /** With `scope`, the peer sends only what is in it (scopes.ts). */
  pull(peerId: string, since: number, scope?: ScopeFilter): Promise<SyncPullResponse>;
}

function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

export class InProcessTransport implements SyncTransport {
  constructor(
    private readonly target: () => SyncNode,
    readonly label = 'in-process peer',
  ) {}

  async push(payload: SyncPayload): Promise<SyncAck> {
    const node = this.live();
    return checkAck(roundTrip(node.receive(roundTrip(payload))));
  }

  async pull(peerId: string, since: number, scope?: ScopeFilter): Promise<SyncPullResponse> {
    const node = this.live();
    const answer = roundTrip(node.servePull(peerId, since, scope && checkScope(roundTrip(scope))));
    return checkPullResponse(answer);
  }

  private live(): SyncNode {
    const node = this.target();
    if (node.isClosed) throw new SyncPeerError(`${this.label} is closed`);
    return node;
  }
}

export interface HttpTransportOptions {
  /** Bearer key the peer requires (--api-key). */
  apiKey?: string;
  timeoutMs?: number;
}

export class HttpTransport implements SyncTransport {
  readonly label: string;
  private readonly base: string;

  constructor(
    url: string,
    private readonly options: HttpTransportOptions = {},
  ) {
    this.base = url.replace(/\/+$/, '');
    this.label = this.base;
  }

  async push(payload: SyncPayload): Promise<SyncAck> {
    return checkAck(await this.request('/api/sync/push', { method: 'POST', body: JSON.stringify(payload) }));
  }

  async pull(peerId: string, since: number, scope?: ScopeFilter): Promise<SyncPullResponse> {
    const scoped = scope ? `&scope=${encodeURIComponent(JSON.stringify(scope))}` : '';
    return checkPullResponse(await this.request(`/api/sync/pull?since=${since}&peer_id=${encodeURIComponent(peerId)}${scoped}`, { method: 'GET' }));
  }

  private async request(path: string, init: { method: string; body?: string }): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    let res: Response;
    try {
      res = await fetch(this.base + path, { ...init, headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000) });
    } catch (err) {
      throw new SyncPeerError(`${this.label} did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SyncPeerError(`${this.label} answered ${res.status} with a body that is not JSON`);
    }
    if (res.status === 400) {
      const message = (body as { message?: unknown }).message;
      throw new SyncPayloadError(`${this.label} refused the payload: ${typeof message === 'string' ? message : text}`);
    }
    if (!res.ok) throw new SyncPeerError(`${this.label} answered ${res.status}: ${text.slice(0, 300)}`);
    return body;
  }
}
