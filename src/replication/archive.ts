/**
 * The WAL archive in S3-compatible object storage (`--wal-archive s3://bucket/prefix`):
 * `WalArchiver` ships a base snapshot when it starts and then, every SEGMENT_MS, the batches
 * committed since as one closed segment object; `restoreFromArchive` rebuilds a data
 * directory from the newest base at or before a sequence plus the segments after it
 * (`graphdb restore --from … --to … [--until-seq N]`). Objects are newline-delimited JSON in
 * the replication stream's own format (protocol.ts):
 *
 *   <prefix>/base/<mutation seq, 15 digits>.ndjson   a `snapshot` line, `node`/`rel` lines
 *   <prefix>/wal/<first before>-<last after>.ndjson  `batch` lines in commit order
 *
 * Credentials and region come from the AWS SDK's usual sources (AWS_ACCESS_KEY_ID, …);
 * `--wal-archive-endpoint` points at another S3-compatible service (MinIO, GCS's and
 * Azure gateways' S3 endpoints) with path-style addressing.
 */

import type { S3Client } from '@aws-sdk/client-s3';
import type { Database } from '../engine/database.js';
import { encodeSchemaDef, schemaDefinition } from '../store/persist/schema-def.js';
import { storeNode, storeRel } from '../store/persist/stored-entity.js';
import type { Json } from '../store/persist/json.js';
import type { LoggedChange } from '../store/persist/record-codec.js';
import { ReplicaApplier } from './applier.js';
import { ReplicationError } from './errors.js';
import { decodeMessage, encodeBatch, encodeMessage, type Batch, type SnapshotMeta } from './protocol.js';

/** How often the open segment is closed and shipped. */
export const SEGMENT_MS = 500;

export interface ArchiveTarget {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
}

export function parseArchiveUrl(url: string, endpoint?: string, region?: string): ArchiveTarget {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new ReplicationError(`The archive address ${JSON.stringify(url)} is not s3://<bucket>[/<prefix>]`, 'BadArchiveUrl');
  return { bucket: m[1], prefix: (m[2] ?? '').replace(/\/+$/, ''), endpoint, region };
}

type Sdk = typeof import('@aws-sdk/client-s3');
/** The SDK is loaded on first use: every other start of graphdb stays as quick as before. */
const loadSdk = (): Promise<Sdk> => import('@aws-sdk/client-s3');

export async function archiveClient(t: ArchiveTarget): Promise<{ client: S3Client; sdk: Sdk }> {
  const sdk = await loadSdk();
  return { sdk, client: new sdk.S3Client({ region: t.region ?? process.env.AWS_REGION ?? 'us-east-1', ...(t.endpoint ? { endpoint: t.endpoint, forcePathStyle: true } : {}) }) };
}

const pad = (n: number): string => String(n).padStart(15, '0');
const key = (t: ArchiveTarget, rest: string): string => (t.prefix ? `${t.prefix}/${rest}` : rest);

export class WalArchiver {
  private segment: Batch[] = [];
  private n = 0;
  private uploads: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** Mutation sequence up to which the archive holds everything. */
  archivedSeq = -1;
  lastError: string | null = null;
  segments = 0;

  constructor(
    private readonly db: Database,
    readonly target: ArchiveTarget,
    private readonly s3: Promise<{ client: S3Client; sdk: Sdk }>,
    private readonly log: (line: string) => void,
  ) {
    // A failure to load the SDK is reported by each upload; this only keeps it from being unhandled meanwhile.
    s3.catch(() => undefined);
  }

  /** Ships a base snapshot of the graph as it is now, then a segment every SEGMENT_MS. */
  start(): void {
    clearInterval(this.timer);
    this.closeSegment();
    const g = this.db.graph;
    const meta: SnapshotMeta = {
      mutationSeq: g.mutationSeq, generation: g.generation, nextNodeId: g.nextNodeId, nextRelId: g.nextRelId,
      nodeCount: g.nodeCount, relCount: g.relCount, schema: encodeSchemaDef(schemaDefinition(this.db.schema)),
    };
    const lines = [encodeMessage({ t: 'snapshot', meta })];
    for (const node of g.allNodes()) lines.push(JSON.stringify({ t: 'node', e: storeNode(node) }));
    for (const rel of g.allRels()) lines.push(JSON.stringify({ t: 'rel', e: storeRel(rel) }));
    this.put(`base/${pad(meta.mutationSeq)}.ndjson`, lines.join('\n') + '\n', meta.mutationSeq);
    this.timer = setInterval(() => this.closeSegment(), SEGMENT_MS);
    this.timer.unref();
  }

  add(changes: readonly LoggedChange[], seqAfter: number): void {
    const graphChanges = changes.filter((c) => c.op !== 'schema').length;
    this.segment.push({ n: ++this.n, before: seqAfter - graphChanges, after: seqAfter, at: Date.now(), changes });
  }

  private closeSegment(): void {
    if (this.segment.length === 0) return;
    const batches = this.segment;
    this.segment = [];
    const last = batches[batches.length - 1];
    this.put(`wal/${pad(batches[0].before)}-${pad(last.after)}.ndjson`, batches.map(encodeBatch).join('\n') + '\n', last.after);
  }

  /** Uploads one after another, so the archive never holds a segment whose predecessor is missing. */
  private put(name: string, body: string, seqAfter: number): void {
    this.uploads = this.uploads.then(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          const { client, sdk } = await this.s3;
          await client.send(new sdk.PutObjectCommand({ Bucket: this.target.bucket, Key: key(this.target, name), Body: body, ContentType: 'application/x-ndjson' }));
          this.archivedSeq = seqAfter;
          this.segments++;
          this.lastError = null;
          return;
        } catch (err) {
          this.lastError = err instanceof Error ? err.message : String(err);
          if (attempt === 0) this.log(`graphdb: WAL archive: cannot upload ${name} (${this.lastError}); retrying`);
          await new Promise((r) => setTimeout(r, Math.min(5000, 200 * 2 ** attempt)));
        }
      }
    });
  }

  /** Ships the open segment and waits for every upload (clean shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closeSegment();
    await this.uploads;
  }

  facts(): [string, string, string][] {
    return [
      ['enabled', 'true', 'closed WAL segments and base snapshots are shipped to object storage'],
      ['target', `s3://${this.target.bucket}/${this.target.prefix}`, 'bucket and prefix'],
      ['endpoint', this.target.endpoint ?? 'AWS', 'S3-compatible endpoint (path-style) or AWS itself'],
      ['segment_ms', String(SEGMENT_MS), 'how often the open segment is closed and shipped'],
      ['archived_seq', String(this.archivedSeq), 'mutation sequence up to which the archive is complete'],
      ['objects_written', String(this.segments), 'base snapshots and segments uploaded by this process'],
      ['last_error', this.lastError ?? '', 'the last upload failure (uploads are retried)'],
    ];
  }
}

async function listKeys({ client, sdk }: { client: S3Client; sdk: Sdk }, t: ArchiveTarget, dir: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: t.bucket, Prefix: key(t, `${dir}/`), ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

async function lines({ client, sdk }: { client: S3Client; sdk: Sdk }, t: ArchiveTarget, k: string): Promise<string[]> {
  const obj = await client.send(new sdk.GetObjectCommand({ Bucket: t.bucket, Key: k }));
  const text = (await obj.Body?.transformToString('utf8')) ?? '';
  return text.split('\n').filter((l) => l.length > 0);
}

const seqIn = (k: string, which: 0 | 1): number => Number(/(\d{15})(?:-(\d{15}))?\.ndjson$/.exec(k)?.[which + 1] ?? NaN);

/** Rebuilds the data directory `to` (which must be empty or absent) from the archive, up to `untilSeq` when given. */
export async function restoreFromArchive(t: ArchiveTarget, to: string, untilSeq?: number): Promise<{ seq: number; nodes: number; relationships: number }> {
  const s3 = await archiveClient(t);
  const client = s3;
  try {
    const limit = untilSeq ?? Number.MAX_SAFE_INTEGER;
    const bases = (await listKeys(client, t, 'base')).filter((k) => seqIn(k, 0) <= limit);
    const base = bases[bases.length - 1];
    if (base === undefined) throw new ReplicationError(`The archive s3://${t.bucket}/${t.prefix} holds no base snapshot at or before sequence ${limit}`, 'ArchiveEmpty');
    const { Database } = await import('../engine/database.js');
    const db = await Database.open({ dataDir: to, storage: { log: null } });
    try {
      if (db.graph.nodeCount > 0 || db.graph.mutationSeq > 0) throw new ReplicationError(`${to} is not empty: restore into a new directory`, 'RestoreTargetNotEmpty');
      const applier = new ReplicaApplier(db);
      const baseLines = (await lines(client, t, base)).map(decodeMessage);
      const head = baseLines[0];
      if (head?.t !== 'snapshot') throw new ReplicationError(`${base} does not start with a snapshot header`, 'BadArchive');
      const entities = (kind: 'node' | 'rel'): Json[] => baseLines.flatMap((m) => (m.t === kind ? [m.e] : []));
      await applier.installSnapshot(head.meta, entities('node'), entities('rel'));
      for (const k of await listKeys(client, t, 'wal')) {
        if (seqIn(k, 1) <= applier.seq && seqIn(k, 1) > seqIn(k, 0)) continue;
        if (seqIn(k, 0) > limit) break;
        const batches = (await lines(client, t, k)).map(decodeMessage).flatMap((m) => (m.t === 'batch' && m.batch.after <= limit ? [m.batch] : []));
        // Segments of an earlier primary process overlap a later base: the applier skips what it holds.
        if (batches.length > 0 && batches[0].before > applier.seq) {
          throw new ReplicationError(`The archive has a gap: ${k} starts at sequence ${batches[0].before}, the restore is at ${applier.seq}`, 'ArchiveGap');
        }
        applier.apply(batches.filter((b) => b.after > applier.seq || b.after === b.before));
      }
      await db.checkpoint();
      return { seq: db.graph.mutationSeq, nodes: db.graph.nodeCount, relationships: db.graph.relCount };
    } finally {
      db.close();
    }
  } finally {
    s3.client.destroy();
  }
}
