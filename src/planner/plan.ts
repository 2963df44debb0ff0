/**
 * The physical plan: a tree of operators the planner builds and the code generator lowers
 * to JavaScript. Variables are "slots" — unique names the planner assigns to every binding
 * (a user variable rebound by WITH gets a fresh slot), which become JavaScript locals.
 * Expressions stay AST expressions paired with the scope (user name → slot) they are
 * evaluated in.
 */

import type { Direction, Expr, PathPattern, SetItem, RemoveItem, LabelExpr } from '../frontend/ast.js';
import type { ProcedureDef } from '../../procedures/registry.js';

export type Scope = ReadonlyMap<string, string>;

/** An expression and the scope its variable names resolve in. */
export interface BoundExpr {
  expr: Expr;
  scope: Scope;
}

/** A condition placed right after the operator that binds its last variable. */
export type Predicate =
  | { kind: 'expr'; bexpr: BoundExpr }
  | { kind: 'hasLabels'; slot: string; labels: string[] }
  | { kind: 'labelExpr'; slot: string; expr: LabelExpr }
  | { kind: 'relType'; slot: string; expr: LabelExpr }
  /** A property map (literal or parameter) every key of which must equal the entity's property. */
  | { kind: 'propMap'; slot: string; map: BoundExpr }
  /** Relationship isomorphism within one MATCH: `a` and `b` are rel slots or rel-list slots. */
  | { kind: 'relsDistinct'; a: string; aList: boolean; b: string; bList: boolean }
  /** The same for a long pattern at once: no relationship (in rel or rel-list slots) appears twice. */
  | { kind: 'relsAllDistinct'; slots: string[] }
  /** GQL path modes on a bound path: ACYCLIC (no node twice) or SIMPLE (only the ends may coincide). */
  | { kind: 'pathMode'; slot: string; mode: 'ACYCLIC' | 'SIMPLE' }
  /** `slot` must be a node (not null) — used for bound variables re-used in patterns. */
  | { kind: 'isNode'; slot: string; other?: string };

export interface Estimate {
  /** Estimated rows this operator produces per input row (or in total for sources). */
  rows: number;
}

export type PlanOp =
  | { op: 'Start' }
  /** Leaf of a nested plan (OPTIONAL MATCH, MERGE, EXISTS): the current row of the enclosing plan. */
  | { op: 'Argument' }
  | { op: 'NodeScan'; input: PlanOp; slot: string; label?: string; estimate: number }
  /** `id(n) = expr`: at most one node. */
  | { op: 'NodeById'; input: PlanOp; slot: string; id: BoundExpr }
  /** Nodes of `label` whose `key` equals a value, or lies in a range, read from a property index. */
  | {
      op: 'NodeIndexSeek';
      input: PlanOp;
      slot: string;
      label: string;
      key: string;
      equals?: BoundExpr;
      lower?: { bexpr: BoundExpr; inclusive: boolean };
      upper?: { bexpr: BoundExpr; inclusive: boolean };
      estimate: number;
    }
  | {
      op: 'Expand';
      input: PlanOp;
      from: string;
      rel: string;
      to: string;
      types: string[];
      direction: Direction;
      /** Both ends already bound: check instead of bind. */
      into: boolean;
      estimate: number;
    }
  | {
      op: 'VarExpand';
      input: PlanOp;
      from: string;
      /** Slot receiving the list of relationships, in pattern order. */
      rel: string;
      to: string;
      types: string[];
      direction: Direction;
      min: number;
      max: number;
      into: boolean;
      /** True when expanding from the pattern's right end; the list is reversed into pattern order. */
      reversed: boolean;
      /** GQL WALK mode: relationships may repeat (only with a finite upper bound). */
      walk?: boolean;
      /**
       * Only the distinct end nodes matter (the relationships are unread and the rows are
       * de-duplicated next): one breadth-first search replaces trail enumeration.
       */
      distinctEnds?: boolean;
      estimate: number;
    }
  /**
   * A GQL quantified group `((x)-[r]->(y)){min,max}`: `inner` (rooted at an Argument leaf,
   * reading the current node from `innerStart`) matches one repetition; repetitions chain
   * end to start without reusing a relationship. Group variables become lists.
   */
  | {
      op: 'GroupExpand';
      input: PlanOp;
      from: string;
      to: string;
      into: boolean;
      min: number;
      max: number;
      inner: PlanOp;
      innerStart: string;
      innerEnd: string;
      innerRels: string[];
      /** Inner slot of each group variable and the outer slot receiving its list. */
      groupVars: { inner: string; outer: string }[];
      /** Slot receiving every relationship traversed, in order (for paths and uniqueness). */
      rels: string;
    }
  /** shortestPath / allShortestPaths between two bound nodes. */
  | {
      op: 'ShortestPath';
      input: PlanOp;
      from: string;
      to: string;
      rel: string;
      path: string;
      types: string[];
      direction: Direction;
      min: number;
      max: number;
      all: boolean;
      /** GQL `SHORTEST k` / `ANY k`: up to k paths, shortest first. */
      k?: number;
    }
  | { op: 'Filter'; input: PlanOp; predicates: Predicate[] }
  | { op: 'Optional'; input: PlanOp; inner: PlanOp; nullSlots: string[] }
  | { op: 'Unwind'; input: PlanOp; bexpr: BoundExpr; slot: string }
  | { op: 'LoadCsv'; input: PlanOp; url: BoundExpr; withHeaders: boolean; fieldTerminator?: string; slot: string }
  | { op: 'Project'; input: PlanOp; items: { slot: string; bexpr: BoundExpr }[] }
  | { op: 'BuildPath'; input: PlanOp; slot: string; start: string; segments: { slot: string; list: boolean }[] }
  | {
      op: 'Aggregate';
      input: PlanOp;
      groups: { slot: string; bexpr: BoundExpr }[];
      aggregates: { slot: string; name: string; args: BoundExpr[]; distinct: boolean }[];
    }
  | { op: 'Distinct'; input: PlanOp; slots: string[] }
  | {
      op: 'Sort';
      input: PlanOp;
      keys: { bexpr: BoundExpr; descending: boolean }[];
      carry: string[];
      /** ORDER BY … [SKIP s] LIMIT l: only the first s + l rows matter (a top-k sort). */
      topK?: { skip?: BoundExpr; limit: BoundExpr };
    }
  | { op: 'Skip'; input: PlanOp; count: BoundExpr }
  | { op: 'Limit'; input: PlanOp; count: BoundExpr }
  /** Materialise every row before going on: separates writes from later reads. */
  | { op: 'Eager'; input: PlanOp; carry: string[] }
  | { op: 'Create'; input: PlanOp; elements: CreateElement[] }
  | {
      op: 'Merge';
      input: PlanOp;
      /** The match side, rooted at an Argument leaf. */
      match: PlanOp;
      create: CreateElement[];
      onCreate: BoundSetItem[];
      onMatch: BoundSetItem[];
      /** Slots bound by the merge (nulled before trying). */
      slots: string[];
    }
  | { op: 'SetItems'; input: PlanOp; items: BoundSetItem[] }
  | { op: 'Remove'; input: PlanOp; items: BoundRemoveItem[] }
  | { op: 'Delete'; input: PlanOp; detach: boolean; targets: BoundExpr[] }
  | {
      op: 'ProcedureCall';
      input: PlanOp;
      procedure: ProcedureDef;
      args: BoundExpr[];
      /** For each yielded output: its index in the procedure's outputs and the slot it binds. */
      yields: { index: number; slot: string }[];
      /** `YIELD … WHERE` handed to a procedure that `acceptsRowFilter`, with its estimated selectivity. */
      rowFilter?: { predicate: BoundExpr; selectivity: number; basis: string[]; strategy?: string };
    }
  /**
   * `CALL { … }`: runs `inner` (rooted at an Argument leaf) for every input row and joins
   * each of its rows to it. A unit subquery (no RETURN) passes the input row on once;
   * an optional one passes it on with nulls when the subquery yields nothing.
   */
  | { op: 'SubqueryApply'; input: PlanOp; inner: PlanOp; unit: boolean; optional: boolean; nullSlots: string[] }
  /** A UNION inside a subquery: every part's rows, copied into common slots, optionally de-duplicated. */
  | { op: 'NestedUnion'; parts: { plan: PlanOp; slots: string[] }[]; slots: string[]; all: boolean }
  /** `FOREACH (x IN list | updates)`: runs `inner` for every element; the row passes on unchanged. */
  | { op: 'Foreach'; input: PlanOp; slot: string; bexpr: BoundExpr; inner: PlanOp }
  | { op: 'Produce'; input: PlanOp; columns: { name: string; slot: string }[] }
  /** A part of a query that returns nothing (an updating query without RETURN). */
  | { op: 'Discard'; input: PlanOp }
  | { op: 'Union'; parts: PlanOp[]; all: boolean; columns: string[] };

export type CreateElement =
  /** `dynamic`: the expressions of `$(…)` labels, whose names join `labels` at run time. */
  | { kind: 'node'; slot: string; labels: string[]; dynamic?: BoundExpr[]; props?: BoundExpr }
  | {
      kind: 'rel';
      slot: string;
      type: string;
      /** `[:$(e)]`: the type comes from `e` at run time (`type` is then empty). */
      dynamicType?: BoundExpr;
      from: string;
      to: string;
      props?: BoundExpr;
    }
  | { kind: 'path'; slot: string; start: string; segments: string[] }
  /** A variable re-used from the scope: must hold a node (checked at run time). */
  | { kind: 'boundNode'; slot: string };

export type BoundSetItem =
  | { kind: 'SetProperty'; target: BoundExpr; key: string; value: BoundExpr }
  | { kind: 'SetDynamicProperty'; target: BoundExpr; key: BoundExpr; value: BoundExpr }
  | { kind: 'SetProperties'; slot: string; value: BoundExpr; merge: boolean }
  | { kind: 'SetLabels'; slot: string; labels: string[]; dynamic?: BoundExpr[] };

export type BoundRemoveItem =
  | { kind: 'RemoveProperty'; target: BoundExpr; key: string }
  | { kind: 'RemoveLabels'; slot: string; labels: string[]; dynamic?: BoundExpr[] };

export type { PathPattern, SetItem, RemoveItem };

/** The operators an operator reads from: its input and any inner plans. */
export function planChildren(op: PlanOp): PlanOp[] {
  switch (op.op) {
    case 'Start':
    case 'Argument':
      return [];
    case 'Union':
      return op.parts;
    case 'Optional':
      return [op.inner, op.input];
    case 'Merge':
      return [op.match, op.input];
    case 'SubqueryApply':
    case 'Foreach':
    case 'GroupExpand':
      return [op.inner, op.input];
    case 'NestedUnion':
      return op.parts.map((p) => p.plan);
    default:
      return [op.input];
  }
}
