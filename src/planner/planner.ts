/**
 * The planner: turns a query's AST into the operator tree of plan.ts. It resolves
 * variables to slots clause by clause (a user variable rebound by WITH gets a fresh slot)
 * and hands each clause to its stage — MATCH to match.ts and the optimizer driver
 * (optimizer.ts: cost-based join ordering, predicate push-down, seeks), projections to
 * projection.ts, writes to writes.ts, CALL to calls.ts — inserting Eager barriers between
 * writes and later reads (rules/eagerBarriers.ts) so that openCypher's clause-at-a-time
 * semantics hold while read-only pipelines stay fused.
 */

import type { Clause, Expr, PathPattern, Pos, Query } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';
import { procedureWrites, type ProcedureRegistry } from '../../procedures/registry.js';
import { planCall, planSubqueryBody, planSubqueryCall, type PlannedBody } from './calls.js';
import type { PlanContext, Statistics } from './context.js';
import { containsAggregate } from './exprUtil.js';
import { planMatchClause, planPatterns } from './match.js';
import { withBinding } from './names.js';
import type { PlanOp, Scope } from './plan.js';
import { planProjection, rewriteProjected } from './projection.js';
import { clauseMutates, isUpdating, liveSlots } from './rules/eagerBarriers.js';
import { bindRemoveItem, bindSetItem, planCreate, planMerge } from './writes.js';

export type { Statistics } from './context.js';
export { isHiddenName, simpleLabels } from './names.js';

export class Planner implements PlanContext {
  private slotCounter = 0;
  /** True once any clause writes. */
  mutates = false;

  constructor(
    readonly stats: Statistics,
    readonly procedures: ProcedureRegistry,
  ) {}

  get slotCount(): number {
    return this.slotCounter;
  }

  /** Slot → the name it was made for (a user variable, or a planner hint), for plan dumps. */
  readonly slotNames = new Map<string, string>();

  /** A fresh slot. Slot identifiers never contain user text; the hint is only remembered for EXPLAIN. */
  newSlot(hint: string): string {
    const slot = `v${this.slotCounter++}`;
    this.slotNames.set(slot, hint);
    return slot;
  }

  // ------------------------------------------------------------ queries

  planQuery(q: Query): { root: PlanOp; columns: string[] } {
    const parts = q.parts.map((p) => this.planPart(p.clauses, { op: 'Start' }, new Map(), true));
    if (parts.length === 1) return { root: parts[0].root, columns: parts[0].columns };
    const columns = parts[0].columns;
    for (const p of parts) {
      if (p.columns.length !== columns.length || p.columns.some((c, i) => c !== columns[i])) {
        throw new QuerySemanticError(
          'All sub queries in an UNION must have the same return column names',
          'DifferentColumnsInUnion',
          q.pos,
        );
      }
    }
    // A mix of UNION and UNION ALL is not allowed by openCypher; the semantic checker reports it.
    const all = q.unionAll.every((x) => x);
    return { root: { op: 'Union', parts: parts.map((p) => p.root), all, columns }, columns };
  }

  /**
   * Plans the clauses of one single query on top of `input` with `scope` visible. When
   * `top` is true, the final RETURN produces the output rows. `outer`, for the body of an
   * EXISTS, COUNT or COLLECT subquery, stays visible past every WITH of the body (Neo4j's
   * rule: such a body sees the enclosing variables throughout, WITH projects only its own).
   */
  planPart(
    clauses: Clause[],
    input: PlanOp,
    scope: Scope,
    top: boolean,
    outer?: Scope,
  ): { root: PlanOp; columns: string[]; scope: Scope } {
    let op = input;
    let sc: Scope = scope;
    let readsBefore = false;
    let columns: string[] = [];
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i];
      // A CALL of a WRITE/SCHEMA procedure is an updating clause too (Eager barriers around it).
      const proc = c.kind === 'Call' ? this.procedures.get(c.procedure) : undefined;
      const updating = isUpdating(c) || (proc !== undefined && procedureWrites(proc));
      if (updating && readsBefore) {
        op = { op: 'Eager', input: op, carry: liveSlots(sc) };
        readsBefore = false;
      }
      switch (c.kind) {
        case 'Match': {
          const next = clauses[i + 1];
          const distinctNext =
            next?.kind === 'With' && next.distinct && !next.star && !next.items.some((it) => containsAggregate(it.expr));
          ({ op, scope: sc } = planMatchClause(this, c, op, sc, distinctNext));
          readsBefore = true;
          break;
        }
        case 'Unwind': {
          const slot = this.newSlot(c.variable);
          op = { op: 'Unwind', input: op, bexpr: { expr: c.expr, scope: sc }, slot };
          sc = withBinding(sc, c.variable, slot);
          break;
        }
        case 'With': {
          const before = sc;
          let projected: { slot: string; expr: Expr }[];
          ({ op, scope: sc, projected } = planProjection(this, c, op, sc, false));
          if (c.where) {
            // Without DISTINCT or aggregation each row still carries the variables bound before
            // the WITH; with them, WHERE may still name the projected expressions.
            const keepsRows = !c.distinct && !c.items.some((it) => containsAggregate(it.expr));
            const whereScope = new Map(keepsRows ? [...before, ...sc] : sc);
            const where = keepsRows ? c.where : rewriteProjected(c.where, projected, sc, whereScope);
            op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', bexpr: { expr: where, scope: whereScope } }] };
          }
          // Without this, a later MATCH on an outer variable bound a new one and matched (and counted) every row.
          if (outer) sc = new Map([...outer, ...sc]);
          break;
        }
        case 'Return': {
          let cols: string[];
          ({ op, scope: sc, columns: cols } = planProjection(this, c, op, sc, true));
          columns = cols;
          if (top) op = { op: 'Produce', input: op, columns: cols.map((name) => ({ name, slot: sc.get(name) as string })) };
          break;
        }
        case 'Create':
          this.mutates = true;
          ({ op, scope: sc } = planCreate(this, c.patterns, op, sc));
          break;
        case 'Merge':
          this.mutates = true;
          ({ op, scope: sc } = planMerge(this, c, op, sc));
          readsBefore = true;
          break;
        case 'Set':
          this.mutates = true;
          op = { op: 'SetItems', input: op, items: c.items.map((it) => bindSetItem(it, sc)) };
          break;
        case 'Remove':
          this.mutates = true;
          op = { op: 'Remove', input: op, items: c.items.map((it) => bindRemoveItem(it, sc)) };
          break;
        case 'Delete':
          this.mutates = true;
          op = { op: 'Delete', input: op, detach: c.detach, targets: c.exprs.map((expr) => ({ expr, scope: sc })) };
          break;
        case 'Call': {
          let cols: string[] | undefined;
          ({ op, scope: sc, columns: cols } = planCall(this, c, op, sc, clauses.length === 1));
          if (cols && top && clauses.length === 1) {
            columns = cols;
            op = { op: 'Produce', input: op, columns: cols.map((name) => ({ name, slot: sc.get(name) as string })) };
          }
          readsBefore = true;
          break;
        }
        case 'Filter':
          op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', bexpr: { expr: c.where, scope: sc } }] };
          break;
        case 'LoadCsv': {
          const slot = this.newSlot(c.variable);
          op = { op: 'LoadCsv', input: op, url: { expr: c.url, scope: sc }, withHeaders: c.withHeaders, fieldTerminator: c.fieldTerminator, slot };
          sc = withBinding(sc, c.variable, slot);
          break;
        }
        case 'Let': {
          const items = c.bindings.map((b) => ({ slot: this.newSlot(b.variable), bexpr: { expr: b.expr, scope: sc } }));
          op = { op: 'Project', input: op, items };
          c.bindings.forEach((b, j) => (sc = withBinding(sc, b.variable, items[j].slot)));
          break;
        }
        case 'SubqueryCall': {
          if (clauseMutates(c)) this.mutates = true;
          ({ op, scope: sc } = planSubqueryCall(this, c, op, sc));
          readsBefore = true;
          break;
        }
        case 'Foreach': {
          this.mutates = true;
          const slot = this.newSlot(c.variable);
          const innerScope = withBinding(sc, c.variable, slot);
          const inner = this.planPart(c.clauses, { op: 'Argument' }, innerScope, false);
          op = { op: 'Foreach', input: op, slot, bexpr: { expr: c.source, scope: sc }, inner: inner.root };
          break;
        }
        default:
          throw new QuerySemanticError(`${c.kind} is not supported yet`, 'UnsupportedClause', c.pos);
      }
      if (updating) {
        // Later clauses that read (MERGE reads before it writes) must see every row's writes.
        const rest = clauses.slice(i + 1);
        if (rest.some((r) => !isUpdating(r) || r.kind === 'Merge')) {
          op = { op: 'Eager', input: op, carry: liveSlots(sc) };
        }
      }
    }
    const last = clauses[clauses.length - 1];
    if (top && last && last.kind !== 'Return' && !(last.kind === 'Call' && clauses.length === 1)) {
      op = { op: 'Discard', input: op };
    }
    return { root: op, columns, scope: sc };
  }

  /**
   * Plans the matching of `patterns` (one MATCH) on top of `input`: chooses where to start
   * and in which order to expand by estimated cardinality, then places each predicate as
   * early as its variables allow.
   */
  planPatterns(
    patterns: PathPattern[],
    where: Expr | undefined,
    input: PlanOp,
    scope: Scope,
    /** The rows are de-duplicated right after this MATCH (`WITH DISTINCT …`). */
    distinctNext = false,
  ): { op: PlanOp; scope: Scope } {
    return planPatterns(this, patterns, where, input, scope, distinctNext);
  }

  /**
   * Plans the body of an EXISTS, COUNT or COLLECT subquery, which sees every variable of
   * `scope`, on an Argument leaf (UNION parts meet in a NestedUnion).
   */
  planExpressionSubquery(query: Query, scope: Scope, pos: Pos): PlannedBody {
    return planSubqueryBody(this, query, () => scope, pos, scope);
  }
}
