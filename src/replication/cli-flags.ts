/**
 * The replication options of `graphdb` (with the servers): `--replication-role primary`,
 * `--replica-of <url>`, `--replication-secret`, `--replication-mode async|sync`,
 * `--replication-factor`, `--replica-name`, `--replication-sync-timeout`,
 * `--replication-advertise-url`, `--replication-reset-role`, `--replication-insecure`, as the
 * command line declares them. Kept apart from their meaning (cli-options.ts) so that every
 * command can declare them without loading the replication code.
 */

import type { Command } from 'commander';
import { CliUsageError } from '../cli/cli-error.js';

export interface ReplicationCliOptions {
  replicationRole?: string;
  replicaOf?: string;
  replicationSecret?: string;
  replicationMode?: string;
  replicationFactor?: string;
  replicaName?: string;
  replicationSyncTimeout?: string;
  walArchive?: string;
  walArchiveEndpoint?: string;
  walArchiveRegion?: string;
  replicationAdvertiseUrl?: string;
  replicationResetRole?: boolean;
  replicationInsecure?: boolean;
}

export function addReplicationOptions(c: Command): Command {
  return c
    .option('--replication-role <role>', 'replication role: primary (streams its WAL to replicas over --http) or standalone (default)')
    .option('--replica-of <url>', 'run as a read replica of the primary at this HTTP base URL (writes are refused with READ_ONLY)')
    .option('--replication-secret <secret>', 'shared secret of replication traffic (on a primary with --api-key: the API key)')
    .option('--replication-mode <mode>', 'async (default) or sync: a write is acknowledged once replication-factor - 1 replicas hold it')
    .option('--replication-factor <n>', 'copies a synchronous write needs, the primary included (default 2)')
    .option('--replica-name <name>', 'this replica\'s name on its primary (default: kept in --data-dir once chosen)')
    .option('--replication-sync-timeout <ms>', 'how long a synchronous write waits for replica acknowledgements (default 10000)')
    .option('--wal-archive <url>', 'ship WAL segments and base snapshots to s3://bucket/prefix (AWS credentials from the environment)')
    .option('--wal-archive-endpoint <url>', 'an S3-compatible endpoint for --wal-archive (path-style), e.g. http://127.0.0.1:9000')
    .option('--wal-archive-region <region>', 'region for --wal-archive (default: AWS_REGION, else us-east-1)')
    .option('--replication-advertise-url <url>', 'this instance\'s HTTP base URL as other instances reach it (told to the old primary when promoted)')
    .option('--replication-reset-role', 'drop the role a promote/demote/fence kept in --data-dir and take the command line\'s (the term is kept)')
    .option('--replication-insecure', 'with no --replication-secret (nor --api-key): serve the WAL stream and take fence notices from other machines too (by default only from this one)');
}

/** Replication runs with the servers only: the shell and `graphdb query` refuse its options. */
export function requireServersForReplication(o: ReplicationCliOptions): void {
  if (Object.values(pick(o)).some((v) => v !== undefined)) throw new CliUsageError('the replication options apply to the servers: add --http <port> (and --serve or --pg for more read doors)');
}

function pick(o: ReplicationCliOptions): ReplicationCliOptions {
  const { replicationRole, replicaOf, replicationSecret, replicationMode, replicationFactor, replicaName, replicationSyncTimeout, walArchive, replicationAdvertiseUrl, replicationResetRole, replicationInsecure } = o;
  return { replicationRole, replicaOf, replicationSecret, replicationMode, replicationFactor, replicaName, replicationSyncTimeout, walArchive, replicationAdvertiseUrl, replicationResetRole, replicationInsecure: replicationInsecure || undefined };
}
