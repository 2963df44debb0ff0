/**
 * graph_rag's rules from the film domain's remaining misses (general-rules-heldout8.test.ts) through
 * MCP: the real `graphdb-mcp` process driven by the MCP SDK client over stdio asks for the holder of
 * a value given under its key's words and lets a relation named by its own words, or the entity's
 * own neighbours, answer rather than a label named only by learnt words; and answers a passive
 * question about an unknown verb with its agent. Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDERY } from './bindery-graph.js';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag rules from the film domain\'s remaining misses through the MCP SDK client', () => {
  let client: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => client!.ask(query, 5);

  beforeAll(async () => {
    client = await openRagClient(BINDERY);
  });
  afterAll(async () => client?.close());

  it('asks for the value\'s holder and lets a relation named by its own words answer', async () => {
    expect((await ask('Which volume has the shelf mark SM-4471?')).results[0].name).toBe('The Salt Ledger');
    const stitched = await ask('Which novels did Ada Finch stitch?');
    expect(new Set(stitched.results.slice(0, 2).map((r) => r.name))).toEqual(new Set(['The Salt Ledger', 'Winter Almanac']));
    expect(stitched.results[0].note).toMatch(/'Ada Finch' <-\[:STITCHED_BY\]- '(The Salt Ledger|Winter Almanac)'/);
  });

  it('answers with the entity\'s neighbours and a passive question\'s agent', async () => {
    expect((await ask('all the novels Abel Hart appears in')).results[0].name).toBe('The Salt Ledger');
    expect(['The Salt Ledger', 'Harbour Psalter']).toContain((await ask('Name a volume from Quill Volumes')).results[0].name);
    expect((await ask('"The Salt Ledger" was finished by whom')).results[0].name).toBe('Ada Finch');
  });
});
