/*
 * The physical-limit reference for bench/algo-vs-c.ts: PageRank, weakly connected components
 * and BFS in plain C (cc -O3, one thread) on exactly the CSR the TypeScript kernels get,
 * computing the same thing the same way (PageRank by pull over the transposed rows with the
 * same convergence rule and dangling-mass handling, union-find with path halving and the
 * smaller root kept, a level-by-level queue BFS), so that the ratio measures the language and runtime,
 * not the algorithm. Benchmark-only code: graphdb never builds or loads it.
 *
 *   kernels <csr-file> <pagerank|wcc|bfs|afforest|afforestskip|bfsdo> <runs> <result-file>
 *
 * `afforest` and `bfsdo` are the one-thread forms of graphdb's parallel WCC and BFS kernels;
 * `afforestskip` is Afforest on a symmetric CSR, skipping the largest component's rows.
 *
 * The CSR file is little-endian int32: n, m, offsets[n + 1], targets[m], then the transpose's
 * offsets[n + 1] and targets[m]. Prints the median milliseconds of `runs` runs (after one
 * warm-up) and writes the last run's result (float64 scores, int32 roots or depths).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int32_t n, m;
static int32_t *off, *tgt, *toff, *ttgt;

static double clock_ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int32_t *read_ints(FILE *f, size_t count) {
  int32_t *a = malloc(sizeof(int32_t) * (count ? count : 1));
  if (fread(a, sizeof(int32_t), count, f) != count) {
    fprintf(stderr, "short CSR file\n");
    exit(2);
  }
  return a;
}

/* Same rule as procedures/algo/pagerank.ts: damping 0.85, stop when the summed absolute change < 1e-7, at most 200 rounds. */
static double *scores, *next, *contrib, *cnext, *share;
static int pagerank(void) {
  const double d = 0.85;
  double dangling = 0;
  for (int32_t v = 0; v < n; v++) {
    int32_t deg = off[v + 1] - off[v];
    share[v] = deg > 0 ? d / deg : 0;
    scores[v] = 1.0 / n;
    contrib[v] = scores[v] * share[v];
    if (deg == 0) dangling += scores[v];
  }
  int it = 0;
  while (it < 200) {
    it++;
    const double base = (1 - d + d * dangling) / n;
    double delta = 0;
    dangling = 0;
    for (int32_t v = 0; v < n; v++) {
      double even = 0, odd = 0;
      int32_t e = toff[v], end = toff[v + 1];
      for (; e + 1 < end; e += 2) {
        even += contrib[ttgt[e]];
        odd += contrib[ttgt[e + 1]];
      }
      if (e < end) even += contrib[ttgt[e]];
      double nv = base + (even + odd);
      delta += fabs(nv - scores[v]);
      next[v] = nv;
      cnext[v] = nv * share[v];
      if (share[v] == 0) dangling += nv;
    }
    double *t = scores;
    scores = next;
    next = t;
    t = contrib;
    contrib = cnext;
    cnext = t;
    if (delta < 1e-7) break;
  }
  return it;
}

static int32_t *parent;
static void wcc(void) {
  for (int32_t v = 0; v < n; v++) parent[v] = v;
  for (int32_t v = 0; v < n; v++) {
    int32_t e = off[v], end = off[v + 1];
    if (e == end) continue;
    int32_t a = v; /* v's root, kept up to date as in procedures/algo/wcc.ts */
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    for (; e < end; e++) {
      int32_t b = tgt[e];
      /* A neighbour right under a is in v's set already: passed over, as in wcc.ts. */
      while (parent[b] != b && parent[b] != a) b = parent[b] = parent[parent[b]];
      if (parent[b] != b) continue;
      if (a < b) parent[b] = a;
      else if (b < a) parent[a] = b, a = b;
    }
  }
  for (int32_t v = 0; v < n; v++) parent[v] = parent[parent[v]];
}

static int32_t *depth, *order;
static uint8_t *seen;
/* As procedures/algo/bfs.ts: level by level, depths written per finished level, rows read two entries per turn
   (bfs.ts reads four, to cut V8's per-turn overhead; four measured no faster here). */
static void bfs(int32_t source) {
  for (int32_t v = 0; v < n; v++) depth[v] = -1;
  memset(seen, 0, n);
  seen[source] = 1;
  order[0] = source;
  int32_t head = 0, tail = 1, start = 0;
  for (int32_t level = 0;; level++) {
    for (int32_t i = start; i < tail; i++) depth[order[i]] = level;
    start = tail;
    if (head == tail) break;
    int32_t level_end = tail;
    for (; head < level_end; head++) {
      int32_t v = order[head];
      int32_t e = off[v], end = off[v + 1];
      for (; e + 1 < end; e += 2) {
        int32_t u = tgt[e], w = tgt[e + 1];
        if (!seen[u]) seen[u] = 1, order[tail++] = u;
        if (!seen[w]) seen[w] = 1, order[tail++] = w;
      }
      if (e < end && !seen[tgt[e]]) seen[tgt[e]] = 1, order[tail++] = tgt[e];
    }
  }
}

/* As procedures/algo/wcc.ts's parallel path, on one thread: Afforest (two sampled neighbour
   rounds, each followed by compression, then every remaining edge), linking larger roots
   under smaller ones. */
static void afforest_link(int32_t u, int32_t v) {
  int32_t a = parent[u], b = parent[v];
  while (a != b) {
    int32_t high = a > b ? a : b, low = a > b ? b : a;
    int32_t top = parent[high];
    if (top == low) return;
    if (top == high) {
      parent[high] = low;
      return;
    }
    a = parent[parent[high]];
    b = parent[low];
  }
}
static void afforest_compress(void) {
  for (int32_t v = 0; v < n; v++) {
    int32_t p = parent[v];
    while (p != parent[p]) p = parent[p];
    parent[v] = p;
  }
}
/* The root most of 1024 vertices drawn with the same generator as wcc.ts's largestSampled sit under. */
static int32_t largest_sampled(void) {
  int32_t *roots = malloc(1024 * sizeof(int32_t));
  uint32_t seed = 12345;
  int32_t best = -1, most = 0;
  for (int i = 0; i < 1024; i++) {
    seed = seed * 1103515245u + 12345u;
    roots[i] = parent[seed % (uint32_t)n];
    int32_t c = 0;
    for (int j = 0; j <= i; j++) c += roots[j] == roots[i];
    if (c > most) most = c, best = roots[i];
  }
  free(roots);
  return best;
}
/* skip: the CSR is symmetric, so the largest sampled component's rows are skipped in the full pass. */
static void afforest(int skip) {
  for (int32_t v = 0; v < n; v++) parent[v] = v;
  for (int32_t r = 0; r < 2; r++) {
    for (int32_t v = 0; v < n; v++)
      if (off[v] + r < off[v + 1]) afforest_link(v, tgt[off[v] + r]);
    afforest_compress();
  }
  int32_t c = skip ? largest_sampled() : -1;
  /* As wcc.ts: the link's first test (same parent?) made inline, two entries per turn. */
  for (int32_t v = 0; v < n; v++) {
    int32_t a = parent[v];
    if (a == c) continue;
    int32_t e = off[v] + 2, end = off[v + 1];
    for (; e + 1 < end; e += 2) {
      int32_t x = tgt[e], y = tgt[e + 1];
      if (parent[x] == a && parent[y] == a) continue;
      afforest_link(v, x);
      afforest_link(v, y);
      a = parent[v];
    }
    if (e < end && parent[tgt[e]] != a) afforest_link(v, tgt[e]);
  }
  afforest_compress();
}

/* As procedures/algo/bfs-parallel.ts on one thread: direction-optimising BFS (Beamer's
   switch rule, alpha 15, beta 18), top-down from a queue, bottom-up over the transpose's rows
   with the frontier as a bitmap. Depths only. */
static uint32_t *front, *next_front;
static int32_t *queue2;
static void bfs_do(int32_t source) {
  int32_t words = (n + 31) >> 5;
  for (int32_t v = 0; v < n; v++) depth[v] = -1;
  depth[source] = 0;
  order[0] = source;
  int32_t size = 1;
  int64_t frontier_edges = off[source + 1] - off[source];
  int64_t unexplored = (int64_t)m - frontier_edges;
  int bottom_up = 0;
  int32_t *q = order, *nq = queue2;
  for (int32_t level = 0; size > 0; level++) {
    if (!bottom_up && frontier_edges > unexplored / 15) {
      bottom_up = 1;
      memset(front, 0, 4 * (size_t)words);
      for (int32_t i = 0; i < size; i++) front[q[i] >> 5] |= 1u << (q[i] & 31);
    } else if (bottom_up && size < n / 18) {
      bottom_up = 0;
      int32_t k = 0;
      for (int32_t v = 0; v < n; v++)
        if (depth[v] == level) q[k++] = v;
    }
    int32_t found = 0;
    int64_t degrees = 0;
    if (bottom_up) {
      memset(next_front, 0, 4 * (size_t)words);
      for (int32_t v = 0; v < n; v++) {
        if (depth[v] != -1) continue;
        for (int32_t e = toff[v]; e < toff[v + 1]; e++) {
          int32_t u = ttgt[e];
          if ((front[u >> 5] >> (u & 31)) & 1) {
            depth[v] = level + 1;
            next_front[v >> 5] |= 1u << (v & 31);
            found++;
            degrees += off[v + 1] - off[v];
            break;
          }
        }
      }
      uint32_t *t = front;
      front = next_front;
      next_front = t;
    } else {
      for (int32_t i = 0; i < size; i++) {
        int32_t u = q[i];
        for (int32_t e = off[u]; e < off[u + 1]; e++) {
          int32_t v = tgt[e];
          if (depth[v] == -1) {
            depth[v] = level + 1;
            nq[found++] = v;
            degrees += off[v + 1] - off[v];
          }
        }
      }
      int32_t *t = q;
      q = nq;
      nq = t;
    }
    size = found;
    frontier_edges = degrees;
    unexplored -= degrees;
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: kernels <csr-file> <pagerank|wcc|bfs> <runs> <result-file>\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  int32_t head[2];
  if (fread(head, sizeof(int32_t), 2, f) != 2) return 2;
  n = head[0];
  m = head[1];
  off = read_ints(f, (size_t)n + 1);
  tgt = read_ints(f, (size_t)m);
  toff = read_ints(f, (size_t)n + 1);
  ttgt = read_ints(f, (size_t)m);
  fclose(f);
  const char *algo = argv[2];
  int runs = atoi(argv[3]);
  scores = calloc(n, sizeof(double));
  next = calloc(n, sizeof(double));
  contrib = calloc(n, sizeof(double));
  cnext = calloc(n, sizeof(double));
  share = calloc(n, sizeof(double));
  parent = calloc(n, sizeof(int32_t));
  depth = calloc(n, sizeof(int32_t));
  order = calloc(n, sizeof(int32_t));
  seen = calloc(n, 1);
  front = calloc((n + 31) / 32 + 1, 4);
  next_front = calloc((n + 31) / 32 + 1, 4);
  queue2 = calloc(n, sizeof(int32_t));
  double *times = calloc(runs, sizeof(double));
  double *cpu = calloc(runs, sizeof(double));
  int iterations = 0;
  for (int r = -1; r < runs; r++) {
    double t0 = clock_ms(CLOCK_MONOTONIC);
    double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    if (!strcmp(algo, "pagerank")) iterations = pagerank();
    else if (!strcmp(algo, "wcc")) wcc();
    else if (!strcmp(algo, "bfs")) bfs(0);
    else if (!strcmp(algo, "afforest")) afforest(0);
    else if (!strcmp(algo, "afforestskip")) afforest(1);
    else if (!strcmp(algo, "bfsdo")) bfs_do(0);
    else {
      fprintf(stderr, "unknown algorithm %s\n", algo);
      return 2;
    }
    if (r >= 0) {
      times[r] = clock_ms(CLOCK_MONOTONIC) - t0;
      cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
  }
  qsort(times, runs, sizeof(double), cmp);
  qsort(cpu, runs, sizeof(double), cmp);
  FILE *out = fopen(argv[4], "wb");
  if (!strcmp(algo, "pagerank")) fwrite(scores, sizeof(double), n, out);
  else fwrite(!strcmp(algo, "bfs") || !strcmp(algo, "bfsdo") ? depth : parent, sizeof(int32_t), n, out);
  fclose(out);
  printf("{\"ms\": %.3f, \"cpu\": %.3f, \"iterations\": %d}\n", times[runs / 2], cpu[runs / 2], iterations);
  return 0;
}
