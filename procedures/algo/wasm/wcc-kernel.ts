/**
 * Afforest's one-thread phases (wcc.ts's `afforestSolo`) as hand-written WebAssembly
 * functions over the forest `parent` and the CSR rows in the module's memory (see wasm/wcc.ts;
 * addresses are byte addresses):
 *
 *   wccSample(offsets, targets, parent, n, round)
 *     links every vertex with its neighbour number `round` (`sampleRound`);
 *   wccCompress(parent, n)
 *     points every vertex at its root (`compress`);
 *   wccFull(offsets, targets, parent, from, to, round, skip)
 *     links rows from .. to with their entries from number `round` on, skipping rows whose
 *     vertex sits under `skip` and entries already under the row's root (`fullPassSolo`).
 *
 * The link is `linkSolo`'s (a larger root is hung under a smaller one by a plain write), made
 * inline. The roots are each component's smallest member whatever the order of the links, so
 * the result equals the JavaScript phases' (and kernels.c's) exactly.
 */

import { code, stepAndLoop, I, i32, type Bytes, type FunctionDef } from './encode.js';

/** Pushes `parent[x]` where x's value is on the stack. */
const parentOf = (parent: number): Bytes[] => [I.i32Const(2), I.i32Shl(), I.localGet(parent), I.i32Add(), I.i32Load()];

/** Locals the inline link needs. */
interface LinkLocals {
  parent: number;
  a: number;
  b: number;
  high: number;
  low: number;
  top: number;
}

/**
 * linkSolo(parent, u, v), with u's and v's values pushed by `u` and `v`: walk both up until
 * they meet; hang the higher root under the lower one.
 */
function link(l: LinkLocals, u: Bytes[], v: Bytes[]): Bytes[] {
  return [
    I.block(),
    ...u, ...parentOf(l.parent), I.localSet(l.a), ...v, ...parentOf(l.parent), I.localSet(l.b),
    I.loop(),
    [I.localGet(l.a), I.localGet(l.b), I.i32Eq(), I.brIf(1)].flat(),
    // high = max(a, b), low = min(a, b)
    [I.localGet(l.a), I.localGet(l.b), I.localGet(l.a), I.localGet(l.b), I.i32GtS(), I.select(), I.localSet(l.high)].flat(),
    [I.localGet(l.b), I.localGet(l.a), I.localGet(l.a), I.localGet(l.b), I.i32GtS(), I.select(), I.localSet(l.low)].flat(),
    [I.localGet(l.high), ...parentOf(l.parent), I.localTee(l.top), I.localGet(l.low), I.i32Eq(), I.brIf(1)].flat(),
    [I.localGet(l.top), I.localGet(l.high), I.i32Eq()].flat(), I.if(),
    [I.localGet(l.high), I.i32Const(2), I.i32Shl(), I.localGet(l.parent), I.i32Add(), I.localGet(l.low), I.i32Store(), I.br(2)].flat(),
    I.end(),
    [I.localGet(l.top), ...parentOf(l.parent), I.localSet(l.a), I.localGet(l.low), ...parentOf(l.parent), I.localSet(l.b)].flat(),
    I.br(0),
    I.end(),
    I.end(),
  ];
}

const sampleBody = ((): number[] => {
  const OFFSETS = 0, TARGETS = 1, PARENT = 2, N = 3, ROUND = 4;
  const V = 5, E = 6, A = 7, B = 8, HIGH = 9, LOW = 10, TOP = 11;
  const l = { parent: PARENT, a: A, b: B, high: HIGH, low: LOW, top: TOP };
  return code(
    [I.i32Const(0), I.localSet(V)],
    I.block(),
    [I.localGet(V), I.localGet(N), I.i32GeS(), I.brIf(0)],
    I.loop(),
    // e = offsets[v] + round; if (e < offsets[v + 1]) link(v, targets[e])
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(), I.localGet(ROUND), I.i32Add(), I.localTee(E)],
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(4), I.i32LtS()], I.if(),
    link(l, [I.localGet(V)], [I.localGet(E), I.i32Const(2), I.i32Shl(), I.localGet(TARGETS), I.i32Add(), I.i32Load()]),
    I.end(),
    stepAndLoop(V, 1, N, 'signed'),
    I.end(),
    I.end(),
  );
})();

export const wccSample: FunctionDef = { name: 'wccSample', params: [i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32], body: sampleBody };

const compressBody = ((): number[] => {
  const PARENT = 0, N = 1;
  const AT = 2, END = 3, P = 4, Q = 5;
  return code(
    [I.localGet(PARENT), I.localSet(AT), I.localGet(N), I.i32Const(2), I.i32Shl(), I.localGet(PARENT), I.i32Add(), I.localSet(END)],
    I.block(),
    [I.localGet(AT), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    // p = parent[v]; while (p !== parent[p]) p = parent[p]; parent[v] = p
    [I.localGet(AT), I.i32Load(), I.localSet(P)],
    I.loop(),
    [I.localGet(P), ...parentOf(PARENT), I.localTee(Q), I.localGet(P), I.i32Ne()], I.if(),
    [I.localGet(Q), I.localSet(P), I.br(1)],
    I.end(),
    I.end(),
    [I.localGet(AT), I.localGet(P), I.i32Store()],
    stepAndLoop(AT, 4, END, 'unsigned'),
    I.end(),
    I.end(),
  );
})();

export const wccCompress: FunctionDef = { name: 'wccCompress', params: [i32, i32], results: [], locals: [i32, i32, i32, i32], body: compressBody };

const fullBody = ((): number[] => {
  const OFFSETS = 0, TARGETS = 1, PARENT = 2, FROM = 3, TO = 4, ROUND = 5, SKIP = 6;
  const V = 7, E = 8, END = 9, ROOT = 10, T = 11, A = 12, B = 13, HIGH = 14, LOW = 15, TOP = 16;
  const l = { parent: PARENT, a: A, b: B, high: HIGH, low: LOW, top: TOP };
  return code(
    [I.localGet(FROM), I.localSet(V)],
    I.block(),
    [I.localGet(V), I.localGet(TO), I.i32GeS(), I.brIf(0)],
    I.loop(),
    // root = parent[v]; rows under `skip` are passed over
    [I.localGet(V), ...parentOf(PARENT), I.localTee(ROOT), I.localGet(SKIP), I.i32Ne()], I.if(),
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(), I.localGet(ROUND), I.i32Add(), I.i32Const(2), I.i32Shl(), I.localGet(TARGETS), I.i32Add(), I.localSet(E)],
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(4), I.i32Const(2), I.i32Shl(), I.localGet(TARGETS), I.i32Add(), I.localSet(END)],
    I.block(),
    [I.localGet(E), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    // t = targets[e]; if (parent[t] !== root) { link(v, t); root = parent[v] }
    [I.localGet(E), I.i32Load(), I.localTee(T), ...parentOf(PARENT), I.localGet(ROOT), I.i32Ne()], I.if(),
    link(l, [I.localGet(V)], [I.localGet(T)]),
    [I.localGet(V), ...parentOf(PARENT), I.localSet(ROOT)],
    I.end(),
    stepAndLoop(E, 4, END, 'unsigned'),
    I.end(),
    I.end(),
    I.end(),
    stepAndLoop(V, 1, TO, 'signed'),
    I.end(),
    I.end(),
  );
})();

export const wccFull: FunctionDef = { name: 'wccFull', params: [i32, i32, i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32], body: fullBody };

/** The JavaScript signatures of the exported functions. */
export type WccSample = (offsets: number, targets: number, parent: number, n: number, round: number) => void;
export type WccCompress = (parent: number, n: number) => void;
export type WccFull = (offsets: number, targets: number, parent: number, from: number, to: number, round: number, skip: number) => void;
