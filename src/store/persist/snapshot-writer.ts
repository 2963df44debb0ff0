/**
 * Writing `graphdb.snapshot.json` (and `:export` files): the full graph state as one JSON
 * document laid out one entity per line, so it can be written and read as a stream:
 *
 * ```
 * {"format":"graphdb-snapshot","version":1,"seq":42,…,"relCount":2,
 * "nodes":[
 * {"id":0,"labels":["Person"],"props":[["name","Ann"]]},
 * {"id":1,"labels":[],"props":[]}
 * ],
 * "rels":[
 * {"id":0,"type":"KNOWS","start":0,"end":1,"props":[]}
 * ],"crc32":"…"}
 * ```
 *
 * The header's counts and the closing CRC-32 (over every entity's JSON text, in order) let
 * a reader tell a damaged or edited file from a sound one.
 *
 * Text goes out in 1 MiB chunks (never the whole graph as one string) to `<file>.tmp`,
 * which is fsynced, renamed over `<file>`, and the directory fsynced: a crash leaves
 * either the old snapshot or the new one, never half of one. `SnapshotText` makes the
 * text; `SnapshotWriter` writes it synchronously (close, `:export`), and
 * `store-snapshot.ts` asynchronously from the store of record (policy snapshots).
 */

import type { GraphCounters } from './graph-counters.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from './crc32.js';
import { durableRename, fsyncDir } from './fsync-dir.js';
import type { StoredNode, StoredRel } from './stored-entity.js';
import type { JsonObject } from './json.js';

export const SNAPSHOT_FILE = 'graphdb.snapshot.json';
export const SNAPSHOT_FORMAT = 'graphdb-snapshot';
export const SNAPSHOT_VERSION = 1;

export interface SnapshotHeader extends GraphCounters {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  /** Sequence number of the last WAL record the snapshot contains (0 for an export of a graph without a log). */
  seq: number;
  createdAt: string;
  /** Indexes and constraints (schema-def.ts), encoded. */
  schema: JsonObject;
}

const CHUNK = 1024 * 1024;

/** The checksum as the last line carries it: `],"crc32":"<8 hex digits>"}`. */
export function checksumText(crc: number): string {
  return (crc >>> 0).toString(16).padStart(8, '0');
}

/**
 * The document's text, produced piece by piece: `node`…, `rel`…, `end`, with `take` handing
 * out what has piled up (at least 1 MiB, or everything with `all`) as bytes.
 */
export class SnapshotText {
  private buffer: string[] = [];
  private buffered = 0;
  private section: 'nodes' | 'rels' | undefined;
  private pending: string | undefined;
  /** CRC-32 of every entity's JSON text in order, written at the end (`snapshotChecksum`). */
  private crc = 0;

  constructor(header: SnapshotHeader) {
    const head = JSON.stringify(header);
    this.push(head.slice(0, -1) + ',\n');
  }

  node(node: StoredNode): void {
    this.enter('nodes');
    this.item(JSON.stringify(node));
  }

  rel(rel: StoredRel): void {
    this.enter('rels');
    this.item(JSON.stringify(rel));
  }

  /** Closes the document. */
  end(): void {
    this.enter('rels');
    this.push(this.closeSection() + `,"crc32":"${checksumText(this.crc)}"}\n`);
  }

  /** The buffered text as bytes, when a chunk is full (or anything is there, with `all`). */
  take(all = false): Buffer | undefined {
    if (this.buffer.length === 0 || (!all && this.buffered < CHUNK)) return undefined;
    const bytes = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.buffered = 0;
    return bytes;
  }

  private enter(section: 'nodes' | 'rels'): void {
    if (this.section === section) return;
    if (section === 'rels' && this.section === undefined) this.enter('nodes');
    if (this.section !== undefined) this.push(this.closeSection() + ',\n');
    this.section = section;
    this.push(`"${section}":[\n`);
  }

  private closeSection(): string {
    if (this.pending !== undefined) this.push(this.pending + '\n');
    this.pending = undefined;
    return ']';
  }

  private item(line: string): void {
    if (this.pending !== undefined) this.push(this.pending + ',\n');
    this.pending = line;
    this.crc = crc32(Buffer.from(line, 'utf8'), this.crc);
  }

  private push(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
  }
}

/** Synchronous writer to `<file>.tmp`; call `node`…, `rel`…, then `commit` (or `abort`). */
export class SnapshotWriter {
  private readonly tmp: string;
  private readonly fd: number;
  private readonly text: SnapshotText;
  private offset = 0;

  constructor(
    readonly file: string,
    header: SnapshotHeader,
  ) {
    this.tmp = `${file}.tmp`;
    this.fd = fs.openSync(this.tmp, 'w');
    this.text = new SnapshotText(header);
  }

  node(node: StoredNode): void {
    this.text.node(node);
    this.flush(false);
  }

  rel(rel: StoredRel): void {
    this.text.rel(rel);
    this.flush(false);
  }

  /** Finishes the document and makes it durable under its real name. */
  commit(): void {
    this.text.end();
    this.flush(true);
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    durableRename(this.tmp, this.file);
  }

  /** Drops the temporary file. */
  abort(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
    fs.rmSync(this.tmp, { force: true });
    fsyncDir(path.dirname(this.tmp));
  }

  private flush(all: boolean): void {
    const bytes = this.text.take(all);
    if (!bytes) return;
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.offset + done);
    this.offset += bytes.length;
  }
}
