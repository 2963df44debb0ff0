/**
 * A small seeded pseudo-random generator (mulberry32) for the randomised kernels (sampled
 * betweenness, fastRP, node2vec, knn sampling): the same `randomSeed` gives the same result,
 * which tests and reproducible analyses rely on.
 */

export type Random = () => number;

/** Uniform floats in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` distinct integers from 0..n-1 (partial Fisher–Yates), in draw order. */
export function sampleDistinct(n: number, k: number, random: Random): Int32Array {
  const pool = new Int32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  const m = Math.min(k, n);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  return pool.slice(0, m);
}
