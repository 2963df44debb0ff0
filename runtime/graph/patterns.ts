/**
 * Pattern-matching support that generated code calls: variable-length expansion, path
 * assembly, label and type expressions, property-map matching and the small checks the
 * planner places between expansions.
 */

import type { LabelExpr, Direction } from '../../src/frontend/ast.js';
import { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { Path, type Value } from '../values.js';
import { equals } from '../compare.js';
import { QuerySemanticError, ValueTypeError } from '../../src/errors.js';
import { describe } from '../types.js';
import type { ExecContext } from './context.js';
import type { PropertyIndex } from '../../src/store/schema.js';

/** Ids of the named relationship types that exist (missing ones cannot match anything). */
export function typeIds(g: Graph, types: string[]): number[] {
  const ids: number[] = [];
  for (const t of types) {
    const id = g.typeId(t);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

export interface VarPath {
  rels: Rel[];
  end: Node;
}

/**
 * Calls `visit(relId, nbrId, isIn)` for each live relationship of `node` a pattern may walk:
 * outgoing and/or incoming (`isIn`), of the given relationship type ids (null: every type).
 * The runtime's one adjacency iterator (see `Graph.forEachAdjacent`).
 */
export function eachAdjacent(
  g: Graph,
  node: Node,
  types: number[] | null,
  direction: Direction,
  visit: (relId: number, nbrId: number, isIn: boolean) => void,
): void {
  g.forEachAdjacent(node, types, direction, visit);
}

/**
 * Every trail (no relationship twice) from `start` with between `min` and `max` hops over
 * relationships of the given type ids (null: any type), in depth-first order. Paths are
 * produced one at a time from an explicit stack, so a LIMIT stops the search early and
 * memory stays proportional to the depth, not to the number of paths.
 */
export function* varExpand(
  g: Graph,
  ctx: ExecContext,
  start: Node,
  types: number[] | null,
  direction: Direction,
  min: number,
  max: number,
  /** GQL WALK: relationships may repeat (the caller guarantees a finite `max`). */
  allowRepeat = false,
): Generator<VarPath> {
  interface Frame {
    rels: number[];
    nbrs: number[];
    next: number;
  }
  const frameOf = (node: Node): Frame => {
    const rels: number[] = [];
    const nbrs: number[] = [];
    eachAdjacent(g, node, types, direction, (relId, nbrId, isIn) => {
      // An undirected walk sees a self-loop in both lists; take it once.
      if (isIn && direction === 'both' && nbrId === node.id) return;
      rels.push(relId);
      nbrs.push(nbrId);
    });
    return { rels, nbrs, next: 0 };
  };
  if (min <= 0) yield { rels: [], end: start };
  if (max <= 0) return;
  const path: Rel[] = [];
  const used = new Set<number>();
  const frames: Frame[] = [frameOf(start)];
  while (frames.length > 0) {
    if (--ctx.budget < 0) tick(ctx);
    const frame = frames[frames.length - 1];
    if (frame.next >= frame.rels.length) {
      // Done with this node: step back over the relationship that led here.
      frames.pop();
      const last = path.pop();
      if (last !== undefined && !allowRepeat) used.delete(last.id);
      continue;
    }
    const k = frame.next++;
    const relId = frame.rels[k];
    if (!allowRepeat && used.has(relId)) continue;
    const rel = g.relAt(relId) as Rel;
    const node = g.nodeAt(frame.nbrs[k]) as Node;
    path.push(rel);
    if (!allowRepeat) used.add(relId);
    if (path.length >= min) yield { rels: path.slice(), end: node };
    if (path.length < max) {
      frames.push(frameOf(node));
    } else {
      path.pop();
      if (!allowRepeat) used.delete(relId);
    }
  }
}

/** Deadline check, called when a loop's budget runs out. */
export function tick(ctx: ExecContext): void {
  ctx.budget = 4096;
  ctx.checkDeadline();
}

/** A path from its start node and its segments (single relationships or lists of them) in order. */
export function buildPath(start: Value, segments: Value[]): Value {
  if (start === null) return null;
  const nodes: Node[] = [start as Node];
  const rels: Rel[] = [];
  let cur = start as Node;
  for (const seg of segments) {
    if (seg === null) return null;
    const list = Array.isArray(seg) ? (seg as Rel[]) : [seg as Rel];
    for (const r of list) {
      cur = r.start === cur ? r.end : r.start;
      rels.push(r);
      nodes.push(cur);
    }
  }
  return new Path(nodes, rels);
}

export function hasAllLabels(n: Value, labels: string[]): boolean {
  if (!(n instanceof Node)) return false;
  for (const l of labels) if (!n.labels.includes(l)) return false;
  return true;
}

function labelExprMatches(names: (l: string) => boolean, hasAny: boolean, e: LabelExpr): boolean {
  switch (e.kind) {
    case 'Label':
      return names(e.name);
    case 'And':
      return e.items.every((x) => labelExprMatches(names, hasAny, x));
    case 'Or':
      return e.items.some((x) => labelExprMatches(names, hasAny, x));
    case 'Not':
      return !labelExprMatches(names, hasAny, e.item);
    case 'Wildcard':
      return hasAny;
    case 'Dynamic':
      // Planned away (into a predicate) before code runs; one left inside !, & or | is refused by the planner.
      throw new QuerySemanticError('A dynamic label or type cannot be combined with !, & or | here', 'InvalidLabelExpression');
  }
}

/** A label expression on a node (or a type expression on a relationship); null → null. */
export function labelCheck(v: Value, e: LabelExpr): boolean | null {
  if (v === null) return null;
  if (v instanceof Node) return labelExprMatches((l) => v.labels.includes(l), v.labels.length > 0, e);
  if (v instanceof Rel) return labelExprMatches((t) => v.type === t, true, e);
  throw new ValueTypeError(`Label check needs a node or relationship, got ${describe(v)}`, 'InvalidArgumentType');
}

export function relTypeMatches(r: Value, e: LabelExpr): boolean {
  return r instanceof Rel && labelExprMatches((t) => r.type === t, true, e);
}

/** Every key of `map` equals the entity's property (a parameter map in a pattern). */
export function matchProperties(entity: Value, map: Value): boolean {
  if (entity === null) return false;
  if (map === null) return true;
  if (!(map instanceof Map)) {
    throw new ValueTypeError(`Property map in a pattern must be a map, got ${describe(map)}`, 'InvalidArgumentType');
  }
  const e = entity as Node | Rel;
  for (const [k, v] of map) {
    const have = e.prop(k);
    if (have === undefined || equals(have, v as Value) !== true) return false;
  }
  return true;
}

/** Variable-length relationships with a property map: every relationship must match. */
export function allRelsMatch(rels: Value, map: Value): boolean {
  if (!Array.isArray(rels)) return false;
  return rels.every((r) => matchProperties(r, map));
}

/** A variable re-used in a pattern must hold a node; null never matches. */
export function isBoundNode(v: Value): boolean {
  if (v === null) return false;
  if (v instanceof Node) return !v.deleted;
  throw new ValueTypeError(`Variable used as a node holds ${describe(v)}`, 'InvalidArgumentType');
}

/**
 * Follows a bound relationship (or list of relationships, for a variable-length pattern)
 * from node `a` in the pattern's direction; returns the node reached, or null when the
 * relationships do not form such a walk.
 */
function walkFrom(r: Value, a: Value, direction: Value): Node | null {
  if (!(a instanceof Node)) return null;
  const rels = Array.isArray(r) ? r : [r];
  let cur: Node = a;
  for (const x of rels) {
    if (!(x instanceof Rel)) return null;
    if (direction !== 'in' && x.start === cur) cur = x.end;
    else if (direction !== 'out' && x.end === cur) cur = x.start;
    else return null;
  }
  return cur;
}

/** A relationship (or list) bound earlier joins `a` and, when given, `b` as the pattern says. */
export function relConnects(r: Value, a: Value, b: Value, direction: Value): boolean {
  const end = walkFrom(r, a, direction);
  if (end === null) return false;
  return b instanceof Node ? end === b : true;
}

/** The node a bound relationship (or list) leads to from `a`. */
export function otherEnd(r: Value, a: Value, direction: Value = 'both'): Value {
  return walkFrom(r, a, direction);
}

export function disjoint(a: Value, b: Value): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return true;
  for (const x of a) if (b.includes(x)) return false;
  return true;
}

/** No relationship appears twice among these rel slots (a value may be a list of relationships). */
export function allDistinctRels(values: Value[]): boolean {
  const seen = new Set<Value>();
  for (const v of values) {
    if (Array.isArray(v)) {
      for (const r of v) {
        if (seen.has(r)) return false;
        seen.add(r);
      }
    } else if (v !== null) {
      if (seen.has(v)) return false;
      seen.add(v);
    }
  }
  return true;
}

/** `id(n) = v`: the live node with that id, or null. */
export function nodeById(g: Graph, v: Value): Node | null {
  if (typeof v !== 'number' || !Number.isInteger(v)) return null;
  const n = g.nodeAt(v);
  return n === undefined || n.deleted ? null : n;
}

/** Node ids from an index equality seek, as a stable array (the index may change while the query writes). */
export function indexSeek(index: PropertyIndex | undefined, v: Value): number[] {
  if (index === undefined) return [];
  return index.seek(v);
}

export function indexRange(
  index: PropertyIndex | undefined,
  lower: Value,
  lowerInclusive: boolean,
  upper: Value,
  upperInclusive: boolean,
): number[] {
  if (index === undefined) return [];
  return [...index.range(lower, lowerInclusive, upper, upperInclusive)];
}

export interface GroupMatch {
  end: Node;
  rels: Rel[];
  /** One list per group variable: its value in each repetition, in order. */
  vars: Value[][];
}

/**
 * Repeats a quantified group from `start`: `step(node)` matches one repetition starting at
 * `node` and returns `[end, rels, groupVariableValues]` rows. Repetitions chain end to start,
 * never reusing a relationship (trail semantics); every chain of `min`..`max` repetitions
 * is a match.
 */
export function repeatGroup(
  ctx: ExecContext,
  start: Node,
  min: number,
  max: number,
  groupVarCount: number,
  step: (node: Node) => [Node, Rel[], Value[]][],
): GroupMatch[] {
  const out: GroupMatch[] = [];
  const rels: Rel[] = [];
  const used = new Set<Rel>();
  const lists: Value[][] = [];
  const visit = (node: Node, depth: number): void => {
    if (--ctx.budget < 0) tick(ctx);
    if (depth >= min) out.push({ end: node, rels: rels.slice(), vars: transpose(lists, groupVarCount) });
    if (depth >= max) return;
    for (const [end, rs, vs] of step(node)) {
      if (rs.some((r) => used.has(r))) continue;
      for (const r of rs) used.add(r);
      rels.push(...rs);
      lists.push(vs);
      visit(end, depth + 1);
      lists.pop();
      rels.length -= rs.length;
      for (const r of rs) used.delete(r);
    }
  };
  visit(start, 0);
  return out;
}

/** Per-repetition rows of group variable values → one list per variable (empty lists for zero repetitions). */
function transpose(rows: Value[][], width: number): Value[][] {
  const out: Value[][] = [];
  for (let j = 0; j < width; j++) out.push(rows.map((r) => r[j]));
  return out;
}

/** GQL path modes: ACYCLIC — no node twice; SIMPLE — no node twice except that the path may close on its start. */
export function pathModeHolds(p: Value, mode: Value): boolean {
  if (!(p instanceof Path)) return false;
  const ids = p.nodes.map((n) => n.id);
  const inner = mode === 'SIMPLE' && ids.length > 1 && ids[0] === ids[ids.length - 1] ? ids.slice(0, -1) : ids;
  return new Set(inner).size === inner.length;
}

/**
 * The distinct end nodes of `(start)-[types*min..max]-(end)` trails, for patterns whose
 * relationships nobody reads and whose rows are de-duplicated afterwards (`… WITH DISTINCT
 * end`): one breadth-first search instead of enumerating every trail. Exact for `min` ≤ 1:
 * a node other than the start is the end of some trail of length 1..max exactly when its
 * BFS distance is in that range (a shortest walk never repeats a relationship). The start
 * itself ends a trail of length ≥ 1 only along a closed trail, and the shortest one has
 * the length of the shortest cycle through it: directed, an edge back into the start from a
 * node within max − 1 hops; undirected, a non-tree edge joining two different BFS branches
 * (or a self-loop).
 */
export function distinctEnds(
  g: Graph,
  ctx: ExecContext,
  start: Node,
  types: number[] | null,
  direction: Direction,
  min: number,
  max: number,
): Node[] {
  // The reached nodes in discovery order, by slot: the node, its BFS depth, the tree relationship
  // it was reached over and the start's relationship its branch began with (-1 for the start).
  // One map lookup per relationship finds a neighbour's slot; the frontier is a run of slots.
  const slotOf = new Map<number, number>([[start.id, 0]]);
  const nodes: Node[] = [start];
  const depths: number[] = [0];
  const trees: number[] = [-1];
  const branches: number[] = [-1];
  let closes = false;
  let from = 0;
  let to = 1;
  for (let d = 0; from < to && d < max; d++) {
    for (let s = from; s < to; s++) {
      const node = nodes[s];
      const nodeTree = trees[s];
      const nodeBranch = branches[s];
      eachAdjacent(g, node, types, direction, (rel, nbr, isIn) => {
        if (--ctx.budget < 0) tick(ctx);
        if (direction === 'both') {
          if (isIn && nbr === node.id) return; // a self-loop is listed on both sides
          if (nbr === node.id && node === start) closes = true; // a self-loop at the start
        } else if (nbr === start.id) {
          closes = true; // back into the start within d + 1 ≤ max hops
        }
        const seen = slotOf.get(nbr);
        if (seen === undefined) {
          slotOf.set(nbr, nodes.length);
          nodes.push(g.nodeAt(nbr) as Node);
          depths.push(d + 1);
          trees.push(rel);
          branches.push(node === start ? rel : nodeBranch);
        } else if (direction === 'both' && rel !== trees[seen] && rel !== nodeTree && branches[seen] !== nodeBranch && d + depths[seen] + 1 <= max) {
          closes = true; // two branches joined: a cycle through the start
        }
      });
    }
    from = to;
    to = nodes.length;
  }
  const out = min <= 0 ? nodes : nodes.slice(1);
  if (min >= 1 && closes) out.push(start);
  return out;
}
