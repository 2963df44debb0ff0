/**
 * MATCH planning: turns the patterns of one MATCH (or of a pattern predicate, pattern
 * comprehension or MERGE) into a pattern graph — nodes and relationships with their slots,
 * the predicates they imply (labels, types, property maps, relationship uniqueness, path
 * modes), shortest paths, quantified groups and named paths — and hands it to the
 * optimizer driver. OPTIONAL MATCH wraps the result.
 */

import type { Expr, MatchClause, NodePattern, PathPattern, QuantifiedGroup } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';
import { relationshipUniqueness } from '../engine/rel-uniqueness.js';
import type { PatternNode, PatternRel, PendingPredicate, PlanContext } from './context.js';
import { patternVariables } from './exprUtil.js';
import { HIDDEN, simpleLabels, simpleTypeList, withBinding } from './names.js';
import { plainPatterns } from './dynamic-labels.js';
import { orderJoins } from './optimizer.js';
import { allRelsHaveProps } from './patternExprs.js';
import type { PlanOp, Scope } from './plan.js';
import { addPropertyPredicates, exprPredicates } from './rules/predicatePushdown.js';

export function planMatchClause(pl: PlanContext, c: MatchClause, input: PlanOp, scope: Scope, distinctNext = false): { op: PlanOp; scope: Scope } {
  if (!c.optional) return pl.planPatterns(c.patterns, c.where, input, scope, distinctNext);
  const inner = pl.planPatterns(c.patterns, c.where, { op: 'Argument' }, scope);
  const nullSlots = [...inner.scope.entries()].filter(([k, v]) => scope.get(k) !== v).map(([, v]) => v);
  return { op: { op: 'Optional', input, inner: inner.op, nullSlots }, scope: inner.scope };
}
/**
 * Plans the matching of `patterns` (one MATCH) on top of `input`: chooses where to start
 * and in which order to expand by estimated cardinality, then places each predicate as
 * early as its variables allow.
 */
export function planPatterns(
  pl: PlanContext,
  patterns: PathPattern[],
  where: Expr | undefined,
  input: PlanOp,
  scope: Scope,
  /** The rows are de-duplicated right after this MATCH (`WITH DISTINCT …`). */
  distinctNext = false,
): { op: PlanOp; scope: Scope } {
  let dynamicCount = 0;
  patterns = plainPatterns(patterns, () => `${HIDDEN}dyn${pl.slotCount}_${dynamicCount++}`);
  const sc = new Map(scope);
  const nodes: PatternNode[] = [];
  const rels: PatternRel[] = [];
  const nodeByName = new Map<string, PatternNode>();
  const relByName = new Map<string, PatternRel>();
  const pending: PendingPredicate[] = [];
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
          pn = { slot: pl.newSlot(np.variable), userName: np.variable, bound: false };
          sc.set(np.variable, pn.slot);
        }
        nodeByName.set(np.variable, pn);
        nodes.push(pn);
      }
    } else {
      pn = { slot: pl.newSlot('anon'), bound: false };
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
    if (np.properties) addPropertyPredicates(pn.slot, np.properties, scope, sc, pending);
    if (np.where) pending.push(...exprPredicates(np.where, sc));
    return pn;
  };

  const shortests: Extract<PlanOp, { op: 'ShortestPath' }>[] = [];
  for (const p of patterns) {
    if (p.shortest) {
      shortests.push(shortestPathSpec(pl, p, nodeFor, sc, pending));
      continue;
    }
    const start = nodeFor(p.start);
    let prev = start;
    const segs: PatternRel[] = [];
    for (const step of p.steps) {
      if (!('rel' in step)) {
        const next = nodeFor(step.node);
        const pr = planGroup(pl, step.group, prev, next, scope, sc, nodeByName, relByName);
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
          slot = pl.newSlot(rp.variable);
          sc.set(rp.variable, slot);
        }
      } else {
        slot = pl.newSlot('rel');
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
          addPropertyPredicates(slot, rp.properties, scope, sc, pending);
        }
      }
      if (rp.where) pending.push(...exprPredicates(rp.where, sc));
      if (rp.variable !== undefined) relByName.set(rp.variable, pr);
      rels.push(pr);
      segs.push(pr);
      prev = next;
    }
    if (p.variable !== undefined || p.mode === 'ACYCLIC' || p.mode === 'SIMPLE') {
      if (p.variable !== undefined && (scope.has(p.variable) || nodeByName.has(p.variable) || relByName.has(p.variable))) {
        throw new QuerySemanticError(`Variable \`${p.variable}\` already declared`, 'VariableAlreadyBound', p.pos);
      }
      const slot = pl.newSlot(p.variable ?? 'path');
      if (p.variable !== undefined) sc.set(p.variable, slot);
      paths.push({ slot, start, segments: segs, name: p.variable ?? '' });
      if (p.mode === 'ACYCLIC' || p.mode === 'SIMPLE') {
        pending.push({ pred: { kind: 'pathMode', slot, mode: p.mode }, needs: [slot] });
      }
    }
  }

  // Relationship isomorphism: every relationship in this MATCH must differ (linear in the pattern).
  pending.push(...relationshipUniqueness(rels));
  if (where) pending.push(...exprPredicates(where, sc));

  const op = orderJoins(pl, { nodes, rels, pending, paths, shortests }, input, scope, distinctNext);
  return { op, scope: sc };
}
/** The ShortestPath operator for `shortestPath((a)-[:T*..k]->(b))`; its endpoints are planned like other pattern nodes. */
export function shortestPathSpec(
  pl: PlanContext,
  p: PathPattern,
  nodeFor: (np: NodePattern) => PatternNode,
  sc: Map<string, string>,
  pending: PendingPredicate[],
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
  const rel = pl.newSlot(rp.variable ?? 'rels');
  if (rp.variable !== undefined) sc.set(rp.variable, rel);
  const path = pl.newSlot(p.variable ?? 'path');
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
export function planGroup(
  pl: PlanContext,
  g: QuantifiedGroup,
  from: PatternNode,
  to: PatternNode,
  scope: Scope,
  sc: Map<string, string>,
  nodeByName: Map<string, PatternNode>,
  relByName: Map<string, PatternRel>,
): PatternRel {
  let hiddenCount = 0;
  const hidden = () => `${HIDDEN}g${pl.slotCount}_${hiddenCount++}`;
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
  const innerStart = pl.newSlot(innerStartName);
  const innerScope = new Map(scope).set(innerStartName, innerStart);
  const planned = pl.planPatterns([inner], g.where, { op: 'Argument' }, innerScope);
  const lastStep = inner.steps[inner.steps.length - 1];
  const innerEnd = planned.scope.get(lastStep.node.variable as string) as string;
  const innerRels = inner.steps.flatMap((st) => ('rel' in st ? [planned.scope.get(st.rel.variable as string) as string] : []));
  const groupVars = userVars.map((v) => {
    const outer = pl.newSlot(v);
    sc.set(v, outer);
    return { inner: planned.scope.get(v) as string, outer };
  });
  const rels = pl.newSlot('groupRels');
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