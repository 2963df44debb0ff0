/**
 * `ReplicaClient`: a replica's connection to its primary. It opens the primary's stream
 * (`GET /api/replication/stream`, naming its own mutation sequence and fingerprint), reads
 * newline-delimited messages, hands snapshots and batches to the `ReplicaApplier` one group
 * at a time, and acknowledges what is durable (`POST /api/replication/ack`). Any failure —
 * the primary gone, a silent stream, a malformed message, a gap — closes the stream and
 * reconnects after a short back-off; the primary then resumes it from its ring or sends a
 * snapshot. Nothing here throws to its caller.
 */

import * as http from 'node:http';
import * as https from 'node:https';
import type { Json } from '../store/persist/json.js';
import type { ReplicaApplier } from './applier.js';
import type { StreamClaim } from './stream-claim.js';
import { ReplicationError } from './errors.js';
import { checkSnapshotEntity, checkSnapshotMeta, MAX_STREAM_LINE_CHARS } from './limits.js';
import { ACK_PATH, decodeMessage, PING_MS, secretHeaders, STREAM_PATH, SUCCESSOR_HEADER, TERM_HEADER, type Batch, type SnapshotMeta, type StreamMessage } from './protocol.js';

/** `refused`: the primary is older than a term this replica has seen, or was fenced without naming its successor. */
export type ClientState = 'connecting' | 'snapshot' | 'streaming' | 'refused' | 'stopped';

export interface ClientOptions {
  primaryUrl: string;
  name: string;
  secret: string | undefined;
  log: (line: string) => void;
  /** The highest replication term this replica has seen; a primary with an older one is refused. */
  term: () => number;
  /** A newer term from the primary's hello: recorded durably before the stream is used. */
  learnTerm: (term: number) => void;
  /** The primary was fenced by `term`; `primary` is its successor when it knows it (the replica follows it). */
  onFenced: (term: number, primary: string | undefined) => void;
  /** This replica's Bolt address (host:port) when it serves Bolt: told to the primary, whose routing tables list it as a reader. */
  bolt?: () => string | undefined;
  /** The stream epoch whose history this replica's content is a state of (stream-claim.ts): sent with each stream request, kept as streams resume or snapshot it. */
  claim: StreamClaim;
}

/** One stream's own facts: what it acknowledges and claims is named by its epoch, not by a later stream's. */
interface StreamState {
  epoch: string;
  meta?: SnapshotMeta;
  nodes: Json[];
  rels: Json[];
}

/** Most batches applied as one replica transaction (one fsync). */
const MAX_GROUP = 512;
/** Characters of unread stream lines held before the stream is paused. */
const MAX_QUEUED_CHARS = 128 * 1024 * 1024;
/** A stream silent for this long (no ping, no batch) is taken for dead. */
const SILENCE_MS = PING_MS * 5;
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 2000;
/** Acknowledgement spacing towards an asynchronous primary (it only shows them in db.replicationStatus). */
const ASYNC_ACK_MS = 100;

/** A primary this replica must not follow (an older term, or fenced): the state becomes `refused`. */
class StaleTerm extends Error {}

export class ReplicaClient {
  private current: ClientState = 'connecting';
  /** What the last logged failure was (`auth`, `unreachable`, ...): a retry failing alike logs nothing. */
  private loggedFailure: string | undefined;
  lastError: string | null = null;
  /** The primary's position as last heard (hello, ping or batch), for lag. */
  primarySeq = 0;
  /** Commit time of the newest batch applied; and when the replica last heard it was behind. */
  lastAppliedAt = 0;
  behindSince = 0;
  private request: http.ClientRequest | undefined;
  private stopped = false;
  private backoff = BACKOFF_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private ackInFlight = false;
  private ackPending: { epoch: string; n: number; seq: number } | undefined;
  /** The current stream's epoch (from its hello): acknowledgements name it. */
  private epoch = '';
  /** The primary's mode (from its hello): a synchronous primary is acknowledged at once. */
  private primaryMode = 'async';
  private ackTimer: NodeJS.Timeout | undefined;
  private readonly agent: http.Agent;

  constructor(
    private readonly options: ClientOptions,
    private readonly applier: ReplicaApplier,
  ) {
    const url = new URL(options.primaryUrl);
    this.agent = url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** The connection's state; each change is logged (the operator sees the replica follow, stall or catch up). */
  get state(): ClientState {
    return this.current;
  }

  set state(next: ClientState) {
    if (next === this.current) return;
    const before = this.current;
    this.current = next;
    if (next === 'streaming') this.loggedFailure = undefined;
    if (next !== 'stopped') this.options.log(`graphdb: replica ${this.options.name}: ${before} → ${next} (primary ${this.options.primaryUrl})`);
  }

  start(): void {
    this.options.log(`graphdb: replica ${this.options.name}: connecting to the primary ${this.options.primaryUrl}`);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.state = 'stopped';
    clearTimeout(this.retryTimer);
    clearTimeout(this.ackTimer);
    this.request?.destroy();
    // A stream's loop goes on only while its request is the current one: nothing it still holds is applied after a promotion.
    this.request = undefined;
    this.agent.destroy();
  }

  /** Opens the stream again (as after a network failure), so that the primary hears what changed in its request (the Bolt address). */
  reconnect(why: string): void {
    this.fail(why);
  }

  private fail(reason: string, state: ClientState = 'connecting', httpStatus?: number): void {
    if (this.stopped) return;
    // A refusal is logged (once while it repeats): the operator must hear that the primary sent something this replica will not hold.
    if (state === 'refused' && reason !== this.lastError) this.options.log(`graphdb: replica ${this.options.name}: ${reason}`);
    this.lastError = reason;
    this.state = state;
    // Logged once per kind of failure, not on every retry.
    const kind = httpStatus === 401 || httpStatus === 403 ? 'auth' : httpStatus !== undefined ? `http ${httpStatus}` : reason.startsWith('cannot reach') ? 'unreachable' : state;
    if (kind !== this.loggedFailure) {
      this.loggedFailure = kind;
      const fix =
        kind === 'auth'
          ? ": the primary refused this replica's secret; start the replica with the primary's --replication-secret (a primary with --api-key and no --replication-secret uses its API key)"
          : ' (retrying)';
      this.options.log(`graphdb: replica ${this.options.name}: ${reason.split('\n')[0]}${fix}`);
    }
    this.request?.destroy();
    this.request = undefined;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
  }

  private connect(): void {
    if (this.stopped) return;
    const url = new URL(STREAM_PATH, this.options.primaryUrl);
    url.searchParams.set('name', this.options.name);
    url.searchParams.set('from', String(this.applier.seq));
    url.searchParams.set('fingerprint', this.applier.fingerprint());
    url.searchParams.set('term', String(this.options.term()));
    const claimed = this.options.claim.epoch;
    if (claimed !== undefined) url.searchParams.set('epoch', claimed);
    const bolt = this.options.bolt?.();
    if (bolt !== undefined) url.searchParams.set('bolt', bolt);
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(url, { headers: secretHeaders(this.options.secret), agent: false });
    this.request = req;
    req.on('error', (err) => {
      if (this.request === req) this.fail(`cannot reach the primary ${this.options.primaryUrl}: ${err.message}`);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        const term = Number(res.headers[TERM_HEADER]);
        const successor = res.headers[SUCCESSOR_HEADER];
        if (res.statusCode === 409 && Number.isSafeInteger(term) && term >= this.options.term() && typeof successor === 'string') this.options.onFenced(term, successor);
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk.slice(0, 2000)));
        res.on('end', () => this.fail(`the primary refused the stream (HTTP ${res.statusCode}): ${body.slice(0, 500)}`, res.statusCode === 409 ? 'refused' : 'connecting', res.statusCode));
        res.on('error', () => undefined);
        return;
      }
      this.consume(req, res);
    });
  }

  /** Reads the stream line by line; lines queue while a group is being applied. */
  private consume(req: http.ClientRequest, res: http.IncomingMessage): void {
    res.setEncoding('utf8');
    /** The pieces of the line not yet ended, and their length. */
    const partial: string[] = [];
    let partialChars = 0;
    const queue: string[] = [];
    /** Characters waiting in `queue`: long lines pause the stream as many short ones do. */
    let queued = 0;
    let working = false;
    let silence = setTimeout(() => this.fail('the primary went silent'), SILENCE_MS);
    const stream: StreamState = { epoch: '', nodes: [], rels: [] };
    const work = async (): Promise<void> => {
      if (working) return;
      working = true;
      try {
        while (queue.length > 0 && this.request === req) {
          const group: Batch[] = [];
          while (queue.length > 0 && group.length < MAX_GROUP) {
            const msg = decodeMessage(queue[0]);
            if (msg.t === 'batch') {
              queued -= queue.shift()!.length;
              group.push(msg.batch);
              continue;
            }
            if (group.length > 0) break;
            queued -= queue.shift()!.length;
            await this.handle(msg, stream, req);
            // Replaced while a snapshot was being stored: what this stream sent after it is not applied.
            if (this.request !== req) return;
          }
          if (group.length > 0) this.applyGroup(group, stream.epoch);
          if (queue.length < 1000 && queued < MAX_QUEUED_CHARS / 8 && res.isPaused()) res.resume();
        }
      } catch (err) {
        // Drop what a refused snapshot had gathered before the next try.
        stream.meta = undefined;
        stream.nodes = [];
        stream.rels = [];
        const refused = err instanceof StaleTerm || (err instanceof ReplicationError && err.detail === 'ReplicaLimit');
        this.fail(err instanceof Error ? err.message : String(err), refused ? 'refused' : 'connecting');
      } finally {
        working = false;
      }
    };
    res.on('data', (chunk: string) => {
      clearTimeout(silence);
      silence = setTimeout(() => this.fail('the primary went silent'), SILENCE_MS);
      if (this.request !== req) return;
      // Only the new chunk is searched for line ends: a long line costs its length once, not once per chunk.
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        const tail = chunk.slice(start, nl);
        const line = partial.length > 0 ? partial.join('') + tail : tail;
        partial.length = 0;
        partialChars = 0;
        start = nl + 1;
        if (line.length === 0) continue;
        queue.push(line);
        queued += line.length;
      }
      if (start < chunk.length) {
        partial.push(start === 0 ? chunk : chunk.slice(start));
        partialChars += chunk.length - start;
        if (partialChars > MAX_STREAM_LINE_CHARS) {
          partial.length = 0;
          partialChars = 0;
          queue.length = 0;
          queued = 0;
          this.fail(`Refused the primary's replication stream: a line is longer than ${MAX_STREAM_LINE_CHARS} characters`, 'refused');
          return;
        }
      }
      if (queue.length > 10_000 || queued > MAX_QUEUED_CHARS) res.pause();
      void work();
    });
    const ended = (why: string) => {
      clearTimeout(silence);
      if (this.request === req) this.fail(why);
    };
    res.on('end', () => ended('the primary closed the stream'));
    res.on('error', (err) => ended(`the stream broke: ${err.message}`));
    res.on('close', () => clearTimeout(silence));
  }

  private async handle(msg: Exclude<StreamMessage, { t: 'batch' }>, stream: StreamState, req: http.ClientRequest): Promise<void> {
    switch (msg.t) {
      case 'hello':
        if (msg.term < this.options.term()) {
          throw new StaleTerm(
            `the primary ${this.options.primaryUrl} is at replication term ${msg.term}, older than term ${this.options.term()} this replica has seen: ` +
              'it was superseded; point this replica at the current primary with CALL graphdb.replication.demote(\'<primary URL>\')',
          );
        }
        if (msg.term > this.options.term()) this.options.learnTerm(msg.term);
        this.epoch = msg.epoch;
        stream.epoch = msg.epoch;
        this.primaryMode = msg.mode;
        this.state = 'streaming';
        this.lastError = null;
        this.backoff = BACKOFF_MIN_MS;
        this.notePrimary(msg.seq);
        return;
      case 'fenced':
        this.options.onFenced(msg.term, msg.primary);
        // Following the successor stops this client; without one, say what the operator must do.
        throw new StaleTerm(
          `the primary ${this.options.primaryUrl} was fenced by replication term ${msg.term} and named no successor: ` +
            'point this replica at the current primary with CALL graphdb.replication.demote(\'<primary URL>\')',
        );
      case 'ping':
        this.notePrimary(msg.seq);
        this.ack(stream.epoch, msg.n);
        return;
      case 'snapshot':
        checkSnapshotMeta(msg.meta);
        // The content is about to be replaced: until the snapshot is stored it is a state of no history.
        this.options.claim.clear();
        this.state = 'snapshot';
        stream.meta = msg.meta;
        stream.nodes = [];
        stream.rels = [];
        return;
      case 'node':
      case 'rel': {
        const meta = stream.meta;
        if (meta === undefined) throw new ReplicationError(`The replication stream sent a ${msg.t} outside a snapshot`, 'BadStream');
        const into = msg.t === 'node' ? stream.nodes : stream.rels;
        checkSnapshotEntity(msg.t, msg.e, into.length, meta);
        into.push(msg.e);
        return;
      }
      case 'snapshotEnd': {
        const meta = stream.meta;
        if (!meta) return;
        this.options.log(`graphdb: replica ${this.options.name}: installing the primary's snapshot (${meta.nodeCount} nodes, ${meta.relCount} relationships)`);
        await this.applier.installSnapshot(meta, stream.nodes, stream.rels);
        stream.meta = undefined;
        stream.nodes = [];
        stream.rels = [];
        // Stopped (promoted) or replaced meanwhile: another stream, or no stream, says what the content follows now.
        if (this.stopped || this.request !== req) return;
        this.options.claim.hold(stream.epoch);
        this.state = 'streaming';
        this.lastAppliedAt = Date.now();
        this.ack(stream.epoch, msg.n);
        return;
      }
    }
  }

  private notePrimary(seq: number): void {
    this.primarySeq = seq;
    if (this.applier.seq >= seq) this.behindSince = 0;
    else if (this.behindSince === 0) this.behindSince = Date.now();
  }

  private applyGroup(group: Batch[], epoch: string): void {
    // Claimed before the first batch of a stream is applied: the content is then a state of its history (the primary resumed it there).
    this.options.claim.hold(epoch);
    this.applier.apply(group);
    const last = group[group.length - 1];
    this.lastAppliedAt = last.at;
    if (last.after > this.primarySeq) this.primarySeq = last.after;
    this.notePrimary(this.primarySeq);
    this.ack(epoch, last.n);
  }

  /**
   * Acknowledges stream number `n` of the stream with `epoch` (durable here). Acknowledgements
   * coalesce while one is in flight; to an asynchronous primary, which waits for none, at most
   * one goes per ASYNC_ACK_MS.
   */
  private ack(epoch: string, n: number): void {
    this.ackPending = { epoch, n, seq: this.applier.seq };
    if (this.ackInFlight || this.ackTimer !== undefined) return;
    if (this.primaryMode === 'sync') return this.sendAck();
    this.ackTimer = setTimeout(() => {
      this.ackTimer = undefined;
      this.sendAck();
    }, ASYNC_ACK_MS);
    this.ackTimer.unref();
  }

  private sendAck(): void {
    const next = this.ackPending;
    if (next === undefined || this.stopped) return;
    this.ackPending = undefined;
    this.ackInFlight = true;
    const body = JSON.stringify({ name: this.options.name, epoch: next.epoch, n: next.n, seq: next.seq });
    const url = new URL(ACK_PATH, this.options.primaryUrl);
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'POST',
      agent: this.agent,
      headers: { ...secretHeaders(this.options.secret), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      this.ackInFlight = false;
      const again = this.ackPending;
      if (again && !this.stopped && again.epoch === this.epoch) this.ack(again.epoch, again.n);
      else this.ackPending = undefined;
    };
    req.on('response', (res) => {
      res.resume();
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', done);
    req.end(body);
  }
}
