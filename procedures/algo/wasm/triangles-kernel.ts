/**
 * Triangle count's two loops as hand-written WebAssembly functions, those of triangles.ts's
 * `forwardRows` and `trianglesItem` over arrays in the module's memory (see wasm/triangles.ts
 * for the layout). Arguments are counts and byte addresses:
 *
 *   triForward(n, offsets, targets, fwdOffsets, fwdTargets)
 *     the forward rows of the simple undirected CSR (offsets, targets): each node's
 *     neighbours of higher rank, rank being (degree, index), in row order.
 *   triCount(from, to, fwdOffsets, fwdTargets, mark, count)
 *     the triangles whose lowest-ranked corner lies in from .. to, each added to its three
 *     corners' entries of `count` (doubles); `mark` (int32 per node) holds v + 1 at v's
 *     forward neighbours while v is counted, so it must hold no such stamp of a node in
 *     from .. to when called (zeroed before a count). Several threads may run it at once,
 *     each with a `mark` and a `count` of its own: it writes nothing else.
 *
 * The counts are integers (exact in a double), so adding any split's partial counts gives
 * the one-thread result.
 */

import { code, stepAndLoop, f64, I, i32, type Bytes, type FunctionDef } from './encode.js';

/** `array[index]` (int32; `index` a local holding an element index) pushed on the stack, `extra` bytes further on. */
const intAt = (array: number, index: number, extra = 0): Bytes[] => [I.localGet(array), I.localGet(index), I.i32Const(2), I.i32Shl(), I.i32Add(), I.i32Load(extra)];

/** Pushes `base + value * 4` where `value` is on the stack. */
const toAddress = (base: number): Bytes[] => [I.i32Const(2), I.i32Shl(), I.localGet(base), I.i32Add()];

/** `count[index] += 1` (doubles; `index` a local), or `+= value` with the double's code given. */
const addCount = (count: number, index: number, value: Bytes[]): Bytes[] => [
  I.localGet(index), I.i32Const(3), I.i32Shl(), I.localGet(count), I.i32Add(), I.localTee(ADDRESS),
  I.localGet(ADDRESS), I.f64Load(), ...value, I.f64Add(), I.f64Store(),
];

// triCount's parameters and locals: the node, the cursors into v's and u's forward rows and
// their ends (byte addresses), u, x, the stamp, u's count (i32), a count's address, v's count.
const FROM = 0, TO = 1, FWD_OFFSETS = 2, FWD_TARGETS = 3, MARK = 4, COUNT = 5;
const V = 6, E = 7, E_END = 8, F = 9, F_END = 10, U = 11, X = 12, STAMP = 13, CU = 14, ADDRESS = 15, CV = 16;

const countBody = code(
  [I.localGet(FROM), I.localSet(V)],
  I.block(),
  [I.localGet(V), I.localGet(TO), I.i32GeS(), I.brIf(0)],
  I.loop(),
  // v's forward row: e .. eEnd
  [...intAt(FWD_OFFSETS, V), ...toAddress(FWD_TARGETS), I.localSet(E), ...intAt(FWD_OFFSETS, V, 4), ...toAddress(FWD_TARGETS), I.localSet(E_END)],
  // if (b - a < 2) continue: fewer than two higher-ranked neighbours make no triangle with v lowest.
  [I.localGet(E_END), I.localGet(E), I.i32Sub(), I.i32Const(8), I.i32GeS()], I.if(),
  [I.localGet(V), I.i32Const(1), I.i32Add(), I.localSet(STAMP)],
  // for (e = a; e < b; e++) mark[targets[e]] = stamp
  [I.localGet(E), I.localSet(F)],
  I.loop(),
  [I.localGet(F), I.i32Load(), ...toAddress(MARK), I.localGet(STAMP), I.i32Store()],
  stepAndLoop(F, 4, E_END, 'unsigned'),
  I.end(),
  [I.f64Const(0), I.localSet(CV)],
  I.loop(),
  // u = targets[e]; cu = 0; u's forward row: f .. fEnd
  [I.localGet(E), I.i32Load(), I.localSet(U), I.i32Const(0), I.localSet(CU)],
  [...intAt(FWD_OFFSETS, U), ...toAddress(FWD_TARGETS), I.localSet(F), ...intAt(FWD_OFFSETS, U, 4), ...toAddress(FWD_TARGETS), I.localSet(F_END)],
  I.block(),
  [I.localGet(F), I.localGet(F_END), I.i32GeU(), I.brIf(0)],
  I.loop(),
  // x = targets[f]; if (mark[x] === stamp) { cu++; count[x]++ }
  [I.localGet(F), I.i32Load(), I.localTee(X), ...toAddress(MARK), I.i32Load(), I.localGet(STAMP), I.i32Eq()], I.if(),
  [I.localGet(CU), I.i32Const(1), I.i32Add(), I.localSet(CU)],
  addCount(COUNT, X, [I.f64Const(1)]),
  I.end(),
  stepAndLoop(F, 4, F_END, 'unsigned'),
  I.end(),
  I.end(),
  // count[u] += cu; cv += cu
  addCount(COUNT, U, [I.localGet(CU), I.f64ConvertI32S()]),
  [I.localGet(CV), I.localGet(CU), I.f64ConvertI32S(), I.f64Add(), I.localSet(CV)],
  stepAndLoop(E, 4, E_END, 'unsigned'),
  I.end(),
  // count[v] += cv
  addCount(COUNT, V, [I.localGet(CV)]),
  I.end(),
  stepAndLoop(V, 1, TO, 'signed'),
  I.end(),
  I.end(),
);

export const triCount: FunctionDef = { name: 'triCount', params: [i32, i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, f64], body: countBody };

// triForward's parameters and locals: the node, the cursor into its row and the row's end
// (byte addresses), the neighbour, the two degrees, the write cursor (a byte address).
const N = 0, OFFSETS = 1, TARGETS = 2, FO = 3, FT = 4;
const FV = 5, FE = 6, FE_END = 7, FU = 8, DV = 9, DU = 10, W = 11;

/** `offsets[node + 1] - offsets[node]` pushed on the stack. */
const degree = (node: number): Bytes[] => [...intAt(OFFSETS, node, 4), ...intAt(OFFSETS, node), I.i32Sub()];

const forwardBody = code(
  [I.localGet(FT), I.localSet(W), I.i32Const(0), I.localSet(FV)],
  I.block(),
  [I.localGet(FV), I.localGet(N), I.i32GeS(), I.brIf(0)],
  I.loop(),
  // fwdOffsets[v] = w
  [I.localGet(FV), ...toAddress(FO), I.localGet(W), I.localGet(FT), I.i32Sub(), I.i32Const(2), I.i32ShrU(), I.i32Store()],
  [...intAt(OFFSETS, FV), ...toAddress(TARGETS), I.localSet(FE), ...intAt(OFFSETS, FV, 4), ...toAddress(TARGETS), I.localSet(FE_END)],
  [...degree(FV), I.localSet(DV)],
  I.block(),
  [I.localGet(FE), I.localGet(FE_END), I.i32GeU(), I.brIf(0)],
  I.loop(),
  // u = targets[e]; if (du > dv || (du === dv && u > v)) fwd[w++] = u
  [I.localGet(FE), I.i32Load(), I.localSet(FU), ...degree(FU), I.localTee(DU), I.localGet(DV), I.i32GtS()],
  [I.localGet(DU), I.localGet(DV), I.i32Eq(), I.localGet(FU), I.localGet(FV), I.i32GtS(), I.i32And(), I.i32Or()], I.if(),
  [I.localGet(W), I.localGet(FU), I.i32Store(), I.localGet(W), I.i32Const(4), I.i32Add(), I.localSet(W)],
  I.end(),
  stepAndLoop(FE, 4, FE_END, 'unsigned'),
  I.end(),
  I.end(),
  stepAndLoop(FV, 1, N, 'signed'),
  I.end(),
  I.end(),
  // fwdOffsets[n] = w
  [I.localGet(N), ...toAddress(FO), I.localGet(W), I.localGet(FT), I.i32Sub(), I.i32Const(2), I.i32ShrU(), I.i32Store()],
);

export const triForward: FunctionDef = { name: 'triForward', params: [i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32], body: forwardBody };

/** The JavaScript signatures of the exported functions. */
export type TriCount = (from: number, to: number, fwdOffsets: number, fwdTargets: number, mark: number, count: number) => void;
export type TriForward = (n: number, offsets: number, targets: number, fwdOffsets: number, fwdTargets: number) => void;
