/**
 * The direction-optimising BFS's steps between levels as hand-written WebAssembly functions:
 * bfs-parallel.ts's `toBitmap`, `atDepth` and `orderByDepth` over arrays in the module's
 * memory (see wasm/bfs.ts; addresses are byte addresses):
 *
 *   bfsToBitmap(queue, size, bitmap, words)
 *     clears the `words` words of `bitmap`, then sets the bit of each of the `size` nodes;
 *   bfsAtDepth(depth, n, level, queue) -> count
 *     the nodes at depth `level`, in index order, into `queue`;
 *   bfsOrder(depth, n, start, order)
 *     each reached node v into order[start[depth[v]]++], in index order (`start` holds each
 *     depth's first place).
 */

import { code, stepAndLoop, I, i32, type Bytes, type FunctionDef } from './encode.js';

/** Pushes the byte address of int32 `array[index]` (locals). */
const at = (array: number, index: number): Bytes[] => [I.localGet(array), I.localGet(index), I.i32Const(2), I.i32Shl(), I.i32Add()];

const toBitmapBody = ((): number[] => {
  const QUEUE = 0, SIZE = 1, BITMAP = 2, WORDS = 3;
  const K = 4, V = 5, W = 6;
  return code(
    I.block(),
    [I.localGet(K), I.localGet(WORDS), I.i32GeS(), I.brIf(0)],
    I.loop(),
    [...at(BITMAP, K), I.i32Const(0), I.i32Store()],
    stepAndLoop(K, 1, WORDS, 'signed'),
    I.end(),
    I.end(),
    [I.i32Const(0), I.localSet(K)],
    I.block(),
    [I.localGet(K), I.localGet(SIZE), I.i32GeS(), I.brIf(0)],
    I.loop(),
    // bitmap[v >> 5] |= 1 << (v & 31) (WebAssembly's shifts take their count mod 32)
    [...at(QUEUE, K), I.i32Load(), I.localTee(V), I.i32Const(5), I.i32ShrU(), I.i32Const(2), I.i32Shl(), I.localGet(BITMAP), I.i32Add(), I.localTee(W)],
    [I.localGet(W), I.i32Load(), I.i32Const(1), I.localGet(V), I.i32Shl(), I.i32Or(), I.i32Store()],
    stepAndLoop(K, 1, SIZE, 'signed'),
    I.end(),
    I.end(),
  );
})();

const atDepthBody = ((): number[] => {
  const DEPTH = 0, N = 1, LEVEL = 2, QUEUE = 3;
  const V = 4, COUNT = 5;
  return code(
    I.block(),
    [I.localGet(V), I.localGet(N), I.i32GeS(), I.brIf(0)],
    I.loop(),
    [...at(DEPTH, V), I.i32Load(), I.localGet(LEVEL), I.i32Eq()], I.if(),
    [...at(QUEUE, COUNT), I.localGet(V), I.i32Store(), I.localGet(COUNT), I.i32Const(1), I.i32Add(), I.localSet(COUNT)],
    I.end(),
    stepAndLoop(V, 1, N, 'signed'),
    I.end(),
    I.end(),
    [I.localGet(COUNT)],
  );
})();

const orderBody = ((): number[] => {
  const DEPTH = 0, N = 1, START = 2, ORDER = 3;
  const V = 4, D = 5, S = 6, P = 7;
  return code(
    I.block(),
    [I.localGet(V), I.localGet(N), I.i32GeS(), I.brIf(0)],
    I.loop(),
    [...at(DEPTH, V), I.i32Load(), I.localTee(D), I.i32Const(0), I.i32GeS()], I.if(),
    // p = start[d]++; order[p] = v
    [...at(START, D), I.localTee(S), I.i32Load(), I.localSet(P), I.localGet(S), I.localGet(P), I.i32Const(1), I.i32Add(), I.i32Store()],
    [...at(ORDER, P), I.localGet(V), I.i32Store()],
    I.end(),
    stepAndLoop(V, 1, N, 'signed'),
    I.end(),
    I.end(),
  );
})();

export const bfsToBitmap: FunctionDef = { name: 'bfsToBitmap', params: [i32, i32, i32, i32], results: [], locals: [i32, i32, i32], body: toBitmapBody };
export const bfsAtDepth: FunctionDef = { name: 'bfsAtDepth', params: [i32, i32, i32, i32], results: [i32], locals: [i32, i32], body: atDepthBody };
export const bfsOrder: FunctionDef = { name: 'bfsOrder', params: [i32, i32, i32, i32], results: [], locals: [i32, i32, i32, i32], body: orderBody };

/** The JavaScript signatures of the exported functions. */
export type BfsToBitmap = (queue: number, size: number, bitmap: number, words: number) => void;
export type BfsAtDepth = (depth: number, n: number, level: number, queue: number) => number;
export type BfsOrder = (depth: number, n: number, start: number, order: number) => void;
