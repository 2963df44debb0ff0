/**
 * Delta-stepping's one-thread round as a hand-written WebAssembly function, `deltaRelax`:
 * the loop of delta-stepping.ts's `relaxSolo` (with `queueAs` inlined), over arrays in the
 * module's memory, entries relaxed one after another in row order, so a repeated target sees
 * the distance its previous entry wrote and the same nodes are queued in the same order.
 * Arguments are counts, the round's figures and byte addresses (see wasm/delta-stepping.ts):
 *
 *   deltaRelax(nodes, size, light, width, limit, round, offsets, split, targets, weights,
 *              dist, near, far, nearMark, farMark, found)
 *
 * Relaxes the light (`light` ≠ 0) or heavy edges of the `size` nodes at `nodes`; a lowered
 * node goes to `near` when `nd / width < limit` (this bucket's next round), else to `far`,
 * each at most once per `round` (stamps in nearMark / farMark). `found` holds the near and
 * far counts: the function starts from them and stores them back, so the caller may cut a
 * round into several calls (checking its deadline between them).
 */

import { code, stepAndLoop, f64, I, i32, type Bytes, type FunctionDef } from './encode.js';

// Parameters.
const NODES = 0;
const SIZE = 1;
const LIGHT = 2;
const WIDTH = 3;
const LIMIT = 4;
const ROUND = 5;
const OFFSETS = 6;
const SPLIT = 7;
const TARGETS = 8;
const WEIGHTS = 9;
const DIST = 10;
const NEAR = 11;
const FAR = 12;
const NEAR_MARK = 13;
const FAR_MARK = 14;
const FOUND = 15;
// Locals: the node cursor and its end (byte addresses), the node's byte offset into the int32
// arrays, the entry cursors into targets and weights and the row's end in targets, the entry's
// target and its byte offset into the double and int32 arrays, the near and far counts, the
// row's start and end entries; the node's distance and the entry's new distance.
const I_AT = 16;
const NODES_END = 17;
const U4 = 18;
const ET = 19;
const EW = 20;
const END_T = 21;
const V = 22;
const V8 = 23;
const NC = 24;
const FC = 25;
const START = 26;
const STOP = 27;
const DU = 28;
const ND = 29;

const PARAMS = [i32, i32, i32, f64, f64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32] as const;
const LOCALS = [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, f64, f64] as const;

/** `list[count++] = v` when `mark[v] !== round` (then `mark[v] = round`). */
const queueOnce = (mark: number, list: number, count: number): Bytes[] => [
  I.localGet(mark), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(), I.localGet(ROUND), I.i32Ne(), I.if(),
  I.localGet(mark), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localGet(ROUND), I.i32Store(),
  I.localGet(list), I.localGet(count), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localGet(V), I.i32Store(),
  I.localGet(count), I.i32Const(1), I.i32Add(), I.localSet(count),
  I.end(),
];

/** `array[u]` (int32; `u4` is u's byte offset) pushed on the stack, `extra` bytes further on. */
const intAt = (array: number, extra = 0): Bytes[] => [I.localGet(array), I.localGet(U4), I.i32Add(), I.i32Load(extra)];

const body = code(
  [I.localGet(FOUND), I.i32Load(0), I.localSet(NC), I.localGet(FOUND), I.i32Load(4), I.localSet(FC)],
  [I.localGet(NODES), I.localSet(I_AT), I.localGet(NODES), I.localGet(SIZE), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(NODES_END)],
  I.block(),
  [I.localGet(I_AT), I.localGet(NODES_END), I.i32GeU(), I.brIf(0)],
  I.loop(),
  // u = nodes[i]; du = dist[u]
  [I.localGet(I_AT), I.i32Load(), I.i32Const(2), I.i32Shl(), I.localSet(U4)],
  [I.localGet(DIST), I.localGet(U4), I.i32Const(1), I.i32Shl(), I.i32Add(), I.f64Load(), I.localSet(DU)],
  // Light: offsets[u] .. split[u]; heavy: split[u] .. offsets[u + 1].
  [I.localGet(LIGHT)], I.if(),
  intAt(OFFSETS), [I.localSet(START)], intAt(SPLIT), [I.localSet(STOP)],
  I.else(),
  intAt(SPLIT), [I.localSet(START)], intAt(OFFSETS, 4), [I.localSet(STOP)],
  I.end(),
  [I.localGet(TARGETS), I.localGet(START), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(ET)],
  [I.localGet(WEIGHTS), I.localGet(START), I.i32Const(3), I.i32Shl(), I.i32Add(), I.localSet(EW)],
  [I.localGet(TARGETS), I.localGet(STOP), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(END_T)],
  I.block(),
  [I.localGet(ET), I.localGet(END_T), I.i32GeU(), I.brIf(0)],
  I.loop(),
  // v = targets[e]; nd = du + weights[e]
  [I.localGet(ET), I.i32Load(), I.localTee(V), I.i32Const(3), I.i32Shl(), I.localGet(DIST), I.i32Add(), I.localSet(V8)],
  [I.localGet(DU), I.localGet(EW), I.f64Load(), I.f64Add(), I.localSet(ND)],
  // if (nd < dist[v]) { dist[v] = nd; queue v near or far }
  [I.localGet(ND), I.localGet(V8), I.f64Load(), I.f64Lt()], I.if(),
  [I.localGet(V8), I.localGet(ND), I.f64Store()],
  [I.localGet(ND), I.localGet(WIDTH), I.f64Div(), I.localGet(LIMIT), I.f64Lt()], I.if(),
  queueOnce(NEAR_MARK, NEAR, NC),
  I.else(),
  queueOnce(FAR_MARK, FAR, FC),
  I.end(),
  I.end(),
  [I.localGet(EW), I.i32Const(8), I.i32Add(), I.localSet(EW)],
  stepAndLoop(ET, 4, END_T, 'unsigned'),
  I.end(),
  I.end(),
  stepAndLoop(I_AT, 4, NODES_END, 'unsigned'),
  I.end(),
  I.end(),
  [I.localGet(FOUND), I.localGet(NC), I.i32Store(0), I.localGet(FOUND), I.localGet(FC), I.i32Store(4)],
);

export const deltaRelax: FunctionDef = { name: 'deltaRelax', params: PARAMS, results: [], locals: LOCALS, body };

/** The JavaScript signature of the exported function. */
export type DeltaRelax = (
  nodes: number, size: number, light: number, width: number, limit: number, round: number, offsets: number, split: number,
  targets: number, weights: number, dist: number, near: number, far: number, nearMark: number, farMark: number, found: number,
) => void;
