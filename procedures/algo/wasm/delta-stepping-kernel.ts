/**
 * Delta-stepping's round as hand-written WebAssembly functions, `deltaRelax` and
 * `deltaRelaxShared`: the loop of delta-stepping.ts's `relaxSolo` (with `queueAs` inlined),
 * over arrays in the module's memory. Arguments are counts, the round's figures and byte
 * addresses (see wasm/delta-stepping.ts):
 *
 *   deltaRelax(nodes, size, light, width, limit, round, offsets, split, targets, weights,
 *              dist, near, far, nearMark, farMark, found)
 *     relaxes the light (`light` ≠ 0) or heavy edges of the `size` nodes at `nodes`, entries
 *     one after another in row order, so a repeated target sees the distance its previous
 *     entry wrote and the same nodes are queued in the same order as relaxSolo's; a lowered
 *     node goes to `near` when `nd / width < limit` (this bucket's next round), else to `far`,
 *     each at most once per `round` (stamps in nearMark / farMark). `found` holds the near
 *     and far counts: the function starts from them and stores them back, so the caller may
 *     cut a round into several calls (checking its deadline between them).
 *   deltaRelaxShared(the same)
 *     the same for threads sharing the memory (delta-stepping.ts's `deltaItem`): a distance is
 *     lowered by a loop of 64-bit compare-and-swaps on its bits (a non-negative double's bits,
 *     read as a signed integer, order like the double, so the least value stays whichever
 *     thread writes last; the loop ends when the stored value is no longer above the new
 *     one), a stamp is set by a 32-bit compare-and-swap from the value read, so one thread
 *     queues the node, and its slot in `near` or `far` is taken by an atomic add to the count
 *     in `found`.
 */

import { code, stepAndLoop, f64, I, i32, i64, type Bytes, type FunctionDef } from './encode.js';

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
// deltaRelaxShared's: the stored bits of dist[v] and the compare-and-swap's answer, a stamp's
// address and the value read there.
const SEEN = 30;
const GOT = 31;
const MARK_AT = 32;
const MARK = 33;

const PARAMS = [i32, i32, i32, f64, f64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32] as const;
const LOCALS = [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, f64, f64] as const;
const LOCALS_SHARED = [...LOCALS, i64, i64, i32, i32] as const;

/** `list[count++] = v` when `mark[v] !== round` (then `mark[v] = round`). */
const queueOnce = (mark: number, list: number, count: number): Bytes[] => [
  I.localGet(mark), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(), I.localGet(ROUND), I.i32Ne(), I.if(),
  I.localGet(mark), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localGet(ROUND), I.i32Store(),
  I.localGet(list), I.localGet(count), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localGet(V), I.i32Store(),
  I.localGet(count), I.i32Const(1), I.i32Add(), I.localSet(count),
  I.end(),
];

/**
 * The shared form of queueOnce: when `mark[v]` (read atomically) is not `round`, a
 * compare-and-swap from the value read to `round`; the thread whose swap succeeds takes the
 * next slot of `list` by an atomic add to the count at `found + countAt`.
 */
const queueOnceShared = (mark: number, list: number, countAt: number): Bytes[] => [
  I.localGet(mark), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localTee(MARK_AT), I.i32AtomicLoad(), I.localTee(MARK), I.localGet(ROUND), I.i32Ne(), I.if(),
  I.localGet(MARK_AT), I.localGet(MARK), I.localGet(ROUND), I.i32AtomicCmpxchg(), I.localGet(MARK), I.i32Eq(), I.if(),
  I.localGet(FOUND), I.i32Const(1), I.i32AtomicAdd(countAt), I.i32Const(2), I.i32Shl(), I.localGet(list), I.i32Add(), I.localGet(V), I.i32Store(),
  I.end(),
  I.end(),
];

/** `array[u]` (int32; `u4` is u's byte offset) pushed on the stack, `extra` bytes further on. */
const intAt = (array: number, extra = 0): Bytes[] => [I.localGet(array), I.localGet(U4), I.i32Add(), I.i32Load(extra)];

/**
 * `if (nd < dist[v]) { dist[v] = nd; queue v near or far }`, alone: a plain read and store.
 * Shared: the loop of compare-and-swaps on the bits (`seen` the bits last read; a swap that
 * finds other bits retries with them while nd is still below them), then the queueing.
 */
const lower = (shared: boolean): Bytes[] => {
  const nearOrFar: Bytes[] = shared
    ? [
      [I.localGet(ND), I.localGet(WIDTH), I.f64Div(), I.localGet(LIMIT), I.f64Lt()].flat(), I.if(),
      ...queueOnceShared(NEAR_MARK, NEAR, 0),
      I.else(),
      ...queueOnceShared(FAR_MARK, FAR, 4),
      I.end(),
    ]
    : [
      [I.localGet(ND), I.localGet(WIDTH), I.f64Div(), I.localGet(LIMIT), I.f64Lt()].flat(), I.if(),
      ...queueOnce(NEAR_MARK, NEAR, NC),
      I.else(),
      ...queueOnce(FAR_MARK, FAR, FC),
      I.end(),
    ];
  if (!shared) {
    return [
      [I.localGet(ND), I.localGet(V8), I.f64Load(), I.f64Lt()].flat(), I.if(),
      [I.localGet(V8), I.localGet(ND), I.f64Store()].flat(),
      ...nearOrFar,
      I.end(),
    ];
  }
  return [
    [I.localGet(V8), I.i64AtomicLoad(), I.localSet(SEEN)].flat(),
    I.block(),
    I.loop(),
    // Not below the stored value: nothing to do (another thread's value is as low or lower).
    [I.localGet(ND), I.localGet(SEEN), I.f64ReinterpretI64(), I.f64Lt(), I.i32Eqz(), I.brIf(1)].flat(),
    // got = cmpxchg(&dist[v], seen, bits(nd)); got !== seen: another thread wrote first, try again against its value.
    [I.localGet(V8), I.localGet(SEEN), I.localGet(ND), I.i64ReinterpretF64(), I.i64AtomicCmpxchg(), I.localTee(GOT), I.localGet(SEEN), I.i64Ne()].flat(), I.if(),
    [I.localGet(GOT), I.localSet(SEEN), I.br(1)].flat(),
    I.end(),
    // Lowered by this thread.
    ...nearOrFar,
    I.end(),
    I.end(),
  ];
};

const relaxBody = (shared: boolean): number[] => code(
  shared ? [] : [I.localGet(FOUND), I.i32Load(0), I.localSet(NC), I.localGet(FOUND), I.i32Load(4), I.localSet(FC)],
  [I.localGet(NODES), I.localSet(I_AT), I.localGet(NODES), I.localGet(SIZE), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(NODES_END)],
  I.block(),
  [I.localGet(I_AT), I.localGet(NODES_END), I.i32GeU(), I.brIf(0)],
  I.loop(),
  // u = nodes[i]; du = dist[u] (shared: read atomically, another thread may be lowering it)
  [I.localGet(I_AT), I.i32Load(), I.i32Const(2), I.i32Shl(), I.localSet(U4)],
  shared
    ? [I.localGet(DIST), I.localGet(U4), I.i32Const(1), I.i32Shl(), I.i32Add(), I.i64AtomicLoad(), I.f64ReinterpretI64(), I.localSet(DU)]
    : [I.localGet(DIST), I.localGet(U4), I.i32Const(1), I.i32Shl(), I.i32Add(), I.f64Load(), I.localSet(DU)],
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
  lower(shared),
  [I.localGet(EW), I.i32Const(8), I.i32Add(), I.localSet(EW)],
  stepAndLoop(ET, 4, END_T, 'unsigned'),
  I.end(),
  I.end(),
  stepAndLoop(I_AT, 4, NODES_END, 'unsigned'),
  I.end(),
  I.end(),
  shared ? [] : [I.localGet(FOUND), I.localGet(NC), I.i32Store(0), I.localGet(FOUND), I.localGet(FC), I.i32Store(4)],
);

export const deltaRelax: FunctionDef = { name: 'deltaRelax', params: PARAMS, results: [], locals: LOCALS, body: relaxBody(false) };
export const deltaRelaxShared: FunctionDef = { name: 'deltaRelaxShared', params: PARAMS, results: [], locals: LOCALS_SHARED, body: relaxBody(true) };

/** The JavaScript signature of the exported function. */
export type DeltaRelax = (
  nodes: number, size: number, light: number, width: number, limit: number, round: number, offsets: number, split: number,
  targets: number, weights: number, dist: number, near: number, far: number, nearMark: number, farMark: number, found: number,
) => void;
