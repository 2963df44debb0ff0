/**
 * Updating clauses: CREATE patterns become elements to create (bound nodes reused, new
 * ones labelled and given properties), MERGE plans its pattern as a match on an Argument
 * leaf plus the same elements to create with slots aligned onto the match's, and SET /
 * REMOVE items are bound to slots.
 */

import type { Clause, Expr, NodePattern, PathPattern, Pos, RemoveItem, SetItem } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';
import type { PlanContext } from './context.js';
import { labelsWithDynamic, simpleTypeList } from './names.js';
import type { BoundRemoveItem, BoundSetItem, CreateElement, PlanOp, Scope } from './plan.js';

export function planCreate(pl: PlanContext, patterns: PathPattern[], input: PlanOp, scope: Scope): { op: PlanOp; scope: Scope } {
  const sc = new Map(scope);
  const elements = createElements(pl, patterns, scope, sc);
  return { op: { op: 'Create', input, elements }, scope: sc };
}
function createElements(pl: PlanContext, patterns: PathPattern[], scope: Scope, sc: Map<string, string>, forMerge = false): CreateElement[] {
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
    const slot = pl.newSlot(np.variable ?? 'anon');
    if (np.variable !== undefined) {
      sc.set(np.variable, slot);
      createdHere.add(np.variable);
    }
    const split = np.labels ? labelsWithDynamic(np.labels) : { labels: [], dynamic: [] };
    if (!split) throw new QuerySemanticError('Only plain labels and $(…) can be used in CREATE', 'InvalidLabelExpression', np.pos);
    const dynamic = split.dynamic.map((expr) => ({ expr, scope: new Map(sc) }));
    elements.push({ kind: 'node', slot, labels: split.labels, ...(dynamic.length > 0 ? { dynamic } : {}), props: np.properties && { expr: np.properties, scope: new Map(sc) } });
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
      const dynamicType = rp.types?.kind === 'Dynamic' && !rp.types.any ? rp.types.expr : undefined;
      const types = dynamicType ? [''] : rp.types ? simpleTypeList(rp.types) : [];
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
      const slot = pl.newSlot(rp.variable ?? 'rel');
      if (rp.variable !== undefined) sc.set(rp.variable, slot);
      // MERGE on an undirected pattern creates the relationship left to right.
      const [from, to] = rp.direction === 'in' ? [next, prev] : [prev, next];
      elements.push({
        kind: 'rel',
        slot,
        type: types[0],
        ...(dynamicType ? { dynamicType: { expr: dynamicType, scope: new Map(sc) } } : {}),
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
      const slot = pl.newSlot(p.variable);
      sc.set(p.variable, slot);
      elements.push({ kind: 'path', slot, start, segments: segs });
    }
  }
  return elements;
}
export function planMerge(pl: PlanContext, c: Extract<Clause, { kind: 'Merge' }>, input: PlanOp, scope: Scope): { op: PlanOp; scope: Scope } {
  for (const np of [c.pattern.start, ...c.pattern.steps.map((s) => s.node)]) {
    if (np.properties) assertNoNullLiteralProps(np.properties);
  }
  const matched = pl.planPatterns([c.pattern], undefined, { op: 'Argument' }, scope);
  const createScope = new Map(scope);
  const create = createElements(pl, [c.pattern], scope, createScope, true);
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
      onCreate: c.onCreate.map((it) => bindSetItem(it, sc)),
      onMatch: c.onMatch.map((it) => bindSetItem(it, sc)),
      slots,
    },
    scope: sc,
  };
}
export function bindSetItem(it: SetItem, sc: Scope): BoundSetItem {
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
      return { kind: 'SetProperties', slot: requireSlot(it.variable, sc, it.pos), value: { expr: it.value, scope: sc }, merge: it.merge };
    case 'SetLabels':
      return { kind: 'SetLabels', slot: requireSlot(it.variable, sc, it.pos), labels: it.labels, ...boundDynamic(it.dynamic, sc) };
  }
}
export function bindRemoveItem(it: RemoveItem, sc: Scope): BoundRemoveItem {
  if (it.kind === 'RemoveProperty') return { kind: 'RemoveProperty', target: { expr: it.target, scope: sc }, key: it.key };
  return { kind: 'RemoveLabels', slot: requireSlot(it.variable, sc, it.pos), labels: it.labels, ...boundDynamic(it.dynamic, sc) };
}
function boundDynamic(dynamic: Expr[] | undefined, sc: Scope): { dynamic?: { expr: Expr; scope: Scope }[] } {
  return dynamic === undefined ? {} : { dynamic: dynamic.map((expr) => ({ expr, scope: sc })) };
}
function requireSlot(name: string, sc: Scope, pos: Pos): string {
  const slot = sc.get(name);
  if (slot === undefined) throw new QuerySemanticError(`Variable \`${name}\` not defined`, 'UndefinedVariable', pos);
  return slot;
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
