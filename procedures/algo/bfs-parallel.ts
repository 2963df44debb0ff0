/**
 * Direction-optimising breadth-first search (Beamer, Asanović, Patterson 2012) on the worker
 * pool: the depth of every node reached from one source, level by level, each level either
 * top-down (the frontier's rows claim their unvisited neighbours by compare-and-swap on the
 * shared depths) or bottom-up (every unvisited node scans its incoming row for a parent in the
 * frontier, kept as a bitmap). Bottom-up pays when the frontier holds a large share of the
 * edges still unexplored, as in the middle levels of a power-law graph, where one parent found
 * ends a row's scan. Depths equal the sequential BFS's (bfs.ts); the visit order is by depth,
 * then by dense index, since within a level threads discover nodes in no fixed order.
 *
 * `incoming` is the CSR of incoming rows: the CSR itself when it holds every edge both ways,
 * else its transpose. Runs on the calling thread alone when `threads` is 1. The levels, the
 * conversions between them and the final order run on hand-written WebAssembly functions
 * where they can run (wasm/bfs.ts), the levels on the pool over a shared WebAssembly memory
 * when `threads` > 1; the JavaScript steps are the fallback and the reference.
 */

import type { BfsResult } from './bfs.js';
import type { Csr } from './csr.js';
import type { Deadline } from './deadline.js';
import { controlArray, registerKernel, runTask, sharedCsr, sharedInt32, workCuts, type TaskBase } from './parallel.js';
import { scratchInt32 } from './scratch.js';
import { wasmBfs } from './wasm/bfs.js';

/** One level of the search (see the module comment); items are blocks of the frontier (top-down) or of all nodes (bottom-up). */
export interface BfsLevelTask extends TaskBase {
  /** 0 top-down, 1 bottom-up. */
  step: number;
  /** The depth the nodes found now get. */
  next: number;
  offsets: Int32Array;
  targets: Int32Array;
  inOffsets: Int32Array;
  inTargets: Int32Array;
  depth: Int32Array;
  /** Top-down: the frontier is queue[0 .. size), blocks of `chunk` entries; the next goes to nextQueue. */
  queue: Int32Array;
  size: number;
  chunk: number;
  nextQueue: Int32Array;
  /** Bottom-up: frontier and next frontier as bitmaps; block b is nodes cuts[b] .. cuts[b + 1] (multiples of 32). */
  frontier: Int32Array;
  nextFrontier: Int32Array;
  cuts: Int32Array;
  /** [0] nodes found (and, top-down, the next queue's length), [1] their out-degrees summed. */
  found: Int32Array;
  /** 1 when the calling thread runs the level alone (plain writes; top-down is then one item). */
  solo: number;
}

/** One block of one level. */
export function bfsLevelItem(t: BfsLevelTask, b: number, deadline: Deadline): void {
  if (t.step === 1) bottomUpBlock(t, b, deadline);
  else if (t.solo === 1) topDownSolo(t, b, deadline);
  else topDownBlock(t, b, deadline);
}

/**
 * Top-down on one thread, block `b` of the frontier: nothing races, so a depth is claimed by a
 * plain write and the node appended to the next queue in place, at found[0] (the pooled form
 * collects its finds in a list and reserves room for them by an atomic add).
 */
export function topDownSolo(t: BfsLevelTask, b: number, deadline: Deadline): void {
  const next = t.next;
  const depth = t.depth;
  const offsets = t.offsets;
  const targets = t.targets;
  const queue = t.queue;
  const nextQueue = t.nextQueue;
  const from = b * t.chunk;
  const to = Math.min(t.size, from + t.chunk);
  let tail = t.found[0];
  let degrees = 0;
  for (let i = from; i < to; i++) {
    if ((i & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const u = queue[i];
    const end = offsets[u + 1];
    let e = offsets[u];
    // Four entries per turn, as bfs.ts (V8 re-checks and reloads each typed array after every
    // turn's interrupt check); each entry is still tested after the one before it is claimed.
    for (; e + 3 < end; e += 4) {
      const a = targets[e];
      if (depth[a] === -1) {
        depth[a] = next;
        nextQueue[tail++] = a;
        degrees += offsets[a + 1] - offsets[a];
      }
      const b = targets[e + 1];
      if (depth[b] === -1) {
        depth[b] = next;
        nextQueue[tail++] = b;
        degrees += offsets[b + 1] - offsets[b];
      }
      const c = targets[e + 2];
      if (depth[c] === -1) {
        depth[c] = next;
        nextQueue[tail++] = c;
        degrees += offsets[c + 1] - offsets[c];
      }
      const d = targets[e + 3];
      if (depth[d] === -1) {
        depth[d] = next;
        nextQueue[tail++] = d;
        degrees += offsets[d + 1] - offsets[d];
      }
    }
    for (; e < end; e++) {
      const v = targets[e];
      if (depth[v] === -1) {
        depth[v] = next;
        nextQueue[tail++] = v;
        degrees += offsets[v + 1] - offsets[v];
      }
    }
  }
  t.found[0] = tail;
  t.found[1] += degrees;
}

/** Top-down, block `b` of the frontier, on the pool: depths claimed by compare-and-swap. */
export function topDownBlock(t: BfsLevelTask, b: number, deadline: Deadline): void {
  const next = t.next;
  const depth = t.depth;
  const offsets = t.offsets;
  const targets = t.targets;
  let degrees = 0;
  const from = b * t.chunk;
  const to = Math.min(t.size, from + t.chunk);
  const mine: number[] = [];
  for (let i = from; i < to; i++) {
    if ((i & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const u = t.queue[i];
    const end = offsets[u + 1];
    for (let e = offsets[u]; e < end; e++) {
      const v = targets[e];
      if (depth[v] === -1 && Atomics.compareExchange(depth, v, -1, next) === -1) {
        mine.push(v);
        degrees += offsets[v + 1] - offsets[v];
      }
    }
  }
  const count = mine.length;
  if (count > 0) {
    const at = Atomics.add(t.found, 0, count);
    for (let k = 0; k < count; k++) t.nextQueue[at + k] = mine[k];
    Atomics.add(t.found, 1, degrees);
  }
}

/**
 * Bottom-up, nodes cuts[b] .. cuts[b + 1]: each unvisited node scans its incoming row for a
 * node in the frontier. Most of the work is the walk over the nodes (on kron-17 the three
 * bottom-up levels test 393 000 nodes' depths and scan 82 000 row entries), so the walk takes
 * four nodes per turn: V8 reloads each typed array's map, length and data pointer after every
 * turn's interrupt check, and pays that a quarter as often (the bottom-up levels 18 % faster).
 * (Four row entries per turn, tested together, measured no faster here and slower in C: a
 * row's scan usually ends at its first entries.)
 */
export function bottomUpBlock(t: BfsLevelTask, b: number, deadline: Deadline): void {
  const next = t.next;
  const depth = t.depth;
  const offsets = t.offsets;
  const inOffsets = t.inOffsets;
  const inTargets = t.inTargets;
  const frontier = t.frontier;
  const nextFrontier = t.nextFrontier;
  // Blocks start at multiples of 32 (so no other thread writes their bitmap words) and end at one, or at n.
  const from = t.cuts[b];
  const to = t.cuts[b + 1];
  let count = 0;
  let degrees = 0;
  let v = from;
  for (; v + 3 < to; v += 4) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    if (depth[v] === -1 && parentIn(inOffsets, inTargets, frontier, v)) {
      degrees += claim(depth, nextFrontier, offsets, v, next);
      count++;
    }
    if (depth[v + 1] === -1 && parentIn(inOffsets, inTargets, frontier, v + 1)) {
      degrees += claim(depth, nextFrontier, offsets, v + 1, next);
      count++;
    }
    if (depth[v + 2] === -1 && parentIn(inOffsets, inTargets, frontier, v + 2)) {
      degrees += claim(depth, nextFrontier, offsets, v + 2, next);
      count++;
    }
    if (depth[v + 3] === -1 && parentIn(inOffsets, inTargets, frontier, v + 3)) {
      degrees += claim(depth, nextFrontier, offsets, v + 3, next);
      count++;
    }
  }
  for (; v < to; v++) {
    if (depth[v] === -1 && parentIn(inOffsets, inTargets, frontier, v)) {
      degrees += claim(depth, nextFrontier, offsets, v, next);
      count++;
    }
  }
  if (count > 0) {
    if (t.solo === 1) {
      t.found[0] += count;
      t.found[1] += degrees;
    } else {
      Atomics.add(t.found, 0, count);
      Atomics.add(t.found, 1, degrees);
    }
  }
}

/** Whether `v`'s incoming row holds a node of the frontier (scanned in row order, ending at the first). */
export function parentIn(inOffsets: Int32Array, inTargets: Int32Array, frontier: Int32Array, v: number): boolean {
  const end = inOffsets[v + 1];
  for (let e = inOffsets[v]; e < end; e++) {
    const u = inTargets[e];
    if ((frontier[u >> 5] >>> (u & 31)) & 1) return true;
  }
  return false;
}

/** `v` found at depth `next`: its depth and next-frontier bit set; returns its out-degree. */
export function claim(depth: Int32Array, nextFrontier: Int32Array, offsets: Int32Array, v: number, next: number): number {
  depth[v] = next;
  nextFrontier[v >> 5] |= 1 << (v & 31);
  return offsets[v + 1] - offsets[v];
}

registerKernel('bfs-level', bfsLevelItem, [topDownSolo, topDownBlock, parentIn, claim, bottomUpBlock]);

/** Beamer's switch points: bottom-up once the frontier's edges exceed the unexplored edges / ALPHA, top-down again once the frontier is under n / BETA nodes. */
const ALPHA = 15;
const BETA = 18;

// The steps outside the levels are functions of their own: V8 then compiles each loop as a
// function called once per search, not inside this one by on-stack replacement, which it
// redoes (and throws away at the first statement the loop had not yet reached) on every call.

/** The queue's nodes as a bitmap (cleared first). */
function toBitmap(queue: Int32Array, size: number, bitmap: Int32Array): void {
  bitmap.fill(0);
  for (let i = 0; i < size; i++) {
    const v = queue[i];
    bitmap[v >> 5] |= 1 << (v & 31);
  }
}

/** The nodes at `level`, in index order, into `queue`. */
function atDepth(depth: Int32Array, level: number, queue: Int32Array): void {
  let k = 0;
  for (let v = 0; v < depth.length; v++) if (depth[v] === level) queue[k++] = v;
}

/**
 * Visit order into `order`: by depth, then by index, in one pass over the depths (levelSize[d]
 * nodes are at depth d). Returns the number of nodes reached.
 */
function orderByDepth(depth: Int32Array, levelSize: readonly number[], order: Int32Array): number {
  const start = new Int32Array(levelSize.length);
  let count = 0;
  for (let d = 0; d < levelSize.length; d++) {
    start[d] = count;
    count += levelSize[d];
  }
  for (let v = 0; v < depth.length; v++) {
    const d = depth[v];
    if (d >= 0) order[start[d]++] = v;
  }
  return count;
}

/**
 * A search's working arrays, kept per CSR (scratch.ts; the next search over a cached
 * projection allocates only its result): the two queues and the two frontier bitmaps, in
 * plain memory for one thread and on SharedArrayBuffers for the pool, which also gets shared
 * depths. Nothing in them is read before a search writes it (the queues are filled before
 * they are read, the bitmaps cleared before each bottom-up level, the shared depths reset at
 * the start), so a search a deadline stopped leaves nothing behind that matters.
 */
interface Scratch {
  queue: Int32Array;
  nextQueue: Int32Array;
  frontier: Int32Array;
  nextFrontier: Int32Array;
}

function scratchFor(csr: Csr, parallel: boolean): Scratch {
  const n = csr.n;
  const words = (n + 31) >> 5;
  return {
    queue: scratchInt32(csr, 'bfs-do.queue', n, parallel),
    nextQueue: scratchInt32(csr, 'bfs-do.next-queue', n, parallel),
    frontier: scratchInt32(csr, 'bfs-do.frontier', words, parallel),
    nextFrontier: scratchInt32(csr, 'bfs-do.next-frontier', words, parallel),
  };
}

/** Depth of every node reached from `source` within `maxDepth` hops, on up to `threads` threads. */
export function bfsDirectionOptimising(csr: Csr, incoming: Csr, source: number, maxDepth: number, deadline: Deadline, threads: number): BfsResult {
  const { n } = csr;
  const parallel = threads > 1;
  // The WebAssembly steps where they can run (wasm/bfs.ts; on the pool over a shared memory),
  // the rows and the search's arrays then in its memory.
  const wasm = wasmBfs(csr, incoming, parallel);
  const sharedRows = parallel && wasm === undefined;
  const rows = sharedRows ? sharedCsr(csr) : csr;
  const inRows = incoming === csr ? rows : sharedRows ? sharedCsr(incoming) : incoming;
  const scratch = wasm ?? scratchFor(csr, parallel);
  // On one thread the depths are the result, made here; on the pool (and in WebAssembly
  // memory) they are kept, and copied out at the end.
  const depth = (wasm !== undefined ? wasm.depth : parallel ? scratchInt32(csr, 'bfs-do.depth', n, true) : new Int32Array(n)).fill(-1);
  let { queue, nextQueue, frontier, nextFrontier } = scratch;
  const words = frontier.length;
  const found = wasm !== undefined ? wasm.found : parallel ? sharedInt32(new Int32Array(2)) : new Int32Array(2);
  const blocks = Math.max(1, Math.min(words, 32 * threads));
  // Bottom-up blocks: about equal incoming-row work on the pool, equal numbers of nodes on one
  // thread (where they only space the deadline checks); cut at multiples of 32 nodes.
  const cuts = (parallel ? workCuts(inRows.offsets, n, blocks) : Int32Array.from({ length: blocks + 1 }, (_, b) => Math.floor((b * n) / blocks))).map((c, i) =>
    i === blocks ? n : Math.min(n, (c + 31) & ~31),
  );
  const solo = parallel ? 0 : 1;
  const control = new Int32Array(4);
  const offsets = rows.offsets;
  const totalEdges = offsets[n];
  depth[source] = 0;
  queue[0] = source;
  let size = 1;
  let frontierEdges = offsets[source + 1] - offsets[source];
  let unexplored = totalEdges - frontierEdges;
  let bottomUp = false;
  /** Nodes found per depth (levelSize[d]: depth d), for the final ordering. */
  const levelSize: number[] = [1];
  const task = (step: number, next: number, items: number, chunk: number): BfsLevelTask => ({
    kernel: 'bfs-level', items, control: parallel ? controlArray() : control, step, next,
    offsets, targets: rows.targets, inOffsets: inRows.offsets, inTargets: inRows.targets,
    depth, queue, size, chunk, nextQueue, frontier, nextFrontier, cuts, found, solo,
  });
  for (let level = 0; size > 0 && level < maxDepth; level++) {
    // Switch by Beamer's rule: the frontier's edges against those still unexplored, and its size against n.
    if (!bottomUp && frontierEdges > unexplored / ALPHA) {
      bottomUp = true;
      if (wasm !== undefined) wasm.toBitmap(queue, size, frontier);
      else toBitmap(queue, size, frontier);
    } else if (bottomUp && size < n / BETA) {
      bottomUp = false;
      if (wasm !== undefined) wasm.atDepth(level, queue);
      else atDepth(depth, level, queue);
    }
    found[0] = 0;
    found[1] = 0;
    if (bottomUp) {
      nextFrontier.fill(0);
      if (wasm !== undefined && parallel) wasm.bottomUpOnPool(frontier, nextFrontier, level + 1, cuts, threads, deadline);
      else if (wasm !== undefined) wasm.bottomUp(frontier, nextFrontier, level + 1, deadline);
      else runTask(task(1, level + 1, blocks, 0), threads, deadline);
      [frontier, nextFrontier] = [nextFrontier, frontier];
    } else {
      const chunk = Math.max(64, Math.ceil(size / (8 * threads)));
      if (wasm !== undefined && parallel) wasm.topDownOnPool(queue, size, nextQueue, level + 1, chunk, threads, deadline);
      else if (wasm !== undefined) wasm.topDown(queue, size, nextQueue, level + 1, deadline);
      else runTask(task(0, level + 1, Math.ceil(size / chunk), chunk), threads, deadline);
      [queue, nextQueue] = [nextQueue, queue];
    }
    size = found[0];
    if (size > 0) levelSize.push(size);
    frontierEdges = found[1];
    unexplored -= frontierEdges;
  }
  if (wasm !== undefined) {
    const count = levelSize.reduce((a, b) => a + b, 0);
    return { order: wasm.order(levelSize, count), count, depth: depth.slice() };
  }
  const order = new Int32Array(n);
  const count = orderByDepth(depth, levelSize, order);
  return { order, count, depth: parallel ? depth.slice() : depth };
}
