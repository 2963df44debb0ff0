/**
 * LangChain JS against `graphdb --bolt`, unchanged: `Neo4jGraph` (refreshSchema with the
 * enhanced schema, which runs apoc.meta.data / apoc.meta.graphSample / SHOW INDEXES YIELD * and
 * sampling queries, then addGraphDocuments through apoc.merge.* and apoc.create.addLabels) and
 * `Neo4jVectorStore` (fromTexts, similaritySearch, hybrid vector + full-text search,
 * fromExistingIndex) with an embeddings class backed by graphdb's default embedder, reached
 * through a query over the same Bolt door. Every query LangChain sends is recorded (the
 * driver's run methods are wrapped), so a failure names the query. Assumes `npm run build`.
 */

import neo4j, { type Driver } from 'neo4j-driver';
import { Embeddings } from '@langchain/core/embeddings';
import { Document } from '@langchain/core/documents';
import { Neo4jGraph } from '@langchain/community/graphs/neo4j_graph';
import { GraphDocument, Node as GraphNode, Relationship as GraphRelationship } from '@langchain/community/graphs/document';
import { Neo4jVectorStore } from '@langchain/community/vectorstores/neo4j_vector';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

const KEY = 'langchain-key';
let servers: SpawnedServers;
let driver: Driver;
let url: string;
/** The text of every query the driver sent since the last test began. */
let sent: string[] = [];
/** Every query of the run, written to the file GRAPHDB_LANGCHAIN_LOG names (docs/BOLT.md lists what LangChain sends). */
const everything: string[] = [];

type RunMethod = (this: unknown, query: unknown, ...rest: unknown[]) => unknown;
const wrapped: { proto: { run: RunMethod }; original: RunMethod }[] = [];

/** Records every query text a session or transaction of this process's neo4j-driver runs (LangChain's own driver included). */
function recordQueries(): void {
  for (const proto of [neo4j.Session.prototype, neo4j.Transaction.prototype] as unknown as { run: RunMethod }[]) {
    const original = proto.run;
    wrapped.push({ proto, original });
    proto.run = function (this: unknown, query: unknown, ...rest: unknown[]) {
      const text = typeof query === 'string' ? query : String((query as { text?: string }).text);
      sent.push(text);
      everything.push(text);
      return original.call(this, query, ...rest);
    };
  }
}

/** An Embeddings backed by graphdb's default embedder, called through a query on the Bolt door. */
class GraphdbEmbeddings extends Embeddings {
  constructor(private readonly db: Driver) {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const { records } = await this.db.executeQuery('CALL genai.vector.encodeBatch($texts) YIELD index, vector RETURN vector ORDER BY index', { texts });
    return records.map((r) => r.get('vector') as number[]);
  }

  async embedQuery(text: string): Promise<number[]> {
    const { records } = await this.db.executeQuery('RETURN genai.vector.encode($text) AS vector', { text });
    return records[0].get('vector') as number[];
  }
}

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1']);
  url = `bolt://127.0.0.1:${servers.ports.bolt}`;
  driver = neo4j.driver(url, neo4j.auth.basic('neo4j', KEY));
  recordQueries();
  // Neo4jGraph.initialize reports on the console; keep the test output to failures.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
}, 30_000);

afterAll(async () => {
  if (process.env.GRAPHDB_LANGCHAIN_LOG) writeFileSync(process.env.GRAPHDB_LANGCHAIN_LOG, [...new Set(everything)].join('\n-----\n'));
  for (const w of wrapped) w.proto.run = w.original;
  vi.restoreAllMocks();
  await driver?.close();
  await servers?.stop();
});

beforeEach(() => {
  sent = [];
});

const connection = () => ({ url, username: 'neo4j', password: KEY });

describe('Neo4jGraph', () => {
  let graph: Neo4jGraph;

  beforeAll(async () => {
    await driver.executeQuery(
      "CREATE (ann:Person {name: 'Ann', age: 30, born: date('1994-05-01'), scores: [1, 2, 3]})-[:KNOWS {since: 2020, how: 'work'}]->(bob:Person {name: 'Bob', age: 25}), " +
        "(ann)-[:WROTE]->(:Book {title: 'Graphs', pages: 120}), (bob)-[:KNOWS {since: 2021, how: 'school'}]->(:Person {name: 'Cy', age: 41})",
    );
    await driver.executeQuery('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
    await driver.executeQuery('CREATE CONSTRAINT book_title FOR (b:Book) REQUIRE b.title IS UNIQUE');
  });

  afterAll(async () => {
    await graph?.close();
  });

  it('initializes with the enhanced schema: properties, types, relationships, values and ranges', async () => {
    graph = await Neo4jGraph.initialize({ ...connection(), enhancedSchema: true });
    expect(sent.some((q) => q.includes('apoc.meta.graphSample'))).toBe(true);
    const s = graph.getStructuredSchema();
    // The enhanced schema adds values, min/max and sizes to each property entry.
    const person = Object.fromEntries(s.nodeProps.Person.map((p) => [p.property, p as typeof p & { values?: string[] }]));
    expect(person.name).toMatchObject({ type: 'STRING', distinct_count: '3' });
    expect([...(person.name.values ?? [])].sort()).toEqual(['Ann', 'Bob', 'Cy']);
    expect(person.age).toMatchObject({ type: 'INTEGER', min: '25', max: '41' });
    expect(person.born).toMatchObject({ type: 'DATE', min: '1994-05-01', max: '1994-05-01' });
    expect(person.scores).toMatchObject({ type: 'LIST', min_size: '3', max_size: '3' });
    expect(s.relProps.KNOWS.map((p) => p.property).sort()).toEqual(['how', 'since']);
    expect(s.relProps.KNOWS.find((p) => p.property === 'since')).toMatchObject({ type: 'INTEGER', min: '2020', max: '2021' });
    expect(s.relationships).toEqual(
      expect.arrayContaining([
        { start: 'Person', type: 'KNOWS', end: 'Person' },
        { start: 'Person', type: 'WROTE', end: 'Book' },
      ]),
    );
    expect(s.metadata?.constraint).toEqual([expect.objectContaining({ name: 'book_title', type: 'UNIQUENESS', labelsOrTypes: ['Book'], properties: ['title'] })]);
    expect(s.metadata?.index).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'person_name', type: 'RANGE', options: { indexProvider: 'range-1.0', indexConfig: {} } })]));
    const text = graph.getSchema();
    expect(text).toContain('Available options: ');
    expect(text).toContain('`age`: INTEGER Min: 25, Max: 41');
    expect(text).toContain('(: Person) - [: KNOWS] -> (:Person)');
  });

  it('answers query() with plain objects', async () => {
    const rows = await graph.query('MATCH (p:Person) WHERE p.age > $min RETURN p.name AS name ORDER BY name', { min: 26 });
    expect(rows).toEqual([{ name: 'Ann' }, { name: 'Cy' }]);
  });

  it('adds graph documents through apoc.merge.node / apoc.merge.relationship, with and without the base entity label', async () => {
    const alice = new GraphNode({ id: 'alice', type: 'Engineer', properties: { level: 3 } });
    const acme = new GraphNode({ id: 'acme', type: 'Company' });
    const source = new Document({ pageContent: 'Alice works at Acme.', metadata: { id: 'doc1' } });
    const doc = new GraphDocument({ nodes: [alice, acme], relationships: [new GraphRelationship({ source: alice, target: acme, type: 'works at', properties: { since: 2019 } })], source });
    await graph.addGraphDocuments([doc], { includeSource: true });
    expect(sent.some((q) => q.includes('apoc.merge.relationship'))).toBe(true);
    expect(await graph.query("MATCH (d:Document {id: 'doc1'})-[:MENTIONS]->(e:Engineer)-[r:WORKS_AT]->(c:Company) RETURN d.text AS text, e.level AS level, r.since AS since, c.id AS company")).toEqual([
      { text: 'Alice works at Acme.', level: 3, since: 2019, company: 'acme' },
    ]);
    // JavaScript numbers travel as floats (level 3.0), so LangChain's integer-to-string conversion leaves them numbers.
    // The base entity label: a constraint, MERGE on __Entity__ and apoc.create.addLabels for the type.
    const bob = new GraphNode({ id: 'bob', type: 'Engineer' });
    const second = new GraphDocument({ nodes: [bob], relationships: [new GraphRelationship({ source: bob, target: acme, type: 'WORKS_AT' })], source: new Document({ pageContent: 'Bob too.' }) });
    await graph.addGraphDocuments([second], { baseEntityLabel: true });
    expect(sent.some((q) => q.includes('apoc.create.addLabels'))).toBe(true);
    expect(await graph.query("MATCH (e:__Entity__:Engineer {id: 'bob'})-[:WORKS_AT]->(c:__Entity__ {id: 'acme'}) RETURN count(*) AS n")).toEqual([{ n: '1' }]);
    await graph.refreshSchema();
    expect(graph.getStructuredSchema().nodeProps.Engineer).toBeDefined();
  });
});

describe('Neo4jVectorStore', () => {
  const texts = ['graph databases store nodes and relationships', 'the cat sat on the mat', 'vector search finds similar embeddings', 'bolt is the protocol of neo4j drivers'];
  const metadatas = texts.map((_, i) => ({ n: i, source: `doc${i}` }));

  it('fromTexts creates the vector index and the nodes; similaritySearch finds the closest text', async () => {
    const embeddings = new GraphdbEmbeddings(driver);
    const store = await Neo4jVectorStore.fromTexts(texts, metadatas, embeddings, { ...connection(), indexName: 'chunks', nodeLabel: 'Chunk' });
    try {
      expect(sent.some((q) => q.includes('db.index.vector.createNodeIndex'))).toBe(true);
      expect(sent.some((q) => q.includes('db.create.setVectorProperty'))).toBe(true);
      const { records } = await driver.executeQuery('MATCH (c:Chunk) RETURN count(c) AS n, min(size(c.embedding)) AS dims');
      expect(records[0].get('n').toNumber()).toBe(4);
      expect(records[0].get('dims').toNumber()).toBe(384);
      const found = await store.similaritySearch('the cat sat on the mat', 2);
      expect(found[0].pageContent).toBe('the cat sat on the mat');
      expect(found[0].metadata).toEqual({ n: 1, source: 'doc1' });
      const scored = await store.similaritySearchWithScore('bolt is the protocol of neo4j drivers', 1);
      expect(scored[0][0].pageContent).toBe('bolt is the protocol of neo4j drivers');
      expect(scored[0][1]).toBeGreaterThan(0.99);
    } finally {
      await store.close();
    }
    // The index is found again by name, with its dimension read from SHOW INDEXES … options.
    const again = await Neo4jVectorStore.fromExistingIndex(new GraphdbEmbeddings(driver), { ...connection(), indexName: 'chunks' });
    try {
      expect((await again.similaritySearch('vector search finds similar embeddings', 1))[0].metadata.source).toBe('doc2');
    } finally {
      await again.close();
    }
  });

  it('hybrid search joins the vector index and a full-text index', async () => {
    const store = await Neo4jVectorStore.fromTexts(texts, metadatas, new GraphdbEmbeddings(driver), {
      ...connection(),
      indexName: 'hybrid_chunks',
      keywordIndexName: 'hybrid_keywords',
      nodeLabel: 'HybridChunk',
      searchType: 'hybrid',
    });
    try {
      expect(sent.some((q) => q.includes('CREATE FULLTEXT INDEX hybrid_keywords'))).toBe(true);
      const found = await store.similaritySearch('protocol drivers', 2);
      expect(sent.some((q) => q.includes('db.index.fulltext.queryNodes'))).toBe(true);
      expect(found.map((d) => d.pageContent)).toContain('bolt is the protocol of neo4j drivers');
      expect(found[0].pageContent).toBe('bolt is the protocol of neo4j drivers');
    } finally {
      await store.close();
    }
  });

  it('metadata filters run as a cosine query with vector.similarity.cosine', async () => {
    const store = await Neo4jVectorStore.fromExistingIndex(new GraphdbEmbeddings(driver), { ...connection(), indexName: 'chunks' });
    try {
      const found = await store.similaritySearch('graph databases store nodes and relationships', 4, { filter: { n: { $gte: 2 } } });
      expect(sent.some((q) => q.includes('vector.similarity.cosine'))).toBe(true);
      expect(found.map((d) => d.metadata.n).sort()).toEqual([2, 3]);
    } finally {
      await store.close();
    }
  });
});
