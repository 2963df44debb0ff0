/**
 * graph_rag's relation chains (issue 32, follow-up) through MCP: the real `graphdb-mcp`
 * process driven by the MCP SDK client over stdio answers a relative clause of three hops, a
 * possessive chain and a listing through "pass through", each note showing the walked path,
 * the observed answer above a more confident predicted one. Assumes `npm run build` has run
 * (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag relation chains through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string, limit?: number): Promise<RagAnswer> => client!.ask(query, limit);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (orrin:Town {name: 'Orrin'}), (pellow:Town {name: 'Pellow'}), (quist:Town {name: 'Quist'}),
                 (tarn:Firm {name: 'Tarn Coaches'})-[:HQ_IN]->(orrin), (vell:Firm {name: 'Vell Transit'})-[:HQ_IN]->(pellow),
                 (east:Garage {name: 'East Shed'})-[:ownedBy]->(tarn), (west:Garage {name: 'West Shed'})-[:ownedBy]->(vell),
                 (s1:Stop {name: 'Mill Lane'})-[:inTown]->(quist), (s2:Stop {name: 'Kiln Row'})-[:inTown]->(orrin),
                 (east)-[:adjacent_to]->(s1),
                 (comet:Bus {name: 'Blue Comet'})-[:assignedTo]->(east),
                 (comet)-[:assignedTo {observation_class: 'predicted', confidence: 0.98}]->(west),
                 (loop:Route {name: 'Harbour Loop'})-[:run_by]->(tarn), (loop)-[:SERVES]->(s1), (loop)-[:SERVES]->(s2)`);
  });
  afterAll(async () => client?.close());

  it('walks a relative clause of three hops and shows the path', async () => {
    const a = await ask('In which town is the head office of the firm whose garage Blue Comet is assigned to?');
    expect(a.results[0].name).toBe('Orrin');
    expect(a.results[0].observation_class).toBe('observed');
    expect(a.results[0].note).toMatch(/path 'Blue Comet' -\[:assignedTo\]-> 'East Shed' -\[:ownedBy\]-> 'Tarn Coaches' -\[:HQ_IN\]-> 'Orrin' \(3 hops/);
    const names = a.results.map((r) => r.name);
    if (names.includes('Pellow')) expect(a.results[names.indexOf('Pellow')].observation_class).toBe('predicted');
  });

  it('follows a possessive chain and lists the towns a route passes through', async () => {
    expect((await ask("Blue Comet's garage belongs to which company?")).results[0].name).toBe('Tarn Coaches');
    const towns = await ask('Which towns does the Harbour Loop pass through?', 5);
    expect(towns.results.slice(0, 2).map((r) => r.name).sort()).toEqual(['Orrin', 'Quist']);
    expect(towns.results[0].note).toMatch(/path 'Harbour Loop' -\[:SERVES\]-> '[^']+' -\[:inTown\]-> /);
  });
});
