/**
 * PageRank's pull round as a hand-written WebAssembly function, `pageRankRows`: the rows
 * `from .. to` of one round, exactly the loop of pagerank.ts's `pageRankItem` (the same
 * additions in the same order, so the same bits), over arrays that sit in the module's
 * memory. Arguments are the row range, the round's base, and the byte addresses of the
 * arrays (see wasm/pagerank.ts for the layout):
 *
 *   pageRankRows(from, to, base, offsets, targets, share, teleport, x, contrib, next,
 *                contribNext, sums)
 *
 * `teleport` is 0 for plain PageRank (uniform teleport; address 0 holds `sums`, never an
 * array). `sums` holds two doubles, the block's running change and dangling mass: the
 * function adds to them and stores them back, so a block cut into several calls (the caller
 * checks its deadline between calls) adds in the same order as one call.
 *
 * Why WebAssembly: V8's optimised JavaScript pays, per typed-array read in the gather loop,
 * a bounds check and the array's data pointer, and per loop turn a map check and field
 * reloads; a WebAssembly load is one instruction off the memory base (V8 guards the memory's
 * bounds with guard pages, not compares), as in C.
 */

import { code, stepAndLoop, f64, I, i32, type Bytes, type FunctionDef } from './encode.js';

// Parameters.
const FROM = 0;
const TO = 1;
const BASE = 2;
const OFFSETS = 3;
const TARGETS = 4;
const SHARE = 5;
const TELEPORT = 6;
const X = 7;
const CONTRIB = 8;
const NEXT = 9;
const CONTRIB_NEXT = 10;
const SUMS = 11;
// Locals: the row, the edge cursor and the row's end (byte addresses into targets), the row's
// byte offset into the double arrays; the two partial sums, the new score, the row's share,
// and the block's running change and dangling mass.
const V = 12;
const E = 13;
const STOP = 14;
const V8 = 15;
const EVEN = 16;
const ODD = 17;
const NV = 18;
const SV = 19;
const DELTA = 20;
const DANGLING = 21;

const PARAMS = [i32, i32, f64, i32, i32, i32, i32, i32, i32, i32, i32, i32] as const;
const LOCALS = [i32, i32, i32, i32, f64, f64, f64, f64, f64, f64] as const;

/** `contrib[targets[e + k]]` pushed on the stack (`k` in bytes). */
const gather = (k: number): Bytes[] => [I.localGet(CONTRIB), I.localGet(E), I.i32Load(k), I.i32Const(3), I.i32Shl(), I.i32Add(), I.f64Load()];

/** `sum += contrib[targets[e + k]]`. */
const addTo = (sum: number, k: number): Bytes[] => [I.localGet(sum), ...gather(k), I.f64Add(), I.localSet(sum)];

/** `e += bytes`. */
const advance = (bytes: number): Bytes[] => [I.localGet(E), I.i32Const(bytes), I.i32Add(), I.localSet(E)];

/** Pushes whether `e + bytes < stop` (byte addresses: unsigned). */
const before = (bytes: number): Bytes[] => [I.localGet(E), ...(bytes === 0 ? [] : [I.i32Const(bytes), I.i32Add()]), I.localGet(STOP), I.i32LtU()];

/** `array[v]` (a double) pushed on the stack. */
const at = (array: number): Bytes[] => [I.localGet(array), I.localGet(V8), I.i32Add(), I.f64Load()];

/** The block type of an `if` that leaves one double. */
const IF_F64: Bytes = [0x04, f64];

const body = code(
  // delta, dangling = sums[0], sums[1]
  [I.localGet(SUMS), I.f64Load(0), I.localSet(DELTA), I.localGet(SUMS), I.f64Load(8), I.localSet(DANGLING)],
  // e = targets + offsets[from] * 4
  [I.localGet(TARGETS), I.localGet(OFFSETS), I.localGet(FROM), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(E)],
  [I.localGet(FROM), I.localSet(V)],
  I.block(),
  [I.localGet(V), I.localGet(TO), I.i32GeS(), I.brIf(0)],
  I.loop(),
  // stop = targets + offsets[v + 1] * 4
  [I.localGet(TARGETS), I.localGet(OFFSETS), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(4), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(STOP)],
  [I.f64Const(0), I.localSet(EVEN), I.f64Const(0), I.localSet(ODD)],
  // Four entries per turn into the two sums, as pageRankItem (a loop tested at its
  // bottom, entered when it has a turn to run).
  before(12), I.if(),
  I.loop(),
  addTo(EVEN, 0), addTo(ODD, 4), addTo(EVEN, 8), addTo(ODD, 12), advance(16),
  before(12), I.brIf(0),
  I.end(),
  I.end(),
  before(4), I.if(), addTo(EVEN, 0), addTo(ODD, 4), advance(8), I.end(),
  before(0), I.if(), addTo(EVEN, 0), advance(4), I.end(),
  [I.localGet(V), I.i32Const(3), I.i32Shl(), I.localSet(V8)],
  // nv = (teleport ? base * teleport[v] : base) + (even + odd)
  [I.localGet(TELEPORT), I.i32Eqz()], IF_F64, [I.localGet(BASE)], I.else(), [I.localGet(BASE), ...at(TELEPORT), I.f64Mul()], I.end(),
  [I.localGet(EVEN), I.localGet(ODD), I.f64Add(), I.f64Add(), I.localSet(NV)],
  // delta += |nv - x[v]|
  [I.localGet(DELTA), I.localGet(NV), ...at(X), I.f64Sub(), I.f64Abs(), I.f64Add(), I.localSet(DELTA)],
  // next[v] = nv; sv = share[v]; contribNext[v] = nv * sv
  [I.localGet(NEXT), I.localGet(V8), I.i32Add(), I.localGet(NV), I.f64Store()],
  [...at(SHARE), I.localSet(SV)],
  [I.localGet(CONTRIB_NEXT), I.localGet(V8), I.i32Add(), I.localGet(NV), I.localGet(SV), I.f64Mul(), I.f64Store()],
  // if (sv === 0) dangling += nv
  [I.localGet(SV), I.f64Const(0), I.f64Eq()], I.if(), [I.localGet(DANGLING), I.localGet(NV), I.f64Add(), I.localSet(DANGLING)], I.end(),
  stepAndLoop(V, 1, TO, 'signed'),
  I.end(),
  I.end(),
  [I.localGet(SUMS), I.localGet(DELTA), I.f64Store(0), I.localGet(SUMS), I.localGet(DANGLING), I.f64Store(8)],
);

export const pageRankRows: FunctionDef = { name: 'pageRankRows', params: PARAMS, results: [], locals: LOCALS, body };

/** The JavaScript signature of the exported function. */
export type PageRankRows = (
  from: number, to: number, base: number, offsets: number, targets: number, share: number, teleport: number,
  x: number, contrib: number, next: number, contribNext: number, sums: number,
) => void;
