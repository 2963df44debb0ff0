/**
 * graph_rag's rules from branch rag12 (general-rules-heldout9.test.ts) through MCP: the real `graphdb-mcp` process driven
 * by the MCP SDK client over stdio, on the same sailing-harbour graphs (harbour-graph.ts). Each answer is checked with
 * its path where one was walked. Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARBOUR, REGATTA } from './harbour-graph.js';
import { openRagClient, type RagAnswer, type RagClient } from './mcp-rag-client.js';

describe('graph_rag rules from the held-out domains\' remaining misses (rag12) through the MCP SDK client', () => {
  let harbour: RagClient | undefined;
  let regatta: RagClient | undefined;
  const ask = (query: string): Promise<RagAnswer> => harbour!.ask(query, 5);
  const names = async (query: string, n: number): Promise<Set<string>> => new Set((await ask(query)).results.slice(0, n).map((r) => r.name));

  beforeAll(async () => {
    harbour = await openRagClient(HARBOUR);
    regatta = await openRagClient(REGATTA);
  });
  afterAll(async () => {
    await harbour?.close();
    await regatta?.close();
  });

  it('names an office by its agent noun and a type by a short agent noun', async () => {
    expect((await ask("Who is Ben Osei's consultant?")).results[0].name).toBe('Ridge Advisory Partners');
    const hirers = await ask('Which hirers have had boats built by Kestrel Yard?');
    expect(new Set(hirers.results.slice(0, 2).map((r) => r.name))).toEqual(new Set(['Ben Osei', 'Fay Holt']));
    expect(hirers.results[0].note).toMatch(/'Kestrel Yard' <-\[:BUILT_BY\]- '(Petrel|Skua)' <-\[:HIRES\]-/);
  });

  it('routes to a named type beyond the entity and reads "used" as USES_', async () => {
    const seat = await ask('Where is the authority over Tern seated?');
    expect(seat.results[0].name).toBe('Port Wenlow');
    expect(seat.results[0].note).toMatch(/'Tern' -\[:mooredAt\]-> 'North Marina' -\[:runBy\]-> 'Bay Harbour Authority' -\[:SEATED_IN\]-> 'Port Wenlow'/);
    const used = await ask('Which reports used surveys of Zephyr Reef?');
    expect(new Set(used.results.slice(0, 2).map((r) => r.name))).toEqual(new Set(['Reef Health Report', 'Coral Watch Report']));
    expect(used.results[0].note).toMatch(/USES_FINDINGS_OF.*\(2 hops, coverage 1\)/);
  });

  it('lists the many for "complete" and "all", and answers over the closing preposition', async () => {
    expect(await names('Give me the complete roll of Petrel', 3)).toEqual(new Set(['Dee Lind', 'Eli Ruiz', 'Fay Holt']));
    expect(await names('What does Kestrel Yard turn out? List them all.', 2)).toEqual(new Set(['Petrel', 'Skua']));
    expect((await ask('What is Petrel rated for?')).results[0].name).toBe('Offshore Class');
    expect((await ask('Which event did Cy Varga compete in?')).results[0].name).toBe('Autumn Cup');
  });

  it('keeps a phrase before the name to the entity\'s own relations, "which" to things and "where" to types in -to', async () => {
    expect(await names('Who belongs to the Gull Point Sailors Club?', 2)).toEqual(new Set(['Ben Osei', 'Eli Ruiz']));
    expect(await names("Who are the hirers of Kestrel Yard's boats?", 2)).toEqual(new Set(['Ben Osei', 'Fay Holt']));
    expect(await names('Which editions of Tide Almanac have appeared?', 2)).toEqual(new Set(['Tide Almanac 2024', 'Tide Almanac 2025']));
    expect((await ask('Where can I get Reef Chart 9 from?')).results[0].name).toBe('Harbour Archive');
    expect(await names("Mo Kerr's record as navigator", 2)).toEqual(new Set(['Voyage 101', 'Voyage 102']));
  });

  it('lets "who" ask for a firm through the label mentioned, and reads a bare word between plural label nouns as their verb', async () => {
    const maker = await regatta!.ask('Who makes the drink served at the Autumn Regatta?', 5);
    expect(maker.results[0].name).toBe('Hollow Brewing Company');
    expect(maker.results[0].note).toMatch(/'Autumn Regatta' -\[:offers\]-> 'Storm Ale' -\[:licensedBy\]-> 'Hollow Brewing Company'/);
    const host = await regatta!.ask('Which harbours host boats skippered by Ben Osei?', 5);
    expect(new Set(host.results.slice(0, 2).map((r) => r.name))).toEqual(new Set(['Kelp Cove', 'Gannet Bay']));
  });
});
