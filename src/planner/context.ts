/**
 * What the planning stages share: the store statistics the cost model reads, the planning
 * context (fresh slots, the procedure registry, whether the query writes, and the two
 * recursive entry points), and the pattern graph one MATCH is turned into before its
 * operators are ordered.
 */

import type { Clause, Expr, PathPattern, RelPattern } from '../frontend/ast.js';
import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { BoundExpr, PlanOp, Predicate, Scope } from './plan.js';

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
  /**
   * Fraction of the label's nodes (the type's relationships) whose property `key` passes
   * `test` against `value` (undefined: a parameter, unknown when planning), with what it was
   * read from; undefined when there is nothing to go on. Used for filtered retrieval searches.
   */
  propertySelectivity?(entity: 'node' | 'relationship', label: string, key: string, test: PropertyTest, value: PlanLiteral | undefined): PropertyEstimate | undefined;
}

/** A literal's value as the parser gives it. */
export type PlanLiteral = null | boolean | bigint | number | string;
export type PropertyTest = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'isNull' | 'isNotNull';
export interface PropertyEstimate {
  fraction: number;
  /** What the fraction was read from, for EXPLAIN (`property index on :Doc(lang)`, `a sample of …`). */
  basis: string;
}

/** The planner as its stages see it (implemented by `Planner`). */
export interface PlanContext {
  readonly stats: Statistics;
  readonly procedures: ProcedureRegistry;
  /** True once any clause writes. */
  mutates: boolean;
  /** How many slots have been made so far (quantified groups derive hidden names from it). */
  readonly slotCount: number;
  newSlot(hint: string): string;
  planPart(clauses: Clause[], input: PlanOp, scope: Scope, top: boolean, outer?: Scope): { root: PlanOp; columns: string[]; scope: Scope };
  planPatterns(patterns: PathPattern[], where: Expr | undefined, input: PlanOp, scope: Scope, distinctNext?: boolean): { op: PlanOp; scope: Scope };
}

/** A predicate waiting for the slots it needs to be bound. */
export interface PendingPredicate {
  pred: Predicate;
  needs: string[];
}

/** A way to find a pattern node other than scanning for it. */
export type Seek =
  | { kind: 'id'; id: BoundExpr }
  | { kind: 'index'; label: string; key: string; equals?: BoundExpr; lower?: { bexpr: BoundExpr; inclusive: boolean }; upper?: { bexpr: BoundExpr; inclusive: boolean } };

export interface PatternNode {
  slot: string;
  userName?: string;
  bound: boolean;
}

export interface PatternRel {
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

/** One MATCH as a join graph: its nodes and relationships, the predicates over them, and what is built after the joins. */
export interface PatternGraph {
  nodes: PatternNode[];
  rels: PatternRel[];
  pending: PendingPredicate[];
  paths: { slot: string; start: PatternNode; segments: PatternRel[]; name: string }[];
  shortests: Extract<PlanOp, { op: 'ShortestPath' }>[];
}
