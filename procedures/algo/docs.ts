/**
 * docs/ALGORITHMS.md, generated from the algorithm declarations (names, summaries, options
 * with their defaults, stream columns) plus each algorithm's complexity and reference, which
 * live here. A test keeps the file equal to `renderAlgorithmsDoc()`; regenerate it with
 * `npx tsx procedures/algo/docs.ts > docs/ALGORITHMS.md`.
 */

import { pathToFileURL } from 'node:url';
import type { OptionSpec } from './config.js';
import { optionsOf, type Algorithm } from './define.js';
import { ALGORITHM_CATALOGUE } from './index.js';

interface Note {
  complexity: string;
  reference: string;
}

/** Time and memory per algorithm (n nodes, m relationships in the projection) and where it comes from. */
export const NOTES: Record<string, Note> = {
  'algo.degree': { complexity: 'O(n + m)', reference: '—' },
  'algo.pageRank': { complexity: 'O(k·(n + m)) for k rounds; O(n) beside the projection', reference: 'Page, Brin, Motwani & Winograd, The PageRank citation ranking (1999); personalisation: Haveliwala, Topic-sensitive PageRank (2002)' },
  'algo.articleRank': { complexity: 'O(k·(n + m)); O(n)', reference: 'Li, Willett et al., ArticleRank: a PageRank-based alternative to numbers of citations (2009)' },
  'algo.eigenvector': { complexity: 'O(k·(n + m)); O(n)', reference: 'Bonacich, Power and centrality (1987)' },
  'algo.hits': { complexity: 'O(k·(n + m)); O(n + m) (the transpose)', reference: 'Kleinberg, Authoritative sources in a hyperlinked environment (1999)' },
  'algo.betweenness': { complexity: 'O(s·m) unweighted, O(s·(m + n log n)) weighted, s = n or samplingSize; O(n + m)', reference: 'Brandes, A faster algorithm for betweenness centrality (2001); sampling: Brandes & Pich (2007)' },
  'algo.closeness': { complexity: 'O(n·m) unweighted, O(n·(m + n log n)) weighted; O(n)', reference: 'Bavelas (1950); Wasserman & Faust, Social network analysis (1994); harmonic: Marchiori & Latora (2000)' },
  'algo.wcc': { complexity: 'O(m·α(n)); O(n)', reference: 'union-find with path halving (Tarjan & van Leeuwen, 1984); with concurrency, Afforest (Sutton, Ben-Nun & Barak, 2018)' },
  'algo.scc': { complexity: 'O(n + m); O(n)', reference: 'Tarjan, Depth-first search and linear graph algorithms (1972)' },
  'algo.cdlp': { complexity: 'O(k·(n + m)); O(n)', reference: 'Raghavan, Albert & Kumara (2007); LDBC Graphalytics specification (CDLP)' },
  'algo.louvain': { complexity: 'O(k·m) per level, near-linear in practice; O(n + m)', reference: 'Blondel, Guillaume, Lambiotte & Lefebvre, Fast unfolding of communities in large networks (2008)' },
  'algo.leiden': { complexity: 'O(k·m) per level; O(n + m)', reference: 'Traag, Waltman & van Eck, From Louvain to Leiden: guaranteeing well-connected communities (2019)' },
  'algo.kCore': { complexity: 'O(n + m); O(n + m) (simple graph)', reference: 'Batagelj & Zaversnik, An O(m) algorithm for cores decomposition of networks (2003)' },
  'algo.triangleCount': { complexity: 'O(m^1.5); O(n + m)', reference: 'degree-ordered listing (Chiba & Nishizeki, 1985)' },
  'algo.lcc': { complexity: 'O(m^1.5); O(n + m)', reference: 'Watts & Strogatz, Collective dynamics of small-world networks (1998)' },
  'algo.bfs': { complexity: 'O(n + m); O(n)', reference: 'Moore (1959); with concurrency, direction-optimising (Beamer, Asanović & Patterson, 2012)' },
  'algo.dfs': { complexity: 'O(n + m); O(n + m) (sorted simple graph)', reference: 'Tarjan (1972)' },
  'algo.sssp': { complexity: 'O(m + n log n) with a binary heap; O(n); delta-stepping O(n + m + L/Δ) rounds for longest distance L (light edges relaxed again while a bucket refills)', reference: 'Dijkstra, A note on two problems in connexion with graphs (1959); with concurrency, delta-stepping (Meyer & Sanders, Δ-stepping: a parallelizable shortest path algorithm, 2003)' },
  'algo.astar': { complexity: 'O(m + n log n) at worst, usually far fewer nodes settled; O(n)', reference: 'Hart, Nilsson & Raphael, A formal basis for the heuristic determination of minimum cost paths (1968)' },
  'algo.yens': { complexity: 'O(k·n·(m + n log n)); O(k·n + m)', reference: 'Yen, Finding the k shortest loopless paths in a network (1971)' },
  'algo.bellmanFord': { complexity: 'O(n·m) at worst, queue-based; O(n)', reference: 'Bellman (1958); Ford (1956); queue variant: Moore (1959)' },
  'algo.articulationPoints': { complexity: 'O(n + m); O(n)', reference: 'Hopcroft & Tarjan, Efficient algorithms for graph manipulation (1973)' },
  'algo.bridges': { complexity: 'O(n + m); O(n)', reference: 'Tarjan, A note on finding the bridges of a graph (1974)' },
  'algo.spanningTree': { complexity: 'O(m log n); O(n)', reference: 'Prim, Shortest connection networks and some generalizations (1957)' },
  'algo.nodeSimilarity': { complexity: 'O(Σ indeg(t)²) for the two-hop walk; O(n + m + output)', reference: 'Jaccard (1901); overlap (Szymkiewicz–Simpson)' },
  'algo.knn': { complexity: 'O(n²·d), exact; O(n·d)', reference: 'brute-force k nearest neighbours (cosine or Euclidean)' },
  'algo.linkPrediction': { complexity: 'O(deg(u) + deg(v)) per pair; two-hop candidates O(Σ deg) per source', reference: 'Liben-Nowell & Kleinberg, The link-prediction problem for social networks (2007); Adamic & Adar (2003); Zhou, Lü & Zhang (2009)' },
  'algo.fastRP': { complexity: 'O(r·m·d) for r rounds; O(n·d)', reference: 'Chen et al., Fast and accurate network embeddings via very sparse random projection (2019); Achlioptas (2003)' },
  'algo.node2vec': { complexity: 'O(n·w·l·c·d) (walks, length, window, dimension); O(n·d)', reference: 'Grover & Leskovec, node2vec: scalable feature learning for networks (2016); Mikolov et al., word2vec (2013)' },
};

const GROUPS: [string, string[]][] = [
  ['Centrality', ['algo.degree', 'algo.pageRank', 'algo.articleRank', 'algo.eigenvector', 'algo.hits', 'algo.betweenness', 'algo.closeness']],
  ['Community', ['algo.wcc', 'algo.scc', 'algo.cdlp', 'algo.louvain', 'algo.leiden', 'algo.kCore', 'algo.triangleCount', 'algo.lcc']],
  ['Paths', ['algo.bfs', 'algo.dfs', 'algo.sssp', 'algo.astar', 'algo.yens', 'algo.bellmanFord']],
  ['Structure', ['algo.articulationPoints', 'algo.bridges', 'algo.spanningTree']],
  ['Similarity and link prediction', ['algo.nodeSimilarity', 'algo.knn', 'algo.linkPrediction']],
  ['Embeddings', ['algo.fastRP', 'algo.node2vec']],
];

function defaultText(o: OptionSpec): string {
  if (o.required) return 'required';
  if (o.default === undefined) return '—';
  return typeof o.default === 'string' ? `'${o.default}'` : String(o.default);
}

function section(alg: Algorithm): string {
  const note = NOTES[alg.name];
  const lines = [`### \`${alg.name}\``, ''];
  lines.push(alg.summary, '');
  if (alg.aliases?.length) lines.push(`Also callable as ${alg.aliases.map((a) => `\`${a}\``).join(', ')}.`, '');
  const perNode = alg.outputs[0]?.name === 'node';
  lines.push(`Yields: ${alg.outputs.map((o) => `\`${o.name} :: ${o.type}\``).join(', ')}. Forms: \`${alg.name}\`, \`${alg.name}.stats\`${perNode ? `, \`${alg.name}.write\`` : ''}.`, '');
  lines.push('| option | type | default | meaning |', '|---|---|---|---|');
  for (const o of optionsOf(alg)) {
    const name = o.alias ? `\`${o.name}\` (alias \`${o.alias}\`)` : `\`${o.name}\``;
    lines.push(`| ${name} | ${o.type} | ${defaultText(o)} | ${o.doc} |`);
  }
  lines.push('', `Complexity: ${note.complexity}. Reference: ${note.reference}.`, '');
  return lines.join('\n');
}

export function renderAlgorithmsDoc(): string {
  const byName = new Map(ALGORITHM_CATALOGUE.map((a) => [a.name, a]));
  const parts = [
    '# Graph algorithms',
    '',
    '<!-- Generated by `npx tsx procedures/algo/docs.ts > docs/ALGORITHMS.md` from the declarations in procedures/algo/; a test keeps it in sync. -->',
    '',
    `graphdb has ${ALGORITHM_CATALOGUE.length} graph algorithms, called as procedures: \`CALL algo.pageRank({dampingFactor: 0.9}) YIELD node, score\`.`,
    'Each runs over a compact projection of the graph (CSR: typed arrays of row offsets and neighbour indices) that is built',
    'once per selection and reused until the graph changes, and checks the query time limit as it goes.',
    '',
    '## Forms',
    '',
    '- `algo.x(config)` streams the result: `node` plus its values for per-node algorithms, or the algorithm\'s own columns (pairs, paths, edges).',
    '- `algo.x.stats(config)` yields one row: `nodeCount` (or `rowCount`), `computeMillis` and a `summary` map (min/max/mean of the first value,',
    '  plus the algorithm\'s figures: iterations, convergence, community count, modularity, total cost, …).',
    '- `algo.x.write(config)` (per-node algorithms) stores the first value column as the node property `writeProperty`, inside the query\'s',
    '  transaction: logged to the WAL, undone if the query fails, counted in `propertiesSet`, refused in read-only calls. It yields',
    '  `nodeCount`, `nodePropertiesWritten`, `writeProperty`, `computeMillis` and `summary`.',
    '',
    '## The configuration map',
    '',
    'Every procedure takes one map. Unknown keys and values of the wrong type or range are errors that name the option',
    '(`ArgumentError`, codes `UnknownAlgorithmOption` / `InvalidAlgorithmOption`). Keys shared by all algorithms:',
    '',
    '- `nodeLabels` (alias `label`): a label or a list of labels; only those nodes, and relationships between them, are projected.',
    '- `relationshipTypes` (alias `relationshipType`): a type or a list of types.',
    "- `direction` (alias `orientation`): `'OUT'`/`'NATURAL'`, `'IN'`/`'REVERSE'`, `'BOTH'`/`'UNDIRECTED'` — for algorithms where direction",
    '  matters; those defined on undirected graphs (components, communities, cores, triangles, structure) have no direction option.',
    '- `weightProperty` and `defaultWeight` for weighted algorithms: a relationship property read as the weight (finite and',
    '  non-negative, except for `algo.bellmanFord`), and the weight of relationships without it.',
    '- `concurrency`: threads for the kernels that run on the worker pool (pageRank, closeness, betweenness, triangleCount, lcc,',
    '  wcc, bfs, sssp, nodeSimilarity, knn, fastRP; default: the available cores); the other algorithms run on the calling thread. Results',
    '  do not depend on it (bfs and sssp list their nodes by depth or distance, then by id, when it is given).',
    '',
    'Node options (`source`, `target`, `sourceNodes`) take nodes or node ids. Per-node rows come in ascending node-id order unless',
    'the algorithm says otherwise; community and component ids are the smallest node id among the members.',
    '',
  ];
  for (const [group, names] of GROUPS) {
    parts.push(`## ${group}`, '');
    for (const name of names) parts.push(section(byName.get(name) as Algorithm));
  }
  parts.push(
    '## The ONNX path',
    '',
    "`algo.pageRank({device: 'onnx'})` runs each PageRank round as an ONNX MatMul (`x · M`, M the dense transition matrix with",
    'd / out-degree per relationship) through onnxruntime-node, with the teleport and dangling terms and the stopping rule of the',
    'JavaScript kernel; the model bytes are written in TypeScript (procedures/algo/onnx-model.ts) and the session runs in a',
    "worker thread. The summary's `device` says what ran: `'js'`, or `'onnx:<provider>'` with the execution provider the session used.",
    'The provider is chosen once per process (procedures/algo/compute.ts; the HTTP server asks at start-up): CUDA when a session',
    'loads on it, otherwise CPU, the reason CUDA was passed over kept; `none` without onnxruntime-node. `CALL dbms.info()` (columns',
    '`executionProvider`, `cores`, `totalMemory`, `gpu`) and `GET /status` (`compute`) report it with the detected cores, total',
    'memory and GPU (`none` when absent). The dense matrix limits the projection to 4096 nodes: larger ones fail with `ResourceLimitError`',
    "(code `LIMIT_EXCEEDED`); a runtime that cannot load is a `ProcedureError` (detail `OnnxUnavailable`). Default: `device: 'js'`.",
    'test/procedures/algo.onnx.test.ts checks both agree to 1e-6 on the graph families below.',
    '',
    '## Speed',
    '',
    'Kernels are loops over the CSR typed arrays that allocate per call, not per node or edge. Betweenness runs Brandes with a',
    'direction-optimising BFS (top-down levels with one depth comparison per edge, bottom-up levels on the undirected',
    'projection when the frontier\'s rows outweigh the unreached nodes\' rows) that records the shortest-path DAG as it goes, so',
    'the backward pass reads only DAG edges; on undirected unweighted graphs a degree-1 node is not searched from, its',
    'neighbour\'s search counting for it (Baglioni et al., 2012). Closeness runs 32 sources per',
    'multi-source BFS. PageRank rounds pull over the transposed CSR. PageRank, closeness, betweenness, triangle count, lcc,',
    'WCC, node similarity, knn and FastRP split their work over the worker pool (`concurrency`, procedures/algo/parallel.ts)',
    'with results independent of the thread count: WCC unites blocks of rows on one shared forest (a root is re-parented only',
    'by compare-and-swap, always under the smaller root, so ids are the smallest member whatever the interleaving); node',
    'similarity and knn give each node its own result slots, kept as a bounded heap (procedures/algo/topk.ts); FastRP runs one',
    'pool task per round, each node drawing its initial vector from its own seeded stream. Graphs below about 2^17 units of',
    'work (edges, or candidate pairs × dimensions) stay on the calling thread, where waking the pool would cost more than it',
    'saves. Triangle count and lcc orient each edge towards the higher (degree, id) end and give each thread fixed ranges of',
    'nodes, each counting into its own vector; the vectors are summed at the end. SSSP with `concurrency` (and no target) runs',
    'delta-stepping: buckets of width `delta` (default: the heaviest weight over the mean out-degree), one pool task per round',
    'over blocks of the bucket\'s nodes relaxing their light edges until the bucket stays empty, then one over its nodes\' heavy',
    'edges; a distance is lowered by compare-and-swap on its bits (a non-negative double\'s bits order like the double), so',
    'distances equal Dijkstra\'s bit for bit. On one thread WCC runs a sequential union-find whose row\'s finds and unions are one flat loop, which V8 compiles',
    'tighter than a find loop nested in the entry loop. BFS runs level by level, marking and queueing in the per-edge loop (four row entries per',
    'turn) and writing a level\'s depths once the level is complete. Both BFS forms and delta-stepping keep their working arrays',
    '(visited marks, queues, frontier bitmaps, delta-stepping\'s per-node lists and marks) per cached projection, cleared at the',
    'start of each call, so a repeated call allocates only its result. k-core, triangle count and lcc share the undirected simple',
    'graph, remembered per cached projection like the transpose. Louvain requeues a hub only after a twentieth of its neighbourhood moved and reads a',
    'level\'s modularity off its aggregate; Louvain and Leiden reuse their level-0 graph while the projection is cached, keep each',
    'community\'s accumulated weight and total degree side by side (one cache line per candidate community), skip reading',
    'weights on an unweighted level 0, and take the final modularity from the pass that splits disconnected communities.',
    'Benchmarks: bench/algo-vs-graphology.ts (graphdb against graphology, plus the one-thread against all-cores table),',
    'bench/algo-peers.ts (graphdb, graphology, Kuzu, Grafeo, each engine in a process of its own, in one table),',
    'bench/algo-vs-c.ts (PageRank, WCC, BFS, SSSP (Dijkstra and delta-stepping) and triangle count against a `cc -O3` C reference',
    'on the same CSR, written the same way, answers compared; each C kernel in one long-lived process started before the graph) and',
    'bench/algo-kernels.ts (the kernels alone, wall and CPU time, for profiling; `--speedup` for one thread against every core).',
    '',
    '## Verification',
    '',
    'test/procedures/algo.networkx.test.ts runs every exact algorithm against networkx on ten graph families (Kronecker, grid, star,',
    'disconnected, self-loops, parallel relationships, weighted, negative weights, a negative cycle, empty): exact agreement, or',
    '1e-9 relative for floating-point sums (1e-6 for HITS and eigenvector power iterations). Louvain and Leiden are judged by the',
    "modularity networkx measures for our partition (within 2 % of networkx's best of three Louvain runs; Leiden's communities",
    'connected); FastRP and node2vec by neighbourhoods (same-cluster nodes closer than cross-cluster ones); knn against brute force.',
    '',
  );
  return parts.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(renderAlgorithmsDoc());
