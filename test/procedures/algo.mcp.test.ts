/**
 * The algorithm catalogue as MCP clients see it: `get_capabilities` (through the real MCP SDK
 * client over stdio) lists every algorithm's stream, `.stats` and `.write` procedures with the
 * descriptions generated from the declarations, and `read_query` runs one; a `.write` form is
 * refused by `read_query` and runs through `write_query`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ALGORITHM_CATALOGUE } from '../../procedures/algo/index.js';
import { MCP_BIN } from '../server/helpers.js';

interface TextResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

const text = (r: unknown): string => (r as TextResult).content[0].text;

describe('algorithms over MCP', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'graphdb-algo-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], stderr: 'pipe' }));
  }, 60_000);
  afterAll(async () => client.close());

  it('get_capabilities lists all 29 algorithms in every form, with their descriptions', async () => {
    const caps = JSON.parse(text(await client.callTool({ name: 'get_capabilities', arguments: {} }))) as {
      algorithms: string[];
      procedures: { name: string; mode: string; description: string }[];
    };
    expect(ALGORITHM_CATALOGUE.length).toBe(29);
    for (const alg of ALGORITHM_CATALOGUE) {
      expect(caps.algorithms).toContain(alg.name);
      expect(caps.algorithms).toContain(`${alg.name}.stats`);
      const stream = caps.procedures.find((p) => p.name === alg.name);
      expect(stream?.description).toContain(alg.summary);
      expect(stream?.mode).toBe('READ');
    }
    expect(caps.procedures.find((p) => p.name === 'algo.pageRank.write')?.mode).toBe('WRITE');
  });

  it('runs a stream form through read_query and a write form only through write_query', async () => {
    await client.callTool({ name: 'write_query', arguments: { cypher: 'CREATE (:N {i: 1})-[:R]->(:N {i: 2})-[:R]->(:N {i: 3})' } });
    const read = JSON.parse(text(await client.callTool({ name: 'read_query', arguments: { cypher: 'CALL algo.wcc() YIELD componentId RETURN count(DISTINCT componentId) AS c' } }))) as { rows: { c: unknown }[] };
    expect(Number(read.rows[0].c)).toBe(1);
    const refused = await client.callTool({ name: 'read_query', arguments: { cypher: "CALL algo.degree.write({writeProperty: 'deg'}) YIELD nodeCount RETURN nodeCount" } });
    expect((refused as TextResult).isError).toBe(true);
    const written = await client.callTool({ name: 'write_query', arguments: { cypher: "CALL algo.degree.write({writeProperty: 'deg'}) YIELD nodePropertiesWritten RETURN nodePropertiesWritten AS w" } });
    expect(Number((JSON.parse(text(written)) as { rows: { w: unknown }[] }).rows[0].w)).toBe(3);
  });
});
