/**
 * The replication procedures, registered on every database (a database with no role
 * answers as `standalone`): SPEC's `graphdb.replication.contract()`, `walTailing()`,
 * `objectStoreFanout()` and `db.replicationStatus()`, and the role changes
 * `graphdb.replication.promote()`, `demote(primaryUrl)`, `registerReplica(name, address)`
 * and `unregisterReplica(name)`. Role changes are DBMS procedures: they do not write the
 * graph, so a replica accepts them; they are administration (procedureAccess), so only a
 * caller the door trusts with it may run them.
 */

import type { ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import type { Value } from '../../runtime/values.js';
import { ValueTypeError } from '../errors.js';
import { ReplicationError } from './errors.js';
import type { ReplicationHook } from './hook.js';
import { REPLICA_NAME_PATTERN } from './protocol.js';

type Current = () => ReplicationHook | undefined;

const FACT_COLUMNS = [
  { name: 'field', type: 'STRING?' },
  { name: 'value', type: 'STRING?' },
  { name: 'description', type: 'STRING?' },
];

const CONTRACT_TEXT: Record<string, string> = {
  primary: 'streams committed WAL change records to read replicas; writes enabled',
  fenced: 'a former primary superseded by a newer replication term; writes are refused with READ_ONLY',
  replica: 'applies its primary\'s WAL change records in order; writes are refused with READ_ONLY',
  standalone: 'no replication role',
};

function requireRole(current: Current, proc: string): ReplicationHook {
  const r = current();
  if (!r) throw new ReplicationError(`${proc}: replication is not configured on this instance; start it with --replication-role primary or --replica-of <url>`, 'NotConfigured');
  return r;
}

function text(proc: string, arg: string, v: Value): string {
  if (typeof v !== 'string') throw new ValueTypeError(`${proc}: argument \`${arg}\` must be a string`, 'InvalidArgumentType');
  return v;
}

/** A replication procedure; `access` 'read' for those that only report (role changes are administration, the dbms default). */
function def(name: string, description: string, inputs: ProcedureDef['inputs'], outputs: ProcedureDef['outputs'], invoke: ProcedureDef['invoke'], access?: 'read'): ProcedureDef {
  return { name, mode: 'dbms', access, description, inputs, outputs, invoke };
}

export function registerReplicationProcedures(registry: ProcedureRegistry, current: Current): void {
  registry.register(
    def(
      'graphdb.replication.contract',
      'This instance\'s replication role: mode (primary, replica or standalone), whether it accepts writes, the replication factor.',
      [],
      [
        { name: 'mode', type: 'STRING?' },
        { name: 'writes_enabled', type: 'BOOLEAN?' },
        { name: 'replication_factor', type: 'INTEGER?' },
        { name: 'description', type: 'STRING?' },
      ],
      () => {
        const r = current();
        const mode = r?.role ?? 'standalone';
        return [[mode, r?.writesEnabled ?? true, r?.factor ?? 1, CONTRACT_TEXT[mode] + (r?.mode === 'sync' ? ` (synchronous: a write waits for ${r.factor - 1} replica acknowledgements)` : '')]];
      },
      'read',
    ),
  );
  registry.register(
    def('graphdb.replication.walTailing', 'How WAL streaming runs here: transport, mode, positions, connected replicas.', [], FACT_COLUMNS, () => {
      const r = current();
      return (r?.tailingFacts() ?? [['role', 'standalone', 'no replication role: nothing is streamed']]).map((row) => [...row]);
    }, 'read'),
  );
  registry.register(
    def('graphdb.replication.objectStoreFanout', 'Whether WAL segments and base snapshots are shipped to object storage, and where.', [], FACT_COLUMNS, () => {
      const r = current();
      return (r?.archiveFacts() ?? [['enabled', 'false', 'no --wal-archive s3://bucket/prefix configured']]).map((row) => [...row]);
    }, 'read'),
  );
  registry.register(
    def(
      'db.replicationStatus',
      'One row per replica: on a primary its replicas, on a replica itself (its primary in address).',
      [],
      [
        { name: 'name', type: 'STRING?' },
        { name: 'address', type: 'STRING?' },
        { name: 'role', type: 'STRING?' },
        { name: 'state', type: 'STRING?' },
        { name: 'mode', type: 'STRING?' },
        { name: 'applied_seq', type: 'INTEGER?' },
        { name: 'lag_records', type: 'INTEGER?' },
        { name: 'lag_ms', type: 'INTEGER?' },
        { name: 'last_error', type: 'STRING?' },
      ],
      () =>
        (current()?.status() ?? []).map((s): Value[] => [s.name, s.address, s.role, s.state, s.mode, s.appliedSeq, s.lagRecords, s.lagMs, s.lastError]),
      'read',
    ),
  );
  const transition = [
    { name: 'previous_role', type: 'STRING?' },
    { name: 'role', type: 'STRING?' },
  ];
  registry.register(
    def('graphdb.replication.promote', 'Makes this replica (or standalone or fenced instance) a primary at a new replication term: it stops following, accepts writes, and tells its old primary, which is fenced.', [], transition, () => {
      const r = requireRole(current, 'graphdb.replication.promote');
      return [[r.promote(), r.role]];
    }),
  );
  registry.register(
    def(
      'graphdb.replication.demote',
      'Makes this instance a read replica of the primary at primaryUrl (a primary or fenced instance stops accepting writes; a replica follows the new primary). Kept across restarts.',
      [{ name: 'primaryUrl', type: 'STRING?' }],
      transition,
      (_ctx, [url]) => {
        const r = requireRole(current, 'graphdb.replication.demote');
        return [[r.demote(text('graphdb.replication.demote', 'primaryUrl', url)), r.role]];
      },
    ),
  );
  registry.register(
    def(
      'graphdb.replication.registerReplica',
      'Registers a replica by name on this primary (listed in db.replicationStatus; once any is registered, only registered replicas may stream).',
      [
        { name: 'name', type: 'STRING?' },
        { name: 'address', type: 'STRING?', default: '' },
      ],
      [{ name: 'name', type: 'STRING?' }],
      (_ctx, [name, address]) => {
        const r = requireRole(current, 'graphdb.replication.registerReplica');
        const n = text('graphdb.replication.registerReplica', 'name', name);
        if (!REPLICA_NAME_PATTERN.test(n)) throw new ReplicationError('A replica name is 1–64 letters, digits, _ . or -', 'BadReplicaName');
        r.register(n, text('graphdb.replication.registerReplica', 'address', address));
        return [[n]];
      },
    ),
  );
  registry.register(
    def(
      'graphdb.replication.unregisterReplica',
      'Removes a replica from this primary: its stream is closed and its acknowledgements no longer count.',
      [{ name: 'name', type: 'STRING?' }],
      [{ name: 'removed', type: 'BOOLEAN?' }],
      (_ctx, [name]) => {
        const r = requireRole(current, 'graphdb.replication.unregisterReplica');
        return [[r.unregister(text('graphdb.replication.unregisterReplica', 'name', name))]];
      },
    ),
  );
}
