/**
 * graph_rag's rules from the sixth held-out domain's remaining misses (general-rules-heldout7.test.ts)
 * through MCP: the real `graphdb-mcp` process driven by the MCP SDK client over stdio walks "who" to
 * people through the label the question mentions, answers an unknown verb with its subject's
 * object, "where" with what the entity is at, and "co-" with the other participants of a shared
 * thing, each with its path where one was walked. Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag rules from the sixth held-out domain\'s remaining misses through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => client!.ask(query, 5);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (petrel:Boat {name: 'Petrel'}), (skua:Boat {name: 'Skua'}),
           (ana:Sailor {name: 'Ana Mott'}), (ben:Sailor {name: 'Ben Osei'}), (cy:Sailor {name: 'Cy Varga'}),
           (dee:Sailor {name: 'Dee Lind'}), (eli:Sailor {name: 'Eli Ruiz'}),
           (v1:SeaVoyage {name: 'Voyage 101'})-[:onBoat]->(petrel), (v2:SeaVoyage {name: 'Voyage 102'})-[:onBoat]->(skua),
           (v1)-[:hasSkipper]->(ben), (v2)-[:hasSkipper]->(cy),
           (s:Survey {name: 'Survey 4'}), (s)-[:CHARTED {confidence: 0.7}]->(:Reef {name: 'Zephyr Reef'}),
           (s)-[:aboardShip]->(skua), (s)-[:hasLead]->(ana),
           (c1:Clip {name: 'A Long Clip of Quiet Reefs and Their Fish at First Light'})-[:shot_by]->(ana),
           (c1)-[:shownAt]->(g:Gala {name: 'Harbour Gala'}), (g)-[:heldIn]->(:Town {name: 'Elmton'}),
           (ch:Chart {name: 'Reef Chart 1'})-[:drawnBy]->(ana), (ch)-[:drawnBy]->(dee), (:Chart {name: 'Reef Chart 2'})-[:drawnBy]->(eli)`);
  });
  afterAll(async () => client?.close());

  it('walks "who" to people and answers an unknown verb with its object', async () => {
    const who = await ask('Who has steered voyages on Petrel?');
    expect(who.results[0].name).toBe('Ben Osei');
    expect(who.results[0].note).toMatch(/'Petrel' <-\[:onBoat\]- 'Voyage 101' -\[:hasSkipper\]-> 'Ben Osei'/);
    expect((await ask('What did Survey 4 map?')).results[0].name).toBe('Zephyr Reef');
  });

  it('answers "where" with what the entity is at and "co-" with the other participants', async () => {
    expect((await ask('Where was "A Long Clip of Quiet Reefs and Their Fish at First Light" screened?')).results[0].name).toBe('Harbour Gala');
    const co = await ask('Who has co-drawn a chart with Ana Mott?');
    expect(co.results[0].name).toBe('Dee Lind');
    expect(co.results[0].note).toMatch(/'Ana Mott' <-\[:drawnBy\]- 'Reef Chart 1' -\[:drawnBy\]-> 'Dee Lind'/);
  });
});
