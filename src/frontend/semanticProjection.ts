/**
 * WITH and RETURN: projected columns and their names, the grouping rule for aggregating
 * projections, what ORDER BY and WITH … WHERE may see (projected names, and the names
 * before the projection when it neither aggregates nor de-duplicates), SKIP and LIMIT.
 */

import type { Expr, Pos, ReturnClause, ReturnItem, SortItem, WithClause } from './ast.js';
import { QuerySemanticError } from '../errors.js';
import { containsAggregate, exprChildren, exprEquals, isAggregate, semantic } from './semanticHelpers.js';
import { ExpressionChecker } from './semanticExpressions.js';
import type { Scope } from './semanticScope.js';
import { isOneOf, typeName, type StaticType } from './semanticTypes.js';

/** A projected column: its name and the expression it was computed from. */
interface Column {
  name: string;
  expr: Expr;
  type: StaticType;
}

export abstract class ProjectionChecker extends ExpressionChecker {
  protected projection(c: WithClause | ReturnClause, scopeIn: Scope): { scope: Scope; columns?: string[] } {
    const clause = c.kind === 'With' ? 'WITH' : 'RETURN';
    if (c.kind === 'Return' && c.star && c.items.length === 0 && scopeIn.size === 0) {
      semantic('NoVariablesInScope', 'RETURN * is not allowed when there are no variables in scope', c.pos);
    }
    const columns: Column[] = [];
    const seen = new Set<string>();
    for (const item of c.items) {
      this.aggregates(item.expr, true, clause);
      const type = this.expr(item.expr, scopeIn);
      const name = columnName(item);
      if (seen.has(name)) {
        semantic('ColumnNameConflict', `Multiple result columns are named \`${name}\`; give them distinct names with AS`, item.pos);
      }
      seen.add(name);
      columns.push({ name, expr: item.expr, type });
    }
    const aggregating = c.items.some((item) => containsAggregate(item.expr));

    // Grouping keys: the projected expressions that do not aggregate (and, for `*`, every variable).
    const starVars = c.star ? [...scopeIn.keys()] : [];
    const groupingKeys: Expr[] = [
      ...columns.filter((col) => !containsAggregate(col.expr)).map((col) => col.expr),
      ...starVars.map((name): Expr => ({ kind: 'Var', name, pos: c.pos })),
    ];
    if (aggregating) {
      for (const col of columns) {
        if (containsAggregate(col.expr)) this.checkGrouping(col.expr, groupingKeys);
      }
    }

    const projected: Scope = c.star ? new Map(scopeIn) : new Map();
    for (const col of columns) projected.set(col.name, { type: col.type });
    const restricted = aggregating || c.distinct;
    const seeBoth = (): Scope => {
      const merged = new Map(scopeIn);
      for (const [k, v] of projected) merged.set(k, v);
      return merged;
    };

    for (const s of c.orderBy ?? []) this.sortItem(s, aggregating, restricted, columns, groupingKeys, projected, seeBoth);

    if (c.kind === 'With' && c.where) {
      this.noAggregates(c.where, 'WHERE');
      if (restricted) this.predicate(substituteProjected(c.where, columns), projected, 'WHERE');
      else this.predicate(c.where, seeBoth(), 'WHERE');
    }
    if (c.skip) this.skipLimit(c.skip, 'SKIP');
    if (c.limit) this.skipLimit(c.limit, 'LIMIT');
    if (c.kind === 'With') {
      for (const item of c.items) {
        if (item.alias === undefined && item.expr.kind !== 'Var') {
          semantic('NoExpressionAlias', `Expression \`${item.text}\` in WITH must be aliased (use AS)`, item.pos);
        }
      }
    }

    const names = [...(c.star ? [...scopeIn.keys()].sort() : []), ...columns.map((col) => col.name)];
    return { scope: projected, columns: c.kind === 'Return' ? names : undefined };
  }

  protected sortItem(
    s: SortItem,
    aggregating: boolean,
    restricted: boolean,
    columns: Column[],
    groupingKeys: Expr[],
    projected: Scope,
    seeBoth: () => Scope,
  ): void {
    if (!aggregating) {
      if (containsAggregate(s.expr)) {
        const agg = findAggregate(s.expr) ?? s.expr;
        semantic(
          'InvalidAggregation',
          'ORDER BY cannot use an aggregate function unless the projection before it aggregates',
          agg.pos,
        );
      }
      if (restricted) this.expr(substituteProjected(s.expr, columns), projected);
      else this.expr(s.expr, seeBoth());
      return;
    }
    this.aggregates(s.expr, true, 'ORDER BY');
    // After an aggregation only projected names (and the projected expressions themselves) remain.
    this.expr(substituteProjected(s.expr, columns), projected);
    if (containsAggregate(s.expr)) {
      const keys = [...groupingKeys, ...columns.map((col): Expr => ({ kind: 'Var', name: col.name, pos: s.pos }))];
      this.checkGrouping(s.expr, keys);
    }
  }

  protected skipLimit(e: Expr, what: 'SKIP' | 'LIMIT'): void {
    let t: StaticType;
    try {
      t = this.expr(e, new Map());
    } catch (err) {
      if (err instanceof QuerySemanticError && err.detail === 'UndefinedVariable') {
        semantic('NonConstantExpression', `${what} must be a constant expression; it cannot refer to variables`, e.pos);
      }
      throw err;
    }
    if (containsAggregate(e)) {
      semantic('NonConstantExpression', `${what} must be a constant expression; it cannot aggregate`, e.pos);
    }
    const negative =
      (e.kind === 'Literal' && typeof e.value === 'bigint' && e.value < 0n) ||
      (e.kind === 'Unary' &&
        e.op === '-' &&
        e.operand.kind === 'Literal' &&
        typeof e.operand.value === 'bigint' &&
        e.operand.value > 0n);
    if (negative) {
      semantic('NegativeIntegerArgument', `${what} must be a non-negative integer`, e.pos);
    }
    if (isOneOf(t, ['float', 'string', 'boolean', 'list', 'map', 'node', 'relationship', 'path'])) {
      semantic('InvalidArgumentType', `${what} must be an integer, not a value of type ${typeName(t)}`, e.pos);
    }
  }
}

/** The name of a projected column: its alias, the variable's name, or the expression's text. */
function columnName(item: ReturnItem): string {
  if (item.alias !== undefined) return item.alias;
  if (item.expr.kind === 'Var') return item.expr.name;
  return item.text;
}

function findAggregate(e: Expr): Expr | undefined {
  if (isAggregate(e)) return e;
  for (const child of exprChildren(e)) {
    const found = findAggregate(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * Rewrites `expr` so that every sub-expression equal to a projected expression becomes a
 * reference to that column: after `RETURN DISTINCT a.name`, `ORDER BY a.name` is the column.
 */
function substituteProjected(expr: Expr, columns: Column[]): Expr {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (typeof record.kind === 'string' && record.pos !== undefined) {
      const match = columns.find((col) => exprEquals(col.expr, record));
      if (match) return { kind: 'Var', name: match.name, pos: record.pos as Pos } satisfies Expr;
    }
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(record)) out[key] = key === 'pos' ? v : rewrite(v);
    return out;
  };
  return rewrite(expr) as Expr;
}

