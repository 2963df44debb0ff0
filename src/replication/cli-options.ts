/**
 * What the replication options of `graphdb` (declared in cli-flags.ts) ask for: their checks
 * (including the role a procedure kept in the data directory, which wins over the command
 * line), and attaching the `ReplicationManager` to the opened database. Loaded only when the
 * servers start.
 */

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from '../engine/database.js';
import { CliUsageError } from '../cli/cli-error.js';
import { checkPrimaryUrl, ReplicationManager } from './manager.js';
import { parseArchiveUrl, type ArchiveTarget } from './archive.js';
import { writeFileDurably } from '../store/persist/fsync-dir.js';
import { REPLICA_NAME_PATTERN } from './protocol.js';
import { RoleState } from './role-state.js';
import { DEFAULT_RING_SIZE, DEFAULT_SYNC_TIMEOUT_MS, type ReplicationSettings } from './settings.js';
import type { ReplicationCliOptions } from './cli-flags.js';

function intOption(flag: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) throw new CliUsageError(`${flag} needs an integer from ${min} to ${max}, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** A replica's name: given, or the one kept in the data directory, or a new one (kept there when there is one). */
function replicaName(given: string | undefined, dataDir: string | undefined): string {
  if (given !== undefined) {
    if (!REPLICA_NAME_PATTERN.test(given)) throw new CliUsageError('--replica-name needs 1–64 letters, digits, _ . or -');
    return given;
  }
  const file = dataDir === undefined ? undefined : path.join(dataDir, 'replication', 'name');
  if (file !== undefined && fs.existsSync(file)) {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (REPLICA_NAME_PATTERN.test(kept)) return kept;
  }
  const fresh = `replica-${crypto.randomBytes(4).toString('hex')}`;
  if (file !== undefined) writeFileDurably(file, fresh + '\n');
  return fresh;
}

/** The settings the options ask for; undefined when no replication option is given. */
export function replicationSettingsFor(
  o: ReplicationCliOptions,
  context: { dataDir?: string; apiKey?: string; http?: string; sync?: boolean; log: (line: string) => void },
): ReplicationSettings | undefined {
  const state = keptState(context.dataDir);
  const kept = o.replicationResetRole ? undefined : state?.kept;
  const given = o.replicationRole ?? (o.replicaOf !== undefined ? 'replica' : o.walArchive !== undefined ? 'standalone' : undefined);
  const others = o.replicationSecret ?? o.replicationMode ?? o.replicationFactor ?? o.replicaName ?? o.replicationSyncTimeout ?? o.walArchiveEndpoint ?? o.walArchiveRegion ?? o.replicationAdvertiseUrl ?? (o.replicationInsecure ? 'insecure' : undefined);
  if (given === undefined && kept !== undefined) {
    // Serving a replica's or a fenced primary's directory as a writable standalone would fork its history.
    throw new CliUsageError(
      `${state?.file ?? 'the data directory'} keeps the replication role ${kept.role}${kept.primary ? ` (${kept.primary})` : ''}, set by ${kept.setBy} at ${kept.at}: ` +
        'start with the replication options (--replication-role primary or --replica-of <url>, and the secret), or add --replication-reset-role to drop that role',
    );
  }
  const role = given;
  if (role === undefined) {
    if (others !== undefined) throw new CliUsageError('the replication options need --replication-role primary or --replica-of <url>');
    if (o.replicationResetRole) state?.forgetRole();
    return undefined;
  }
  if (role !== 'primary' && role !== 'replica' && role !== 'standalone') throw new CliUsageError(`--replication-role is primary or standalone, not ${JSON.stringify(role)} (a replica is started with --replica-of <url>)`);
  if (role === 'replica' && o.replicaOf === undefined) throw new CliUsageError('a replica needs --replica-of <primary HTTP URL>');
  if (role !== 'replica' && o.replicaOf !== undefined) throw new CliUsageError('--replica-of makes this instance a replica: leave out --replication-role');
  if (o.replicaOf !== undefined) {
    try {
      checkPrimaryUrl(o.replicaOf);
    } catch (err) {
      throw new CliUsageError(`--replica-of: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (context.sync) throw new CliUsageError('replication and --sync cannot be combined: a replica takes its primary\'s history, sync merges histories');
  // A kept role wins over an explicit standalone too: the manager is still needed to take it.
  if (role === 'standalone' && o.walArchive === undefined && kept === undefined) {
    if (o.replicationResetRole) state?.forgetRole();
    return undefined;
  }
  if ((role === 'primary' || kept?.role === 'primary') && context.http === undefined) throw new CliUsageError('a primary streams its WAL over HTTP: add --http <port>');
  if (o.replicationAdvertiseUrl !== undefined) {
    try {
      checkPrimaryUrl(o.replicationAdvertiseUrl);
    } catch (err) {
      throw new CliUsageError(`--replication-advertise-url: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (o.replicationSecret === '') throw new CliUsageError('--replication-secret needs a non-empty secret');
  if (role === 'primary' && context.apiKey !== undefined && o.replicationSecret !== undefined && o.replicationSecret !== context.apiKey) {
    throw new CliUsageError('with --api-key on a primary, replicas authenticate with that key: leave out --replication-secret or give the same value');
  }
  if (o.walArchive !== undefined && role === 'replica') throw new CliUsageError('--wal-archive runs on the primary (or a standalone instance), not on a replica');
  let archive: ArchiveTarget | undefined;
  if (o.walArchive !== undefined) {
    try {
      archive = parseArchiveUrl(o.walArchive, o.walArchiveEndpoint, o.walArchiveRegion);
    } catch (err) {
      throw new CliUsageError(`--wal-archive: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const mode = o.replicationMode ?? 'async';
  if (mode !== 'async' && mode !== 'sync') throw new CliUsageError(`--replication-mode is async or sync, not ${JSON.stringify(mode)}`);
  const factor = o.replicationFactor === undefined ? (mode === 'sync' ? 2 : 1) : intOption('--replication-factor', o.replicationFactor, 1, 64);
  const secret = o.replicationSecret ?? (role === 'primary' || kept?.role === 'primary' ? context.apiKey : undefined);
  if (o.replicationInsecure && secret !== undefined) throw new CliUsageError('--replication-insecure is for an instance without a replication secret; with --replication-secret (or --api-key) replicas anywhere authenticate with it');
  if (secret === undefined && (role === 'primary' || kept?.role === 'primary')) {
    context.log(
      o.replicationInsecure
        ? 'graphdb: WARNING: this primary has no replication secret and --replication-insecure: anyone who reaches its HTTP port (other than a web page) can copy the whole graph and its WAL, and fence it'
        : 'graphdb: WARNING: this primary has no replication secret: it serves replicas on this machine only; give --replication-secret <secret> (or --api-key) to serve replicas elsewhere',
    );
  }
  return {
    role,
    primaryUrl: o.replicaOf,
    secret,
    insecure: o.replicationInsecure === true,
    mode,
    factor,
    name: role === 'replica' || kept?.role === 'replica' ? replicaName(o.replicaName, context.dataDir) : (o.replicaName ?? 'primary'),
    syncTimeoutMs: o.replicationSyncTimeout === undefined ? DEFAULT_SYNC_TIMEOUT_MS : intOption('--replication-sync-timeout', o.replicationSyncTimeout, 1, 3_600_000),
    ringSize: DEFAULT_RING_SIZE,
    archive,
    log: context.log,
    dataDir: context.dataDir,
    resetRole: o.replicationResetRole === true,
    advertiseUrl: o.replicationAdvertiseUrl,
  };
}

/** The data directory's kept role state, read for the checks above (the manager reads it again when it starts). */
function keptState(dataDir: string | undefined): RoleState | undefined {
  if (dataDir === undefined) return undefined;
  try {
    return new RoleState(dataDir);
  } catch (err) {
    throw new CliUsageError(err instanceof Error ? err.message : String(err));
  }
}

/** Puts `db` in the configured role; the returned manager is closed before the database. */
export function attachReplication(db: Database, settings: ReplicationSettings): ReplicationManager {
  const manager = new ReplicationManager(db, settings);
  db.replication = manager;
  return manager;
}
