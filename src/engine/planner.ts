/**
 * The planner and cost-based optimizer: turns a query's AST into the physical plan of
 * codegen/plan.ts. It resolves variables to slots clause by clause, orders each MATCH
 * pattern by estimated cardinality (label counts, relationship-type fan-out, bound
 * variables, property predicates), pushes WHERE conjuncts down to the first operator that
 * binds their variables, splits projections into grouping and aggregation, and inserts
 * Eager barriers between writes and later reads so that openCypher's clause-at-a-time
 * semantics hold while read-only pipelines stay fused.
 */

import type {
  Clause,
  Expr,
  LabelExpr,
  MatchClause,
  NodePattern,
  PathPattern,
  Projection,
  Query,
  RelPattern,
  ReturnItem,
  QuantifiedGroup,
  SetItem,
  RemoveItem,
  Pos,
} from '../frontend/ast.js';
import type {
  BoundExpr,
  BoundRemoveItem,
  BoundSetItem,
  CreateElement,
  PlanOp,
  Predicate,
  Scope,
} from '../../codegen/plan.js';
import { QuerySemanticError, QuerySyntaxError, ProcedureError } from '../errors.js';
import { requiredInputs, type ProcedureRegistry } from '../../procedures/registry.js';
import {
  conjuncts,
  containsAggregate,
  exprEquals,
  findAggregates,
  freeVariables,
  isAggregateCall,
  patternVariables,
  rewriteExpr,
} from './exprUtil.js';

/** What the optimizer asks of the store. */
export interface Statistics {
  readonly nodeCount: number;
  readonly relCount: number;
  labelCount(label: string): number;
  typeCount(type: string): number;
  /** Whether a property index on (:label).key exists. */
  hasIndex(label: string, key: string): boolean;
  /** Estimated fraction of the label's nodes an equality seek returns. */
  indexSelectivity(label: string, key: string): number;
}

/** A way to find a pattern node other than scanning for it. */
type Seek =
  | { kind: 'id'; id: BoundExpr }
  | { kind: 'index'; label: string; key: string; equals?: BoundExpr; lower?: { bexpr: BoundExpr; inclusive: boolean }; upper?: { bexpr: BoundExpr; inclusive: boolean } };

/** Prefix of planner-made names; a space cannot occur in a user's unquoted name, and we never print these. */
const HIDDEN = ' ';

export function isHiddenName(name: string): boolean {
  return name.startsWith(HIDDEN);
}

interface PatternNode {
  slot: string;
  userName?: string;
  bound: boolean;
}

interface PatternRel {
  slot: string;
  from: PatternNode;
  to: PatternNode;
  pattern: RelPattern;
  types: string[];
  varLength: boolean;
  bound: boolean;
  /** A quantified group: expanded only left to right, by its own sub-plan. */
  group?: Omit<Extract<PlanOp, { op: 'GroupExpand' }>, 'input' | 'from' | 'to' | 'into'>;
  /** GQL WALK mode on the enclosing path. */
  walk?: boolean;
}

export class Planner {
  private slotCounter = 0;
  /** True once any clause writes. */
  mutates = false;

  constructor(
    private readonly stats: Statistics,
    private readonly procedures: ProcedureRegistry,
  ) {}

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
   * `top` is true, the final RETURN produces the output rows.
   */
  planPart(
    clauses: Clause[],
    input: PlanOp,
    scope: Scope,
    top: boolean,
  ): { root: PlanOp; columns: string[]; scope: Scope } {
    let op = input;
    let sc: Scope = scope;
    let readsBefore = false;
    let columns: string[] = [];
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i];
      const updating = isUpdating(c);
      if (updating && readsBefore) {
        op = { op: 'Eager', input: op, carry: liveSlots(sc) };
        readsBefore = false;
      }
      switch (c.kind) {
        case 'Match': {
          const next = clauses[i + 1];
          const distinctNext =
            next?.kind === 'With' && next.distinct && !next.star && !next.items.some((it) => containsAggregate(it.expr));
          ({ op, scope: sc } = this.planMatchClause(c, op, sc, distinctNext));
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
          ({ op, scope: sc, projected } = this.planProjectionWithColumns(c, op, sc, false));
          if (c.where) {
            // Without DISTINCT or aggregation each row still carries the variables bound before
            // the WITH; with them, WHERE may still name the projected expressions.
            const keepsRows = !c.distinct && !c.items.some((it) => containsAggregate(it.expr));
            const whereScope = new Map(keepsRows ? [...before, ...sc] : sc);
            const where = keepsRows ? c.where : rewriteProjected(c.where, projected, sc, whereScope);
            op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', bexpr: { expr: where, scope: whereScope } }] };
          }
          break;
        }
        case 'Return': {
          let cols: string[];
          ({ op, scope: sc, columns: cols } = this.planProjectionWithColumns(c, op, sc, true));
          columns = cols;
          if (top) op = { op: 'Produce', input: op, columns: cols.map((name) => ({ name, slot: sc.get(name) as string })) };
          break;
        }
        case 'Create':
          this.mutates = true;
          ({ op, scope: sc } = this.planCreate(c.patterns, op, sc));
          break;
        case 'Merge':
          this.mutates = true;
          ({ op, scope: sc } = this.planMerge(c, op, sc));
          readsBefore = true;
          break;
        case 'Set':
          this.mutates = true;
          op = { op: 'SetItems', input: op, items: c.items.map((it) => this.bindSetItem(it, sc)) };
          break;
        case 'Remove':
          this.mutates = true;
          op = { op: 'Remove', input: op, items: c.items.map((it) => this.bindRemoveItem(it, sc)) };
          break;
        case 'Delete':
          this.mutates = true;
          op = { op: 'Delete', input: op, detach: c.detach, targets: c.exprs.map((expr) => ({ expr, scope: sc })) };
          break;
        case 'Call': {
          let cols: string[] | undefined;
          ({ op, scope: sc, columns: cols } = this.planCall(c, op, sc, clauses.length === 1));
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
          ({ op, scope: sc } = this.planSubqueryCall(c, op, sc));
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

  // ------------------------------------------------------------ MATCH

  private planMatchClause(c: MatchClause, input: PlanOp, scope: Scope, distinctNext = false): { op: PlanOp; scope: Scope } {
    if (!c.optional) return this.planPatterns(c.patterns, c.where, input, scope, distinctNext);
    const inner = this.planPatterns(c.patterns, c.where, { op: 'Argument' }, scope);
    const nullSlots = [...inner.scope.entries()].filter(([k, v]) => scope.get(k) !== v).map(([, v]) => v);
    return { op: { op: 'Optional', input, inner: inner.op, nullSlots }, scope: inner.scope };
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
    const sc = new Map(scope);
    const nodes: PatternNode[] = [];
    const rels: PatternRel[] = [];
    const nodeByName = new Map<string, PatternNode>();
    const relByName = new Map<string, PatternRel>();
    const pending: { pred: Predicate; needs: string[] }[] = [];
    const paths: { slot: string; start: PatternNode; segments: PatternRel[]; name: string }[] = [];

    const nodeFor = (np: NodePattern): PatternNode => {
      let pn: PatternNode | undefined;
      if (np.variable !== undefined) {
        pn = nodeByName.get(np.variable);
        if (!pn) {
          const existing = scope.get(np.variable);
          if (existing !== undefined) {
            pn = { slot: existing, userName: np.variable, bound: true };
            pending.push({ pred: { kind: 'isNode', slot: existing }, needs: [existing] });
          } else {
            if (relByName.has(np.variable)) {
              throw new QuerySemanticError(
                `Variable \`${np.variable}\` already declared as a relationship`,
                'VariableTypeConflict',
                np.pos,
              );
            }
            pn = { slot: this.newSlot(np.variable), userName: np.variable, bound: false };
            sc.set(np.variable, pn.slot);
          }
          nodeByName.set(np.variable, pn);
          nodes.push(pn);
        }
      } else {
        pn = { slot: this.newSlot('anon'), bound: false };
        nodes.push(pn);
      }
      if (np.labels) {
        const simple = simpleLabels(np.labels);
        if (simple) {
          if (simple.length) pending.push({ pred: { kind: 'hasLabels', slot: pn.slot, labels: simple }, needs: [pn.slot] });
        } else {
          pending.push({ pred: { kind: 'labelExpr', slot: pn.slot, expr: np.labels }, needs: [pn.slot] });
        }
      }
      if (np.properties) this.addPropertyPredicates(pn.slot, np.properties, scope, sc, pending);
      if (np.where) pending.push(...this.exprPredicates(np.where, sc));
      return pn;
    };

    const shortests: Extract<PlanOp, { op: 'ShortestPath' }>[] = [];
    for (const p of patterns) {
      if (p.shortest) {
        shortests.push(this.shortestPathSpec(p, nodeFor, sc, pending));
        continue;
      }
      const start = nodeFor(p.start);
      let prev = start;
      const segs: PatternRel[] = [];
      for (const step of p.steps) {
        if (!('rel' in step)) {
          const next = nodeFor(step.node);
          const pr = this.planGroup(step.group, prev, next, scope, sc, nodeByName, relByName);
          rels.push(pr);
          segs.push(pr);
          prev = next;
          continue;
        }
        const rp = step.rel;
        const next = nodeFor(step.node);
        let slot: string;
        let bound = false;
        if (rp.variable !== undefined) {
          if (relByName.has(rp.variable)) {
            throw new QuerySemanticError(
              `Cannot use the same relationship variable '${rp.variable}' for multiple relationships`,
              'RelationshipUniquenessViolation',
              rp.pos,
            );
          }
          const existing = scope.get(rp.variable);
          if (existing !== undefined) {
            slot = existing;
            bound = true;
          } else {
            if (nodeByName.has(rp.variable)) {
              throw new QuerySemanticError(`Variable \`${rp.variable}\` already declared as a node`, 'VariableTypeConflict', rp.pos);
            }
            slot = this.newSlot(rp.variable);
            sc.set(rp.variable, slot);
          }
        } else {
          slot = this.newSlot('rel');
        }
        const simpleTypes = rp.types ? simpleTypeList(rp.types) : [];
        const pr: PatternRel = {
          slot,
          from: prev,
          to: next,
          pattern: rp,
          types: simpleTypes ?? [],
          varLength: rp.length !== undefined,
          bound,
          walk: p.mode === 'WALK',
        };
        if (rp.types && (!simpleTypes || bound)) pending.push({ pred: { kind: 'relType', slot, expr: rp.types }, needs: [slot] });
        if (rp.properties) {
          if (pr.varLength) {
            pending.push({
              pred: { kind: 'expr', bexpr: { expr: allRelsHaveProps(slot, rp.properties), scope: withBinding(scope, HIDDEN + slot, slot) } },
              needs: [slot],
            });
          } else {
            this.addPropertyPredicates(slot, rp.properties, scope, sc, pending);
          }
        }
        if (rp.where) pending.push(...this.exprPredicates(rp.where, sc));
        if (rp.variable !== undefined) relByName.set(rp.variable, pr);
        rels.push(pr);
        segs.push(pr);
        prev = next;
      }
      if (p.variable !== undefined || p.mode === 'ACYCLIC' || p.mode === 'SIMPLE') {
        if (p.variable !== undefined && (scope.has(p.variable) || nodeByName.has(p.variable) || relByName.has(p.variable))) {
          throw new QuerySemanticError(`Variable \`${p.variable}\` already declared`, 'VariableAlreadyBound', p.pos);
        }
        const slot = this.newSlot(p.variable ?? 'path');
        if (p.variable !== undefined) sc.set(p.variable, slot);
        paths.push({ slot, start, segments: segs, name: p.variable ?? '' });
        if (p.mode === 'ACYCLIC' || p.mode === 'SIMPLE') {
          pending.push({ pred: { kind: 'pathMode', slot, mode: p.mode }, needs: [slot] });
        }
      }
    }

    // Relationship isomorphism: every pair of relationships in this MATCH must differ.
    for (let i = 0; i < rels.length; i++) {
      for (let j = i + 1; j < rels.length; j++) {
        const a = rels[i];
        const b = rels[j];
        if (a.slot === b.slot) continue;
        pending.push({
          pred: { kind: 'relsDistinct', a: a.slot, aList: a.varLength, b: b.slot, bList: b.varLength },
          needs: [a.slot, b.slot],
        });
      }
    }
    if (where) pending.push(...this.exprPredicates(where, sc));

    // Greedy join ordering.
    const boundSlots = new Set<string>(scope.values());
    let op = input;
    const flush = () => {
      const ready: Predicate[] = [];
      for (let i = pending.length - 1; i >= 0; i--) {
        if (pending[i].needs.every((s) => boundSlots.has(s))) {
          ready.unshift(pending[i].pred);
          pending.splice(i, 1);
        }
      }
      if (ready.length) op = { op: 'Filter', input: op, predicates: ready };
    };
    flush();
    const remaining = new Set(rels);
    const isBound = (n: PatternNode) => boundSlots.has(n.slot);
    while (true) {
      // Bound relationship variables re-used from earlier clauses: check endpoints.
      let best: { rel: PatternRel; fromEnd: boolean; cost: number } | undefined;
      for (const r of remaining) {
        const fromBound = isBound(r.from);
        const toBound = isBound(r.to);
        if (!fromBound && !toBound) continue;
        if (r.group && !fromBound) continue;
        const cost = this.expandCost(r, fromBound ? r.to : r.from, fromBound && toBound);
        if (!best || cost < best.cost) best = { rel: r, fromEnd: !fromBound, cost };
        if (fromBound && toBound) {
          const c2 = cost * 0.5;
          if (c2 < best.cost) best = { rel: r, fromEnd: false, cost: c2 };
        }
      }
      if (best) {
        const r = best.rel;
        remaining.delete(r);
        const from = best.fromEnd ? r.to : r.from;
        const to = best.fromEnd ? r.from : r.to;
        const into = isBound(to);
        const direction = best.fromEnd ? flip(r.pattern.direction) : r.pattern.direction;
        if (r.group) {
          op = { ...r.group, op: 'GroupExpand', input: op, from: from.slot, to: to.slot, into };
        } else if (r.bound) {
          // A relationship bound earlier: check it joins the endpoints as the pattern says.
          op = {
            op: 'Filter',
            input: op,
            predicates: [
              {
                kind: 'expr',
                bexpr: relConnects(r, direction, from, to, into),
              },
            ],
          };
          if (!into) {
            op = {
              op: 'Project',
              input: op,
              items: [{ slot: to.slot, bexpr: otherEndExpr(r.slot, from.slot, direction) }],
            };
          }
        } else if (r.varLength) {
          const len = r.pattern.length ?? {};
          // With one anonymous variable-length relationship, no path and DISTINCT rows next,
          // only which nodes are reachable matters (see runtime distinctEnds: exact for min ≤ 1).
          const distinctEnds =
            distinctNext &&
            rels.length === 1 &&
            paths.length === 0 &&
            r.pattern.variable === undefined &&
            r.pattern.properties === undefined &&
            r.pattern.where === undefined &&
            !r.walk &&
            (len.min ?? 1) <= 1;
          op = {
            op: 'VarExpand',
            input: op,
            from: from.slot,
            rel: r.slot,
            to: to.slot,
            types: r.types,
            direction,
            min: len.min ?? 1,
            max: len.max ?? Number.POSITIVE_INFINITY,
            into,
            reversed: best.fromEnd,
            walk: r.walk,
            distinctEnds,
            estimate: best.cost,
          };
        } else {
          op = {
            op: 'Expand',
            input: op,
            from: from.slot,
            rel: r.slot,
            to: to.slot,
            types: r.types,
            direction,
            into,
            estimate: best.cost,
          };
        }
        boundSlots.add(r.slot);
        boundSlots.add(to.slot);
        flush();
        continue;
      }
      // Nothing to expand from: start a new component at the cheapest unbound node.
      let start: { node: PatternNode; cost: number; label?: string; seek?: Seek } | undefined;
      for (const n of nodes) {
        if (isBound(n)) continue;
        const { cost, label } = this.scanCost(n, pending);
        if (!start || cost < start.cost) start = { node: n, cost, label };
        const seek = this.bestSeek(n, pending, boundSlots);
        if (seek && seek.cost < start.cost) start = { node: n, cost: seek.cost, seek: seek.seek };
      }
      if (!start) break;
      const seek = start.seek;
      if (seek?.kind === 'id') {
        op = { op: 'NodeById', input: op, slot: start.node.slot, id: seek.id };
      } else if (seek?.kind === 'index') {
        dropScannedLabel(pending, start.node.slot, seek.label);
        op = {
          op: 'NodeIndexSeek',
          input: op,
          slot: start.node.slot,
          label: seek.label,
          key: seek.key,
          equals: seek.equals,
          lower: seek.lower,
          upper: seek.upper,
          estimate: start.cost,
        };
      } else {
        if (start.label !== undefined) dropScannedLabel(pending, start.node.slot, start.label);
        op = { op: 'NodeScan', input: op, slot: start.node.slot, label: start.label, estimate: start.cost };
      }
      boundSlots.add(start.node.slot);
      flush();
    }
    for (const sp of shortests) {
      op = { ...sp, input: op };
      boundSlots.add(sp.rel);
      boundSlots.add(sp.path);
      flush();
    }
    for (const p of paths) {
      op = {
        op: 'BuildPath',
        input: op,
        slot: p.slot,
        start: p.start.slot,
        segments: p.segments.map((s) => ({ slot: s.slot, list: s.varLength })),
      };
      boundSlots.add(p.slot);
      flush();
    }
    if (pending.length) {
      // Predicates over names this MATCH does not bind (e.g. outer variables) can run now.
      op = { op: 'Filter', input: op, predicates: pending.map((p) => p.pred) };
    }
    return { op, scope: sc };
  }

  /** The ShortestPath operator for `shortestPath((a)-[:T*..k]->(b))`; its endpoints are planned like other pattern nodes. */
  private shortestPathSpec(
    p: PathPattern,
    nodeFor: (np: NodePattern) => PatternNode,
    sc: Map<string, string>,
    pending: { pred: Predicate; needs: string[] }[],
  ): Extract<PlanOp, { op: 'ShortestPath' }> {
    const kind = p.shortest?.kind;
    if (p.steps.length !== 1 || !('rel' in p.steps[0]) || kind === undefined) {
      throw new QuerySemanticError(
        'shortestPath needs a pattern of exactly one relationship, e.g. shortestPath((a)-[:KNOWS*]-(b))',
        'InvalidShortestPath',
        p.pos,
      );
    }
    const rp = p.steps[0].rel;
    const from = nodeFor(p.start);
    const to = nodeFor(p.steps[0].node);
    const types = rp.types ? simpleTypeList(rp.types) : [];
    if (!types) throw new QuerySemanticError('shortestPath supports plain relationship types only', 'InvalidShortestPath', rp.pos);
    const rel = this.newSlot(rp.variable ?? 'rels');
    if (rp.variable !== undefined) sc.set(rp.variable, rel);
    const path = this.newSlot(p.variable ?? 'path');
    if (p.variable !== undefined) sc.set(p.variable, path);
    if (rp.properties) {
      pending.push({
        pred: { kind: 'expr', bexpr: { expr: allRelsHaveProps(rel, rp.properties), scope: withBinding(sc, HIDDEN + rel, rel) } },
        needs: [rel],
      });
    }
    const len = rp.length ?? { min: 1, max: 1 };
    return {
      op: 'ShortestPath',
      input: { op: 'Start' },
      from: from.slot,
      to: to.slot,
      rel,
      path,
      types,
      direction: rp.direction,
      min: len.min ?? 1,
      max: len.max ?? Number.POSITIVE_INFINITY,
      all: kind === 'allShortest',
      k: kind === 'shortestK' || kind === 'anyK' ? (p.shortest?.k ?? 1) : undefined,
    };
  }

  /**
   * A quantified group as an edge of the MATCH's join graph. Its inner path is planned as a
   * sub-plan whose start node is the repetition's current node; every element gets a slot
   * (anonymous ones a hidden name) so repetitions can be chained and their variables listed.
   */
  private planGroup(
    g: QuantifiedGroup,
    from: PatternNode,
    to: PatternNode,
    scope: Scope,
    sc: Map<string, string>,
    nodeByName: Map<string, PatternNode>,
    relByName: Map<string, PatternRel>,
  ): PatternRel {
    let hiddenCount = 0;
    const hidden = () => `${HIDDEN}g${this.slotCounter}_${hiddenCount++}`;
    const named = <T extends { variable?: string }>(x: T): T => (x.variable === undefined ? { ...x, variable: hidden() } : x);
    const inner: PathPattern = {
      ...g.path,
      variable: undefined,
      start: named(g.path.start),
      steps: g.path.steps.map((st) => ('rel' in st ? { rel: named(st.rel), node: named(st.node) } : st)),
    };
    const userVars = patternVariables(g.path);
    for (const v of userVars) {
      if (scope.has(v) || nodeByName.has(v) || relByName.has(v) || sc.has(v)) {
        throw new QuerySemanticError(`Variable \`${v}\` already declared; group variables must be new`, 'VariableAlreadyBound', g.pos);
      }
    }
    const innerStartName = inner.start.variable as string;
    const innerStart = this.newSlot(innerStartName);
    const innerScope = new Map(scope).set(innerStartName, innerStart);
    const planned = this.planPatterns([inner], g.where, { op: 'Argument' }, innerScope);
    const lastStep = inner.steps[inner.steps.length - 1];
    const innerEnd = planned.scope.get(lastStep.node.variable as string) as string;
    const innerRels = inner.steps.flatMap((st) => ('rel' in st ? [planned.scope.get(st.rel.variable as string) as string] : []));
    const groupVars = userVars.map((v) => {
      const outer = this.newSlot(v);
      sc.set(v, outer);
      return { inner: planned.scope.get(v) as string, outer };
    });
    const rels = this.newSlot('groupRels');
    return {
      slot: rels,
      from,
      to,
      pattern: { kind: 'RelPattern', direction: 'out', pos: g.pos },
      types: [],
      varLength: true,
      bound: false,
      group: {
        op: 'GroupExpand',
        min: g.min,
        max: g.max ?? Number.POSITIVE_INFINITY,
        inner: planned.op,
        innerStart,
        innerEnd,
        innerRels,
        groupVars,
        rels,
      },
    };
  }

  private addPropertyPredicates(
    slot: string,
    props: Expr,
    outer: Scope,
    sc: Map<string, string>,
    pending: { pred: Predicate; needs: string[] }[],
  ): void {
    // Property values are evaluated in the scope outside the pattern (plus what the pattern binds before).
    const scope = new Map(sc);
    const needs = [slot, ...[...freeVariables(props)].map((v) => scope.get(v)).filter((s): s is string => !!s)];
    void outer;
    pending.push({ pred: { kind: 'propMap', slot, map: { expr: props, scope } }, needs });
  }

  private exprPredicates(where: Expr, sc: Map<string, string>): { pred: Predicate; needs: string[] }[] {
    return conjuncts(where).map((expr) => {
      if (containsAggregate(expr)) {
        throw new QuerySemanticError('Invalid use of aggregating function in this context', 'InvalidAggregation', expr.pos);
      }
      const scope = new Map(sc);
      const needs = [...freeVariables(expr)].map((v) => scope.get(v)).filter((s): s is string => !!s);
      return { pred: { kind: 'expr', bexpr: { expr, scope } } as Predicate, needs };
    });
  }

  private labelSelectivity(n: PatternNode, pending: { pred: Predicate; needs: string[] }[]): { count: number; label?: string } {
    let best: { count: number; label?: string } = { count: this.stats.nodeCount };
    for (const p of pending) {
      if (p.pred.kind === 'hasLabels' && p.pred.slot === n.slot) {
        for (const l of p.pred.labels) {
          const c = this.stats.labelCount(l);
          if (c < best.count || best.label === undefined) best = { count: c, label: l };
        }
      }
    }
    return best;
  }

  /**
   * The cheapest seek for `n` that the pending predicates allow: `id(n) = e` (one node), an
   * index equality on an inline property or a WHERE equality, or an index range from WHERE
   * comparisons. Value expressions must only read what is already bound.
   */
  private bestSeek(
    n: PatternNode,
    pending: { pred: Predicate; needs: string[] }[],
    bound: ReadonlySet<string>,
  ): { seek: Seek; cost: number } | undefined {
    const ready = (needs: string[]) => needs.every((s) => s === n.slot || bound.has(s));
    const valueReady = (e: Expr, scope: Scope) =>
      [...freeVariables(e)].every((v) => {
        const slot = scope.get(v);
        return slot === undefined || (slot !== n.slot && bound.has(slot));
      });
    const labels = pending.flatMap((p) => (p.pred.kind === 'hasLabels' && p.pred.slot === n.slot ? p.pred.labels : []));
    let best: { seek: Seek; cost: number } | undefined;
    const consider = (seek: Seek, cost: number) => {
      if (!best || cost < best.cost) best = { seek, cost };
    };
    const rangeParts = new Map<string, { label: string; lower?: { bexpr: BoundExpr; inclusive: boolean }; upper?: { bexpr: BoundExpr; inclusive: boolean } }>();
    for (const p of pending) {
      if (!ready(p.needs)) continue;
      const pred = p.pred;
      if (pred.kind === 'propMap' && pred.slot === n.slot && pred.map.expr.kind === 'Map') {
        for (const en of pred.map.expr.entries) {
          if (!valueReady(en.value, pred.map.scope)) continue;
          for (const label of labels) {
            if (this.stats.hasIndex(label, en.key)) {
              const cost = Math.max(1, this.stats.labelCount(label) * this.stats.indexSelectivity(label, en.key));
              consider({ kind: 'index', label, key: en.key, equals: { expr: en.value, scope: pred.map.scope } }, cost);
            }
          }
        }
      }
      if (pred.kind !== 'expr') continue;
      const e = pred.bexpr.expr;
      const scope = pred.bexpr.scope;
      if (e.kind === 'Binary' && e.op === '=') {
        for (const [side, other] of [
          [e.left, e.right],
          [e.right, e.left],
        ]) {
          if (isIdOf(side, n, scope) && valueReady(other, scope)) consider({ kind: 'id', id: { expr: other, scope } }, 1);
          const key = propertyOf(side, n, scope);
          if (key !== undefined && valueReady(other, scope)) {
            for (const label of labels) {
              if (!this.stats.hasIndex(label, key)) continue;
              const cost = Math.max(1, this.stats.labelCount(label) * this.stats.indexSelectivity(label, key));
              consider({ kind: 'index', label, key, equals: { expr: other, scope } }, cost);
            }
          }
        }
      }
      if (e.kind === 'Binary' && (e.op === '<' || e.op === '<=' || e.op === '>' || e.op === '>=')) {
        for (const [side, other, flipped] of [
          [e.left, e.right, false],
          [e.right, e.left, true],
        ] as const) {
          const key = propertyOf(side, n, scope);
          if (key === undefined || !valueReady(other, scope)) continue;
          const label = labels.find((l) => this.stats.hasIndex(l, key));
          if (label === undefined) continue;
          const lowerOp = flipped ? e.op === '<' || e.op === '<=' : e.op === '>' || e.op === '>=';
          const inclusive = e.op === '<=' || e.op === '>=';
          const part = rangeParts.get(key) ?? { label };
          if (lowerOp) part.lower = { bexpr: { expr: other, scope }, inclusive };
          else part.upper = { bexpr: { expr: other, scope }, inclusive };
          rangeParts.set(key, part);
        }
      }
    }
    for (const [key, part] of rangeParts) {
      const fraction = part.lower && part.upper ? 0.1 : 0.3;
      consider({ kind: 'index', label: part.label, key, lower: part.lower, upper: part.upper }, Math.max(1, this.stats.labelCount(part.label) * fraction));
    }
    return best;
  }

  private scanCost(n: PatternNode, pending: { pred: Predicate; needs: string[] }[]): { cost: number; label?: string } {
    const { count, label } = this.labelSelectivity(n, pending);
    let cost = Math.max(count, 1);
    for (const p of pending) {
      if (p.pred.kind === 'propMap' && p.pred.slot === n.slot) cost = Math.max(1, cost * 0.1);
    }
    return { cost, label };
  }

  private expandCost(r: PatternRel, target: PatternNode, into: boolean): number {
    const nodes = Math.max(this.stats.nodeCount, 1);
    const relsOfTypes = r.types.length ? r.types.reduce((s, t) => s + this.stats.typeCount(t), 0) : this.stats.relCount;
    let fanout = relsOfTypes / nodes;
    if (r.pattern.direction === 'both') fanout *= 2;
    if (r.varLength) {
      const max = Math.min(r.pattern.length?.max ?? 5, 5);
      fanout = Math.pow(Math.max(fanout, 1.5), max);
    }
    if (into) return fanout * 0.5;
    return Math.max(fanout, 0.01) + 0.001 * (target.bound ? 0 : 1);
  }

  // ------------------------------------------------------------ projections

  private planProjection(p: Projection & { pos: Pos }, input: PlanOp, scope: Scope, isReturn: boolean) {
    const r = this.planProjectionWithColumns(p, input, scope, isReturn);
    return { op: r.op, scope: r.scope };
  }

  private planProjectionWithColumns(
    p: Projection & { pos: Pos },
    input: PlanOp,
    scope: Scope,
    isReturn: boolean,
  ): { op: PlanOp; scope: Scope; columns: string[]; projected: { name: string; slot: string; expr: Expr }[] } {
    const items: ReturnItem[] = [];
    if (p.star) {
      const names = [...scope.keys()].filter((n) => !isHiddenName(n)).sort();
      if (isReturn && names.length === 0 && p.items.length === 0) {
        throw new QuerySemanticError(
          `${isReturn ? 'RETURN' : 'WITH'} * is not allowed when there are no variables in scope`,
          'NoVariablesInScope',
          p.pos,
        );
      }
      for (const name of names) items.push({ expr: { kind: 'Var', name, pos: p.pos }, alias: name, text: name, pos: p.pos });
    }
    items.push(...p.items);
    const columns = items.map((it) => it.alias ?? it.text);
    const seen = new Set<string>();
    for (let i = 0; i < columns.length; i++) {
      if (seen.has(columns[i])) {
        throw new QuerySemanticError(
          `Multiple result columns with the same name \`${columns[i]}\` are not supported`,
          'ColumnNameConflict',
          items[i].pos,
        );
      }
      seen.add(columns[i]);
    }
    if (!isReturn) {
      for (const it of items) {
        if (it.alias === undefined && it.expr.kind !== 'Var') {
          throw new QuerySemanticError('Expression in WITH must be aliased (use AS)', 'NoExpressionAlias', it.pos);
        }
      }
    }

    const aggregating = items.some((it) => containsAggregate(it.expr));
    let op = input;
    const newScope = new Map<string, string>();
    const projected: { name: string; slot: string; expr: Expr }[] = [];

    if (!aggregating) {
      const projItems: { slot: string; bexpr: BoundExpr }[] = [];
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        const name = columns[i];
        let slot: string;
        if (it.expr.kind === 'Var' && scope.has(it.expr.name)) {
          slot = scope.get(it.expr.name) as string;
        } else {
          slot = this.newSlot(name);
          projItems.push({ slot, bexpr: { expr: it.expr, scope } });
        }
        newScope.set(name, slot);
        projected.push({ name, slot, expr: it.expr });
      }
      if (projItems.length) op = { op: 'Project', input: op, items: projItems };
    } else {
      const groups: { slot: string; bexpr: BoundExpr }[] = [];
      const aggregates: { slot: string; name: string; args: BoundExpr[]; distinct: boolean }[] = [];
      const aggSlots: { expr: Expr; slot: string }[] = [];
      const post: { slot: string; bexpr: BoundExpr }[] = [];
      const aggScope = new Map<string, string>();
      const aggVar = (e: Expr): Expr => {
        let found = aggSlots.find((a) => exprEquals(a.expr, e));
        if (!found) {
          const slot = this.newSlot('agg');
          found = { expr: e, slot };
          aggSlots.push(found);
          if (e.kind === 'CountStar') {
            aggregates.push({ slot, name: 'count(*)', args: [], distinct: false });
          } else if (e.kind === 'FunctionCall') {
            for (const a of e.args) {
              if (containsAggregate(a)) {
                throw new QuerySemanticError('Can\'t use aggregate functions inside of aggregate functions', 'NestedAggregation', a.pos);
              }
            }
            aggregates.push({
              slot,
              name: e.name.toLowerCase(),
              args: e.args.map((a) => ({ expr: a, scope })),
              distinct: e.distinct,
            });
          }
        }
        const hidden = HIDDEN + found.slot;
        aggScope.set(hidden, found.slot);
        return { kind: 'Var', name: hidden, pos: e.pos };
      };
      const groupItems: { name: string; slot: string; expr: Expr }[] = [];
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        const name = columns[i];
        if (!containsAggregate(it.expr)) {
          const slot = it.expr.kind === 'Var' && scope.has(it.expr.name) ? (scope.get(it.expr.name) as string) : this.newSlot(name);
          groups.push({ slot, bexpr: { expr: it.expr, scope } });
          groupItems.push({ name, slot, expr: it.expr });
          newScope.set(name, slot);
          projected.push({ name, slot, expr: it.expr });
        }
      }
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        const name = columns[i];
        if (containsAggregate(it.expr)) {
          // Non-aggregate parts of an aggregating expression must be grouping keys.
          const rewritten = rewriteExpr(it.expr, (x) => {
            if (isAggregateCall(x)) return aggVar(x);
            const g = groupItems.find((gi) => exprEquals(gi.expr, x));
            if (g) {
              const hidden = HIDDEN + g.slot;
              aggScope.set(hidden, g.slot);
              return { kind: 'Var', name: hidden, pos: x.pos };
            }
            return undefined;
          });
          for (const v of freeVariables(rewritten)) {
            if (!isHiddenName(v) && scope.has(v)) {
              throw new QuerySemanticError(
                `Aggregation column contains implicit grouping expressions: variable \`${v}\` is neither a grouping key nor aggregated`,
                'AmbiguousAggregationExpression',
                it.pos,
              );
            }
          }
          let slot: string;
          if (rewritten.kind === 'Var' && isHiddenName(rewritten.name)) {
            slot = aggScope.get(rewritten.name) as string;
          } else {
            slot = this.newSlot(name);
            post.push({ slot, bexpr: { expr: rewritten, scope: aggScope } });
          }
          newScope.set(name, slot);
          projected.push({ name, slot, expr: it.expr });
        }
      }
      op = { op: 'Aggregate', input: op, groups, aggregates };
      if (post.length) op = { op: 'Project', input: op, items: post };
      // ORDER BY may mention aggregates again: resolve them to the same slots.
      if (p.orderBy) {
        for (const s of p.orderBy) {
          for (const a of findAggregates(s.expr)) {
            if (!aggSlots.some((x) => exprEquals(x.expr, a)) && !projected.some((pr) => exprEquals(pr.expr, a))) {
              throw new QuerySemanticError(
                'Aggregation in ORDER BY must also be projected',
                'InvalidAggregation',
                s.pos,
              );
            }
          }
        }
      }
    }

    if (p.distinct) op = { op: 'Distinct', input: op, slots: projected.map((x) => x.slot) };

    if (p.orderBy && p.orderBy.length) {
      const limited = p.distinct || aggregating;
      const sortScope = new Map<string, string>(limited ? [] : scope);
      for (const [k, v] of newScope) sortScope.set(k, v);
      const keys = p.orderBy.map((s) => {
        const expr = rewriteProjected(s.expr, projected, newScope, sortScope);
        if (limited) {
          for (const v of freeVariables(expr)) {
            if (!sortScope.has(v) && scope.has(v)) {
              throw new QuerySemanticError(
                `In a ${isReturn ? 'RETURN' : 'WITH'} with DISTINCT or an aggregation, ORDER BY can only use projected expressions: \`${v}\` is not projected`,
                aggregating ? 'UndefinedVariable' : 'UndefinedVariable',
                s.pos,
              );
            }
          }
        }
        return { bexpr: { expr, scope: sortScope as Scope }, descending: s.descending };
      });
      const carry = uniq([...projected.map((x) => x.slot), ...(limited ? [] : [...scope.values()])]);
      const topK = p.limit
        ? { skip: p.skip ? this.constantCount(p.skip, 'SKIP') : undefined, limit: this.constantCount(p.limit, 'LIMIT') }
        : undefined;
      op = { op: 'Sort', input: op, keys, carry, topK };
    }
    if (p.skip) op = { op: 'Skip', input: op, count: this.constantCount(p.skip, 'SKIP') };
    if (p.limit) op = { op: 'Limit', input: op, count: this.constantCount(p.limit, 'LIMIT') };
    return { op, scope: newScope, columns, projected };
  }

  private constantCount(e: Expr, what: string): BoundExpr {
    const vars = freeVariables(e);
    if (vars.size > 0) {
      throw new QuerySemanticError(
        `It is not allowed to refer to variables in ${what}`,
        'NonConstantExpression',
        e.pos,
      );
    }
    return { expr: e, scope: new Map() };
  }

  // ------------------------------------------------------------ writes

  private planCreate(patterns: PathPattern[], input: PlanOp, scope: Scope): { op: PlanOp; scope: Scope } {
    const sc = new Map(scope);
    const elements = this.createElements(patterns, scope, sc);
    return { op: { op: 'Create', input, elements }, scope: sc };
  }

  private createElements(patterns: PathPattern[], scope: Scope, sc: Map<string, string>, forMerge = false): CreateElement[] {
    const elements: CreateElement[] = [];
    const createdHere = new Set<string>();
    const node = (np: NodePattern): string => {
      if (np.variable !== undefined && sc.has(np.variable)) {
        const slot = sc.get(np.variable) as string;
        const declared = scope.has(np.variable) || createdHere.has(np.variable);
        if (declared && (np.labels || np.properties)) {
          throw new QuerySemanticError(
            `Can't create node \`${np.variable}\` with labels or properties here. The variable is already declared in this context`,
            'VariableAlreadyBound',
            np.pos,
          );
        }
        if (scope.has(np.variable) && !createdHere.has(np.variable)) {
          elements.push({ kind: 'boundNode', slot });
          createdHere.add(np.variable);
        }
        return slot;
      }
      const slot = this.newSlot(np.variable ?? 'anon');
      if (np.variable !== undefined) {
        sc.set(np.variable, slot);
        createdHere.add(np.variable);
      }
      const labels = np.labels ? simpleLabels(np.labels) : [];
      if (!labels) throw new QuerySemanticError('Only plain labels can be used in CREATE', 'InvalidLabelExpression', np.pos);
      elements.push({ kind: 'node', slot, labels, props: np.properties && { expr: np.properties, scope: new Map(sc) } });
      return slot;
    };
    for (const p of patterns) {
      const start = node(p.start);
      let prev = start;
      const segs: string[] = [];
      for (const step of p.steps) {
        if (!('rel' in step)) throw new QuerySemanticError('Quantified patterns cannot be created', 'InvalidPattern', step.group.pos);
        const rp = step.rel;
        const next = node(step.node);
        if (rp.length) {
          throw new QuerySemanticError('Variable length relationships cannot be used in CREATE', 'CreatingVarLength', rp.pos);
        }
        const types = rp.types ? simpleTypeList(rp.types) : [];
        if (!types || types.length !== 1) {
          throw new QuerySemanticError(
            'A single relationship type must be specified for CREATE',
            'NoSingleRelationshipType',
            rp.pos,
          );
        }
        if (rp.direction === 'both' && !forMerge) {
          throw new QuerySemanticError(
            'Only directed relationships are supported in CREATE',
            'RequiresDirectedRelationship',
            rp.pos,
          );
        }
        if (rp.variable !== undefined && sc.has(rp.variable)) {
          throw new QuerySemanticError(
            `Can't create relationship \`${rp.variable}\`: the variable is already declared in this context`,
            'VariableAlreadyBound',
            rp.pos,
          );
        }
        const slot = this.newSlot(rp.variable ?? 'rel');
        if (rp.variable !== undefined) sc.set(rp.variable, slot);
        // MERGE on an undirected pattern creates the relationship left to right.
        const [from, to] = rp.direction === 'in' ? [next, prev] : [prev, next];
        elements.push({
          kind: 'rel',
          slot,
          type: types[0],
          from,
          to,
          props: rp.properties && { expr: rp.properties, scope: new Map(sc) },
        });
        segs.push(slot);
        prev = next;
      }
      if (p.variable !== undefined) {
        if (sc.has(p.variable)) {
          throw new QuerySemanticError(`Variable \`${p.variable}\` already declared`, 'VariableAlreadyBound', p.pos);
        }
        const slot = this.newSlot(p.variable);
        sc.set(p.variable, slot);
        elements.push({ kind: 'path', slot, start, segments: segs });
      }
    }
    return elements;
  }

  private planMerge(c: Extract<Clause, { kind: 'Merge' }>, input: PlanOp, scope: Scope): { op: PlanOp; scope: Scope } {
    for (const np of [c.pattern.start, ...c.pattern.steps.map((s) => s.node)]) {
      if (np.properties) assertNoNullLiteralProps(np.properties);
    }
    const matched = this.planPatterns([c.pattern], undefined, { op: 'Argument' }, scope);
    const createScope = new Map(scope);
    const create = this.createElements([c.pattern], scope, createScope, true);
    // Both sides must bind the same names to the same slots: align create slots onto match slots.
    const rename = new Map<string, string>();
    for (const [name, slot] of createScope) {
      const m = matched.scope.get(name);
      if (m !== undefined && m !== slot) rename.set(slot, m);
    }
    const renamed = create.map((el) => renameElement(el, rename));
    const slots = [...matched.scope.entries()].filter(([k, v]) => scope.get(k) !== v).map(([, v]) => v);
    const sc = matched.scope;
    return {
      op: {
        op: 'Merge',
        input,
        match: matched.op,
        create: renamed,
        onCreate: c.onCreate.map((it) => this.bindSetItem(it, sc)),
        onMatch: c.onMatch.map((it) => this.bindSetItem(it, sc)),
        slots,
      },
      scope: sc,
    };
  }

  private bindSetItem(it: SetItem, sc: Scope): BoundSetItem {
    switch (it.kind) {
      case 'SetProperty':
        return { kind: 'SetProperty', target: { expr: it.target, scope: sc }, key: it.key, value: { expr: it.value, scope: sc } };
      case 'SetDynamicProperty':
        return {
          kind: 'SetDynamicProperty',
          target: { expr: it.target, scope: sc },
          key: { expr: it.key, scope: sc },
          value: { expr: it.value, scope: sc },
        };
      case 'SetProperties':
        return { kind: 'SetProperties', slot: this.requireSlot(it.variable, sc, it.pos), value: { expr: it.value, scope: sc }, merge: it.merge };
      case 'SetLabels':
        return { kind: 'SetLabels', slot: this.requireSlot(it.variable, sc, it.pos), labels: it.labels };
    }
  }

  private bindRemoveItem(it: RemoveItem, sc: Scope): BoundRemoveItem {
    if (it.kind === 'RemoveProperty') return { kind: 'RemoveProperty', target: { expr: it.target, scope: sc }, key: it.key };
    return { kind: 'RemoveLabels', slot: this.requireSlot(it.variable, sc, it.pos), labels: it.labels };
  }

  private requireSlot(name: string, sc: Scope, pos: Pos): string {
    const slot = sc.get(name);
    if (slot === undefined) throw new QuerySemanticError(`Variable \`${name}\` not defined`, 'UndefinedVariable', pos);
    return slot;
  }

  // ------------------------------------------------------------ CALL { }

  private planSubqueryCall(
    c: Extract<Clause, { kind: 'SubqueryCall' }>,
    input: PlanOp,
    scope: Scope,
  ): { op: PlanOp; scope: Scope } {
    // Variables the subquery may read: the import list of `CALL (a, b) { }`, or (old form)
    // whatever its leading WITH names from the outer scope.
    let visible: Scope = scope;
    if (Array.isArray(c.importing)) {
      const m = new Map<string, string>();
      for (const name of c.importing) {
        const slot = scope.get(name);
        if (slot === undefined) throw new QuerySemanticError(`Variable \`${name}\` not defined`, 'UndefinedVariable', c.pos);
        m.set(name, slot);
      }
      visible = m;
    }
    const parts = c.query.parts.map((p) => this.planPart(p.clauses, { op: 'Argument' }, visible, false));
    const columns = parts[0].columns;
    const unit = columns.length === 0;
    for (const p of parts) {
      if (p.columns.length !== columns.length || p.columns.some((col, i) => col !== columns[i])) {
        throw new QuerySemanticError('All sub queries in an UNION must have the same return column names', 'DifferentColumnsInUnion', c.pos);
      }
    }
    const sc = new Map(scope);
    let inner: PlanOp;
    const newSlots: string[] = [];
    if (parts.length === 1) {
      inner = parts[0].root;
      for (const col of columns) {
        const slot = parts[0].scope.get(col) as string;
        if (scope.has(col) && scope.get(col) !== slot) {
          throw new QuerySemanticError(`Variable \`${col}\` already declared in outer scope`, 'VariableAlreadyBound', c.pos);
        }
        sc.set(col, slot);
        newSlots.push(slot);
      }
    } else {
      const slots = columns.map((col) => this.newSlot(col));
      inner = {
        op: 'NestedUnion',
        parts: parts.map((p) => ({ plan: p.root, slots: columns.map((col) => p.scope.get(col) as string) })),
        slots,
        all: c.query.unionAll.every((x) => x),
      };
      columns.forEach((col, i) => sc.set(col, slots[i]));
      newSlots.push(...slots);
    }
    return {
      op: { op: 'SubqueryApply', input, inner, unit, optional: c.optional, nullSlots: newSlots },
      scope: sc,
    };
  }

  // ------------------------------------------------------------ CALL

  private planCall(
    c: Extract<Clause, { kind: 'Call' }>,
    input: PlanOp,
    scope: Scope,
    standalone: boolean,
  ): { op: PlanOp; scope: Scope; columns?: string[] } {
    const proc = this.procedures.get(c.procedure);
    if (!proc) {
      throw new ProcedureError(`There is no procedure with the name \`${c.procedure}\` registered`, 'ProcedureNotFound', 'compile', c.pos);
    }
    if (proc.mode === 'write') this.mutates = true;
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
        const slot = this.newSlot(o.name);
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
        const slot = this.newSlot(name);
        yields.push({ index, slot });
        sc.set(name, slot);
        columns.push(name);
      }
    }
    let op: PlanOp = { op: 'ProcedureCall', input, procedure: proc, args, yields };
    if (c.where) op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', bexpr: { expr: c.where, scope: sc } }] };
    return { op, scope: sc, columns };
  }
}

// ------------------------------------------------------------ helpers

/** `id(n)` for the pattern node `n` (by its slot). */
function isIdOf(e: Expr, n: PatternNode, scope: Scope): boolean {
  return (
    e.kind === 'FunctionCall' &&
    e.name.toLowerCase() === 'id' &&
    e.args.length === 1 &&
    e.args[0].kind === 'Var' &&
    scope.get(e.args[0].name) === n.slot
  );
}

/** The key of `n.key` for the pattern node `n`, else undefined. */
function propertyOf(e: Expr, n: PatternNode, scope: Scope): string | undefined {
  if (e.kind === 'Property' && e.object.kind === 'Var' && scope.get(e.object.name) === n.slot) return e.key;
  return undefined;
}

/** A label scan guarantees its label: remove that label from the slot's pending label checks. */
function dropScannedLabel(pending: { pred: Predicate; needs: string[] }[], slot: string, label: string): void {
  for (let i = pending.length - 1; i >= 0; i--) {
    const p = pending[i].pred;
    if (p.kind !== 'hasLabels' || p.slot !== slot) continue;
    const rest = p.labels.filter((l) => l !== label);
    if (rest.length === 0) pending.splice(i, 1);
    else pending[i] = { pred: { ...p, labels: rest }, needs: pending[i].needs };
  }
}

/**
 * Replaces sub-expressions of `e` that equal a projected item's expression by a reference
 * to that item's slot (registered in `into` under a hidden name), so ORDER BY and WITH …
 * WHERE can name projected expressions after DISTINCT or aggregation.
 */
function rewriteProjected(
  e: Expr,
  projected: { slot: string; expr: Expr }[],
  newScope: Scope,
  into: Map<string, string>,
): Expr {
  return rewriteExpr(e, (x) => {
    const pr = projected.find((q) => exprEquals(q.expr, x));
    if (pr && !(x.kind === 'Var' && newScope.has(x.name))) {
      const hidden = HIDDEN + pr.slot;
      into.set(hidden, pr.slot);
      return { kind: 'Var', name: hidden, pos: x.pos };
    }
    return undefined;
  });
}

function isUpdating(c: Clause): boolean {
  return (
    c.kind === 'Create' ||
    c.kind === 'Merge' ||
    c.kind === 'Set' ||
    c.kind === 'Remove' ||
    c.kind === 'Delete' ||
    c.kind === 'Foreach' ||
    (c.kind === 'SubqueryCall' && clauseMutates(c))
  );
}

/** Whether a clause writes, looking inside subqueries and FOREACH bodies. */
function clauseMutates(c: Clause): boolean {
  if (c.kind === 'SubqueryCall') return c.query.parts.some((p) => p.clauses.some(clauseMutates));
  if (c.kind === 'Foreach') return true;
  return isUpdating(c);
}

function liveSlots(sc: Scope): string[] {
  return uniq([...sc.values()]);
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function withBinding(sc: Scope, name: string, slot: string): Scope {
  const m = new Map(sc);
  m.set(name, slot);
  return m;
}

function flip(d: 'out' | 'in' | 'both'): 'out' | 'in' | 'both' {
  return d === 'out' ? 'in' : d === 'in' ? 'out' : 'both';
}

/** The names of a label expression that is only `Label`s joined by `joiner`; undefined otherwise. */
function flatLabelList(e: LabelExpr, joiner: 'And' | 'Or'): string[] | undefined {
  if (e.kind === 'Label') return [e.name];
  if (e.kind !== joiner) return undefined;
  const out: string[] = [];
  for (const it of e.items) {
    const names = flatLabelList(it, joiner);
    if (!names) return undefined;
    out.push(...names);
  }
  return out;
}

/** `:A:B` as a list of labels; undefined when the expression is not a plain conjunction. */
export function simpleLabels(e: LabelExpr): string[] | undefined {
  return flatLabelList(e, 'And');
}

/** `:A|B` as a list of types; undefined when the expression is not a plain disjunction. */
function simpleTypeList(e: LabelExpr): string[] | undefined {
  return flatLabelList(e, 'Or');
}

function allRelsHaveProps(slot: string, props: Expr): Expr {
  // all(r IN <list> WHERE r matches props) — expressed with a hidden function understood by codegen.
  return {
    kind: 'FunctionCall',
    name: ' allRelsMatch',
    distinct: false,
    args: [{ kind: 'Var', name: HIDDEN + slot, pos: props.pos }, props],
    pos: props.pos,
  };
}

function relConnects(r: PatternRel, direction: 'out' | 'in' | 'both', from: PatternNode, to: PatternNode, into: boolean): BoundExpr {
  const scope = new Map<string, string>([
    [HIDDEN + 'r', r.slot],
    [HIDDEN + 'a', from.slot],
    [HIDDEN + 'b', to.slot],
  ]);
  const pos = r.pattern.pos;
  return {
    expr: {
      kind: 'FunctionCall',
      name: ' relConnects',
      distinct: false,
      args: [
        { kind: 'Var', name: HIDDEN + 'r', pos },
        { kind: 'Var', name: HIDDEN + 'a', pos },
        into ? { kind: 'Var', name: HIDDEN + 'b', pos } : { kind: 'Literal', value: null, pos },
        { kind: 'Literal', value: direction, pos },
      ],
      pos,
    },
    scope,
  };
}

function otherEndExpr(relSlot: string, fromSlot: string, direction: 'out' | 'in' | 'both'): BoundExpr {
  const pos = { line: 0, column: 0 };
  return {
    expr: {
      kind: 'FunctionCall',
      name: ' otherEnd',
      distinct: false,
      args: [
        { kind: 'Var', name: HIDDEN + 'r', pos },
        { kind: 'Var', name: HIDDEN + 'a', pos },
        { kind: 'Literal', value: direction, pos },
      ],
      pos,
    },
    scope: new Map([
      [HIDDEN + 'r', relSlot],
      [HIDDEN + 'a', fromSlot],
    ]),
  };
}

function renameElement(el: CreateElement, rename: Map<string, string>): CreateElement {
  const r = (s: string) => rename.get(s) ?? s;
  switch (el.kind) {
    case 'node':
    case 'boundNode':
      return { ...el, slot: r(el.slot) };
    case 'rel':
      return { ...el, slot: r(el.slot), from: r(el.from), to: r(el.to) };
    case 'path':
      return { ...el, slot: r(el.slot), start: r(el.start), segments: el.segments.map(r) };
  }
}

function assertNoNullLiteralProps(e: Expr): void {
  if (e.kind !== 'Map') return;
  for (const en of e.entries) {
    if (en.value.kind === 'Literal' && en.value.value === null) {
      // openCypher: MERGE cannot match or create a null property; raised when the value is null at run time too.
    }
  }
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
