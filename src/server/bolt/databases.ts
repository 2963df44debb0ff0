/**
 * `SHOW DATABASES` (and `SHOW DATABASE <name>`, `SHOW DEFAULT DATABASE`, `SHOW HOME
 * DATABASE`, optionally with `YIELD *` or `YIELD col, …`) answered at the Bolt door with
 * Neo4j 5's columns: drivers and tools (consoles, LangChain's checks) ask it first, and
 * graphdb has one database, `neo4j`, also called `graphdb`, beside Neo4j's `system`.
 * Any other form (WHERE, RETURN) is left to the engine.
 */

import type { QueryResult } from '../../engine/types.js';
import type { Value } from '../../../runtime/values.js';

const SHOW = /^\s*SHOW\s+(?:(DEFAULT|HOME)\s+DATABASES?|DATABASES|DATABASE\s+(`[^`]+`|[A-Za-z][\w.-]*))(?:\s+YIELD\s+(\*|[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*))?\s*;?\s*$/i;

const COLUMNS = ['name', 'type', 'aliases', 'access', 'address', 'role', 'writer', 'requestedStatus', 'currentStatus', 'statusMessage', 'default', 'home', 'constituents'];

/** The listing `text` asks for, or undefined when it is not a SHOW DATABASE(S) this door answers. */
export function showDatabases(text: string, address: string): QueryResult | undefined {
  const m = SHOW.exec(text);
  if (!m) return undefined;
  const rows: Record<string, Value>[] = [
    { name: 'neo4j', type: 'standard', aliases: ['graphdb'], default: true, home: true },
    { name: 'system', type: 'system', aliases: [], default: false, home: false },
  ].map((r) => ({
    ...r,
    access: 'read-write', address, role: 'primary', writer: true,
    requestedStatus: 'online', currentStatus: 'online', statusMessage: '', constituents: [],
  }));
  const named = m[2]?.replace(/`/g, '').toLowerCase();
  const chosen = rows.filter((r) => (m[1] !== undefined ? r.default === true : named === undefined || r.name === named || (named === 'graphdb' && r.name === 'neo4j')));
  const yielded = m[3] === undefined || m[3] === '*' ? COLUMNS : m[3].split(',').map((c) => c.trim());
  const unknown = yielded.find((c) => !COLUMNS.includes(c));
  if (unknown !== undefined) return undefined;
  return {
    columns: yielded,
    records: chosen.map((r) => yielded.map((c) => r[c])),
    stats: { nodesCreated: 0, nodesDeleted: 0, relationshipsCreated: 0, relationshipsDeleted: 0, labelsAdded: 0, labelsRemoved: 0, propertiesSet: 0 },
    mutated: false,
    elapsedMs: 0,
  };
}
