/**
 * The `algo.*` procedures on small graphs whose answers were worked out by hand: PageRank,
 * weakly connected components, BFS, Dijkstra, label propagation, local clustering,
 * triangles and degree, plus configuration errors.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { ArgumentError } from '../../src/errors.js';
import { toJs } from '../../runtime/format.js';

/** A database holding `create`, and a helper returning plain rows of `query`. */
function graph(create: string): (query: string) => unknown[][] {
  const db = Database.openInMemory();
  if (create) db.executeSync(create);
  return (query) => db.executeSync(query).records.map((r) => r.map((v) => toJs(v)));
}

/** Rows as a name → value object (first column a name, second a number). */
function byName(rows: unknown[][]): Record<string, unknown> {
  return Object.fromEntries(rows.map(([k, v]) => [String(k), v]));
}

describe('algo.pageRank', () => {
  it('splits a two-node chain as the closed form says (dangling mass spread evenly)', () => {
    const q = graph("CREATE (:N {name: 'a'})-[:R]->(:N {name: 'b'})");
    const r = byName(q('CALL algo.pageRank({tolerance: 0, maxIterations: 500}) YIELD node, score RETURN node.name, score'));
    // x_a = (0.15 + 0.85·x_b)/2 with x_a + x_b = 1 gives x_a = 1/2.85.
    expect(r.a).toBeCloseTo(1 / 2.85, 12);
    expect(r.b).toBeCloseTo(1 - 1 / 2.85, 12);
  });

  it('gives every node of a directed cycle 1/n, and reads damping and direction', () => {
    const q = graph("CREATE (a:N {name: 'a'})-[:R]->(:N {name: 'b'})-[:R]->(:N {name: 'c'})-[:R]->(a)");
    for (const s of Object.values(byName(q('CALL algo.pageRank({}) YIELD node, score RETURN node.name, score')))) expect(s).toBeCloseTo(1 / 3, 12);
    const r = byName(q("CALL algo.pageRank({dampingFactor: 0.5, direction: 'IN'}) YIELD node, score RETURN node.name, score"));
    expect(Object.values(r).reduce((x: number, y) => x + (y as number), 0)).toBeCloseTo(1, 12);
  });

  it('ranks the hub of an undirected star highest and yields rows in node-id order', () => {
    const q = graph('CREATE (h:N {i: 0}), (h)-[:R]->(:N {i: 1}), (h)-[:R]->(:N {i: 2}), (h)-[:R]->(:N {i: 3})');
    const rows = q("CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-12}) YIELD node, score RETURN node.i, score");
    expect(rows.map((r) => r[0])).toEqual([0, 1, 2, 3]);
    // Hub: x_h = 0.15/4 + 0.85·3·x_l, leaf: x_l = 0.15/4 + 0.85·x_h/3 → x_h = (0.0375 + 0.85·0.0375·3)/(1 - 0.85²).
    const hub = (0.0375 + 0.85 * 0.0375 * 3) / (1 - 0.85 * 0.85);
    expect(rows[0][1]).toBeCloseTo(hub, 10);
    expect(rows[1][1]).toBeCloseTo((1 - hub) / 3, 10);
  });

  it('returns floats even for integral scores, and nothing on an empty graph', () => {
    expect(graph('')('CALL algo.pageRank({}) YIELD node, score RETURN node, score')).toEqual([]);
    const q = graph('CREATE (:N)');
    expect(q('CALL algo.pageRank({}) YIELD score RETURN score, toString(score) AS s')).toEqual([[1, '1.0']]);
  });
});

describe('algo.wcc', () => {
  it('labels each component by its smallest node id, ignoring direction', () => {
    const q = graph('CREATE (a:N {i: 0}), (b:N {i: 1}), (c:N {i: 2}), (d:N {i: 3}), (e:N {i: 4}), (c)-[:R]->(a), (b)-[:R]->(c), (e)-[:R]->(d)');
    const rows = q('CALL algo.wcc({}) YIELD node, componentId RETURN node.i, componentId, id(node)');
    const idOf = Object.fromEntries(rows.map(([i, , id]) => [i as number, id as number]));
    expect(rows.map(([i, c]) => [i, c])).toEqual([
      [0, idOf[0]],
      [1, idOf[0]],
      [2, idOf[0]],
      [3, idOf[3]],
      [4, idOf[3]],
    ]);
  });

  it('projects by label and relationship type', () => {
    const q = graph('CREATE (a:N {i: 0})-[:R]->(b:N {i: 1})-[:S]->(c:N {i: 2})-[:R]->(d:M {i: 3})');
    const comps = (cfg: string) => {
      const rows = q(`CALL algo.wcc(${cfg}) YIELD node, componentId RETURN node.i, componentId`);
      return new Set(rows.map((r) => r[1])).size;
    };
    expect(comps('{}')).toBe(1);
    expect(comps("{relationshipType: 'R'}")).toBe(2); // {a,b}, {c,d}
    expect(comps("{relationshipType: ['R', 'S'], label: 'N'}")).toBe(1); // d is not an N
    expect(q("CALL algo.wcc({label: 'N'}) YIELD node RETURN count(*)")).toEqual([[3]]);
    expect(q("CALL algo.wcc({label: 'Nope'}) YIELD node RETURN count(*)")).toEqual([[0]]);
    expect(comps("{relationshipType: 'Nope'}")).toBe(4);
  });
});

describe('algo.bfs', () => {
  const create = "CREATE (a:N {name: 'a'})-[:R]->(b:N {name: 'b'})-[:R]->(c:N {name: 'c'})-[:R]->(d:N {name: 'd'}), (a)-[:R]->(e:N {name: 'e'}), (f:N {name: 'f'})-[:R]->(a)";

  it('yields reached nodes with their depth in visit order', () => {
    const q = graph(create);
    expect(q("MATCH (s {name: 'a'}) CALL algo.bfs({source: s}) YIELD node, depth RETURN node.name, depth")).toEqual([
      ['a', 0],
      ['b', 1],
      ['e', 1],
      ['c', 2],
      ['d', 3],
    ]);
  });

  it('honours maxDepth, direction and a source given by id', () => {
    const q = graph(create);
    expect(q("MATCH (s {name: 'a'}) CALL algo.bfs({source: s, maxDepth: 1}) YIELD node, depth RETURN node.name, depth")).toEqual([
      ['a', 0],
      ['b', 1],
      ['e', 1],
    ]);
    expect(q("MATCH (s {name: 'c'}) CALL algo.bfs({source: id(s), direction: 'in'}) YIELD node, depth RETURN node.name, depth")).toEqual([
      ['c', 0],
      ['b', 1],
      ['a', 2],
      ['f', 3],
    ]);
    const both = q("MATCH (s {name: 'e'}) CALL algo.bfs({source: s, direction: 'BOTH'}) YIELD node, depth RETURN node.name, depth");
    expect(byName(both)).toEqual({ e: 0, a: 1, b: 2, f: 2, c: 3, d: 4 });
  });

  it("takes Neo4j GDS's names sourceNode and targetNode for source and target", () => {
    const q = graph(create);
    expect(q("MATCH (s {name: 'a'}) CALL algo.bfs({sourceNode: s}) YIELD node, depth RETURN node.name, depth")).toEqual(
      q("MATCH (s {name: 'a'}) CALL algo.bfs({source: s}) YIELD node, depth RETURN node.name, depth"),
    );
    const path = q("MATCH (s {name: 'f'}), (t {name: 'd'}) CALL algo.sssp({sourceNode: s, targetNode: t}) YIELD node RETURN node.name");
    expect(path).toEqual(q("MATCH (s {name: 'f'}), (t {name: 'd'}) CALL algo.sssp({source: s, target: t}) YIELD node RETURN node.name"));
    expect(path).toEqual([['f'], ['a'], ['b'], ['c'], ['d']]);
    expect(() => q("MATCH (s {name: 'a'}) CALL algo.bfs({source: s, sourceNode: s}) YIELD node RETURN node")).toThrow('given twice');
  });
});

describe('algo.sssp', () => {
  const create =
    "CREATE (a:N {name: 'a'}), (b:N {name: 'b'}), (c:N {name: 'c'}), (d:N {name: 'd'}), (x:N {name: 'x'}), " +
    '(a)-[:R {w: 1}]->(b), (b)-[:R {w: 2.5}]->(c), (a)-[:R {w: 5}]->(c), (c)-[:R {w: 1}]->(d), (d)-[:R]->(a)';

  it('finds weighted distances and yields nodes by increasing distance', () => {
    const q = graph(create);
    expect(q("MATCH (s {name: 'a'}) CALL algo.sssp({source: s, weightProperty: 'w'}) YIELD node, distance RETURN node.name, distance")).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 3.5],
      ['d', 4.5],
    ]);
    expect(q("MATCH (s {name: 'a'}) CALL algo.sssp({source: s}) YIELD node, distance RETURN node.name, toString(distance)")).toEqual([
      ['a', '0.0'],
      ['b', '1.0'],
      ['c', '1.0'],
      ['d', '2.0'],
    ]);
  });

  it('uses defaultWeight for relationships without the property', () => {
    const q = graph(create);
    const r = byName(q("MATCH (s {name: 'd'}) CALL algo.sssp({source: s, weightProperty: 'w', defaultWeight: 0.25}) YIELD node, distance RETURN node.name, distance"));
    expect(r).toEqual({ d: 0, a: 0.25, b: 1.25, c: 3.75 });
  });

  it('rejects negative and non-numeric weights', () => {
    const q = graph("CREATE (a:N)-[:R {w: -1}]->(:N), (a)-[:R {w: 'x'}]->(:N)");
    expect(() => q("MATCH (s:N)-->() CALL algo.sssp({source: s, weightProperty: 'w'}) YIELD node RETURN node")).toThrow(ArgumentError);
  });
});

describe('algo.cdlp', () => {
  it('finds two triangles joined by one edge as two communities named by their smallest member', () => {
    const q = graph('UNWIND range(0, 5) AS i CREATE (:N {i: i})');
    q('UNWIND [[0,1],[1,2],[0,2],[3,4],[4,5],[3,5],[2,3]] AS p MATCH (a:N {i: p[0]}), (b:N {i: p[1]}) CREATE (a)-[:R]->(b)');
    const rows = q('CALL algo.cdlp({}) YIELD node, communityId RETURN node.i, communityId, id(node)');
    const idOf = rows.map((r) => r[2]);
    expect(rows.map((r) => r[1])).toEqual([idOf[0], idOf[0], idOf[0], idOf[3], idOf[3], idOf[3]]);
  });

  it('stops after maxIterations; zero rounds leaves every node alone', () => {
    const q = graph('CREATE (:N)-[:R]->(:N)-[:R]->(:N)');
    const rows = q('CALL algo.cdlp({maxIterations: 0}) YIELD node, communityId RETURN id(node) = communityId');
    expect(rows).toEqual([[true], [true], [true]]);
  });
});

describe('algo.lcc and algo.triangleCount', () => {
  it('computes coefficients on the simple undirected graph (parallel edges and loops ignored)', () => {
    const q = graph(
      "CREATE (a:N {name: 'a'}), (b:N {name: 'b'}), (c:N {name: 'c'}), (d:N {name: 'd'}), " +
        '(a)-[:R]->(b), (b)-[:R]->(c), (c)-[:R]->(a), (a)-[:R]->(d), (b)-[:R]->(a), (d)-[:R]->(d)',
    );
    expect(byName(q('CALL algo.lcc({}) YIELD node, coefficient RETURN node.name, coefficient'))).toEqual({ a: 1 / 3, b: 1, c: 1, d: 0 });
    expect(byName(q('CALL algo.triangleCount({}) YIELD node, triangles RETURN node.name, triangles'))).toEqual({ a: 1, b: 1, c: 1, d: 0 });
  });

  it('counts three triangles per node of a K4 and four in total', () => {
    const q = graph('UNWIND range(0, 3) AS i CREATE (:N {i: i})');
    q('MATCH (a:N), (b:N) WHERE a.i < b.i CREATE (a)-[:R]->(b)');
    expect(q('CALL algo.triangleCount({}) YIELD triangles RETURN collect(triangles), sum(triangles) / 3')).toEqual([[[3, 3, 3, 3], 4]]);
    expect(q('CALL algo.lcc({}) YIELD coefficient RETURN collect(coefficient)')).toEqual([[[1, 1, 1, 1]]]);
  });
});

describe('algo.degree', () => {
  it('counts per direction, a self-loop once', () => {
    const q = graph("CREATE (a:N {name: 'a'})-[:R]->(b:N {name: 'b'}), (a)-[:S]->(b), (b)-[:R]->(b)");
    expect(byName(q('CALL algo.degree({}) YIELD node, degree RETURN node.name, degree'))).toEqual({ a: 2, b: 1 });
    expect(byName(q("CALL algo.degree({direction: 'in'}) YIELD node, degree RETURN node.name, degree"))).toEqual({ a: 0, b: 3 });
    expect(byName(q("CALL algo.degree({direction: 'both', relationshipType: 'R'}) YIELD node, degree RETURN node.name, degree"))).toEqual({ a: 1, b: 2 });
  });
});

describe('configuration errors', () => {
  const q = graph("CREATE (:N {name: 'a'})-[:R]->(:M {name: 'b'})");
  it.each([
    ['an unknown key', 'CALL algo.pageRank({dampingfactor: 0.5}) YIELD node RETURN node'],
    ['a bad direction', "CALL algo.degree({direction: 'sideways'}) YIELD node RETURN node"],
    ['a damping factor of 1', 'CALL algo.pageRank({dampingFactor: 1}) YIELD node RETURN node'],
    ['a non-integer iteration count', 'CALL algo.cdlp({maxIterations: 1.5}) YIELD node RETURN node'],
    ['a missing source', 'CALL algo.bfs({}) YIELD node RETURN node'],
    ['a source that does not exist', 'CALL algo.bfs({source: 12345}) YIELD node RETURN node'],
    ['a source outside the projection', "MATCH (s:M) CALL algo.sssp({source: s, label: 'N'}) YIELD node RETURN node"],
    ['a relationship type that is not a string', 'CALL algo.wcc({relationshipType: 3}) YIELD node RETURN node'],
  ])('rejects %s with an ArgumentError', (_what, query) => {
    expect(() => q(query)).toThrow(ArgumentError);
  });

  it('rejects a config that is not a map', () => {
    expect(() => q('CALL algo.wcc([1]) YIELD node RETURN node')).toThrow(/MAP/);
    const db = Database.openInMemory();
    expect(() => db.executeSync('CALL algo.wcc($c) YIELD node RETURN node', { c: [1] })).toThrow(ArgumentError);
  });

  it('lists the procedures with their signatures', () => {
    const rows = q("CALL dbms.procedures() YIELD name, signature WHERE name STARTS WITH 'algo.' RETURN name, signature");
    const names = rows.map((r) => r[0] as string);
    const streams = names.filter((n) => !n.endsWith('.stats') && !n.endsWith('.write') && n !== 'algo.labelPropagation');
    expect(streams).toEqual([
      'algo.articleRank', 'algo.articulationPoints', 'algo.astar', 'algo.bellmanFord', 'algo.betweenness', 'algo.bfs', 'algo.bridges',
      'algo.cdlp', 'algo.closeness', 'algo.degree', 'algo.dfs', 'algo.eigenvector', 'algo.fastRP', 'algo.hits', 'algo.kCore', 'algo.knn',
      'algo.lcc', 'algo.leiden', 'algo.linkPrediction', 'algo.louvain', 'algo.node2vec', 'algo.nodeSimilarity', 'algo.pageRank',
      'algo.scc', 'algo.spanningTree', 'algo.sssp', 'algo.triangleCount', 'algo.wcc', 'algo.yens',
    ]);
    for (const n of streams) expect(names).toContain(`${n}.stats`);
    expect(names).toContain('algo.pageRank.write');
    expect(byName(rows)['algo.pageRank']).toBe('algo.pageRank(config :: MAP?) :: (node :: NODE?, score :: FLOAT?)');
  });
});
