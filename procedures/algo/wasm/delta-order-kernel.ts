/**
 * Delta-stepping's result order on one thread as hand-written WebAssembly functions, the
 * per-node loops of delta-stepping.ts's `byDistance` (`countRanks` and `orderGroup` less its
 * sort; `placeByRank` is wasm/bfs-convert-kernel.ts's `bfsOrder`) over arrays in the module's
 * memory (see wasm/delta-stepping.ts; addresses are byte addresses):
 *
 *   deltaCount(rankOf, n, start)
 *     start[rankOf[v] + 1]++ for every node v;
 *   deltaGroupKeys(dist, order, from, size, keys)
 *     keys[i] = dist[order[from + i]] for the group's `size` nodes;
 *   deltaGroupPlace(dist, order, from, size, keys, slot, place, moved)
 *     with `keys` sorted (by the caller: a Float64Array's native sort), keeps its distinct
 *     distances and places the group's nodes by distance, ties in their present order, in one
 *     stable counting pass (`orderGroup`'s steps after its sort, in the same order).
 */

import { code, stepAndLoop, I, i32, f64, type Bytes, type FunctionDef } from './encode.js';

/** Pushes the byte address of `array[index]` (locals), `shift` 2 for int32, 3 for doubles. */
const at = (array: number, index: number, shift = 2): Bytes[] => [I.localGet(array), I.localGet(index), I.i32Const(shift), I.i32Shl(), I.i32Add()];
const increment = (local: number): Bytes[] => [I.localGet(local), I.i32Const(1), I.i32Add(), I.localSet(local)];

/** `for (local = 0; local < end; local++) body` (locals start at 0; `reset` sets it to 0 first). */
const forEach = (local: number, end: number, body: Bytes[], reset = true): Bytes => code(
  reset ? [I.i32Const(0), I.localSet(local)] : [],
  I.block(),
  [I.localGet(local), I.localGet(end), I.i32GeS(), I.brIf(0)],
  I.loop(),
  body,
  stepAndLoop(local, 1, end, 'signed'),
  I.end(),
  I.end(),
);

const countBody = ((): number[] => {
  const RANK_OF = 0, N = 1, START = 2;
  const V = 3, A = 4;
  return code(
    forEach(V, N, [...at(RANK_OF, V), I.i32Load(), I.i32Const(2), I.i32Shl(), I.localGet(START), I.i32Add(), I.i32Const(4), I.i32Add(), I.localTee(A), I.localGet(A), I.i32Load(), I.i32Const(1), I.i32Add(), I.i32Store()]),
  );
})();

const keysBody = ((): number[] => {
  const DIST = 0, ORDER = 1, FROM = 2, SIZE = 3, KEYS = 4;
  const K = 5, OA = 6;
  return code(
    [I.localGet(ORDER), I.localGet(FROM), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(OA)],
    forEach(K, SIZE, [...at(KEYS, K, 3), I.localGet(DIST), ...at(OA, K), I.i32Load(), I.i32Const(3), I.i32Shl(), I.i32Add(), I.f64Load(), I.f64Store()]),
  );
})();

const placeBody = ((): number[] => {
  const DIST = 0, ORDER = 1, FROM = 2, SIZE = 3, KEYS = 4, SLOT = 5, PLACE = 6, MOVED = 7;
  const K = 8, DISTINCT = 9, LO = 10, HI = 11, MID = 12, OA = 13, P = 14, A = 15, D = 16;
  const keyAt = (index: number): Bytes[] => [...at(KEYS, index, 3), I.f64Load()];
  return code(
    [I.localGet(ORDER), I.localGet(FROM), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localSet(OA)],
    // The distinct distances, in place at the front of keys.
    [I.i32Const(1), I.localSet(DISTINCT), I.i32Const(1), I.localSet(K)],
    // if (keys[k] !== keys[distinct - 1]) keys[distinct++] = keys[k], k from 1
    forEach(K, SIZE, [
      ...at(KEYS, DISTINCT, 3), I.i32Const(8), I.i32Sub(), I.f64Load(), ...keyAt(K), I.f64Ne(), I.if(),
      ...at(KEYS, DISTINCT, 3), ...keyAt(K), I.f64Store(), ...increment(DISTINCT),
      I.end(),
    ], false),
    [I.localGet(DISTINCT), I.i32Const(1), I.i32Eq()], I.if(), I.return(), I.end(),
    // place[0 .. distinct] = 0
    [I.localGet(DISTINCT), I.i32Const(1), I.i32Add(), I.localSet(HI)],
    forEach(K, HI, [...at(PLACE, K), I.i32Const(0), I.i32Store()]),
    // Each node's distance among the distinct ones (binary search), counted per distance.
    forEach(K, SIZE, [
      I.localGet(DIST), ...at(OA, K), I.i32Load(), I.i32Const(3), I.i32Shl(), I.i32Add(), I.f64Load(), I.localSet(D),
      I.i32Const(0), I.localSet(LO), I.localGet(DISTINCT), I.i32Const(1), I.i32Sub(), I.localSet(HI),
      I.block(), I.loop(),
      I.localGet(LO), I.localGet(HI), I.i32GeS(), I.brIf(1),
      I.localGet(LO), I.localGet(HI), I.i32Add(), I.i32Const(1), I.i32ShrU(), I.localSet(MID),
      ...keyAt(MID), I.localGet(D), I.f64Lt(), I.if(),
      I.localGet(MID), I.i32Const(1), I.i32Add(), I.localSet(LO),
      I.else(),
      I.localGet(MID), I.localSet(HI),
      I.end(),
      I.br(0),
      I.end(), I.end(),
      ...at(SLOT, K), I.localGet(LO), I.i32Store(),
      ...at(PLACE, LO), I.i32Const(4), I.i32Add(), I.localTee(A), I.localGet(A), I.i32Load(), I.i32Const(1), I.i32Add(), I.i32Store(),
    ]),
    // place[k + 1] += place[k]
    forEach(K, DISTINCT, [...at(PLACE, K), I.localTee(A), I.localGet(A), I.i32Load(4), I.localGet(A), I.i32Load(), I.i32Add(), I.i32Store(4)]),
    // moved[place[slot[i]]++] = order[from + i]
    forEach(K, SIZE, [
      I.localGet(PLACE), ...at(SLOT, K), I.i32Load(), I.i32Const(2), I.i32Shl(), I.i32Add(), I.localTee(A), I.i32Load(), I.localSet(P),
      I.localGet(A), I.localGet(P), I.i32Const(1), I.i32Add(), I.i32Store(),
      ...at(MOVED, P), ...at(OA, K), I.i32Load(), I.i32Store(),
    ]),
    forEach(K, SIZE, [...at(OA, K), ...at(MOVED, K), I.i32Load(), I.i32Store()]),
  );
})();

export const deltaCount: FunctionDef = { name: 'deltaCount', params: [i32, i32, i32], results: [], locals: [i32, i32], body: countBody };
export const deltaGroupKeys: FunctionDef = { name: 'deltaGroupKeys', params: [i32, i32, i32, i32, i32], results: [], locals: [i32, i32], body: keysBody };
export const deltaGroupPlace: FunctionDef = { name: 'deltaGroupPlace', params: [i32, i32, i32, i32, i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32, i32, i32, i32, i32, f64], body: placeBody };

/** The JavaScript signatures of the exported functions. */
export type DeltaCount = (rankOf: number, n: number, start: number) => void;
export type DeltaGroupKeys = (dist: number, order: number, from: number, size: number, keys: number) => void;
export type DeltaGroupPlace = (dist: number, order: number, from: number, size: number, keys: number, slot: number, place: number, moved: number) => void;
