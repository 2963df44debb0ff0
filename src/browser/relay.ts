/**
 * Several tabs on one store: the tab that owns it (its Web Lock, opfs-store.ts) answers the
 * others' calls over a BroadcastChannel named after the store, by passing them to its own
 * worker; a tab whose `GraphDB.open` finds the store locked goes through the owner this way
 * (unless `viaOwner: false`). Each call is answered once, after the owner's worker stored its
 * writes. When the owner closes the store, or its tab goes without a word (its Web Lock is then
 * released, which a queued lock request here learns), the other tabs' pending and later calls
 * fail with OWNER_GONE, and they may open the store themselves.
 */
import { GraphDBError, toWire } from './client-error.js';
import type { Backend, Operation, WireError } from './protocol.js';

type RelayMessage =
  | { kind: 'ping'; from: string }
  | { kind: 'pong'; to: string }
  | { kind: 'request'; from: string; id: number; op: Operation; args: unknown[] }
  | { kind: 'reply'; to: string; id: number; ok: true; value: unknown }
  | { kind: 'reply'; to: string; id: number; ok: false; error: WireError }
  | { kind: 'closed' };

const channelName = (store: string): string => `graphdb-store:${store}`;
/** The owner's Web Lock (opfs-store.ts takes it in the owner's worker). */
const lockName = (store: string): string => `graphdb-store:${store}`;

/** Calls a tab may make through the owner: everything but opening and closing the owner's store. */
const RELAYED = new Set<Operation>(['query', 'mutate', 'batchMutate', 'stats', 'fingerprint', 'exportSnapshot', 'importSnapshot', 'checkpoint', 'generatedSource', 'syncPending', 'syncWith']);

/** The owner's side: answers the other tabs from `backend`. */
export class OwnerRelay {
  private readonly channel: BroadcastChannel;

  constructor(store: string, backend: Backend) {
    this.channel = new BroadcastChannel(channelName(store));
    this.channel.onmessage = (event: MessageEvent<RelayMessage>) => {
      const m = event.data;
      if (m.kind === 'ping') this.channel.postMessage({ kind: 'pong', to: m.from } satisfies RelayMessage);
      if (m.kind !== 'request') return;
      const answer = (reply: RelayMessage): void => this.channel.postMessage(reply);
      if (!RELAYED.has(m.op)) {
        answer({ kind: 'reply', to: m.from, id: m.id, ok: false, error: { name: 'GraphDBError', code: 'STORE_LOCKED', detail: 'NotThroughOwner', message: `${m.op} is not available through the tab that owns the store` } });
        return;
      }
      backend.call(m.op, m.args).then(
        (value) => answer({ kind: 'reply', to: m.from, id: m.id, ok: true, value }),
        (err: unknown) => answer({ kind: 'reply', to: m.from, id: m.id, ok: false, error: toWire(err) }),
      );
    };
  }

  close(): void {
    this.channel.postMessage({ kind: 'closed' } satisfies RelayMessage);
    this.channel.close();
  }
}

const gone = (): GraphDBError =>
  new GraphDBError({ name: 'GraphDBError', code: 'OWNER_GONE', detail: 'OwnerClosed', message: 'The tab that owned the store closed it; open the store again (this tab may now own it)' });

/** A tab's calls through the owner. */
export class RelayBackend implements Backend {
  private readonly id = crypto.randomUUID();
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private closed = false;

  private constructor(
    private readonly channel: BroadcastChannel,
    private readonly ponged: () => void,
  ) {}

  /** Connects to the owner of `store`; undefined when no tab answers within `waitMs`. */
  static async connect(store: string, waitMs = 2000): Promise<RelayBackend | undefined> {
    const channel = new BroadcastChannel(channelName(store));
    let pong: () => void = () => undefined;
    const answered = new Promise<boolean>((resolve) => {
      pong = () => resolve(true);
      setTimeout(() => resolve(false), waitMs);
    });
    const relay = new RelayBackend(channel, () => pong());
    channel.onmessage = (event: MessageEvent<RelayMessage>) => relay.receive(event.data);
    channel.postMessage({ kind: 'ping', from: relay.id } satisfies RelayMessage);
    if (!(await answered)) {
      channel.close();
      return undefined;
    }
    // The owner's tab may go without saying so (killed): its lock is then released, which a queued request learns.
    navigator.locks
      ?.request(lockName(store), { signal: relay.watch.signal }, () => relay.ownerGone())
      .catch(() => undefined);
    return relay;
  }

  /** Ends the wait on the owner's lock when this link closes. */
  private readonly watch = new AbortController();

  private ownerGone(): void {
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(gone());
    this.pending.clear();
  }

  private receive(m: RelayMessage): void {
    if (m.kind === 'closed') return this.ownerGone();
    if (m.kind === 'pong' && m.to === this.id) this.ponged();
    if (m.kind !== 'reply' || m.to !== this.id) return;
    const waiter = this.pending.get(m.id);
    if (!waiter) return;
    this.pending.delete(m.id);
    if (m.ok) waiter.resolve(m.value);
    else waiter.reject(new GraphDBError(m.error));
  }

  call(op: Operation, args: unknown[]): Promise<unknown> {
    // Closing a relayed database ends this tab's link only; the owner keeps its store.
    if (op === 'close') {
      this.terminate();
      return Promise.resolve(undefined);
    }
    if (this.closed) return Promise.reject(gone());
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.channel.postMessage({ kind: 'request', from: this.id, id, op, args } satisfies RelayMessage);
    });
  }

  terminate(): void {
    this.watch.abort();
    this.channel.close();
    this.ownerGone();
  }
}
