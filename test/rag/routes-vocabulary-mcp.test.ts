/**
 * graph_rag's schema routes and learnt label words through MCP: the real `graphdb-mcp` process
 * driven by the MCP SDK client over stdio asks for a label by the word its nodes are called by,
 * walks the schema's route to the asked label with the path in the note and the observed chain
 * above a more confident predicted one, and does not answer with the entity asked about.
 * Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag schema routes and learnt label words through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => client!.ask(query, 5);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (north:Campus {name: 'North Campus'}), (south:Campus {name: 'South Campus'}),
                 (kelp:OrgUnit {name: 'Kelp Laboratory'})-[:pertainsTo]->(north),
                 (moss:OrgUnit {name: 'Moss Laboratory'})-[:pertainsTo]->(south),
                 (:OrgUnit {name: 'Fern Laboratory'})-[:pertainsTo]->(south),
                 (ines:Scholar {name: 'Ines Moro'}), (ines)-[:HAS_SEAT_IN {confidence: 0.7}]->(kelp),
                 (ines)-[:HAS_SEAT_IN {observation_class: 'predicted', confidence: 0.99, source: 'model'}]->(moss),
                 (ines)-[:AUTHORED]->(:Paper {name: 'A Census of Algae'}), (ines)-[:AUTHORED]->(:Paper {name: 'Brine and Kelp'})`);
  });
  afterAll(async () => client?.close());

  it('asks for a label by its nodes\' word and walks the schema route, observed first', async () => {
    expect((await ask('Which laboratory is Ines Moro with?')).results[0].name).toBe('Kelp Laboratory');
    const campus = await ask('Which campus is Ines Moro at?');
    expect(campus.results[0].name).toBe('North Campus');
    expect(campus.results[0].observation_class).toBe('observed');
    expect(campus.results[0].note).toMatch(/path 'Ines Moro' -\[:HAS_SEAT_IN\]-> 'Kelp Laboratory' -\[:pertainsTo\]-> 'North Campus'/);
    expect(campus.results.findIndex((r) => r.name === 'South Campus')).toBeGreaterThan(0);
  });

  it('does not answer with the entity asked about', async () => {
    expect((await ask('What is Ines Moro known for?')).results[0].name).not.toBe('Ines Moro');
  });
});
