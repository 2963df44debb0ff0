/**
 * The SQL shims of the PG layer (SPEC runtime rule 5). Tools that speak PostgreSQL send a
 * little SQL of their own — session settings, transaction brackets, version probes, catalog
 * queries — before or around the graph queries they are given. These are recognised here
 * and answered without the engine:
 *
 * | statement                                   | answer                                        |
 * |---------------------------------------------|-----------------------------------------------|
 * | `SET …`, `RESET …`                          | acknowledged, no effect                       |
 * | `BEGIN [READ ONLY]`, `START TRANSACTION`    | an engine transaction begins (transaction-block.ts); status 'T' |
 * | `COMMIT`, `END`, `ROLLBACK`, `ABORT`         | it commits or rolls back (outside a block: a warning) |
 * | `SHOW SERVER_VERSION` (and other reported settings) | one row, the engine version / setting   |
 * | `SELECT VERSION()`                          | one row, build information                     |
 * | `SELECT CURRENT_SCHEMA()`                   | one row, `public`                              |
 * | `SELECT <integer>`                          | one row, the integer (pooler health checks)   |
 * | `DISCARD ALL`                               | acknowledged; prepared statements and portals dropped |
 * | anything naming `pg_catalog`, `information_schema` or reading `FROM pg_…` | an empty result |
 *
 * Everything else is graph query language and goes to the engine.
 */

import { arch, platform, version as nodeVersion } from 'node:process';
import { intFromBigInt, type Value } from '../../../runtime/values.js';
import { Oid, type ColumnType } from './pg-types.js';

export type ShimEffect = 'begin' | 'commit' | 'rollback' | 'discard';

export interface ShimAnswer {
  tag: string;
  /** Present when the statement returns rows (possibly none). */
  columns?: { name: string; type: ColumnType }[];
  rows?: Value[][];
  effect?: ShimEffect;
  /** BEGIN … READ ONLY: the block is a read transaction. */
  readOnly?: boolean;
}

/** What the shims need to know about the server. */
export interface ShimContext {
  engineVersion: string;
  /** The settings reported with ParameterStatus at start-up, by lower-case name. */
  settings: ReadonlyMap<string, string>;
}

const oneText = (name: string, value: string): ShimAnswer => ({
  tag: 'SELECT 1',
  columns: [{ name, type: Oid.text }],
  rows: [[value]],
});

/** Build information for `SELECT VERSION()`. */
export function buildInfo(engineVersion: string): string {
  return `graphdb ${engineVersion} on ${arch}-${platform}, Node.js ${nodeVersion} (PostgreSQL wire protocol 3.0)`;
}

/** `BEGIN` with PostgreSQL's transaction modes (every isolation level runs as graphdb's: docs/TRANSACTIONS.md). */
const TRANSACTION_MODES = /^BEGIN(\s+(WORK|TRANSACTION))?(\s*,?\s*(ISOLATION\s+LEVEL\s+(SERIALIZABLE|REPEATABLE\s+READ|READ\s+COMMITTED|READ\s+UNCOMMITTED)|READ\s+ONLY|READ\s+WRITE|(NOT\s+)?DEFERRABLE))*$/;

/** The shim answer for a statement, or undefined when it is a graph query. */
export function matchShim(statement: string, ctx: ShimContext): ShimAnswer | undefined {
  const text = statement.trim().replace(/;+$/, '').trim();
  const upper = text.toUpperCase();
  const words = upper.split(/\s+/);
  const first = words[0];

  if (first === 'SET' || first === 'RESET') return { tag: first };
  if ((first === 'BEGIN' && (words.length <= 3 || TRANSACTION_MODES.test(upper))) || /^START\s+TRANSACTION\b/.test(upper)) {
    return { tag: 'BEGIN', effect: 'begin', readOnly: /\bREAD\s+ONLY\b/.test(upper) };
  }
  if ((first === 'COMMIT' || first === 'END') && words.length <= 2) return { tag: 'COMMIT', effect: 'commit' };
  if ((first === 'ROLLBACK' || first === 'ABORT') && words.length <= 2) return { tag: 'ROLLBACK', effect: 'rollback' };
  if (/^DISCARD\s+ALL$/.test(upper)) return { tag: 'DISCARD ALL', effect: 'discard' };

  if (first === 'SHOW') {
    const name = text.slice(4).trim().toLowerCase().replace(/\s+/g, ' ');
    if (name === 'server_version') return { tag: 'SHOW', columns: [{ name, type: Oid.text }], rows: [[ctx.engineVersion]] };
    const value = ctx.settings.get(name) ?? (name === 'transaction isolation level' ? 'serializable' : undefined);
    if (value !== undefined) return { tag: 'SHOW', columns: [{ name: name.replace(/ /g, '_'), type: Oid.text }], rows: [[value]] };
    return undefined;
  }

  if (/^SELECT\s+(PG_CATALOG\s*\.\s*)?VERSION\s*\(\s*\)$/.test(upper)) return oneText('version', buildInfo(ctx.engineVersion));
  if (/^SELECT\s+(PG_CATALOG\s*\.\s*)?CURRENT_SCHEMA(\s*\(\s*\))?$/.test(upper)) return oneText('current_schema', 'public');
  const int = /^SELECT\s+([+-]?\d{1,18})$/.exec(upper);
  if (int) return { tag: 'SELECT 1', columns: [{ name: '?column?', type: Oid.int8 }], rows: [[intFromBigInt(BigInt(int[1]))]] };

  if (/\b(PG_CATALOG|INFORMATION_SCHEMA)\b/.test(upper) || /\b(FROM|JOIN)\s+PG_\w+/.test(upper)) {
    return { tag: 'SELECT 0', columns: [], rows: [] };
  }
  return undefined;
}
