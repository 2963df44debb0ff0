/**
 * Reading a snapshot (`graphdb.snapshot.json`, `:restore` files) as a stream: one line at
 * a time in the layout `snapshot-writer.ts` produces, so a large snapshot is never held
 * whole in memory. A document in any other JSON layout with the same fields (a
 * hand-edited or pretty-printed export) is accepted too, parsed whole, when it is under
 * 256 MiB. Every error names the file, the line and the byte offset.
 */

import * as fs from 'node:fs';
import * as readline from 'node:readline';
import { StorageError } from '../../errors.js';
import type { CreateNodeChange, CreateRelChange } from '../changes.js';
import { isJsonObject, type Json, type JsonObject } from './json.js';
import { nodeChange, relChange } from './stored-entity.js';
import { crc32 } from './crc32.js';
import { checksumText, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotHeader } from './snapshot-writer.js';

const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

export interface SnapshotSink {
  header(header: SnapshotHeader): void;
  node(change: CreateNodeChange): void;
  rel(change: CreateRelChange): void;
}

function num(o: JsonObject, key: string, fallback: number): number {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function toHeader(o: JsonObject, where: () => string): SnapshotHeader {
  if (o.format !== undefined && o.format !== SNAPSHOT_FORMAT) throw new StorageError(`${where()}: 'format' is ${JSON.stringify(o.format)}, not '${SNAPSHOT_FORMAT}'`, 'SnapshotFormat');
  const version = num(o, 'version', SNAPSHOT_VERSION);
  if (version > SNAPSHOT_VERSION) throw new StorageError(`${where()}: snapshot version ${version} is newer than this graphdb understands (${SNAPSHOT_VERSION})`, 'SnapshotFormat');
  return {
    format: SNAPSHOT_FORMAT,
    version,
    seq: num(o, 'seq', 0),
    nextNodeId: num(o, 'nextNodeId', 0),
    nextRelId: num(o, 'nextRelId', 0),
    mutationSeq: num(o, 'mutationSeq', 0),
    generation: num(o, 'generation', 0),
    // -1: not given (a hand-written file); the count is then not checked.
    nodeCount: num(o, 'nodeCount', -1),
    relCount: num(o, 'relCount', -1),
    createdAt: typeof o.createdAt === 'string' ? o.createdAt : '',
    schema: isJsonObject(o.schema ?? null) ? (o.schema as JsonObject) : {},
  };
}

type State = 'header' | 'nodesOpen' | 'nodes' | 'relsOpen' | 'rels' | 'end';

/** Streams `file` into `sink`; resolves when every entity has been delivered. */
export async function readSnapshot(file: string, sink: SnapshotSink): Promise<void> {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (err) {
    throw new StorageError(`Cannot read the snapshot ${file}: ${err instanceof Error ? err.message : String(err)}`, 'SnapshotUnreadable');
  }
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let state: State = 'header';
  let lineNo = 0;
  let offset = 0;
  let next = 0;
  const where = (): string => `Snapshot ${file}, line ${lineNo} (byte offset ${offset})`;
  const fail = (what: string): StorageError =>
    new StorageError(`${where()}: ${what}. The snapshot is damaged or not a graphdb snapshot; restore it from a backup or export it again.`, 'SnapshotDamaged');
  const parse = (text: string): Json => {
    try {
      return JSON.parse(text) as Json;
    } catch (err) {
      throw fail(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  };
  let crc = 0;
  const entity = (text: string, kind: 'node' | 'rel'): void => {
    const body = text.endsWith(',') ? text.slice(0, -1) : text;
    crc = crc32(Buffer.from(body, 'utf8'), crc);
    const data = parse(body);
    try {
      if (kind === 'node') sink.node(nodeChange(data));
      else sink.rel(relChange(data));
    } catch (err) {
      if (err instanceof StorageError && err.detail !== 'ReplayMismatch') throw err;
      throw fail(`bad ${kind === 'node' ? 'node' : 'relationship'}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  try {
    for await (const raw of lines) {
      lineNo++;
      const line = raw.trim();
      offset = next;
      next += Buffer.byteLength(raw, 'utf8') + 1;
      if (state === 'header') {
        const head = line.endsWith(',') && line.startsWith('{') ? parseHeaderLine(line) : undefined;
        if (head === undefined) {
          lines.close();
          stream.destroy();
          return readWhole(file, size, sink);
        }
        sink.header(toHeader(head, where));
        state = 'nodesOpen';
      } else if (state === 'nodesOpen') {
        if (line !== '"nodes":[') throw fail(`expected "nodes":[`);
        state = 'nodes';
      } else if (state === 'nodes') {
        if (line === '],') state = 'relsOpen';
        else entity(line, 'node');
      } else if (state === 'relsOpen') {
        if (line !== '"rels":[') throw fail(`expected "rels":[`);
        state = 'rels';
      } else if (state === 'rels') {
        if (line === ']}') state = 'end'; // written before snapshots carried a checksum, or by hand
        else if (line.startsWith('],"crc32":"')) {
          const stored = /^\],"crc32":"([0-9a-f]{8})"\}$/.exec(line)?.[1];
          if (stored === undefined) throw fail('the closing checksum line is malformed');
          if (stored !== checksumText(crc)) throw fail(`the content does not match its checksum (stored ${stored}, computed ${checksumText(crc)}): a line was changed`);
          state = 'end';
        } else entity(line, 'rel');
      } else if (line !== '') {
        throw fail('text after the end of the document');
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (state !== 'end') throw fail(`the file ends early (${state === 'header' ? 'empty file' : 'inside the ' + state.replace('Open', '') + ' section'}); it was cut short`);
}

/**
 * The sequence number in the header line of the snapshot `file`, read without the rest of it;
 * undefined when there is no such file or its first line is not a snapshot header.
 */
export function snapshotHeaderSeq(file: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    // The header holds the schema, so it may be long: read until its line ends.
    const chunks: Buffer[] = [];
    let position = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) return undefined;
      const end = chunk.subarray(0, n).indexOf(0x0a);
      chunks.push(chunk.subarray(0, end < 0 ? n : end));
      if (end >= 0) break;
      position += n;
    }
    const line = Buffer.concat(chunks).toString('utf8').trim();
    const head = line.startsWith('{') && line.endsWith(',') ? parseHeaderLine(line) : undefined;
    return typeof head?.seq === 'number' ? head.seq : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function parseHeaderLine(line: string): JsonObject | undefined {
  try {
    const data = JSON.parse(line.slice(0, -1) + '}') as Json;
    return isJsonObject(data) && (data.format === SNAPSHOT_FORMAT || data.format === undefined) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Any JSON layout: `{…header fields, "nodes": [...], "rels": [...]}` parsed whole. */
function readWhole(file: string, size: number, sink: SnapshotSink): void {
  const where = (): string => `Snapshot ${file}`;
  if (size > WHOLE_FILE_LIMIT) {
    throw new StorageError(`${where()} is not in the line-per-entity layout graphdb writes, and at ${size} bytes it is too large to read whole; export it again with graphdb`, 'SnapshotFormat');
  }
  let data: Json;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  } catch (err) {
    throw new StorageError(`${where()} is not valid JSON (${err instanceof Error ? err.message : String(err)}); restore it from a backup or export it again`, 'SnapshotDamaged');
  }
  readSnapshotDocument(data, `Snapshot ${file}`, sink);
}

/**
 * A snapshot document already parsed (any JSON layout): delivers its header and entities to
 * `sink`. `what` names it in errors. The browser build reads its stores and imports this way.
 */
export function readSnapshotDocument(data: Json, what: string, sink: SnapshotSink): void {
  const where = (): string => what;
  if (!isJsonObject(data) || !Array.isArray(data.nodes)) {
    throw new StorageError(`${where()} is not a graphdb snapshot: expected an object with a "nodes" list (and a "rels" list)`, 'SnapshotFormat');
  }
  sink.header(toHeader(data, where));
  const rels = Array.isArray(data.rels) ? data.rels : [];
  data.nodes.forEach((n, i) => {
    try {
      sink.node(nodeChange(n));
    } catch (err) {
      if (err instanceof StorageError && err.detail !== 'ReplayMismatch') throw err;
      throw new StorageError(`${where()}: node #${i} is bad: ${err instanceof Error ? err.message : String(err)}`, 'SnapshotDamaged');
    }
  });
  rels.forEach((r, i) => {
    try {
      sink.rel(relChange(r));
    } catch (err) {
      if (err instanceof StorageError && err.detail !== 'ReplayMismatch') throw err;
      throw new StorageError(`${where()}: relationship #${i} is bad: ${err instanceof Error ? err.message : String(err)}`, 'SnapshotDamaged');
    }
  });
}
