/**
 * Delta-stepping's bucket bookkeeping on one thread as hand-written WebAssembly functions
 * (the JavaScript form is delta-stepping.ts's `Buckets` and the loops of `DeltaSearch`).
 * A node waits in at most one bucket: the buckets are doubly linked lists threaded through
 * per-node arrays `next`, `prev` and `where` (the node's list + 1, 0 for none), their heads in
 * `head`, so moving a node to a lower bucket unlinks it from the higher one and nothing goes
 * stale but the nodes a round lowered into the bucket being emptied (they stay listed where
 * they were and are dropped when that bucket is taken, as the JavaScript form drops its stale
 * entries). `head` covers a window of `WINDOW` bucket numbers from `base` (a double at
 * `state`); later buckets share the last list, which `deltaNext` spreads over a new window once
 * the window is empty. Bucket numbers are doubles (floor(distance / width) may pass 2^31).
 *
 *   deltaFile(far, count, bucket, width, dist, next, prev, where, head, state)
 *     files each of the `count` nodes at `far` whose bucket lies past `bucket`;
 *   deltaTake(bucket, width, dist, next, where, head, queue, state) -> size
 *     empties bucket `bucket` into `queue` (its nodes whose distance still lies in it);
 *   deltaNext(from, width, dist, next, prev, where, head, state) -> bucket | -1
 *     the lowest non-empty bucket from `from` on, or -1 when every bucket is empty;
 *   deltaHeavy(nodes, size, pass, rank, heavyMark, rankOf, heavy, heavySize) -> heavySize
 *     lists each of the `size` nodes once per heavy pass and stamps its rank (`drain`).
 *
 * The order of nodes within a bucket differs from the JavaScript form's (a list is filed at
 * its head); the distances are the fixed point whatever the order and the output order is by
 * distance then index, so results are identical.
 */

import { code, stepAndLoop, f64, I, i32, type Bytes, type FunctionDef } from './encode.js';

/** Bucket numbers per window; the list after them holds the later buckets. */
export const WINDOW = 1 << 16;

/** Pushes the byte address of int32 `array[index]` (locals). */
const at = (array: number, index: number): Bytes[] => [I.localGet(array), I.localGet(index), I.i32Const(2), I.i32Shl(), I.i32Add()];
const load = (array: number, index: number): Bytes[] => [...at(array, index), I.i32Load()];
const store = (array: number, index: number, value: Bytes[]): Bytes[] => [...at(array, index), ...value, I.i32Store()];

/** Pushes floor(dist[v] / width) (a double). */
const bucketOf = (dist: number, v: number, width: number): Bytes[] =>
  [I.localGet(dist), I.localGet(v), I.i32Const(3), I.i32Shl(), I.i32Add(), I.f64Load(), I.localGet(width), I.f64Div(), I.f64Floor()];

/** The locals the list operations use. */
interface ListLocals {
  next: number;
  prev: number;
  where: number;
  head: number;
  v: number;
  s: number;
  p: number;
  nx: number;
}

/** Takes `v` out of its list (where[v] - 1). Uses `s`, `p`, `nx`. */
function unlink(l: ListLocals): Bytes {
  return code(
    [...load(l.where, l.v), I.i32Const(1), I.i32Sub(), I.localSet(l.s)],
    [...load(l.prev, l.v), I.localSet(l.p), ...load(l.next, l.v), I.localSet(l.nx)],
    [I.localGet(l.p), I.i32Const(0), I.i32GeS()], I.if(), store(l.next, l.p, [I.localGet(l.nx)]), I.else(), store(l.head, l.s, [I.localGet(l.nx)]), I.end(),
    [I.localGet(l.nx), I.i32Const(0), I.i32GeS()], I.if(), store(l.prev, l.nx, [I.localGet(l.p)]), I.end(),
    store(l.where, l.v, [I.i32Const(0)]),
  );
}

/** Puts `v` at the head of list `s`. Uses `p` for the old head. */
function link(l: ListLocals): Bytes {
  return code(
    [...load(l.head, l.s), I.localSet(l.p)],
    store(l.next, l.v, [I.localGet(l.p)]),
    store(l.prev, l.v, [I.i32Const(-1)]),
    [I.localGet(l.p), I.i32Const(0), I.i32GeS()], I.if(), store(l.prev, l.p, [I.localGet(l.v)]), I.end(),
    store(l.head, l.s, [I.localGet(l.v)]),
    store(l.where, l.v, [I.localGet(l.s), I.i32Const(1), I.i32Add()]),
  );
}

/** s = the list of bucket `k` (a double local): k - base inside the window, else WINDOW. */
const slotOf = (k: number, base: number, s: number): Bytes => code(
  [I.localGet(k), I.localGet(base), I.f64Const(WINDOW), I.f64Add(), I.f64Lt()], I.if(),
  [I.localGet(k), I.localGet(base), I.f64Sub(), I.i32TruncF64S(), I.localSet(s)],
  I.else(), [I.i32Const(WINDOW), I.localSet(s)], I.end(),
);

const fileBody = ((): number[] => {
  const FAR = 0, COUNT = 1, BUCKET = 2, WIDTH = 3, DIST = 4, NEXT = 5, PREV = 6, WHERE = 7, HEAD = 8, STATE = 9;
  const AT = 10, END = 11, V = 12, S = 13, P = 14, NX = 15, T = 16, K = 17, BASE = 18;
  const l: ListLocals = { next: NEXT, prev: PREV, where: WHERE, head: HEAD, v: V, s: S, p: P, nx: NX };
  return code(
    [I.localGet(STATE), I.f64Load(), I.localSet(BASE)],
    [I.localGet(FAR), I.localSet(AT), I.localGet(FAR), I.localGet(COUNT), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(END)],
    I.block(),
    [I.localGet(AT), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    [I.localGet(AT), I.i32Load(), I.localSet(V), ...bucketOf(DIST, V, WIDTH), I.localTee(K), I.localGet(BUCKET), I.f64Gt()], I.if(),
    slotOf(K, BASE, T),
    // Listed there already: nothing to do; listed elsewhere (a higher bucket): moved.
    [...load(WHERE, V), I.localGet(T), I.i32Const(1), I.i32Add(), I.i32Ne()], I.if(),
    [...load(WHERE, V), I.i32Const(0), I.i32Ne()], I.if(), unlink(l), I.end(),
    [I.localGet(T), I.localSet(S)], link(l),
    I.end(),
    I.end(),
    stepAndLoop(AT, 4, END, 'unsigned'),
    I.end(),
    I.end(),
  );
})();

const takeBody = ((): number[] => {
  const BUCKET = 0, WIDTH = 1, DIST = 2, NEXT = 3, WHERE = 4, HEAD = 5, QUEUE = 6, STATE = 7;
  const V = 8, NX = 9, SIZE = 10, HA = 11;
  return code(
    [I.localGet(HEAD), I.localGet(BUCKET), I.localGet(STATE), I.f64Load(), I.f64Sub(), I.i32TruncF64S(), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localTee(HA), I.i32Load(), I.localSet(V)],
    I.block(),
    I.loop(),
    [I.localGet(V), I.i32Const(0), I.i32LtS(), I.brIf(1)],
    [...load(NEXT, V), I.localSet(NX), ...store(WHERE, V, [I.i32Const(0)])],
    // A node lowered into an earlier bucket since it was filed here has been processed there.
    [...bucketOf(DIST, V, WIDTH), I.localGet(BUCKET), I.f64Eq()], I.if(),
    store(QUEUE, SIZE, [I.localGet(V)]), [I.localGet(SIZE), I.i32Const(1), I.i32Add(), I.localSet(SIZE)],
    I.end(),
    [I.localGet(NX), I.localSet(V), I.br(0)],
    I.end(),
    I.end(),
    [I.localGet(HA), I.i32Const(-1), I.i32Store(), I.localGet(SIZE)],
  );
})();

const nextBody = ((): number[] => {
  const FROM = 0, WIDTH = 1, DIST = 2, NEXT = 3, PREV = 4, WHERE = 5, HEAD = 6, STATE = 7;
  const S = 8, V = 9, P = 10, NX = 11, T = 12, BASE = 13, K = 14, LOW = 15;
  const l: ListLocals = { next: NEXT, prev: PREV, where: WHERE, head: HEAD, v: V, s: S, p: P, nx: NX };
  /** Walks the last list: `step` runs per node (V), NX holding the next one. */
  const overLast = (step: Bytes): Bytes => code(
    [I.localGet(HEAD), I.i32Load(4 * WINDOW), I.localSet(V)],
    I.block(), I.loop(),
    [I.localGet(V), I.i32Const(0), I.i32LtS(), I.brIf(1)],
    [...load(NEXT, V), I.localSet(NX)],
    step,
    [I.localGet(NX), I.localSet(V), I.br(0)],
    I.end(), I.end(),
  );
  return code(
    [I.localGet(STATE), I.f64Load(), I.localSet(BASE)],
    I.loop(),
    // S = the first list to look at: from - base, clamped to 0 .. WINDOW.
    [I.i32Const(0), I.localSet(S), I.localGet(FROM), I.localGet(BASE), I.f64Gt()], I.if(),
    [I.localGet(FROM), I.localGet(BASE), I.f64Sub(), I.f64Const(WINDOW), I.f64Lt()], I.if(),
    [I.localGet(FROM), I.localGet(BASE), I.f64Sub(), I.i32TruncF64S(), I.localSet(S)],
    I.else(), [I.i32Const(WINDOW), I.localSet(S)], I.end(),
    I.end(),
    I.block(), I.loop(),
    [I.localGet(S), I.i32Const(WINDOW), I.i32GeS(), I.brIf(1)],
    [...load(HEAD, S), I.i32Const(0), I.i32GeS()], I.if(),
    [I.localGet(BASE), I.localGet(S), I.f64ConvertI32S(), I.f64Add(), I.return()],
    I.end(),
    [I.localGet(S), I.i32Const(1), I.i32Add(), I.localSet(S), I.br(0)],
    I.end(), I.end(),
    // The window is empty: the later buckets' list, if any, is spread over a new window from its lowest bucket.
    [I.localGet(HEAD), I.i32Load(4 * WINDOW), I.i32Const(0), I.i32LtS()], I.if(), [I.f64Const(-1), I.return()], I.end(),
    [I.f64Const(Infinity), I.localSet(LOW)],
    overLast(code(
      [...bucketOf(DIST, V, WIDTH), I.localTee(K), I.localGet(FROM), I.f64Lt()], I.if(),
      unlink(l), // lowered into a bucket already emptied: processed there
      I.else(),
      [I.localGet(K), I.localGet(LOW), I.f64Lt()], I.if(), [I.localGet(K), I.localSet(LOW)], I.end(),
      I.end(),
    )),
    [I.localGet(LOW), I.f64Const(Infinity), I.f64Lt()], I.if(),
    [I.localGet(LOW), I.localSet(BASE), I.localGet(STATE), I.localGet(BASE), I.f64Store()],
    overLast(code(
      [...bucketOf(DIST, V, WIDTH), I.localTee(K), I.localGet(BASE), I.f64Const(WINDOW), I.f64Add(), I.f64Lt()], I.if(),
      [I.localGet(K), I.localGet(BASE), I.f64Sub(), I.i32TruncF64S(), I.localSet(T)],
      unlink(l), [I.localGet(T), I.localSet(S)], link(l),
      I.end(),
    )),
    I.end(),
    I.br(0),
    I.end(),
    [I.f64Const(-1)],
  );
})();

const heavyBody = ((): number[] => {
  const NODES = 0, SIZE = 1, PASS = 2, RANK = 3, HEAVY_MARK = 4, RANK_OF = 5, HEAVY = 6, HS = 7;
  const AT = 8, END = 9, V = 10;
  return code(
    [I.localGet(NODES), I.localSet(AT), I.localGet(NODES), I.localGet(SIZE), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(END)],
    I.block(),
    [I.localGet(AT), I.localGet(END), I.i32GeU(), I.brIf(0)],
    I.loop(),
    [I.localGet(AT), I.i32Load(), I.localSet(V), ...load(HEAVY_MARK, V), I.localGet(PASS), I.i32Ne()], I.if(),
    store(HEAVY_MARK, V, [I.localGet(PASS)]), store(RANK_OF, V, [I.localGet(RANK)]), store(HEAVY, HS, [I.localGet(V)]),
    [I.localGet(HS), I.i32Const(1), I.i32Add(), I.localSet(HS)],
    I.end(),
    stepAndLoop(AT, 4, END, 'unsigned'),
    I.end(),
    I.end(),
    [I.localGet(HS)],
  );
})();

export const deltaFile: FunctionDef = { name: 'deltaFile', params: [i32, i32, f64, f64, i32, i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32, f64, f64], body: fileBody };
export const deltaTake: FunctionDef = { name: 'deltaTake', params: [f64, f64, i32, i32, i32, i32, i32, i32], results: [i32], locals: [i32, i32, i32, i32], body: takeBody };
export const deltaNext: FunctionDef = { name: 'deltaNext', params: [f64, f64, i32, i32, i32, i32, i32, i32], results: [f64], locals: [i32, i32, i32, i32, i32, f64, f64, f64], body: nextBody };
export const deltaHeavy: FunctionDef = { name: 'deltaHeavy', params: [i32, i32, i32, i32, i32, i32, i32, i32], results: [i32], locals: [i32, i32, i32], body: heavyBody };

/** The JavaScript signatures of the exported functions. */
export type DeltaFile = (far: number, count: number, bucket: number, width: number, dist: number, next: number, prev: number, where: number, head: number, state: number) => void;
export type DeltaTake = (bucket: number, width: number, dist: number, next: number, where: number, head: number, queue: number, state: number) => number;
export type DeltaNext = (from: number, width: number, dist: number, next: number, prev: number, where: number, head: number, state: number) => number;
export type DeltaHeavy = (nodes: number, size: number, pass: number, rank: number, heavyMark: number, rankOf: number, heavy: number, heavySize: number) => number;
