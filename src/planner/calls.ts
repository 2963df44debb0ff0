/**
 * CALL and subquery bodies: `CALL { … }`, EXISTS, COUNT and COLLECT plan their body on an
 * Argument leaf (UNION inside as NestedUnion); `CALL { … }` joins it per row; procedure calls check their arguments against the
 * signature and bind the yielded columns.
 */

import type { Clause, Expr, Pos, Query, SingleQuery, SubqueryCallClause } from '../frontend/ast.js';
import { ProcedureError, QuerySemanticError, QuerySyntaxError } from '../errors.js';
import { procedureWrites, requiredInputs } from '../../procedures/registry.js';
import type { PlanContext } from './context.js';
import { containsAggregate } from './exprUtil.js';
import { estimateFilter, type FilterSubject } from './filter-selectivity.js';
import type { BoundExpr, PlanOp, Scope } from './plan.js';


/** A subquery body planned on an Argument leaf: its plan, its column names and the slot of each column. */
export interface PlannedBody {
  root: PlanOp;
  columns: string[];
  slots: string[];
}

/**
 * Plans the body of a subquery (`CALL { }`, EXISTS, COUNT, COLLECT) on an Argument leaf;
 * each UNION part starts with the scope `visibleFor` gives it. With UNION, the parts' rows
 * meet in a NestedUnion (de-duplicated unless UNION ALL) under fresh slots.
 */
export function planSubqueryBody(pl: PlanContext, query: Query, visibleFor: (part: SingleQuery) => Scope, pos: Pos, outer?: Scope): PlannedBody {
  const parts = query.parts.map((p) => pl.planPart(p.clauses, { op: 'Argument' }, visibleFor(p), false, outer));
  const columns = parts[0].columns;
  for (const p of parts) {
    if (p.columns.length !== columns.length || p.columns.some((col, i) => col !== columns[i])) {
      throw new QuerySemanticError('All sub queries in an UNION must have the same return column names', 'DifferentColumnsInUnion', pos);
    }
  }
  if (parts.length === 1) return { root: parts[0].root, columns, slots: columns.map((col) => parts[0].scope.get(col) as string) };
  const slots = columns.map((col) => pl.newSlot(col));
  const root: PlanOp = {
    op: 'NestedUnion',
    parts: parts.map((p) => ({ plan: p.root, slots: columns.map((col) => p.scope.get(col) as string) })),
    slots,
    all: query.unionAll.every((x) => x),
  };
  return { root, columns, slots };
}

/**
 * What a part of a `CALL { … }` body sees (Neo4j 5): the import list of `CALL (a, b) { }`,
 * everything for `CALL (*) { }`; without an import list, the outer variables reach only an
 * importing WITH at the start of the part — a part that does not start with WITH imports
 * nothing, so a name it shares with an outer variable is a new variable.
 */
function importedScope(c: SubqueryCallClause, scope: Scope): (part: SingleQuery) => Scope {
  if (Array.isArray(c.importing)) {
    const m = new Map<string, string>();
    for (const name of c.importing) {
      const slot = scope.get(name);
      if (slot === undefined) throw new QuerySemanticError(`Variable \`${name}\` not defined`, 'UndefinedVariable', c.pos);
      m.set(name, slot);
    }
    return () => m;
  }
  if (c.importing === '*') return () => scope;
  return (part) => (part.clauses[0]?.kind === 'With' ? scope : new Map());
}

export function planSubqueryCall(pl: PlanContext, c: SubqueryCallClause, input: PlanOp, scope: Scope): { op: PlanOp; scope: Scope } {
  const body = planSubqueryBody(pl, c.query, importedScope(c, scope), c.pos);
  const sc = new Map(scope);
  body.columns.forEach((col, i) => {
    const slot = body.slots[i];
    if (c.query.parts.length === 1 && scope.has(col) && scope.get(col) !== slot) {
      throw new QuerySemanticError(`Variable \`${col}\` already declared in outer scope`, 'VariableAlreadyBound', c.pos);
    }
    sc.set(col, slot);
  });
  return {
    op: { op: 'SubqueryApply', input, inner: body.root, unit: body.columns.length === 0, optional: c.optional, nullSlots: body.slots },
    scope: sc,
  };
}

export function planCall(
  pl: PlanContext,
  c: Extract<Clause, { kind: 'Call' }>,
  input: PlanOp,
  scope: Scope,
  standalone: boolean,
): { op: PlanOp; scope: Scope; columns?: string[] } {
  const proc = pl.procedures.get(c.procedure);
  if (!proc) {
    throw new ProcedureError(`There is no procedure with the name \`${c.procedure}\` registered`, 'ProcedureNotFound', 'compile', c.pos);
  }
  if (procedureWrites(proc)) pl.mutates = true;
  let args: BoundExpr[];
  if (c.args === undefined) {
    if (!standalone) {
      throw new QuerySemanticError(
        `Procedure call inside a query does not support passing arguments implicitly: pass them explicitly in parentheses`,
        'InvalidArgumentPassingMode',
        c.pos,
      );
    }
    // Implicit arguments come from parameters of the same names; defaulted inputs may be left out.
    args = proc.inputs.slice(0, requiredInputs(proc)).map((inp) => ({ expr: { kind: 'Param', name: inp.name, pos: c.pos }, scope }));
  } else {
    if (c.args.length < requiredInputs(proc) || c.args.length > proc.inputs.length) {
      throw new QuerySemanticError(
        `Procedure ${proc.name} takes ${proc.inputs.length} argument(s) but ${c.args.length} were given`,
        'InvalidNumberOfArguments',
        c.pos,
      );
    }
    args = c.args.map((expr) => {
      if (containsAggregate(expr)) throw new QuerySemanticError('Aggregations are not allowed as procedure arguments', 'InvalidAggregation', expr.pos);
      return { expr, scope };
    });
  }
  for (let i = 0; i < args.length; i++) checkLiteralArgType(args[i].expr, proc.inputs[i].type, proc.name);
  const sc = new Map(scope);
  const yields: { index: number; slot: string }[] = [];
  const columns: string[] = [];
  if (c.yields === undefined || c.yields === '*') {
    if (c.yields === undefined && !standalone && proc.outputs.length > 0) {
      throw new QuerySemanticError(
        `Procedure call inside a query must use YIELD to name its outputs`,
        'UndefinedVariable',
        c.pos,
      );
    }
    proc.outputs.forEach((o, index) => {
      const slot = pl.newSlot(o.name);
      yields.push({ index, slot });
      sc.set(o.name, slot);
      columns.push(o.name);
    });
  } else {
    for (const y of c.yields) {
      const index = proc.outputs.findIndex((o) => o.name === y.name);
      if (index < 0) {
        throw new QuerySemanticError(`Unknown procedure output: \`${y.name}\``, 'UndefinedVariable', y.pos);
      }
      const name = y.alias ?? y.name;
      if (scope.has(name)) {
        throw new QuerySemanticError(`Variable \`${name}\` already declared`, 'VariableAlreadyBound', y.pos);
      }
      const slot = pl.newSlot(name);
      yields.push({ index, slot });
      sc.set(name, slot);
      columns.push(name);
    }
  }
  let op: PlanOp = { op: 'ProcedureCall', input, procedure: proc, args, yields };
  if (c.where && proc.acceptsRowFilter) {
    const literals = args.map((a) => (a.expr.kind === 'Literal' ? a.expr.value : undefined));
    const subject = proc.rowFilterSubject?.(literals);
    const subjects = new Map<string, FilterSubject>();
    if (subject) {
      const y = c.yields === undefined || c.yields === '*' ? { name: subject.output, alias: undefined } : c.yields.find((x) => x.name === subject.output);
      if (y) subjects.set(y.alias ?? y.name, subject);
    }
    const { selectivity, basis } = estimateFilter(c.where, pl.stats, subjects);
    op.rowFilter = { predicate: { expr: c.where, scope: sc }, selectivity, basis, strategy: proc.describeRowFilter?.(literals, selectivity) };
  } else if (c.where) op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', bexpr: { expr: c.where, scope: sc } }] };
  return { op, scope: sc, columns };
}
/** A literal argument whose type evidently cannot fit the procedure's parameter is a compile-time TypeError. */
function checkLiteralArgType(e: Expr, type: string, proc: string): void {
if (e.kind !== 'Literal' || e.value === null) return;
const t = type.replace(/\?$/, '').toUpperCase();
const v = e.value;
const ok =
  t === 'ANY' ||
  (t === 'STRING' && typeof v === 'string') ||
  (t === 'INTEGER' && typeof v === 'bigint') ||
  (t === 'FLOAT' && (typeof v === 'number' || typeof v === 'bigint')) ||
  (t === 'NUMBER' && (typeof v === 'number' || typeof v === 'bigint')) ||
  (t === 'BOOLEAN' && typeof v === 'boolean') ||
  !['STRING', 'INTEGER', 'FLOAT', 'NUMBER', 'BOOLEAN'].includes(t);
if (!ok) {
  throw new QuerySyntaxError(`Wrong argument type for procedure ${proc}: expected ${type}`, e.pos, 'InvalidArgumentType');
}
}