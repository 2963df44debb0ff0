/**
 * The kept role state on real files: `RoleState` keeps the term (never lowered) and the role a
 * transition set, reloads them, leaves no temporary file, and refuses a damaged file; the
 * command-line checks honour it (a kept role without replication options is refused, a kept
 * primary needs --http, --replication-reset-role drops it); and a `ReplicationManager` on a
 * durable database starts in the kept role, not the settings' one.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { CliUsageError } from '../../src/cli/cli-error.js';
import { GraphDbError } from '../../src/errors.js';
import { attachReplication, replicationSettingsFor } from '../../src/replication/cli-options.js';
import { RoleState } from '../../src/replication/role-state.js';
import { DEFAULT_SYNC_TIMEOUT_MS } from '../../src/replication/settings.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-role-state-'));
  dirs.push(d);
  return d;
}

const log = (): void => undefined;

describe('RoleState', () => {
  it('keeps the term and the role across reloads, never lowers the term, leaves no temporary file', () => {
    const dir = tempDir();
    const a = new RoleState(dir);
    expect(a.term).toBe(0);
    expect(a.kept).toBeUndefined();
    a.keep('primary', 'promote', undefined, 3);
    expect(a.learn(2)).toBe(false);
    a.keep('replica', 'demote', 'http://127.0.0.1:7474', 1);
    const b = new RoleState(dir);
    expect(b.term).toBe(3);
    expect(b.kept).toMatchObject({ role: 'replica', primary: 'http://127.0.0.1:7474', setBy: 'demote' });
    expect(b.learn(5)).toBe(true);
    b.forgetRole();
    const c = new RoleState(dir);
    expect(c.term).toBe(5);
    expect(c.kept).toBeUndefined();
    expect(fs.readdirSync(path.join(dir, 'replication'))).toEqual(['role.json']);
  });

  it('refuses a damaged file rather than guess a role', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'replication'));
    fs.writeFileSync(path.join(dir, 'replication', 'role.json'), '{"term": 2, "kept": {"role": "replica"}}');
    expect(() => new RoleState(dir)).toThrow(/kept replica role needs/);
    fs.writeFileSync(path.join(dir, 'replication', 'role.json'), '{"ter');
    let caught: unknown;
    try {
      new RoleState(dir);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GraphDbError);
    expect((caught as GraphDbError).detail).toBe('RoleStateDamaged');
  });
});

describe('the command line and a kept role', () => {
  it('refuses a kept role without replication options, needs --http for a kept primary, and drops it with --replication-reset-role', () => {
    const dir = tempDir();
    new RoleState(dir).keep('primary', 'promote', undefined, 1);
    expect(() => replicationSettingsFor({}, { dataDir: dir, http: '7474', log })).toThrow(CliUsageError);
    expect(() => replicationSettingsFor({}, { dataDir: dir, http: '7474', log })).toThrow(/keeps the replication role primary/);
    expect(() => replicationSettingsFor({ replicaOf: 'http://127.0.0.1:1' }, { dataDir: dir, log })).toThrow(/add --http/);
    expect(replicationSettingsFor({ replicaOf: 'http://127.0.0.1:1' }, { dataDir: dir, http: '7474', log })?.role).toBe('replica');
    // An explicit standalone does not drop a kept role either: replication still starts (settings
    // for the role given, standalone), and its manager then takes the kept role from the directory.
    expect(replicationSettingsFor({ replicationRole: 'standalone' }, { dataDir: dir, http: '7474', log })?.role).toBe('standalone');
    expect(new RoleState(dir).kept?.role).toBe('primary');
    expect(replicationSettingsFor({ replicationResetRole: true }, { dataDir: dir, log })).toBeUndefined();
    const after = new RoleState(dir);
    expect(after.kept).toBeUndefined();
    expect(after.term).toBe(1);
  });

  it('starts a manager in the kept role, not the settings\' one', async () => {
    const dir = tempDir();
    new RoleState(dir).keep('fenced', 'fence', 'http://127.0.0.1:9', 4);
    const db = await Database.open({ dataDir: dir });
    const lines: string[] = [];
    const manager = attachReplication(db, {
      role: 'primary',
      mode: 'async',
      factor: 1,
      name: 'p',
      syncTimeoutMs: DEFAULT_SYNC_TIMEOUT_MS,
      ringSize: 100,
      log: (l) => lines.push(l),
      dataDir: dir,
    });
    try {
      expect(manager.role).toBe('fenced');
      expect(manager.term).toBe(4);
      expect(lines.join('\n')).toContain('starting as fenced');
      let caught: unknown;
      try {
        db.executeSync('CREATE (:X)');
      } catch (err) {
        caught = err;
      }
      expect((caught as GraphDbError).code).toBe('READ_ONLY');
      expect((caught as GraphDbError).detail).toBe('FencedPrimary');
      expect(db.executeSync('CALL graphdb.replication.contract() YIELD mode, writes_enabled RETURN mode, writes_enabled').records).toEqual([['fenced', false]]);
    } finally {
      await manager.close();
      db.close();
    }
  });
});
