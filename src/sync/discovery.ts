/**
 * LAN discovery (SPEC "LAN discovery"): each peer sends `{"op":"announce","peer_id",
 * "data_port"}` by UDP multicast to 239.255.0.1:7947 every 5 s and keeps the peers it hears,
 * dropping one 60 s after its last announcement. Group, port, interface and both intervals
 * are options (tests use the loopback interface and short intervals). Announcements that are
 * not valid JSON of that shape, or too long, are ignored and counted; our own are skipped.
 */

import * as dgram from 'node:dgram';
import { PEER_ID_PATTERN } from './statements.js';
import { DISCOVERY_GROUP, DISCOVERY_PORT } from './discovery-defaults.js';

export { DISCOVERY_GROUP, DISCOVERY_PORT };
export const ANNOUNCE_INTERVAL_MS = 5000;
export const STALE_AFTER_MS = 60_000;
const MAX_DATAGRAM = 1024;

export interface Announcement {
  op: 'announce';
  peer_id: string;
  data_port: number;
}

export interface DiscoveredPeer {
  peerId: string;
  address: string;
  dataPort: number;
  lastSeen: number;
}

export interface DiscoveryOptions {
  /** This peer's id; undefined to listen only (`graphdb sync health`). */
  peerId?: string;
  /** The port of this peer's sync (HTTP) server, announced to others. */
  dataPort?: number;
  group?: string;
  port?: number;
  /** Local interface address for sending and joining (e.g. 127.0.0.1). */
  interface?: string;
  announceIntervalMs?: number;
  staleAfterMs?: number;
  now?: () => number;
}

export function announcement(peerId: string, dataPort: number): Announcement {
  return { op: 'announce', peer_id: peerId, data_port: dataPort };
}

/** The announcement a datagram carries, or undefined when it is malformed. */
export function parseAnnouncement(data: Buffer): Announcement | undefined {
  if (data.length > MAX_DATAGRAM) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (o.op !== 'announce' || typeof o.peer_id !== 'string' || !PEER_ID_PATTERN.test(o.peer_id)) return undefined;
  if (typeof o.data_port !== 'number' || !Number.isInteger(o.data_port) || o.data_port < 1 || o.data_port > 65535) return undefined;
  return { op: 'announce', peer_id: o.peer_id, data_port: o.data_port };
}

export class LanDiscovery {
  private readonly socket: dgram.Socket;
  private readonly known = new Map<string, DiscoveredPeer>();
  private timer: NodeJS.Timeout | undefined;
  /** Datagrams ignored because they were not valid announcements. */
  malformed = 0;
  private readonly now: () => number;
  private readonly group: string;
  private readonly port: number;

  private constructor(private readonly options: DiscoveryOptions) {
    this.now = options.now ?? Date.now;
    this.group = options.group ?? DISCOVERY_GROUP;
    this.port = options.port ?? DISCOVERY_PORT;
    this.socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  }

  /** Binds, joins the group and (with a peer id) starts announcing. */
  static async start(options: DiscoveryOptions): Promise<LanDiscovery> {
    const d = new LanDiscovery(options);
    await d.bind();
    return d;
  }

  private async bind(): Promise<void> {
    const s = this.socket;
    s.on('message', (msg, rinfo) => this.onMessage(msg, rinfo.address));
    s.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.bind(this.port, () => {
        s.off('error', reject);
        resolve();
      });
    });
    s.addMembership(this.group, this.options.interface);
    if (this.options.interface !== undefined) s.setMulticastInterface(this.options.interface);
    s.setMulticastLoopback(true);
    s.setMulticastTTL(1);
    if (this.options.peerId !== undefined && this.options.dataPort !== undefined) {
      this.announce();
      this.timer = setInterval(() => this.announce(), this.options.announceIntervalMs ?? ANNOUNCE_INTERVAL_MS);
      this.timer.unref();
    }
  }

  private announce(): void {
    const { peerId, dataPort } = this.options;
    if (peerId === undefined || dataPort === undefined) return;
    this.socket.send(JSON.stringify(announcement(peerId, dataPort)), this.port, this.group);
    this.prune();
  }

  private onMessage(msg: Buffer, address: string): void {
    const a = parseAnnouncement(msg);
    if (!a) {
      this.malformed++;
      return;
    }
    if (a.peer_id === this.options.peerId) return;
    this.known.set(a.peer_id, { peerId: a.peer_id, address, dataPort: a.data_port, lastSeen: this.now() });
  }

  private prune(): void {
    const limit = this.now() - (this.options.staleAfterMs ?? STALE_AFTER_MS);
    for (const [id, p] of this.known) if (p.lastSeen < limit) this.known.delete(id);
  }

  /** Peers heard within the stale limit. */
  peers(): DiscoveredPeer[] {
    this.prune();
    return [...this.known.values()].sort((a, b) => (a.peerId < b.peerId ? -1 : 1));
  }

  /** Base URLs of the discovered peers' sync servers. */
  peerUrls(): string[] {
    return this.peers().map((p) => `http://${p.address.includes(':') ? `[${p.address}]` : p.address}:${p.dataPort}`);
  }

  private stopped = false;

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
