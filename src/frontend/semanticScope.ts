/**
 * Scope handling for the semantic checker, in one place: which variables a clause, a
 * pattern, a comprehension or a subquery can see and which it introduces. A scope maps a
 * name to its static type. Pattern binding
 * (MATCH, CREATE, MERGE, pattern predicates and comprehensions) lives here because it is
 * where names are declared, reused or rejected.
 */

import type { Expr, NodePattern, PathPattern, Pos, RelPattern, SingleQuery, SubqueryCallClause } from './ast.js';
import { semantic } from './semanticHelpers.js';
import { NODE, PATH, RELATIONSHIP, isOneOf, listOf, typeName, type StaticType, type TypeTag } from './semanticTypes.js';

/** What the checker needs to know about a procedure: its declared inputs and outputs. */
export interface ProcedureSignature {
  /** Inputs with a `default` may be left out at the end of a call. */
  inputs: { name: string; type: string; default?: unknown }[];
  outputs: { name: string; type: string }[];
}

export interface CheckOptions {
  /** Whether a function name (as written, namespaces joined by '.') exists; default: every name does. */
  isKnownFunction?: (name: string) => boolean;
  /**
   * The signature of a procedure, or undefined when there is none of that name. When this
   * callback is not given, CALL clauses are not checked against signatures.
   */
  lookupProcedure?: (name: string) => ProcedureSignature | undefined;
}


export interface VarInfo {
  type: StaticType;
}

export type Scope = Map<string, VarInfo>;

/** Which kind of query is being checked: the statement itself or a subquery of some kind. */
export type QueryKind = 'top' | 'exists' | 'count' | 'collect' | 'call';

export type PatternMode = 'match' | 'create' | 'merge' | 'predicate' | 'local';

/** Types that cannot hold a node / a relationship. */
const NOT_NODE: readonly TypeTag[] = ['boolean', 'integer', 'float', 'string', 'list', 'map', 'relationship', 'path'];
const NOT_RELATIONSHIP: readonly TypeTag[] = ['boolean', 'integer', 'float', 'string', 'map', 'node', 'path'];

/**
 * The scope part of the checker; the subclasses (aggregates, expressions, projections,
 * clauses) supply how expressions and predicates are checked.
 */
export abstract class ScopeChecker {
  constructor(protected readonly opts: CheckOptions) {}

  protected abstract expr(e: Expr, scope: Scope, predicatePosition?: boolean): StaticType;
  protected abstract predicate(e: Expr, scope: Scope, where: string): void;
  protected abstract noAggregates(e: Expr, where: string): void;

  /** Introduces a new variable; an existing one of the same name is an error. */
  protected declare(scope: Scope, name: string, type: StaticType, pos: Pos): void {
    const existing = scope.get(name);
    if (existing) {
      semantic('VariableAlreadyBound', `Variable \`${name}\` is already declared`, pos);
    }
    scope.set(name, { type });
  }

  protected requireVariable(name: string, scope: Scope, pos: Pos): VarInfo {
    const info = scope.get(name);
    if (!info) semantic('UndefinedVariable', `Variable \`${name}\` not defined`, pos);
    return info;
  }

  /** `scope` plus a local variable (list comprehension, quantifier, reduce, FOREACH). */
  protected withLocal(scope: Scope, name: string, type: StaticType): Scope {
    const inner = new Map(scope);
    inner.set(name, { type });
    return inner;
  }

  /**
   * What each UNION part of a `CALL { … }` body sees (Neo4j 5): the import list of
   * `CALL (a, b) { }`, everything for `CALL (*) { }`; without an import list, the outer
   * variables reach only an importing WITH at the start of the part — a part that does not
   * start with WITH imports nothing, so a name it shares with an outer variable is new.
   */
  protected subqueryScope(c: SubqueryCallClause, scopeIn: Scope): (part: SingleQuery) => Scope {
    if (Array.isArray(c.importing)) {
      const inner: Scope = new Map();
      for (const name of c.importing) {
        const info = scopeIn.get(name);
        if (!info) semantic('UndefinedVariable', `Variable \`${name}\` not defined`, c.pos);
        inner.set(name, { type: info.type });
      }
      return () => inner;
    }
    if (c.importing === '*') return () => scopeIn;
    return (part) => (part.clauses[0]?.kind === 'With' ? scopeIn : new Map());
  }

  protected bindPath(path: PathPattern, scope: Scope, mode: PatternMode, relsHere: Set<string>): void {
    this.bindNode(path.start, scope, mode, path.steps.length === 0);
    for (const step of path.steps) {
      if ('rel' in step) {
        this.bindRel(step.rel, scope, mode, relsHere);
      } else {
        // A quantified group: its variables are bound to lists outside the group.
        const inner = new Map(scope);
        this.bindPath(step.group.path, inner, mode, new Set(relsHere));
        if (step.group.where) this.predicate(step.group.where, inner, 'WHERE');
        for (const [name, info] of inner) {
          if (!scope.has(name)) scope.set(name, { type: listOf(info.type) });
        }
      }
      this.bindNode(step.node, scope, mode, false);
    }
    if (path.variable !== undefined) {
      const existing = scope.get(path.variable);
      if (mode === 'predicate') {
        semantic('UndefinedVariable', `A pattern used as a predicate cannot introduce the path variable \`${path.variable}\``, path.pos);
      }
      if (existing) {
        semantic('VariableAlreadyBound', `Variable \`${path.variable}\` is already declared and cannot name a path`, path.pos);
      }
      scope.set(path.variable, { type: PATH });
    }
  }

  protected bindNode(node: NodePattern, scope: Scope, mode: PatternMode, standalone: boolean): void {
    const v = node.variable;
    if (v !== undefined) {
      const existing = scope.get(v);
      if (existing) {
        if (isOneOf(existing.type, NOT_NODE)) {
          semantic('VariableTypeConflict', `Variable \`${v}\` is a ${typeName(existing.type)}, not a node`, node.pos);
        }
        if ((mode === 'create' || mode === 'merge') && (node.labels !== undefined || node.properties !== undefined || standalone)) {
          semantic(
            'VariableAlreadyBound',
            `Node \`${v}\` is already bound; ${mode.toUpperCase()} cannot ${standalone ? 'create it again' : 'add labels or properties to it'}`,
            node.pos,
          );
        }
      } else if (mode === 'predicate') {
        semantic('UndefinedVariable', `Variable \`${v}\` not defined (a pattern used as a predicate cannot introduce new variables)`, node.pos);
      } else {
        scope.set(v, { type: NODE });
      }
    }
    this.elementProperties(node.properties, scope, mode);
    if (node.where) this.predicate(node.where, scope, 'WHERE');
  }

  protected bindRel(rel: RelPattern, scope: Scope, mode: PatternMode, relsHere: Set<string>): void {
    const v = rel.variable;
    if (v !== undefined) {
      const existing = scope.get(v);
      if (existing) {
        if (mode === 'create' || mode === 'merge') {
          semantic('VariableAlreadyBound', `Relationship \`${v}\` is already bound; ${mode.toUpperCase()} cannot create it again`, rel.pos);
        }
        if (isOneOf(existing.type, NOT_RELATIONSHIP) || (existing.type.t === 'list' && rel.length === undefined)) {
          semantic('VariableTypeConflict', `Variable \`${v}\` is a ${typeName(existing.type)}, not a relationship`, rel.pos);
        }
        if (mode === 'match' && relsHere.has(v)) {
          semantic('RelationshipUniquenessViolation', `Relationship \`${v}\` cannot be used twice in the same MATCH`, rel.pos);
        }
      } else if (mode === 'predicate') {
        semantic('UndefinedVariable', `Variable \`${v}\` not defined (a pattern used as a predicate cannot introduce new variables)`, rel.pos);
      } else {
        scope.set(v, { type: rel.length ? listOf(RELATIONSHIP) : RELATIONSHIP });
        relsHere.add(v);
      }
    }
    if (mode === 'create' || mode === 'merge') {
      const clause = mode.toUpperCase();
      const single = rel.types !== undefined && (rel.types.kind === 'Label' || (rel.types.kind === 'Dynamic' && !rel.types.any));
      if (!single) {
        semantic('NoSingleRelationshipType', `${clause} needs exactly one relationship type for each relationship`, rel.pos);
      }
      if (mode === 'create' && rel.direction === 'both') {
        semantic('RequiresDirectedRelationship', 'CREATE can only create directed relationships', rel.pos);
      }
      if (rel.length !== undefined) {
        semantic('CreatingVarLength', `${clause} cannot create a variable-length relationship`, rel.pos);
      }
    }
    this.elementProperties(rel.properties, scope, mode);
    if (rel.where) this.predicate(rel.where, scope, 'WHERE');
  }

  protected elementProperties(props: Expr | undefined, scope: Scope, mode: PatternMode): void {
    if (!props) return;
    if (props.kind === 'Param' && mode !== 'create') {
      semantic(
        'InvalidParameterUse',
        `A parameter cannot stand for the properties of a pattern in ${mode === 'merge' ? 'MERGE' : 'MATCH'}; use {key: $param.key} or WHERE`,
        props.pos,
      );
    }
    this.noAggregates(props, 'pattern properties');
    this.expr(props, scope);
  }
}
