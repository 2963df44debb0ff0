/**
 * graph_rag beyond one hop (issue 32) through MCP: the real `graphdb-mcp` process driven by the
 * MCP SDK client over stdio answers a value question, a two-hop question (its note showing the
 * path), a paraphrase and a listing, with the observed answer above a predicted distractor.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag beyond one hop through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string, limit?: number): Promise<RagAnswer> => client!.ask(query, limit);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (de:Land {name: 'Kardia', iso: 'KD'}), (fi:Land {name: 'Vostra', iso: 'VS'}),
                 (m1:Mill {name: 'Orrin Mill', licence: 'ML-0042'})-[:SITED_IN]->(de),
                 (m2:Mill {name: 'Tessel Mill', licence: 'ML-0077'})-[:SITED_IN]->(fi),
                 (y1:Yarn {name: 'Blue Merino', lot: 88123})-[:SPUN_AT]->(m1),
                 (y1)-[:SPUN_AT {observation_class: 'predicted', confidence: 0.99}]->(m2),
                 (y2:Yarn {name: 'Grey Alpaca', lot: 88124})-[:SPUN_AT]->(m1),
                 (y3:Yarn {name: 'Red Silk', lot: 88125})-[:SPUN_AT]->(m1)`);
  });
  afterAll(async () => client?.close());

  it('answers a value question with the entity', async () => {
    const a = await ask('Which mill holds licence ML-0077?');
    expect(a.results[0].name).toBe('Tessel Mill');
    expect(a.results[0].note).toMatch(/seed: value #1 \(licence = 'ML-0077'\)/);
    expect((await ask('Which yarn is lot 88124?')).results[0].name).toBe('Grey Alpaca');
  });

  it('walks two hops, observed before predicted, and shows the path', async () => {
    const a = await ask('In which land is the mill where Blue Merino was spun sited?');
    expect(a.results[0].name).toBe('Kardia');
    expect(a.results[0].observation_class).toBe('observed');
    expect(a.results[0].note).toMatch(/path 'Blue Merino' -\[:SPUN_AT\]-> 'Orrin Mill' -\[:SITED_IN\]-> 'Kardia' \(2 hops, coverage 1\)/);
    const names = a.results.map((r) => r.name);
    if (names.includes('Vostra')) expect(names.indexOf('Vostra')).toBeGreaterThan(0);
  });

  it('reads a paraphrase and lists many answers', async () => {
    expect((await ask('Blue Merino gets spun at which mill?')).results[0].name).toBe('Orrin Mill');
    const listing = await ask('List every yarn spun at Orrin Mill', 5);
    expect(listing.results.slice(0, 3).map((r) => r.name).sort()).toEqual(['Blue Merino', 'Grey Alpaca', 'Red Silk']);
  });
});
