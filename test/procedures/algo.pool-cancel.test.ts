/**
 * The worker pool's cancellation (procedures/algo/parallel.ts): a task stopped by its deadline
 * hands control back only when no worker is still running one of its items, since the kernels
 * keep working memory per CSR that the next run clears and reuses; a worker that ignores the
 * cancel past `cancelWait` is terminated and the kept memory retired instead.
 */

import { describe, expect, it } from 'vitest';
import { cancelWait, controlArray, parallelRuns, registerKernel, runTask, type TaskBase } from '../../procedures/algo/parallel.js';
import { scratchInt32 } from '../../procedures/algo/scratch.js';
import type { Csr } from '../../procedures/algo/csr.js';
import type { Deadline } from '../../procedures/algo/deadline.js';

/** `out`: [items inside now, spin steps (writes), items started, 1 once items should stop looking at the deadline]. */
interface SpinTask extends TaskBase {
  out: Int32Array;
  /** How long an item runs without looking at the deadline once out[3] is set. */
  deafMs: number;
  /** Chunks of 2 ms per item. */
  chunks: number;
}

/** Spins in 2 ms chunks, checking the deadline between chunks; counts its writes. */
function spinItem(t: SpinTask, item: number, deadline: Deadline): void {
  Atomics.add(t.out, 2, 1);
  Atomics.add(t.out, 0, 1);
  try {
    for (let chunk = 0; chunk < t.chunks; chunk++) {
      if (Atomics.load(t.out, 3) !== 0) {
        const deafUntil = Date.now() + t.deafMs;
        while (Date.now() < deafUntil) Atomics.add(t.out, 1, 1);
      }
      deadline();
      const until = Date.now() + 2;
      while (Date.now() < until) Atomics.add(t.out, 1, 1);
    }
  } finally {
    Atomics.sub(t.out, 0, 1);
  }
}

registerKernel('testSpin', spinItem, []);

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

function spinTask(deafMs: number, chunks = 10_000): SpinTask {
  return { kernel: 'testSpin', items: 3, control: controlArray(), out: new Int32Array(new SharedArrayBuffer(16)), deafMs, chunks };
}

/**
 * A deadline that fires once all three items have started (both workers are inside), or after
 * 20 s; with `deafen`, it first tells the items to stop looking at the deadline for a while
 * and gives the workers time to see that.
 */
function whenAllStarted(task: SpinTask, deafen = false): Deadline {
  const give = Date.now() + 20_000;
  return () => {
    if (Atomics.load(task.out, 2) < 3 && Date.now() <= give) return;
    if (deafen) {
      Atomics.store(task.out, 3, 1);
      sleep(30);
    }
    throw new Error('out of time');
  };
}

const csr: Csr = { n: 1, ids: Int32Array.of(0), index: Int32Array.of(0), offsets: new Int32Array(2), targets: new Int32Array(0) };

describe('the worker pool, cancelled', () => {
  it('returns only when its workers have left the task, and keeps the kept working memory', () => {
    const kept = scratchInt32(csr, 'test.kept', 8, true);
    const before = parallelRuns.get('testSpin') ?? 0;
    const task = spinTask(0);
    expect(() => runTask(task, 3, whenAllStarted(task))).toThrow('out of time');
    expect(parallelRuns.get('testSpin')).toBe(before + 1);
    expect(Atomics.load(task.out, 2)).toBe(3);
    // No item is running, and none writes any more.
    expect(Atomics.load(task.out, 0)).toBe(0);
    const writes = Atomics.load(task.out, 1);
    sleep(40);
    expect(Atomics.load(task.out, 1)).toBe(writes);
    expect(scratchInt32(csr, 'test.kept', 8, true)).toBe(kept);
  }, 30_000);

  it('terminates a worker that stays inside past the wait, and retires the kept working memory', () => {
    const kept = scratchInt32(csr, 'test.kept', 8, true);
    const wait = cancelWait.ms;
    cancelWait.ms = 20;
    try {
      const task = spinTask(500);
      expect(() => runTask(task, 3, whenAllStarted(task, true))).toThrow('out of time');
      expect(scratchInt32(csr, 'test.kept', 8, true)).not.toBe(kept);
    } finally {
      cancelWait.ms = wait;
    }
    // The pool works again: a task that is not cancelled runs every item.
    const task = spinTask(0, 5);
    let checks = 0;
    runTask(task, 3, () => {
      if (++checks > 1_000_000) throw new Error('never');
    });
    expect(Atomics.load(task.out, 2)).toBe(3);
    expect(Atomics.load(task.out, 0)).toBe(0);
  }, 30_000);
});
