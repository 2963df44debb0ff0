/**
 * `graphdb sync …`: the sync subcommands (SPEC "LAN discovery"). `announce` prints this
 * node's announcement, `health` listens for announcements and lists the peers heard,
 * `scopes` lists (and adds or removes) named sync scopes, `push` and `pull` run one half of
 * the sync cycle against a peer's HTTP address, `start` auto-syncs in the background with
 * back-off (with --http it also serves the sync routes, and with --discover it announces
 * itself and syncs with the peers it hears). They work on the global --data-dir and
 * --peer-id; `--sync` and `--peer-id` on the other commands switch sync on there.
 */

import { Command, Option } from 'commander';
import type { Database } from '../engine/database.js';
import type { SyncOptions } from '../sync/attach.js';
// The sync code itself loads in the action that uses it: registering these commands (for any
// `graphdb` command line) needs only their options.
import type { DiscoveryOptions, LanDiscovery } from '../sync/discovery.js';
import { DISCOVERY_GROUP, DISCOVERY_PORT } from '../sync/discovery-defaults.js';
import { CliUsageError, EXIT_OK } from './cli-error.js';
import { type CliIo, logLine, writeLine } from './io.js';
import { wantsServers, type ServerCliOptions } from './server-plan.js';

export interface SyncCliOptions {
  sync?: boolean;
  peerId?: string;
}

interface SyncGlobals extends SyncCliOptions, ServerCliOptions {
  dataDir?: string;
}

/** The `sync` setting of Database.open for --sync / --peer-id, or undefined when neither is given. */
export function syncSetting(o: SyncCliOptions): SyncOptions | undefined {
  if (o.peerId !== undefined) return { peerId: o.peerId };
  return o.sync ? {} : undefined;
}

/** Opens --data-dir with sync on; `scope` names a scope of that directory to exchange only that subset. */
async function openSynced(o: SyncGlobals, scope?: string): Promise<Database> {
  if (scope !== undefined && o.dataDir === undefined) throw new CliUsageError('--scope names a scope kept in --data-dir: give --data-dir');
  const { openCliDatabase } = await import('./data-dir.js');
  return openCliDatabase(o.dataDir, { sync: { ...syncSetting(o), ...(scope === undefined ? {} : { scope }) } });
}

const SCOPE_HELP = 'exchange only the named scope of --data-dir (see: graphdb sync scopes)';

function intArg(flag: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) throw new CliUsageError(`${flag} needs an integer from ${min} to ${max}`);
  return Number(text);
}

function discoveryOptions(o: { group?: string; discoveryPort?: string; interface?: string }): DiscoveryOptions {
  return {
    group: o.group ?? DISCOVERY_GROUP,
    port: o.discoveryPort === undefined ? DISCOVERY_PORT : intArg('--discovery-port', o.discoveryPort, 1, 65535),
    interface: o.interface,
  };
}

function addDiscoveryOptions(c: Command): Command {
  return c
    .option('--group <address>', `multicast group (default ${DISCOVERY_GROUP})`)
    .option('--discovery-port <port>', `multicast port (default ${DISCOVERY_PORT})`)
    .option('--interface <address>', 'local interface address for multicast (e.g. 127.0.0.1)');
}

function printJson(io: CliIo, value: unknown): void {
  writeLine(io.stdout, JSON.stringify(value));
}

export function registerSyncCommand(program: Command, io: CliIo, setStatus: (status: number) => void): void {
  const sync = program
    .command('sync')
    .description('synchronise with other instances: announce, health, scopes, push, pull, start (each has --help)');

  sync
    .command('announce')
    .description("print this node's LAN announcement JSON (peer id from --data-dir or --peer-id)")
    .option('--data-port <port>', 'the port of this node\'s sync (HTTP) server (default: --http, else 7474)')
    .action(async (o: { dataPort?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<SyncGlobals>();
      const { announcement } = await import('../sync/discovery.js');
      const db = await openSynced(g);
      try {
        const port = o.dataPort ?? g.http ?? '7474';
        printJson(io, announcement(db.sync?.peerId ?? '', intArg('--data-port', port, 1, 65535)));
      } finally {
        db.close();
      }
      setStatus(EXIT_OK);
    });

  addDiscoveryOptions(
    sync
      .command('health')
      .description('listen for LAN announcements and list the peers heard (one JSON line)')
      .option('--listen <ms>', 'how long to listen (default 6000, a little more than one announce interval)'),
  ).action(async (o: { listen?: string; group?: string; discoveryPort?: string; interface?: string }) => {
    const ms = o.listen === undefined ? 6000 : intArg('--listen', o.listen, 1, 600_000);
    const { LanDiscovery } = await import('../sync/discovery.js');
    const d = await LanDiscovery.start(discoveryOptions(o));
    await new Promise((r) => setTimeout(r, ms));
    const peers = d.peers();
    await d.stop();
    printJson(io, { peers: peers.map((p) => ({ peer_id: p.peerId, address: p.address, data_port: p.dataPort, last_seen_ms_ago: Date.now() - p.lastSeen })), malformed: d.malformed });
    setStatus(EXIT_OK);
  });

  sync
    .command('scopes')
    .description('list the named sync scopes of --data-dir (label and relationship-type subsets); add or remove one')
    .option('--add <name>', 'add (or replace) a scope')
    .option('--labels <list>', 'with --add: comma-separated node labels')
    .option('--types <list>', 'with --add: comma-separated relationship types')
    .option('--remove <name>', 'remove a scope')
    .action(async (o: { add?: string; labels?: string; types?: string; remove?: string }, cmd: Command) => {
      const dir = cmd.optsWithGlobals<SyncGlobals>().dataDir;
      if (dir === undefined) throw new CliUsageError('sync scopes needs --data-dir (scopes are kept there)');
      const { readScopes, writeScopes } = await import('../sync/scopes.js');
      let scopes = readScopes(dir);
      const list = (t: string | undefined): string[] => (t ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');
      if (o.add !== undefined) scopes = [...scopes.filter((s) => s.name !== o.add), { name: o.add, labels: list(o.labels), types: list(o.types) }];
      if (o.remove !== undefined) scopes = scopes.filter((s) => s.name !== o.remove);
      if (o.add !== undefined || o.remove !== undefined) writeScopes(dir, scopes);
      printJson(io, { scopes });
      setStatus(EXIT_OK);
    });

  for (const which of ['push', 'pull'] as const) {
    sync
      .command(which)
      .description(which === 'push' ? "send this node's unacknowledged writes to a peer" : "fetch and replay a peer's writes since the last pull")
      .requiredOption('--peer <url>', "the peer's HTTP address, e.g. http://127.0.0.1:7474")
      .option('--peer-key <key>', 'the Bearer key the peer requires (its --api-key)')
      .option('--scope <name>', SCOPE_HELP)
      .action(async (o: { peer: string; peerKey?: string; scope?: string }, cmd: Command) => {
        const db = await openSynced(cmd.optsWithGlobals<SyncGlobals>(), o.scope);
        try {
          const handle = db.sync;
          if (!handle) throw new CliUsageError('sync is not on');
          const { HttpTransport } = await import('../sync/transport.js');
          const t = new HttpTransport(o.peer, { apiKey: o.peerKey });
          const r = which === 'push' ? await handle.push(t) : await handle.pull(t);
          printJson(io, { peer: r.peer, statements: r.statements, remote_fingerprint: String(r.fingerprint), fingerprint: db.fingerprint(), pending: db.syncPending() });
        } finally {
          db.close();
        }
        setStatus(EXIT_OK);
      });
  }

  addDiscoveryOptions(
    sync
      .command('start')
      .description('auto-sync in the background with back-off until stopped (with --http also serve the sync routes)')
      .addOption(new Option('--peer <url...>', 'a peer HTTP address to sync with (repeatable)'))
      .option('--peer-key <key>', 'the Bearer key the peers require')
      .option('--interval <ms>', 'time between sync cycles (default 5000)')
      .option('--max-backoff <ms>', 'longest wait before retrying a failing peer (default 60000)')
      .option('--discover', 'announce this node on the LAN (needs --http) and sync with the peers heard')
      .option('--scope <name>', SCOPE_HELP),
  ).action(async (o: { peer?: string[]; peerKey?: string; interval?: string; maxBackoff?: string; discover?: boolean; group?: string; discoveryPort?: string; interface?: string; scope?: string }, cmd: Command) => {
    const g = cmd.optsWithGlobals<SyncGlobals>();
    if (o.discover && g.http === undefined) throw new CliUsageError('--discover announces the sync server: add --http <port>');
    const intervalMs = o.interval === undefined ? 5000 : intArg('--interval', o.interval, 10, 3_600_000);
    const maxBackoffMs = o.maxBackoff === undefined ? 60_000 : intArg('--max-backoff', o.maxBackoff, 10, 3_600_000);
    const db = await openSynced(g, o.scope);
    const log = (line: string): void => logLine(io.stderr, line);
    let discovery: LanDiscovery | undefined;
    try {
      const handle = db.sync;
      if (!handle) throw new CliUsageError('sync is not on');
      if (o.discover) {
        const { LanDiscovery } = await import('../sync/discovery.js');
        discovery = await LanDiscovery.start({ ...discoveryOptions(o), peerId: handle.peerId, dataPort: Number(g.http) });
      }
      const fixed = o.peer ?? [];
      const found = discovery;
      const auto = handle.start(() => [...fixed, ...(found?.peerUrls() ?? [])], {
        intervalMs,
        maxBackoffMs,
        http: { apiKey: o.peerKey },
        onCycle: (peer, outcome) =>
          log(outcome instanceof Error ? `graphdb sync: ${peer}: ${outcome.message}` : `graphdb sync: ${peer}: pushed ${outcome.pushedStatements}, pulled ${outcome.pulledStatements}, ${outcome.consistent ? 'consistent' : 'fingerprints differ'}`),
      });
      log(`graphdb sync: peer ${handle.peerId} auto-syncing every ${intervalMs} ms with ${fixed.length} peer(s)${discovery ? ' and the LAN' : ''}`);
      const serving = wantsServers(g) ? await import('./serve.js') : undefined; // the servers' code only when this process serves
      const status = serving !== undefined ? await serving.runServers(db, g, io) : await untilSignal();
      await auto.stop();
      setStatus(status);
    } finally {
      await discovery?.stop();
      db.close();
    }
  });
}

function untilSignal(): Promise<number> {
  return new Promise((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const stop = (): void => {
      for (const s of signals) process.off(s, stop);
      resolve(EXIT_OK);
    };
    for (const s of signals) process.on(s, stop);
  });
}
