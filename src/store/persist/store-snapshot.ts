/**
 * Policy snapshots: `graphdb.snapshot.json` rewritten in the background from a read
 * snapshot of the LMDB store (`RecordStore.openView`), never from the live graph, so the
 * graph keeps taking writes and no second copy of it is built. Entities are read a few
 * thousand at a time; after each chunk the task yields to the event loop (or awaits the
 * write of a 1 MiB block), so queries are held up for milliseconds, not for the whole
 * file. The text goes to `<file>.bg.tmp`, which is fsynced, renamed over the snapshot,
 * and the directory fsynced. A cancelled task (close, a newer snapshot) never renames:
 * it removes its temporary file once its last write has returned.
 */

import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { StorageError } from '../../errors.js';
import { fsyncDir } from './fsync-dir.js';
import type { StoreView } from './record-store.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotText, type SnapshotHeader } from './snapshot-writer.js';
import { nextTurn } from '../../event-loop.js';

/** Suffix of the temporary file of a background snapshot (distinct from the synchronous writer's `.tmp`). */
export const BACKGROUND_TMP_SUFFIX = '.bg.tmp';
/** Entities read from LMDB between two yields to the event loop. */
const ENTITIES_PER_TURN = 4_000;

export type SnapshotOutcome = 'written' | 'cancelled';

export interface SnapshotTaskStats {
  nodes: number;
  rels: number;
  bytes: number;
  /** Longest stretch (ms) the task ran without yielding to the event loop. */
  longestTurnMs: number;
}


export class StoreSnapshotTask {
  private cancelled = false;
  readonly stats: SnapshotTaskStats = { nodes: 0, rels: 0, bytes: 0, longestTurnMs: 0 };
  /** Settles when the task has finished, been cancelled (and cleaned up), or failed (StorageError). */
  readonly done: Promise<SnapshotOutcome>;

  constructor(
    private readonly view: StoreView,
    readonly file: string,
  ) {
    this.done = this.run();
  }

  /** The sequence number the snapshot being written holds. */
  get seq(): number {
    return this.view.meta.seq;
  }

  /** Stops the task: the read view ends now, the temporary file goes once its write returns. */
  cancel(): void {
    this.cancelled = true;
    this.view.done();
  }

  private async run(): Promise<SnapshotOutcome> {
    const tmp = this.file + BACKGROUND_TMP_SUFFIX;
    let handle: fsp.FileHandle | undefined;
    let position = 0;
    let turnStarted = performance.now();
    const write = async (bytes: Buffer | undefined): Promise<void> => {
      if (!bytes || !handle) return;
      this.noteTurn(turnStarted);
      let done = 0;
      while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
      position += bytes.length;
      this.stats.bytes = position;
      turnStarted = performance.now();
    };
    const pause = async (): Promise<void> => {
      this.noteTurn(turnStarted);
      await nextTurn();
      turnStarted = performance.now();
    };
    try {
      await nextTurn();
      turnStarted = performance.now();
      if (this.cancelled) return 'cancelled';
      handle = await fsp.open(tmp, 'w');
      turnStarted = performance.now();
      const meta = this.view.meta;
      const header: SnapshotHeader = {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        seq: meta.seq,
        nextNodeId: meta.nextNodeId,
        nextRelId: meta.nextRelId,
        mutationSeq: meta.mutationSeq,
        generation: meta.generation,
        nodeCount: meta.nodeCount,
        relCount: meta.relCount,
        createdAt: new Date().toISOString(),
        schema: meta.schema,
      };
      const text = new SnapshotText(header);
      for (const kind of ['nodes', 'rels'] as const) {
        let after = -1;
        for (;;) {
          if (this.cancelled) return 'cancelled';
          const chunk = kind === 'nodes' ? this.view.nodesAfter(after, ENTITIES_PER_TURN) : this.view.relsAfter(after, ENTITIES_PER_TURN);
          if (chunk.length === 0) break;
          if (kind === 'nodes') for (const n of chunk as ReturnType<StoreView['nodesAfter']>) text.node(n);
          else for (const r of chunk as ReturnType<StoreView['relsAfter']>) text.rel(r);
          if (kind === 'nodes') this.stats.nodes += chunk.length;
          else this.stats.rels += chunk.length;
          after = chunk[chunk.length - 1].id;
          const bytes = text.take();
          if (bytes) await write(bytes);
          else await pause();
        }
      }
      this.view.done();
      text.end();
      await write(text.take(true));
      await handle.sync();
      await handle.close();
      handle = undefined;
      if (this.cancelled) return 'cancelled';
      // Synchronous from here: a cancel cannot come between the check and the rename.
      fs.renameSync(tmp, this.file);
      fsyncDir(path.dirname(this.file));
      return 'written';
    } catch (err) {
      if (this.cancelled) return 'cancelled';
      throw new StorageError(`Could not write the snapshot ${this.file}: ${err instanceof Error ? err.message : String(err)}`, 'SnapshotWriteFailed');
    } finally {
      this.view.done();
      if (handle) await handle.close().catch(() => undefined);
      if (fs.existsSync(tmp)) fs.rmSync(tmp, { force: true });
    }
  }

  private noteTurn(started: number): void {
    const ms = performance.now() - started;
    if (ms > this.stats.longestTurnMs) this.stats.longestTurnMs = ms;
  }
}
