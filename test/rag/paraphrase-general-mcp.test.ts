/**
 * graph_rag's general paraphrase reading (issue 32, third development domain) through MCP: the
 * real `graphdb-mcp` process driven by the MCP SDK client over stdio answers an agent-noun
 * fragment ("the director of X"), a noun synonym of a label ("which physician"), a late
 * question word past "body of", and "head office" read as one phrase, each with its path in
 * the note, the observed answer above a predicted one. Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag paraphrases through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => client!.ask(query, 5);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (marlow:Town {name: 'Marlow'}), (brookside:Town {name: 'Brookside'}),
                 (teme:River {name: 'Teme River'}), (avon:River {name: 'Avon River'}),
                 (marlow)-[:SITS_ON]->(teme), (brookside)-[:SITS_ON]->(avon),
                 (c1:Clinic {name: 'Brookside Clinic'})-[:HEADQUARTERED_IN]->(marlow),
                 (c2:Clinic {name: 'Elm Clinic'})-[:HEADQUARTERED_IN]->(brookside),
                 (vera:Doctor {name: 'Vera Holt'}), (omar:Doctor {name: 'Omar Lind'}), (pia:Doctor {name: 'Pia Sand'}),
                 (c1)-[:DIRECTED_BY]->(vera), (c2)-[:DIRECTED_BY]->(omar),
                 (c1)-[:DIRECTED_BY {observation_class: 'predicted', confidence: 0.99, source: 'model'}]->(pia)`);
  });
  afterAll(async () => client?.close());

  it('answers an agent-noun fragment with the observed end of the path, not the seed', async () => {
    const a = await ask('the director of Brookside Clinic');
    expect(a.results[0].name).toBe('Vera Holt');
    expect(a.results[0].observation_class).toBe('observed');
    expect(a.results[0].note).toMatch(/path 'Brookside Clinic' -\[:DIRECTED_BY\]-> 'Vera Holt'/);
    expect(a.results.findIndex((r) => r.name === 'Pia Sand')).not.toBe(0);
  });

  it('reads a noun synonym, a late question word and a two-word phrase', async () => {
    expect((await ask('Which physician runs Elm Clinic?')).results[0].name).toBe('Omar Lind');
    expect((await ask('Marlow is on which body of water?')).results[0].name).toBe('Teme River');
    const office = await ask('Where is the head office of Elm Clinic?');
    expect(office.results[0].name).toBe('Brookside');
    expect(office.results[0].note).toMatch(/path 'Elm Clinic' -\[:HEADQUARTERED_IN\]-> 'Brookside'/);
  });
});
