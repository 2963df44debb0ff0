/**
 * graph_rag's general rules from the sixth held-out domain (general-rules-heldout6.test.ts)
 * through MCP: the real `graphdb-mcp` process driven by the MCP SDK client over stdio answers a
 * quoted long title, a two-letter acronym, a value written as two tokens, "abbreviated", a
 * closing "whom" and a "where" past a named label, each with its path where one was walked.
 * Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag rules from the sixth held-out domain through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => client!.ask(query, 5);

  beforeAll(async () => {
    client = await openRagClient(`CREATE (elm:Town {name: 'Elmton'}), (a1:Archive {name: 'County Archive'}), (a2:Archive {name: 'Harbour Archive'}),
           (:Report {name: 'A Long Study of Quiet Rivers and Their Banks in Early Spring'})-[:filed_with]->(a1),
           (:Report {name: 'Quiet Rivers'})-[:filed_with]->(a2),
           (:Beacon {name: 'North Beacon', grid: '5133N 00412W'}), (:Guild {name: 'Weavers Guild', short_form: 'WvG'}),
           (s:Shift {name: 'Night Shift 7'}), (s)-[:hasQA]->(:Inspector {name: 'Zed Frost'}), (s)-[:supervisedBy]->(:Inspector {name: 'Bo Hale'}),
           (e:Expedition {name: 'Expedition 9'}), (e)-[:HAS_NAVIGATOR]->(:Navigator {name: 'Zoe Park'}), (:Navigator {name: 'Ian K. Rowe'}),
           (e)-[:usedVessel]->(:Boat {name: 'Albatross'}),
           (:Mast {name: 'Mast 12'})-[:operated_by]->(:Broadcaster {name: 'Vale Radio'})-[:based_in]->(elm)`);
  });
  afterAll(async () => client?.close());

  it('answers a quoted long title and a two-letter acronym along their paths', async () => {
    const report = await ask('Which archive was "A Long Study of Quiet Rivers and Their Banks in Early Spring" filed with?');
    expect(report.results[0].name).toBe('County Archive');
    expect(report.results[0].note).toMatch(/-\[:filed_with\]-> 'County Archive'/);
    const qa = await ask('Who was the QA on Night Shift 7?');
    expect(qa.results[0].name).toBe('Zed Frost');
    expect(qa.results[0].note).toMatch(/-\[:hasQA\]-> 'Zed Frost'/);
  });

  it('finds values written as two tokens or after "abbreviated"', async () => {
    expect((await ask('Which beacon stands at 5133N 00412W?')).results[0].name).toBe('North Beacon');
    expect((await ask('Which guild is abbreviated WvG?')).results[0].name).toBe('Weavers Guild');
  });

  it('reads a closing "whom" and answers "where" with the place past the named label', async () => {
    expect((await ask('Expedition 9 was guided by whom?')).results[0].name).toBe('Zoe Park');
    const where = await ask('Where is the broadcaster that operates Mast 12?');
    expect(where.results[0].name).toBe('Elmton');
    expect(where.results[0].note).toMatch(/'Vale Radio' -\[:based_in\]-> 'Elmton'/);
  });
});
