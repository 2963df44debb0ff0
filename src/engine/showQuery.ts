/**
 * SHOW commands with Neo4j 5's `YIELD … WHERE … RETURN` tail. The listing itself stays a
 * schema command; its tail becomes an ordinary query over the listed rows —
 * `UNWIND <rows> AS row WITH row.c1 AS c1, … <tail> [RETURN <yielded columns>]` — so it
 * gets the engine's own projection, filtering, ordering and aggregation. The rows travel as
 * a parameter, and the row variable has a name, that user text cannot spell.
 */

import type { Clause, Expr, Query, ShowCommand } from '../frontend/ast.js';
import type { Value } from '../../runtime/values.js';

/** The parameter that carries the listed rows (a leading space: no user parameter can have this name). */
export const SHOW_ROWS_PARAM = ' showRows';
const ROW = ' row';

/** The query that runs `tail` over rows with the given `columns`. */
export function showTailQuery(show: ShowCommand, tail: NonNullable<ShowCommand['tail']>, columns: string[], defaults: string[]): Query {
  const pos = show.pos;
  const variable = (name: string): Expr => ({ kind: 'Var', name, pos });
  const clauses: Clause[] = [
    { kind: 'Unwind', expr: { kind: 'Param', name: SHOW_ROWS_PARAM, pos }, variable: ROW, pos },
    {
      kind: 'With',
      distinct: false,
      star: false,
      items: columns.map((c) => ({ expr: { kind: 'Property', object: variable(ROW), key: c, pos }, alias: c, text: c, pos })),
      pos,
    },
    ...tail.clauses,
  ];
  if (clauses[clauses.length - 1].kind !== 'Return') {
    const names = tail.yielded === '*' ? columns : tail.yielded === 'default' ? defaults : tail.yielded;
    clauses.push({ kind: 'Return', distinct: false, star: false, items: names.map((n) => ({ expr: variable(n), alias: n, text: n, pos })), pos });
  }
  return { kind: 'Query', parts: [{ kind: 'SingleQuery', clauses, pos }], unionAll: [], pos };
}

/** The listed rows as the list of maps the tail query unwinds. */
export function showRows(listing: { columns: string[]; records: Value[][] }): Value {
  return listing.records.map((r) => new Map(listing.columns.map((c, i) => [c, r[i]])));
}
