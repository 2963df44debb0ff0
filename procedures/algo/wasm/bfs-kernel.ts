/**
 * The direction-optimising BFS's level steps as hand-written WebAssembly functions, the
 * loops of bfs-parallel.ts's `topDownSolo`, `topDownBlock` and `bottomUpBlock` (with
 * `parentIn` and `claim` inlined) over arrays in the module's memory (see wasm/bfs.ts):
 *
 *   bfsTopDown(queue, size, next, offsets, targets, depth, nextQueue, found)
 *     the `size` frontier nodes at `queue` claim their unvisited neighbours (depth `next`),
 *     appended to `nextQueue` from found[0] on; their out-degrees are added to found[1].
 *   bfsTopDownShared(the same)
 *     the same for threads sharing the memory: a depth is claimed by an atomic
 *     compare-and-swap from -1, the node's slot in `nextQueue` taken by an atomic add to
 *     found[0], and the degrees added to found[1] atomically at the end.
 *     (A bottom-up block writes only its own nodes' depths and bitmap words, so threads run
 *     `bfsBottomUp` as it is, each block with a `found` pair of its own.)
 *   bfsBottomUp(from, to, next, offsets, inOffsets, inTargets, depth, frontier,
 *               nextFrontier, found)
 *     every unvisited node in from .. to scans its incoming row for a node in the
 *     `frontier` bitmap; one found gets depth `next` and its bit in `nextFrontier`; found[0]
 *     counts them and found[1] sums their out-degrees.
 *
 * Both start from `found` and store it back, so the caller may cut a level into several
 * calls (checking its deadline between them). Node and entry addresses are byte addresses.
 */

import { code, stepAndLoop, I, i32, type Bytes, type FunctionDef, type ValueType } from './encode.js';

/** `array[index]` (int32; `index` a local holding an element index) pushed on the stack, `extra` bytes further on. */
const intAt = (array: number, index: number, extra = 0): Bytes[] => [I.localGet(array), I.localGet(index), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(extra)];

/** Pushes `base + value * 4` where `value` is on the stack. */
const toAddress = (base: number): Bytes[] => [I.i32Const(2), I.i32Shl(), I.localGet(base), I.i32Add()];

/** `degrees += offsets[v + 1] - offsets[v]`. */
const addDegree = (degrees: number, offsets: number, v: number): Bytes[] => [I.localGet(degrees), ...intAt(offsets, v, 4), ...intAt(offsets, v), I.i32Sub(), I.i32Add(), I.localSet(degrees)];

const topDownBody = (shared: boolean): number[] => {
  const QUEUE = 0, SIZE = 1, NEXT = 2, OFFSETS = 3, TARGETS = 4, DEPTH = 5, NEXT_QUEUE = 6, FOUND = 7;
  // Locals: the frontier cursor and its end, the row cursor and end, the neighbour, its depth's address, the next queue's end, the degrees.
  const AT = 8, AT_END = 9, E = 10, END = 11, V = 12, DV = 13, TAIL = 14, DEGREES = 15, U = 16;
  // The claim of v (whose depth's address is DV): alone, a plain write and the next slot of
  // the queue; shared, a compare-and-swap (skipped when another thread won v) and a slot
  // reserved by an atomic add.
  const claim: Bytes[] = shared
    ? [
      [I.localGet(DV), I.i32Const(-1), I.localGet(NEXT), I.i32AtomicCmpxchg(), I.i32Const(-1), I.i32Eq()].flat(), I.if(),
      [I.localGet(FOUND), I.i32Const(1), I.i32AtomicAdd(0), ...toAddress(NEXT_QUEUE), I.localGet(V), I.i32Store()].flat(),
      ...addDegree(DEGREES, OFFSETS, V),
      I.end(),
    ]
    : [
      [I.localGet(DV), I.localGet(NEXT), I.i32Store()].flat(),
      [I.localGet(TAIL), I.localGet(V), I.i32Store(), I.localGet(TAIL), I.i32Const(4), I.i32Add(), I.localSet(TAIL)].flat(),
      ...addDegree(DEGREES, OFFSETS, V),
    ];
  return code(
    shared
      ? [I.i32Const(0), I.localSet(DEGREES)]
      : [I.localGet(FOUND), I.i32Load(0), ...toAddress(NEXT_QUEUE), I.localSet(TAIL), I.localGet(FOUND), I.i32Load(4), I.localSet(DEGREES)],
    [I.localGet(QUEUE), I.localSet(AT), I.localGet(SIZE), ...toAddress(QUEUE), I.localSet(AT_END)],
    I.block(),
    [I.localGet(AT), I.localGet(AT_END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    [I.localGet(AT), I.i32Load(), I.localSet(U)],
    [...intAt(OFFSETS, U), ...toAddress(TARGETS), I.localSet(E), ...intAt(OFFSETS, U, 4), ...toAddress(TARGETS), I.localSet(END)],
    I.block(),
    [I.localGet(E), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    // v = targets[e]; if (depth[v] === -1) { depth[v] = next; nextQueue[tail++] = v; degrees += deg(v) }
    [I.localGet(E), I.i32Load(), I.localTee(V), ...toAddress(DEPTH), I.localTee(DV), I.i32Load(), I.i32Const(-1), I.i32Eq()], I.if(),
    claim,
    I.end(),
    stepAndLoop(E, 4, END, 'unsigned'),
    I.end(),
    I.end(),
    stepAndLoop(AT, 4, AT_END, 'unsigned'),
    I.end(),
    I.end(),
    shared
      ? [I.localGet(FOUND), I.localGet(DEGREES), I.i32AtomicAdd(4), I.drop()]
      : [I.localGet(FOUND), I.localGet(TAIL), I.localGet(NEXT_QUEUE), I.i32Sub(), I.i32Const(2), I.i32ShrU(), I.i32Store(0), I.localGet(FOUND), I.localGet(DEGREES), I.i32Store(4)],
  );
};

const TOP_DOWN_PARAMS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32, i32, i32];
const TOP_DOWN_LOCALS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32, i32, i32, i32];
export const bfsTopDown: FunctionDef = { name: 'bfsTopDown', params: TOP_DOWN_PARAMS, results: [], locals: TOP_DOWN_LOCALS, body: topDownBody(false) };
export const bfsTopDownShared: FunctionDef = { name: 'bfsTopDownShared', params: TOP_DOWN_PARAMS, results: [], locals: TOP_DOWN_LOCALS, body: topDownBody(true) };

const bottomUpBody = ((): number[] => {
  const FROM = 0, TO = 1, NEXT = 2, OFFSETS = 3, IN_OFFSETS = 4, IN_TARGETS = 5, DEPTH = 6, FRONTIER = 7, NEXT_FRONTIER = 8, FOUND = 9;
  // Locals: the node, the row cursor and end, the in-neighbour, the count and the degrees, the word address of v's bit.
  const V = 10, E = 11, END = 12, U = 13, COUNT = 14, DEGREES = 15, W = 16;
  return code(
    [I.localGet(FOUND), I.i32Load(0), I.localSet(COUNT), I.localGet(FOUND), I.i32Load(4), I.localSet(DEGREES)],
    [I.localGet(FROM), I.localSet(V)],
    I.block(),
    [I.localGet(V), I.localGet(TO), I.i32GeS(), I.brIf(0)],
    I.loop(),
    [...intAt(DEPTH, V), I.i32Const(-1), I.i32Eq()], I.if(),
    [...intAt(IN_OFFSETS, V), ...toAddress(IN_TARGETS), I.localSet(E), ...intAt(IN_OFFSETS, V, 4), ...toAddress(IN_TARGETS), I.localSet(END)],
    // Scan the incoming row in order; the first parent in the frontier ends it.
    I.block(),
    [I.localGet(E), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    // (frontier[u >> 5] >>> (u & 31)) & 1 (WebAssembly's shifts take their count mod 32)
    [I.localGet(E), I.i32Load(), I.localTee(U), I.i32Const(5), I.i32ShrU(), ...toAddress(FRONTIER), I.i32Load(), I.localGet(U), I.i32ShrU(), I.i32Const(1), I.i32And()], I.if(),
    // claim: depth[v] = next; nextFrontier[v >> 5] |= 1 << (v & 31); count++; degrees += deg(v)
    [I.localGet(DEPTH), I.localGet(V), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localGet(NEXT), I.i32Store()],
    [I.localGet(V), I.i32Const(5), I.i32ShrU(), ...toAddress(NEXT_FRONTIER), I.localTee(W), I.localGet(W), I.i32Load(), I.i32Const(1), I.localGet(V), I.i32Shl(), I.i32Or(), I.i32Store()],
    [I.localGet(COUNT), I.i32Const(1), I.i32Add(), I.localSet(COUNT)],
    addDegree(DEGREES, OFFSETS, V),
    I.br(2),
    I.end(),
    stepAndLoop(E, 4, END, 'unsigned'),
    I.end(),
    I.end(),
    I.end(),
    stepAndLoop(V, 1, TO, 'signed'),
    I.end(),
    I.end(),
    [I.localGet(FOUND), I.localGet(COUNT), I.i32Store(0), I.localGet(FOUND), I.localGet(DEGREES), I.i32Store(4)],
  );
})();

export const bfsBottomUp: FunctionDef = { name: 'bfsBottomUp', params: [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32], body: bottomUpBody };

/** The JavaScript signatures of the exported functions. */
export type BfsTopDown = (queue: number, size: number, next: number, offsets: number, targets: number, depth: number, nextQueue: number, found: number) => void;
export type BfsBottomUp = (from: number, to: number, next: number, offsets: number, inOffsets: number, inTargets: number, depth: number, frontier: number, nextFrontier: number, found: number) => void;
