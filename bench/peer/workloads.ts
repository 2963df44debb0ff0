/**
 * The workloads of the peer benchmark: every query in each engine's dialect with the same
 * meaning, its parameters (drawn from the dataset's `meta.json`), whether row order is part of
 * the answer, and the graph algorithms. graphdb and Grafeo (through its Cypher entry point) take
 * the same openCypher text; Kuzu gets its own text where its dialect differs (shortest-path
 * syntax, schema-typed tables). Queries return only scalar columns so answers compare directly.
 *
 * Semantics that differ between engines are avoided rather than papered over: multi-hop counts
 * walk directed KNOWS relationships (no walk can repeat a relationship there, so Cypher's
 * relationship uniqueness and Kuzu's walk semantics agree), and variable-length friend
 * searches return DISTINCT people other than the start person.
 */

import type { SnbParams } from './data.js';

/** The engines of the benchmark. */
export type EngineName = 'graphdb' | 'kuzu' | 'grafeo' | 'graphology';
export const ENGINES: readonly EngineName[] = ['graphdb', 'kuzu', 'grafeo', 'graphology'];

/** A parameter value: what every engine's driver accepts. */
export type Param = number | string | boolean | null;
export type Params = Record<string, Param>;

/** One query workload. */
export interface QueryWorkload {
  name: string;
  group: 'query' | 'short read' | 'complex read' | 'write';
  /** openCypher text for graphdb and Grafeo. */
  cypher: string;
  /** Kuzu's text when it differs from `cypher`. */
  kuzu?: string;
  /** Parameters of run number `run` (0 = the cold run); writes use it to make each run distinct. */
  params: (p: SnbParams, run: number) => Params;
  /** Whether row order is part of the answer (ORDER BY); otherwise rows are compared as a multiset. */
  ordered: boolean;
  /** Writes change the graph: the answer compared is the cold run's. */
  write?: boolean;
}

const personProps =
  'firstName: $firstName, lastName: $lastName, gender: $gender, birthday: $birthday, creationDate: $creationDate, browserUsed: $browser';

export const QUERIES: QueryWorkload[] = [
  {
    name: 'point lookup',
    group: 'query',
    cypher: 'MATCH (p:Person {id: $pid}) RETURN p.firstName AS f, p.lastName AS l, p.birthday AS b',
    params: (p) => ({ pid: p.pid }),
    ordered: false,
  },
  {
    name: '1-hop',
    group: 'query',
    cypher: 'MATCH (p:Person {id: $pid})-[:KNOWS]-(f:Person) RETURN f.id AS id',
    params: (p) => ({ pid: p.pid }),
    ordered: false,
  },
  {
    name: '2-hop distinct',
    group: 'query',
    cypher: 'MATCH (p:Person {id: $pid})-[:KNOWS]-(:Person)-[:KNOWS]-(f:Person) WHERE f.id <> $pid RETURN count(DISTINCT f) AS n',
    params: (p) => ({ pid: p.pid }),
    ordered: false,
  },
  {
    name: '3-hop count',
    group: 'query',
    cypher: 'MATCH (p:Person {id: $pid})-[:KNOWS]->(a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) RETURN count(*) AS n',
    params: (p) => ({ pid: p.pid }),
    ordered: false,
  },
  {
    name: 'shortest path',
    group: 'query',
    cypher: 'MATCH path = shortestPath((a:Person {id: $pid})-[:KNOWS*]-(b:Person {id: $far})) RETURN length(path) AS len',
    kuzu: 'MATCH path = (a:Person {id: $pid})-[:KNOWS* SHORTEST 1..30]-(b:Person {id: $far}) RETURN length(path) AS len',
    params: (p) => ({ pid: p.pid, far: p.pidFar }),
    ordered: false,
  },
  {
    name: 'aggregation by group',
    group: 'query',
    cypher: 'MATCH (m:Post)-[:HAS_CREATOR]->(p:Person) RETURN p.browserUsed AS browser, count(*) AS n, sum(m.length) AS total',
    params: () => ({}),
    ordered: false,
  },
  {
    name: 'equality filter',
    group: 'query',
    cypher: 'MATCH (p:Person) WHERE p.firstName = $name RETURN count(*) AS n',
    params: (p) => ({ name: p.firstName }),
    ordered: false,
  },
  {
    name: 'range filter',
    group: 'query',
    cypher: 'MATCH (p:Person) WHERE p.birthday >= $lo AND p.birthday < $hi RETURN count(*) AS n',
    params: (p) => ({ lo: p.birthdayLo, hi: p.birthdayHi }),
    ordered: false,
  },
  {
    name: 'order by limit',
    group: 'query',
    cypher: 'MATCH (m:Post) RETURN m.id AS id, m.creationDate AS d ORDER BY d DESC, id ASC LIMIT 20',
    params: () => ({}),
    ordered: true,
  },
  {
    name: 'triangle count',
    group: 'query',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person), (a)-[:KNOWS]->(c) RETURN count(*) AS n',
    params: () => ({}),
    ordered: false,
  },
  {
    name: 'common neighbours',
    group: 'query',
    cypher: 'MATCH (a:Person {id: $a})-[:KNOWS]-(x:Person)-[:KNOWS]-(b:Person {id: $b}) RETURN x.id AS id',
    params: (p) => ({ a: p.pid, b: p.pidTwo }),
    ordered: false,
  },
  {
    name: 'IS1 profile',
    group: 'short read',
    cypher:
      'MATCH (n:Person {id: $pid})-[:IS_LOCATED_IN]->(c:Place) RETURN n.firstName AS firstName, n.lastName AS lastName, ' +
      'n.birthday AS birthday, n.browserUsed AS browser, c.id AS cityId, n.gender AS gender, n.creationDate AS created',
    params: (p) => ({ pid: p.pid }),
    ordered: false,
  },
  {
    name: 'IS2 recent messages',
    group: 'short read',
    cypher:
      'MATCH (:Person {id: $pid})<-[:HAS_CREATOR]-(c:Comment)-[:REPLY_OF]->(post:Post)-[:HAS_CREATOR]->(op:Person) ' +
      'RETURN c.id AS id, c.creationDate AS d, post.id AS postId, op.id AS opId ORDER BY d DESC, id DESC LIMIT 10',
    params: (p) => ({ pid: p.pid }),
    ordered: true,
  },
  {
    name: 'IS3 friends',
    group: 'short read',
    cypher:
      'MATCH (:Person {id: $pid})-[r:KNOWS]-(f:Person) RETURN f.id AS id, f.firstName AS firstName, f.lastName AS lastName, ' +
      'r.creationDate AS since ORDER BY since DESC, id ASC',
    params: (p) => ({ pid: p.pid }),
    ordered: true,
  },
  {
    name: 'IS4 message content',
    group: 'short read',
    cypher: 'MATCH (m:Post {id: $mid}) RETURN m.creationDate AS d, m.content AS content',
    params: (p) => ({ mid: p.postId }),
    ordered: false,
  },
  {
    name: 'IS5 message creator',
    group: 'short read',
    cypher: 'MATCH (:Comment {id: $cid})-[:HAS_CREATOR]->(p:Person) RETURN p.id AS id, p.firstName AS firstName, p.lastName AS lastName',
    params: (p) => ({ cid: p.commentId }),
    ordered: false,
  },
  {
    name: 'IS6 message forum',
    group: 'short read',
    cypher:
      'MATCH (:Comment {id: $cid})-[:REPLY_OF]->(:Post)<-[:CONTAINER_OF]-(f:Forum)-[:HAS_MODERATOR]->(m:Person) ' +
      'RETURN f.id AS forumId, f.title AS title, m.id AS modId, m.firstName AS firstName, m.lastName AS lastName',
    params: (p) => ({ cid: p.commentId }),
    ordered: false,
  },
  {
    name: 'IS7 replies',
    group: 'short read',
    cypher:
      'MATCH (m:Post {id: $mid})<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) ' +
      'MATCH (m)-[:HAS_CREATOR]->(a:Person) OPTIONAL MATCH (a)-[r:KNOWS]-(p) ' +
      'RETURN c.id AS id, c.content AS content, c.creationDate AS d, p.id AS pid, p.firstName AS firstName, ' +
      'r IS NOT NULL AS knows ORDER BY d DESC, pid ASC, id ASC',
    params: (p) => ({ mid: p.postId }),
    ordered: true,
  },
  {
    name: 'IC1 friends by name',
    group: 'complex read',
    cypher:
      'MATCH (:Person {id: $pid})-[:KNOWS*1..3]-(f:Person) WHERE f.firstName = $name AND f.id <> $pid ' +
      'WITH DISTINCT f RETURN f.id AS id, f.lastName AS lastName ORDER BY lastName, id LIMIT 20',
    params: (p) => ({ pid: p.pid, name: p.firstName }),
    ordered: true,
  },
  {
    name: 'IC2 friends messages',
    group: 'complex read',
    cypher:
      'MATCH (:Person {id: $pid})-[:KNOWS]-(f:Person)<-[:HAS_CREATOR]-(m:Post) WHERE m.creationDate <= $maxDate ' +
      'RETURN f.id AS fid, f.firstName AS firstName, m.id AS mid, m.creationDate AS d ORDER BY d DESC, mid ASC LIMIT 20',
    params: (p) => ({ pid: p.pid, maxDate: p.maxDate }),
    ordered: true,
  },
  {
    name: 'IC3 friends in country',
    group: 'complex read',
    cypher:
      'MATCH (:Person {id: $pid})-[:KNOWS*1..2]-(f:Person) WHERE f.id <> $pid WITH DISTINCT f ' +
      'MATCH (f)-[:IS_LOCATED_IN]->(:Place)-[:IS_PART_OF]->(c:Place), (f)<-[:HAS_CREATOR]-(m:Post) ' +
      'WHERE c.name <> $country AND m.creationDate >= $winStart AND m.creationDate < $winEnd ' +
      'RETURN f.id AS id, count(m) AS n ORDER BY n DESC, id ASC LIMIT 20',
    params: (p) => ({ pid: p.pid, country: p.country, winStart: p.startDate, winEnd: p.endDate }),
    ordered: true,
  },
  {
    name: 'IC6 tag co-occurrence',
    group: 'complex read',
    cypher:
      'MATCH (:Person {id: $pid})-[:KNOWS*1..2]-(f:Person) WHERE f.id <> $pid WITH DISTINCT f ' +
      'MATCH (f)<-[:HAS_CREATOR]-(post:Post)-[:HAS_TAG]->(:Tag {name: $tag}) ' +
      'MATCH (post)-[:HAS_TAG]->(t:Tag) WHERE t.name <> $tag ' +
      'RETURN t.name AS tag, count(DISTINCT post) AS n ORDER BY n DESC, tag ASC LIMIT 10',
    params: (p) => ({ pid: p.pid, tag: p.tag }),
    ordered: true,
  },
  {
    name: 'insert node',
    group: 'write',
    cypher: `CREATE (p:Person {id: $id, ${personProps}}) RETURN p.id AS id`,
    params: (p, run) => ({
      id: p.newPersonId + run,
      firstName: 'New',
      lastName: `Person${run}`,
      gender: 'female',
      birthday: 19900101,
      creationDate: 1400000000000 + run,
      browser: 'Firefox',
    }),
    ordered: false,
    write: true,
  },
  {
    name: 'update property',
    group: 'write',
    cypher: 'MATCH (p:Person {id: $id}) SET p.browserUsed = $browser RETURN p.browserUsed AS b',
    params: (p, run) => ({ id: (p.pid + 17 * run + 1) % p.persons, browser: `Browser${run}` }),
    ordered: false,
    write: true,
  },
  {
    name: 'insert relationship',
    group: 'write',
    cypher:
      'MATCH (a:Person {id: $a}), (b:Person {id: $b}) CREATE (a)-[r:KNOWS {creationDate: $d}]->(b) RETURN a.id AS a, b.id AS b',
    params: (p, run) => ({ a: (7 * run + 3) % p.persons, b: (11 * run + p.persons / 2 + 5) % p.persons, d: 1400000000000 + run }),
    ordered: false,
    write: true,
  },
];

/** Graph algorithms on the Kronecker graph (undirected in meaning). */
export type AlgoName = 'PageRank' | 'WCC' | 'BFS' | 'CDLP' | 'LCC' | 'SSSP';
export const ALGORITHMS: readonly AlgoName[] = ['PageRank', 'WCC', 'BFS', 'CDLP', 'LCC', 'SSSP'];

/** What is compared for each algorithm's per-vertex answer. */
export const ALGO_CHECKS: Record<AlgoName, string> = {
  // See samePageRank (answers.ts) for why the check is on shares with a tolerance.
  PageRank: 'the 10 highest-ranked vertices with their scores as shares of the total (±0.1 %), a vertex in one top 10 only if it ties the 10th (±0.1 %); scores converged (total change < 1e-7 where configurable)',
  WCC: 'number of components and size of the largest',
  BFS: 'number of vertices at each depth from the source',
  CDLP: 'only that every vertex gets a label (implementations may legitimately differ)',
  LCC: 'mean local clustering coefficient (±1e-6)',
  SSSP: 'vertices reached and the sum of distances (±1e-6 relative)',
};

/** How many of the highest PageRank scores an answer lists (10 are compared, the rest settle ties). */
export const PAGERANK_LISTED = 20;

/** Condenses an algorithm's per-vertex values into what is compared between engines. */
export function summarise(algo: AlgoName, values: Map<number, number>, vertices: number): unknown {
  switch (algo) {
    case 'PageRank': {
      // The 20 highest as [id, share of the total]: shares, because engines differ in what
      // they do with the mass of vertices without edges (spread it, or drop it), which scales
      // every score alike; 20, so that a vertex just outside one engine's top 10 can still
      // be found in the other's list (see samePageRank).
      let total = 0;
      for (const x of values.values()) total += x;
      const top = [...values].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, PAGERANK_LISTED);
      return top.map(([id, x]) => [id, total > 0 ? x / total : 0]);
    }
    case 'WCC': {
      const sizes = new Map<number, number>();
      for (const c of values.values()) sizes.set(c, (sizes.get(c) ?? 0) + 1);
      return { components: sizes.size, largest: Math.max(...sizes.values()) };
    }
    case 'BFS': {
      const hist: number[] = [];
      for (const d of values.values()) hist[d] = (hist[d] ?? 0) + 1;
      return Array.from(hist, (x) => x ?? 0);
    }
    case 'CDLP':
      return { labelled: values.size === vertices };
    case 'LCC': {
      let s = 0;
      for (const v of values.values()) s += v;
      return { mean: s / vertices };
    }
    case 'SSSP': {
      let s = 0;
      let reached = 0;
      for (const d of values.values()) {
        if (Number.isFinite(d)) {
          s += d;
          reached++;
        }
      }
      return { reached, sum: s };
    }
  }
}
