/**
 * The graph as binary blocks: the content of the store of record (`record-store.ts`). Ids
 * are split into chunks of `CHUNK_IDS`; each chunk has
 *
 * - a node block: a table of the label lists used in it (JSON) and, per id, an `Int32`
 *   index into that table (-1 where no live node has the id);
 * - a relationship block: a table of relationship types, and `Int32` arrays type index
 *   (-1: no live relationship), start id, end id;
 * - per property key held in it, for nodes and for relationships, a property block: the
 *   column kind (`columns/property-column.ts`), the presence bitset and the value arrays
 *   copied byte for byte (`INT`, `NUMBER`, `BOOL`); strings as a chunk-local dictionary
 *   plus `Int32` codes; a `TEXT` column's strings as their UTF-8 bytes, one after another,
 *   with a byte length per id (copied out of the column's heap and back into it, never made
 *   into strings; a chunk holding a string UTF-8 cannot carry goes as `GENERIC`); anything
 *   else as the value codec's JSON, per present id.
 *
 * A checkpoint rewrites only the chunks its changes touched. It works in two steps so
 * that the event loop is held only for copies: `capture*` takes the chunk's state at one
 * moment (typed-array copies and references to immutable values), `encode*` turns a
 * capture into a sealed block later, between turns. `decode*` checks and reads a block
 * back; `BulkAssembler` puts decoded chunks together into the arrays `Graph.bulkLoad`
 * takes, so opening a data directory never re-creates the graph entity by entity.
 */

import { SHARED_LABELS, type Value } from '../entities.js';
import type { IndexArray } from '../bulk-entities.js';
import type { AdjacencyImage, BulkGraph, EntityArrays, Graph, LentColumns, LentSets, RelShape } from '../graph.js';
import { Interner, LabelListInterner } from '../interner.js';
import { bitCount, sharedBits, sharedFloat64, sharedInt32, wordsFor } from '../columns/buffers.js';
import { BOOL, EMPTY, GENERIC, INT, NUMBER, PropertyColumn, STRING, TEXT, type ColumnKind } from '../columns/property-column.js';
import { FloatBox } from '../../../runtime/scalars.js';
import type { FloatListSnapshot } from '../columns/float-lists.js';
import { BlockDamage, BlockKind, BlockReader, BlockWriter, openBlock, sealBlock } from './block-format.js';
import type { Json } from './json.js';
import { decodeValue, encodeValue, ValueDecodeError } from './value-codec.js';

/** Ids per chunk: a multiple of 32, so that a chunk's bits are whole words of a column's bitset. */
export const CHUNK_IDS = 65_536;

export type EntityKind = 'node' | 'rel';

/** The LMDB keys of the blocks of one chunk. */
export const blockKey = {
  nodes: (chunk: number): string => `n/${chunk}`,
  rels: (chunk: number): string => `r/${chunk}`,
  props: (kind: EntityKind, chunk: number, keyIndex: number): string => `${kind === 'node' ? 'pn' : 'pr'}/${chunk}/${keyIndex}`,
};

/** Ids `firstId … firstId + count - 1` of chunk `chunk`, given how many ids are in use. */
export function chunkRange(chunk: number, idLimit: number): { firstId: number; count: number } {
  const firstId = chunk * CHUNK_IDS;
  return { firstId, count: Math.max(0, Math.min(CHUNK_IDS, idLimit - firstId)) };
}

// ------------------------------------------------------------------ capture (synchronous, copies only)

export interface PropCapture {
  kind: EntityKind;
  chunk: number;
  keyIndex: number;
  columnKind: ColumnKind;
  count: number;
  /** Presence of live entities only, `wordsFor(count)` words. */
  present: Uint32Array;
  ints?: Int32Array;
  nums?: Float64Array;
  bits?: Uint32Array;
  /** STRING: the column's dictionary (append-only while referenced; codes in `ints`). */
  dict?: readonly string[];
  /** GENERIC: the values (immutable) by offset in the chunk. */
  values?: (Value | undefined)[];
  /** GENERIC: the numeric lists the column packs (where `values` has holes), as they were. */
  lists?: FloatListSnapshot;
  /** TEXT: the present strings' UTF-8, one after another, and each one's byte length by offset. */
  text?: { lengths: Int32Array; bytes: Uint8Array };
}

/** A captured chunk: the fields of its node or relationship block (`DecodedChunk`) and its property blocks. */
export interface ChunkCapture extends DecodedChunk {
  kind: EntityKind;
  chunk: number;
  /** Property blocks with at least one live value in the chunk. */
  props: PropCapture[];
  /** Property key indexes of blocks that may exist from before and must go (no live value left). */
  emptyKeys: number[];
}

/** Captures node chunk `chunk`: labels and every property column, live nodes only. */
export function captureNodeChunk(graph: Graph, chunk: number): ChunkCapture {
  const { firstId, count } = chunkRange(chunk, graph.nextNodeId);
  const index = new Int32Array(count).fill(-1);
  const live = new Uint32Array(wordsFor(count));
  const lists: string[][] = [];
  const byArray = new Map<readonly string[], number>();
  const byText = new Map<string, number>();
  const nodes = graph.nodes;
  for (let i = 0; i < count; i++) {
    // Nodes a bulk load left unmade are read from its arrays: saving makes no objects.
    const labels = graph.liveLabels(firstId + i);
    if (labels === undefined) continue;
    const node = nodes.get(firstId + i);
    const shared = node === undefined || (node.shared & SHARED_LABELS) !== 0;
    live[i >>> 5] |= 1 << (i & 31);
    let at = byArray.get(labels);
    if (at === undefined) {
      const text = JSON.stringify(labels);
      at = byText.get(text);
      if (at === undefined) {
        at = lists.length;
        lists.push(labels.slice());
        byText.set(text, at);
      }
      // Only shared (copy-on-write) arrays may be remembered by identity: a private one can change in place.
      if (shared) byArray.set(labels, at);
    }
    index[i] = at;
  }
  const capture: ChunkCapture = { kind: 'node', chunk, firstId, count, names: lists, index, props: [], emptyKeys: [] };
  captureProps(capture, graph.nodeProps.columns, live);
  return capture;
}

/** Captures relationship chunk `chunk`: type and ends of each live relationship, and its property columns. */
export function captureRelChunk(graph: Graph, chunk: number): ChunkCapture {
  const { firstId, count } = chunkRange(chunk, graph.nextRelId);
  const index = new Int32Array(count).fill(-1);
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  const live = new Uint32Array(wordsFor(count));
  const types: string[] = [];
  const typeAt: number[] = [];
  const shape: RelShape = { typeId: -1, start: -1, end: -1 };
  for (let i = 0; i < count; i++) {
    if (!graph.liveRelInto(firstId + i, shape)) continue;
    const typeId = shape.typeId;
    start[i] = shape.start;
    end[i] = shape.end;
    live[i >>> 5] |= 1 << (i & 31);
    let at = typeAt[typeId];
    if (at === undefined) {
      at = typeAt[typeId] = types.length;
      types.push(graph.typeName(typeId));
    }
    index[i] = at;
  }
  const capture: ChunkCapture = { kind: 'rel', chunk, firstId, count, names: types, index, start, end, props: [], emptyKeys: [] };
  captureProps(capture, graph.relProps.columns, live);
  return capture;
}

/**
 * Chunk `chunk` of entity arrays (`EntityArrays.nodeLabels` or `.relType`: -1 where there is
 * no entity) over `idLimit` ids, as its decoded block would index it; ids past the array are
 * absent.
 */
function chunkOfArray(ids: IndexArray, chunk: number, idLimit: number): DecodedChunk {
  const { firstId, count } = chunkRange(chunk, idLimit);
  const index = new Int32Array(count).fill(-1);
  index.set(ids.subarray(firstId, Math.min(ids.length, firstId + count)));
  return { firstId, count, names: [], index };
}

/**
 * Captures the property blocks of chunk `chunk` from `columns` alone, the live entities read
 * from entity arrays (`ids`, as `chunkOfArray`): a graph image, whose entities travel as the
 * arrays themselves, needs no entity block.
 */
export function captureChunkProps(kind: EntityKind, chunk: number, idLimit: number, ids: IndexArray, columns: readonly (PropertyColumn | undefined)[]): ChunkCapture {
  const decoded = chunkOfArray(ids, chunk, idLimit);
  const live = new Uint32Array(wordsFor(decoded.count));
  for (let i = 0; i < decoded.count; i++) if (decoded.index[i] >= 0) live[i >>> 5] |= 1 << (i & 31);
  const capture: ChunkCapture = { kind, chunk, ...decoded, props: [], emptyKeys: [] };
  captureProps(capture, columns, live);
  return capture;
}

function captureProps(capture: ChunkCapture, columns: readonly (PropertyColumn | undefined)[], live: Uint32Array): void {
  const { firstId, count } = capture;
  const firstWord = firstId >>> 5;
  const words = wordsFor(count);
  for (let keyIndex = 0; keyIndex < columns.length; keyIndex++) {
    const column = columns[keyIndex];
    if (column === undefined) continue;
    const present = new Uint32Array(words);
    let any = 0;
    const have = Math.max(0, Math.min(words, column.present.length - firstWord));
    for (let w = 0; w < have; w++) any |= present[w] = column.present[firstWord + w] & live[w];
    if (any === 0) {
      capture.emptyKeys.push(keyIndex);
      continue;
    }
    const slice = <T extends Int32Array | Float64Array>(array: T, make: (n: number) => T): T => {
      const out = make(count);
      const end = Math.min(array.length, firstId + count);
      if (end > firstId) out.set(array.subarray(firstId, end) as unknown as ArrayLike<number>);
      return out;
    };
    const bitSlice = (bits: Uint32Array): Uint32Array => {
      const out = new Uint32Array(words);
      out.set(bits.subarray(firstWord, Math.min(bits.length, firstWord + words)));
      return out;
    };
    // A TEXT chunk with a string kept aside (a lone surrogate) goes as GENERIC strings; a load
    // sets those back through the column, which keeps it TEXT.
    const text = column.kind === TEXT ? column.textBytesOf(firstId, count, present) : undefined;
    const columnKind = column.kind === TEXT && text === undefined ? GENERIC : column.kind;
    const prop: PropCapture = { kind: capture.kind, chunk: capture.chunk, keyIndex, columnKind, count, present };
    switch (column.kind) {
      case INT:
        prop.ints = slice(column.ints, (n) => new Int32Array(n));
        break;
      case STRING:
        prop.ints = slice(column.ints, (n) => new Int32Array(n));
        prop.dict = column.dict;
        break;
      case NUMBER:
        prop.nums = slice(column.nums, (n) => new Float64Array(n));
        prop.bits = bitSlice(column.bits);
        break;
      case BOOL:
        prop.bits = bitSlice(column.bits);
        break;
      case TEXT: {
        if (text !== undefined) {
          prop.text = text;
          break;
        }
        const values = new Array<Value | undefined>(count);
        for (let i = 0; i < count; i++) if ((present[i >>> 5] & (1 << (i & 31))) !== 0) values[i] = column.get(firstId + i);
        prop.values = values;
        break;
      }
      default:
        prop.values = column.values.slice(firstId, firstId + count);
        prop.lists = column.lists?.snapshot(firstId, count);
    }
    capture.props.push(prop);
  }
}

// ------------------------------------------------------------------ encode (later, between turns)

/** The sealed blocks of a captured chunk, by key; `null` for a block key to remove. */
export function encodeChunk(capture: ChunkCapture, partChars = GENERIC_PART_CHARS): Map<string, Uint8Array | null> {
  return new Map(chunkBlocks(capture, partChars));
}

/**
 * The blocks of a captured chunk one at a time (entities first, then one per property key;
 * null: the key's block is to be deleted), so that a caller can spread the encoding over
 * turns of the event loop.
 */
export function* chunkBlocks(capture: ChunkCapture, partChars = GENERIC_PART_CHARS): Generator<[string, Uint8Array | null]> {
  const header = { count: capture.count, firstId: capture.firstId };
  const w = new BlockWriter();
  w.json(capture.names);
  w.array(capture.index);
  if (capture.kind === 'rel') {
    w.array(capture.start!);
    w.array(capture.end!);
  }
  const key = capture.kind === 'node' ? blockKey.nodes(capture.chunk) : blockKey.rels(capture.chunk);
  yield [key, sealBlock({ kind: capture.kind === 'node' ? BlockKind.Nodes : BlockKind.Rels, ...header }, w.finish())];
  yield* propBlocks(capture, partChars);
}

/** The property blocks of a captured chunk (null: a key's block that must go), without its entity block. */
export function* propBlocks(capture: ChunkCapture, partChars = GENERIC_PART_CHARS): Generator<[string, Uint8Array | null]> {
  const header = { count: capture.count, firstId: capture.firstId };
  const propKind = capture.kind === 'node' ? BlockKind.NodeProps : BlockKind.RelProps;
  for (const prop of capture.props) yield [blockKey.props(capture.kind, capture.chunk, prop.keyIndex), sealBlock({ kind: propKind, ...header }, encodeProps(prop, partChars))];
  for (const keyIndex of capture.emptyKeys) yield [blockKey.props(capture.kind, capture.chunk, keyIndex), null];
}

function* presentOffsets(present: Uint32Array, count: number): Generator<number> {
  for (let w = 0; w < present.length; w++) {
    let word = present[w];
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= word - 1;
      const i = (w << 5) + bit;
      if (i < count) yield i;
    }
  }
}

function encodeProps(prop: PropCapture, partChars: number): Buffer {
  const w = new BlockWriter();
  w.u32(prop.columnKind);
  w.array(prop.present);
  switch (prop.columnKind) {
    case INT:
      w.array(prop.ints!);
      break;
    case NUMBER:
      w.array(prop.nums!);
      w.array(prop.bits!);
      break;
    case BOOL:
      w.array(prop.bits!);
      break;
    case STRING: {
      // A chunk-local dictionary: only the strings this chunk uses.
      const local: string[] = [];
      const codeOf = new Map<number, number>();
      const codes = new Int32Array(prop.count);
      for (const i of presentOffsets(prop.present, prop.count)) {
        const global = prop.ints![i];
        let code = codeOf.get(global);
        if (code === undefined) {
          code = local.length;
          local.push(prop.dict![global]);
          codeOf.set(global, code);
        }
        codes[i] = code;
      }
      w.json(local);
      w.array(codes);
      break;
    }
    case TEXT:
      w.array(prop.text!.lengths);
      w.bytes(prop.text!.bytes);
      break;
    default: {
      const parts = jsonParts(presentOffsets(prop.present, prop.count), (i) => encodeValue(prop.values![i] ?? prop.lists!.get(i)!), partChars);
      w.u32(GENERIC_IN_PARTS);
      w.u32(parts.length);
      for (const part of parts) w.jsonText(part);
    }
  }
  return w.finish();
}

/**
 * A GENERIC payload that starts with this word holds its values as a count of JSON arrays
 * (parts) rather than one: a chunk of 65 536 long lists (embeddings) as one JSON text would
 * pass V8's longest string (2^29 characters). It can never be the byte length that starts
 * the older single-array payload, which is far below it.
 */
const GENERIC_IN_PARTS = 0xffffffff;
/** Characters of JSON per part (a few times less than V8's longest string, and a bounded peak). */
export const GENERIC_PART_CHARS = 32 * 1024 * 1024;

/** The values `encode` makes of `offsets`, as JSON array texts of about `partChars` characters each. */
export function jsonParts(offsets: Iterable<number>, encode: (i: number) => Json, partChars: number): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let chars = 0;
  for (const i of offsets) {
    const text = JSON.stringify(encode(i));
    if (current.length > 0 && chars + text.length > partChars) {
      parts.push(`[${current.join(',')}]`);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length + 1;
  }
  if (current.length > 0 || parts.length === 0) parts.push(`[${current.join(',')}]`);
  return parts;
}

/** The values of a GENERIC payload: in parts, or (written before parts) as one JSON array. */
function readGenericValues(r: BlockReader): unknown {
  if (r.peekU32() !== GENERIC_IN_PARTS) return r.json();
  r.u32();
  const count = r.u32();
  const values: unknown[] = [];
  for (let k = 0; k < count; k++) {
    const part = r.json();
    if (!Array.isArray(part)) throw new BlockDamage('a part of its values is not a list');
    for (const v of part) values.push(v);
  }
  return values;
}

// ------------------------------------------------------------------ decode

/** A node or relationship block: for nodes a label list table and an index per id, for relationships a type table, an index per id and the ends. */
export interface DecodedChunk {
  firstId: number;
  count: number;
  names: string[][] | string[];
  index: Int32Array;
  start?: Int32Array;
  end?: Int32Array;
}

export interface DecodedProps {
  firstId: number;
  count: number;
  columnKind: ColumnKind;
  present: Uint32Array;
  ints?: Int32Array;
  nums?: Float64Array;
  bits?: Uint32Array;
  strings?: string[];
  /** GENERIC: the values of the present ids, in id order. */
  values?: Value[];
  /** GENERIC read with `raw`: the values in the value codec's JSON form, not decoded. */
  encoded?: Json[];
  /** TEXT: each present string's UTF-8 is `bytes[starts[i], starts[i] + lengths[i])`. */
  text?: { starts: Int32Array; lengths: Int32Array; bytes: Uint8Array };
}

/** Reads a node or relationship block; throws `BlockDamage` when anything does not add up. */
export function decodeChunk(kind: EntityKind, block: Uint8Array, chunk: number, idLimit: number): DecodedChunk {
  const { count, firstId, payload } = openBlock(block, kind === 'node' ? BlockKind.Nodes : BlockKind.Rels);
  const expected = chunkRange(chunk, idLimit);
  if (firstId !== expected.firstId || count > CHUNK_IDS || firstId + count > idLimit) throw new BlockDamage(`it covers ids ${firstId}…${firstId + count - 1}, not those of chunk ${chunk}`);
  const r = new BlockReader(payload);
  const names = r.json();
  const index = r.array(new Int32Array(count));
  const out: DecodedChunk = { firstId, count, names: [], index };
  if (kind === 'node') {
    if (!Array.isArray(names) || !names.every((l) => Array.isArray(l) && l.every((s) => typeof s === 'string'))) throw new BlockDamage('its label table is not a list of label lists');
    out.names = names as string[][];
  } else {
    if (!Array.isArray(names) || !names.every((s) => typeof s === 'string')) throw new BlockDamage('its type table is not a list of names');
    out.names = names as string[];
    out.start = r.array(new Int32Array(count));
    out.end = r.array(new Int32Array(count));
  }
  r.end();
  for (let i = 0; i < count; i++) if (index[i] < -1 || index[i] >= out.names.length) throw new BlockDamage(`id ${firstId + i} refers to entry ${index[i]} of a table of ${out.names.length}`);
  return out;
}

/** Reads a property block of the chunk `owner` (already decoded) covers. */
export function decodeProps(kind: EntityKind, block: Uint8Array, owner: DecodedChunk, raw = false): DecodedProps {
  const { count, firstId, payload } = openBlock(block, kind === 'node' ? BlockKind.NodeProps : BlockKind.RelProps);
  if (firstId !== owner.firstId || count !== owner.count) throw new BlockDamage(`it covers ids ${firstId}…${firstId + count - 1}, not those of its chunk`);
  const r = new BlockReader(payload);
  const columnKind = r.u32() as ColumnKind;
  const present = r.array(new Uint32Array(wordsFor(count)));
  if (countBitsFrom(present, count) > 0) throw new BlockDamage('its presence bitset marks ids past the end of its chunk');
  const out: DecodedProps = { firstId, count, columnKind, present };
  for (const i of presentOffsets(present, count)) if (owner.index[i] < 0) throw new BlockDamage(`it holds a value for id ${firstId + i}, which is not in use`);
  switch (columnKind) {
    case INT:
      out.ints = r.array(new Int32Array(count));
      break;
    case NUMBER:
      out.nums = r.array(new Float64Array(count));
      out.bits = r.array(new Uint32Array(wordsFor(count)));
      break;
    case BOOL:
      out.bits = r.array(new Uint32Array(wordsFor(count)));
      break;
    case STRING: {
      const strings = r.json();
      if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string')) throw new BlockDamage('its dictionary is not a list of strings');
      out.strings = strings as string[];
      out.ints = r.array(new Int32Array(count));
      for (const i of presentOffsets(present, count)) if (out.ints[i] < 0 || out.ints[i] >= strings.length) throw new BlockDamage(`id ${firstId + i} has a string code outside its dictionary`);
      break;
    }
    case TEXT: {
      const lengths = r.array(new Int32Array(count));
      const bytes = Buffer.from(r.bytes());
      const starts = new Int32Array(count);
      let at = 0;
      for (let i = 0; i < count; i++) {
        const length = lengths[i];
        const held = (present[i >>> 5] & (1 << (i & 31))) !== 0;
        if (length < 0 || (!held && length !== 0)) throw new BlockDamage(`id ${firstId + i} has a string of ${length} bytes${held ? '' : ' but no value'}`);
        starts[i] = at;
        at += length;
      }
      if (at !== bytes.length) throw new BlockDamage(`its strings' lengths add up to ${at} bytes, but it holds ${bytes.length}`);
      out.text = { starts, lengths, bytes };
      break;
    }
    case GENERIC: {
      const values = readGenericValues(r);
      const n = bitCount(present);
      if (!Array.isArray(values) || values.length !== n) throw new BlockDamage(`it holds ${Array.isArray(values) ? values.length : 'no list of'} values for ${n} present ids`);
      if (raw) {
        out.encoded = values as Json[];
        break;
      }
      try {
        out.values = (values as Json[]).map(decodeValue);
      } catch (err) {
        if (err instanceof ValueDecodeError) throw new BlockDamage(err.message);
        throw err;
      }
      break;
    }
    default:
      throw new BlockDamage(`its column kind ${columnKind} is unknown`);
  }
  r.end();
  return out;
}

/** Bits set at offsets `from` and above (padding bits past a chunk's end, which must be zero). */
function countBitsFrom(bits: Uint32Array, from: number): number {
  let n = 0;
  for (let i = from; i < bits.length * 32; i++) if ((bits[i >>> 5] & (1 << (i & 31))) !== 0) n++;
  return n;
}

/** A property block's values in the value codec's JSON form, by chunk offset (for the snapshot written from the store). */
export function* encodedValues(p: DecodedProps): Generator<[number, Json]> {
  if (p.encoded === undefined) {
    for (const [i, v] of decodedValues(p)) yield [i, encodeValue(v)];
    return;
  }
  let g = 0;
  for (const i of presentOffsets(p.present, p.count)) yield [i, p.encoded[g++]];
}

/** Every present value of a decoded property block, by chunk offset. */
export function* decodedValues(p: DecodedProps): Generator<[number, Value]> {
  let g = 0;
  for (const i of presentOffsets(p.present, p.count)) {
    let v: Value;
    switch (p.columnKind) {
      case INT:
        v = p.ints![i];
        break;
      case NUMBER:
        v = (p.bits![i >>> 5] & (1 << (i & 31))) !== 0 ? new FloatBox(p.nums![i]) : p.nums![i];
        break;
      case BOOL:
        v = (p.bits![i >>> 5] & (1 << (i & 31))) !== 0;
        break;
      case STRING:
        v = p.strings![p.ints![i]];
        break;
      case TEXT: {
        const { starts, lengths, bytes } = p.text!;
        // decodeChunk fills `bytes` with a Buffer, whose decoder is the fast one; the type says
        // Uint8Array so that the declarations name no Node type.
        v = (bytes as Buffer).toString('utf8', starts[i], starts[i] + lengths[i]);
        break;
      }
      default:
        v = p.values![g++];
    }
    yield [i, v];
  }
}

// ------------------------------------------------------------------ assembling a whole graph

/** Collects decoded chunks into the arrays `Graph.bulkLoad` takes. */
export class BulkAssembler {
  private readonly labelLists = new LabelListInterner();
  private readonly typeNames = new Interner();
  readonly nodeLabels: IndexArray;
  readonly relType: IndexArray;
  readonly relStart: Int32Array;
  readonly relEnd: Int32Array;
  readonly nodeColumns = new Map<string, PropertyColumn>();
  readonly relColumns = new Map<string, PropertyColumn>();

  /** With `entities`, assembles over those arrays (another graph's, shared) instead of filling its own from chunks. */
  constructor(
    readonly nodeSlots: number,
    readonly relSlots: number,
    private readonly entities?: EntityArrays,
  ) {
    // On shared memory, so that a graph image can hand them to the query workers' replicas as they are.
    this.nodeLabels = entities?.nodeLabels ?? sharedInt32(nodeSlots).fill(-1);
    this.relType = entities?.relType ?? sharedInt32(relSlots).fill(-1);
    this.relStart = entities?.relStart ?? sharedInt32(relSlots);
    this.relEnd = entities?.relEnd ?? sharedInt32(relSlots);
  }

  /**
   * The chunk `chunk` of the given entity arrays, as its decoded block would be (to check
   * property blocks against): ids past the arrays are absent.
   */
  givenChunk(kind: EntityKind, chunk: number): DecodedChunk {
    return kind === 'node' ? chunkOfArray(this.nodeLabels, chunk, this.nodeSlots) : chunkOfArray(this.relType, chunk, this.relSlots);
  }

  /** Checks the given arrays: every relationship joins two nodes that exist. */
  checkGivenRels(): void {
    const { nodeLabels, relType, relStart, relEnd } = this;
    const live = (v: number): boolean => v >= 0 && v < nodeLabels.length && nodeLabels[v] >= 0;
    for (let id = 0; id < relType.length; id++) {
      if (relType[id] >= 0 && !(live(relStart[id]) && live(relEnd[id]))) {
        throw new BlockDamage(`relationship ${id} connects nodes ${relStart[id]} and ${relEnd[id]}, and one of them does not exist`);
      }
    }
  }

  addNodes(c: DecodedChunk): void {
    const local = (c.names as string[][]).map((labels) => this.labelLists.intern(labels));
    for (let i = 0; i < c.count; i++) if (c.index[i] >= 0) this.nodeLabels[c.firstId + i] = local[c.index[i]];
  }

  addRels(c: DecodedChunk): void {
    const local = (c.names as string[]).map((type) => this.typeNames.intern(type));
    const { firstId, count, index, start, end } = c;
    for (let i = 0; i < count; i++) {
      if (index[i] < 0) continue;
      const s = start![i];
      const e = end![i];
      if (s < 0 || s >= this.nodeSlots || this.nodeLabels[s] < 0 || e < 0 || e >= this.nodeSlots || this.nodeLabels[e] < 0) {
        throw new BlockDamage(`relationship ${firstId + i} connects nodes ${s} and ${e}, and one of them does not exist`);
      }
      this.relType[firstId + i] = local[index[i]];
      this.relStart[firstId + i] = s;
      this.relEnd[firstId + i] = e;
    }
  }

  addProps(kind: EntityKind, key: string, p: DecodedProps): void {
    const columns = kind === 'node' ? this.nodeColumns : this.relColumns;
    const slots = kind === 'node' ? this.nodeSlots : this.relSlots;
    let column = columns.get(key);
    if (column === undefined) {
      column = new PropertyColumn();
      columns.set(key, column);
    }
    if (column.isBorrowed) throw new BlockDamage(`it holds values of ${key}, which the image lends as a whole column`);
    if (!copyInto(column, p, wordsFor(slots) * 32) && !copyTextInto(column, p, wordsFor(slots) * 32)) for (const [i, v] of decodedValues(p)) column.set(p.firstId + i, v);
  }

  graph(): BulkGraph {
    return {
      labelLists: this.entities?.labelLists ?? this.labelLists.lists,
      nodeLabels: this.nodeLabels,
      typeNames: this.entities?.typeNames ?? this.typeNames.all,
      relType: this.relType,
      relStart: this.relStart,
      relEnd: this.relEnd,
      nodeColumns: this.nodeColumns,
      relColumns: this.relColumns,
    };
  }
}

/**
 * Copies a fixed-width block (INT, NUMBER, BOOL) straight into `column`'s arrays, sized
 * for every id at once; false when the block needs the value-by-value path (strings,
 * generic values, or a kind that differs from the column's so far).
 */
function copyInto(column: PropertyColumn, p: DecodedProps, capacity: number): boolean {
  const kind = p.columnKind;
  if (kind !== INT && kind !== NUMBER && kind !== BOOL) return false;
  if (column.kind === EMPTY && column.count === 0) {
    column.kind = kind;
    column.capacity = capacity;
    column.present = sharedBits(capacity);
    if (kind === INT) column.ints = sharedInt32(capacity);
    if (kind === NUMBER) column.nums = sharedFloat64(capacity);
    if (kind !== INT) column.bits = sharedBits(capacity);
  } else if (column.kind !== kind || column.capacity !== capacity) {
    return false;
  }
  const word = p.firstId >>> 5;
  column.present.set(p.present, word);
  if (kind === INT) column.ints.set(p.ints!, p.firstId);
  if (kind === NUMBER) column.nums.set(p.nums!, p.firstId);
  if (kind !== INT) column.bits.set(p.bits!, word);
  column.count += bitCount(p.present);
  return true;
}

/** A TEXT block's bytes straight into a column that is empty or TEXT (no strings made); false for any other pairing. */
function copyTextInto(column: PropertyColumn, p: DecodedProps, capacity: number): boolean {
  if (p.text === undefined) return false;
  column.beginText(capacity);
  if (column.kind !== TEXT) return false;
  column.setTextBlock(p.firstId, p.count, p.present, p.text.lengths, p.text.bytes);
  return true;
}

/**
 * Builds the empty `graph` from the blocks of a whole graph (any order): property keys are
 * interned first in the order `keys` gives (blocks name a key by its index), every block is
 * decoded, and the graph is made in one bulk load. `damaged(key, why)` makes the error for a
 * block that cannot be used. Returns false when the graph had interned keys in another order
 * already (its key ids then differ from the blocks' indexes, which a store rewrites).
 * `shared` (a graph image's) gives the entities as arrays, the adjacency, the lent columns and sets,
 * which the graph then holds as they are; the blocks are the other columns' property blocks.
 */
export function assembleGraph(
  graph: Graph,
  keys: readonly string[],
  blocks: Iterable<[string, Uint8Array]>,
  limits: { nextNodeId: number; nextRelId: number },
  damaged: (key: string, why: string) => Error,
  shared?: { entities: EntityArrays; adjacency: AdjacencyImage; columns: LentColumns; sets: LentSets },
): boolean {
  let keysInOrder = true;
  keys.forEach((key, index) => {
    if (graph.internKey(key) !== index) keysInOrder = false;
  });
  const nodeChunks = new Map<number, DecodedChunk>();
  const relChunks = new Map<number, DecodedChunk>();
  const propBlocks: [string, EntityKind, number, number, Uint8Array][] = [];
  const assembler = new BulkAssembler(limits.nextNodeId, limits.nextRelId, shared?.entities);
  for (const [kind, lent] of [
    ['node', shared?.columns.node ?? []],
    ['rel', shared?.columns.rel ?? []],
  ] as const) {
    for (const { key, image } of lent) (kind === 'node' ? assembler.nodeColumns : assembler.relColumns).set(key, PropertyColumn.borrowing(image));
  }
  const decode = <T>(key: string, fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof BlockDamage) throw damaged(key, `is damaged: ${err.message}`);
      throw err;
    }
  };
  for (const [key, value] of blocks) {
    const parts = key.split('/');
    const chunk = Number(parts[1]);
    if (shared !== undefined && (parts[0] === 'n' || parts[0] === 'r')) throw damaged(key, 'is an entity block, but the entities are given as arrays');
    if (parts[0] === 'n' && parts.length === 2) nodeChunks.set(chunk, decode(key, () => decodeChunk('node', value, chunk, limits.nextNodeId)));
    else if (parts[0] === 'r' && parts.length === 2) relChunks.set(chunk, decode(key, () => decodeChunk('rel', value, chunk, limits.nextRelId)));
    else if ((parts[0] === 'pn' || parts[0] === 'pr') && parts.length === 3) propBlocks.push([key, parts[0] === 'pn' ? 'node' : 'rel', chunk, Number(parts[2]), value]);
    else throw damaged(key, 'has a key this graphdb does not know');
  }
  for (const chunk of [...nodeChunks.keys()].sort((a, b) => a - b)) assembler.addNodes(nodeChunks.get(chunk)!);
  for (const chunk of [...relChunks.keys()].sort((a, b) => a - b)) {
    decode(blockKey.rels(chunk), () => assembler.addRels(relChunks.get(chunk)!));
  }
  if (shared !== undefined) decode('(entities)', () => assembler.checkGivenRels());
  for (const [key, kind, chunk, keyIndex, value] of propBlocks) {
    const owner = shared !== undefined ? assembler.givenChunk(kind, chunk) : (kind === 'node' ? nodeChunks : relChunks).get(chunk);
    const name = keys[keyIndex];
    if (owner === undefined || name === undefined) throw damaged(key, 'belongs to no chunk or property key of the store');
    const decoded = decode(key, () => decodeProps(kind, value, owner));
    assembler.addProps(kind, name, decoded);
  }
  graph.bulkLoad({ ...assembler.graph(), adjacency: shared?.adjacency, sets: shared?.sets, liveKeyCounts: shared && liveKeyCounts(shared.columns) });
  return keysInOrder;
}

/**
 * The live entities of `graph` as arrays (on shared memory) with room for `nodeSlots` and
 * `relSlots` ids, read without making their objects; with the interners of their label lists
 * and type names, so that a caller may add more entities after them.
 */
export function liveEntityArrays(graph: Graph, nodeSlots = graph.nextNodeId, relSlots = graph.nextRelId): { arrays: EntityArrays & { nodeLabels: Int32Array; relType: Int32Array }; labelLists: LabelListInterner; typeNames: Interner } {
  const labelLists = new LabelListInterner();
  // The pass is synchronous, so a list met again (the same array) has the same labels.
  const seen = new Map<readonly string[], number>();
  const nodeLabels = sharedInt32(nodeSlots).fill(-1);
  for (let id = 0, end = Math.min(nodeSlots, graph.nextNodeId); id < end; id++) {
    const labels = graph.liveLabels(id);
    if (labels === undefined) continue;
    let at = seen.get(labels);
    if (at === undefined) seen.set(labels, (at = labelLists.intern(labels)));
    nodeLabels[id] = at;
  }
  const typeNames = new Interner();
  const typeIndex: number[] = [];
  const relType = sharedInt32(relSlots).fill(-1);
  const relStart = sharedInt32(relSlots);
  const relEnd = sharedInt32(relSlots);
  const shape: RelShape = { typeId: -1, start: -1, end: -1 };
  for (let id = 0, end = Math.min(relSlots, graph.nextRelId); id < end; id++) {
    if (!graph.liveRelInto(id, shape)) continue;
    relType[id] = typeIndex[shape.typeId] ??= typeNames.intern(graph.typeName(shape.typeId));
    relStart[id] = shape.start;
    relEnd[id] = shape.end;
  }
  return { arrays: { labelLists: labelLists.lists, nodeLabels, typeNames: typeNames.all, relType, relStart, relEnd }, labelLists, typeNames };
}

/** Each lent column's count of live entities, by kind and key (a lent column may hold values of deleted ones). */
function liveKeyCounts(columns: LentColumns): { node: Map<string, number>; rel: Map<string, number> } {
  return { node: new Map(columns.node.map((c) => [c.key, c.live])), rel: new Map(columns.rel.map((c) => [c.key, c.live])) };
}

/** How many chunks cover `idLimit` ids. */
export function chunkCount(idLimit: number): number {
  return Math.ceil(idLimit / CHUNK_IDS);
}
