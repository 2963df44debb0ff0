/**
 * Afforest's phases (wcc.ts's `afforestSolo`, and `wccItem` on the pool) as hand-written
 * WebAssembly functions over the forest `parent` and the CSR rows in the module's memory (see
 * wasm/wcc.ts; addresses are byte addresses):
 *
 *   wccSample(offsets, targets, parent, from, to, round)
 *     links every vertex from .. to with its neighbour number `round` (`sampleRound`);
 *   wccCompress(parent, from, to)
 *     points every vertex from .. to at its root (`compress`);
 *   wccFull(offsets, targets, parent, from, to, round, skip)
 *     links rows from .. to with their entries from number `round` on, skipping rows whose
 *     vertex sits under `skip` and entries already under the row's root (`fullPassSolo`).
 *
 * The link is `linkSolo`'s (a larger root is hung under a smaller one by a plain write), made
 * inline. `wccSampleShared` and `wccFullShared` are the same phases for threads linking one
 * forest in a shared memory: the root is hung by an atomic compare-and-swap and a lost race
 * walks on (`linkShared`). The roots are each component's smallest member whatever the order
 * of the links, so the result equals the JavaScript phases' (and kernels.c's) exactly.
 */

import { code, stepAndLoop, I, i32, type Bytes, type FunctionDef, type ValueType } from './encode.js';

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
 * they meet; hang the higher root under the lower one. With `shared`, linkShared: the hanging
 * is a compare-and-swap of parent[high] from high to low, and when another thread changed it
 * first, the walk goes on from its new parent.
 */
function link(l: LinkLocals, u: Bytes[], v: Bytes[], shared: boolean): Bytes[] {
  const hang = shared
    ? [I.localGet(l.high), I.i32Const(2), I.i32Shl(), I.localGet(l.parent), I.i32Add(), I.localGet(l.high), I.localGet(l.low), I.i32AtomicCmpxchg(), I.localGet(l.high), I.i32Eq(), I.brIf(2)].flat()
    : [I.localGet(l.high), I.i32Const(2), I.i32Shl(), I.localGet(l.parent), I.i32Add(), I.localGet(l.low), I.i32Store(), I.br(2)].flat();
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
    hang,
    I.end(),
    [I.localGet(l.top), ...parentOf(l.parent), I.localSet(l.a), I.localGet(l.low), ...parentOf(l.parent), I.localSet(l.b)].flat(),
    I.br(0),
    I.end(),
    I.end(),
  ];
}

const sampleBody = (shared: boolean): number[] => {
  const OFFSETS = 0, TARGETS = 1, PARENT = 2, FROM = 3, TO = 4, ROUND = 5;
  const V = 6, E = 7, A = 8, B = 9, HIGH = 10, LOW = 11, TOP = 12;
  const l = { parent: PARENT, a: A, b: B, high: HIGH, low: LOW, top: TOP };
  return code(
    [I.localGet(FROM), I.localSet(V)],
    I.block(),
    [I.localGet(V), I.localGet(TO), I.i32GeS(), I.brIf(0)],
    I.loop(),
    // e = offsets[v] + round; if (e < offsets[v + 1]) link(v, targets[e])
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(), I.localGet(ROUND), I.i32Add(), I.localTee(E)],
    [I.localGet(V), I.i32Const(2), I.i32Shl(), I.localGet(OFFSETS), I.i32Add(), I.i32Load(4), I.i32LtS()], I.if(),
    link(l, [I.localGet(V)], [I.localGet(E), I.i32Const(2), I.i32Shl(), I.localGet(TARGETS), I.i32Add(), I.i32Load()], shared),
    I.end(),
    stepAndLoop(V, 1, TO, 'signed'),
    I.end(),
    I.end(),
  );
};

const SAMPLE_PARAMS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32];
const SAMPLE_LOCALS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32, i32];
export const wccSample: FunctionDef = { name: 'wccSample', params: SAMPLE_PARAMS, results: [], locals: SAMPLE_LOCALS, body: sampleBody(false) };
export const wccSampleShared: FunctionDef = { name: 'wccSampleShared', params: SAMPLE_PARAMS, results: [], locals: SAMPLE_LOCALS, body: sampleBody(true) };

const compressBody = ((): number[] => {
  const PARENT = 0, FROM = 1, TO = 2;
  const AT = 3, END = 4, P = 5, Q = 6;
  return code(
    [I.localGet(FROM), I.i32Const(2), I.i32Shl(), I.localGet(PARENT), I.i32Add(), I.localSet(AT)],
    [I.localGet(TO), I.i32Const(2), I.i32Shl(), I.localGet(PARENT), I.i32Add(), I.localSet(END)],
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

export const wccCompress: FunctionDef = { name: 'wccCompress', params: [i32, i32, i32], results: [], locals: [i32, i32, i32, i32], body: compressBody };

const fullBody = (shared: boolean): number[] => {
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
    link(l, [I.localGet(V)], [I.localGet(T)], shared),
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
};

const FULL_PARAMS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32, i32];
const FULL_LOCALS: readonly ValueType[] = [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32];
export const wccFull: FunctionDef = { name: 'wccFull', params: FULL_PARAMS, results: [], locals: FULL_LOCALS, body: fullBody(false) };
export const wccFullShared: FunctionDef = { name: 'wccFullShared', params: FULL_PARAMS, results: [], locals: FULL_LOCALS, body: fullBody(true) };

/** The JavaScript signatures of the exported functions (the shared forms have their plain twins'). */
export type WccSample = (offsets: number, targets: number, parent: number, from: number, to: number, round: number) => void;
export type WccCompress = (parent: number, from: number, to: number) => void;
export type WccFull = (offsets: number, targets: number, parent: number, from: number, to: number, round: number, skip: number) => void;
