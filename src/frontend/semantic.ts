/**
 * The semantic checker: one pass over a parsed statement, after the parser and before the
 * planner, that rejects queries which parse but mean nothing valid. It follows openCypher's
 * variable scoping clause by clause (MATCH, UNWIND, CREATE, MERGE, CALL … YIELD introduce
 * names; WITH and RETURN project; ORDER BY sees projected names and, when the projection
 * neither aggregates nor de-duplicates, the names before it), checks where aggregates may
 * stand, what CREATE and MERGE may create, SKIP/LIMIT values, UNION columns, and the
 * types that the text alone proves wrong. The first problem found is thrown as a
 * QuerySemanticError (or a compile-phase ValueTypeError / QuerySyntaxError / ProcedureError
 * where the openCypher TCK expects one) carrying the TCK's detail code and the position of
 * the offending node.
 */

import type {
  Clause,
  Expr,
  FunctionCallExpr,
  NodePattern,
  PathPattern,
  Pos,
  Query,
  RelPattern,
  ReturnClause,
  ReturnItem,
  SingleQuery,
  SortItem,
  Statement,
  WithClause,
  CallClause,
  SetItem,
  RemoveItem,
} from './ast.js';
import { ProcedureError, QuerySemanticError, QuerySyntaxError, ValueTypeError } from '../errors.js';
import {
  NON_DETERMINISTIC_FUNCTIONS,
  containsAggregate,
  exprChildren,
  exprEquals,
  isAggregate,
} from './semanticHelpers.js';
import {
  ANY,
  BOOLEAN,
  FLOAT,
  INTEGER,
  MAP,
  NODE,
  NULL,
  PATH,
  RELATIONSHIP,
  STRING,
  BUILTIN_ARITY,
  acceptsDeclared,
  elementType,
  isOneOf,
  listOf,
  typeName,
  unify,
  type StaticType,
  type TypeTag,
} from './semanticTypes.js';

export { isAggregate, containsAggregate, isAggregateFunctionName, AGGREGATE_FUNCTIONS } from './semanticHelpers.js';
export type { StaticType } from './semanticTypes.js';

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

/**
 * Checks a parsed statement and throws the first semantic error found. The second argument
 * is either the options or, for short, just the `isKnownFunction` callback.
 */
export function checkStatement(stmt: Statement, options?: CheckOptions | ((name: string) => boolean)): void {
  const opts: CheckOptions = typeof options === 'function' ? { isKnownFunction: options } : (options ?? {});
  if (stmt.body.kind !== 'Query') return; // schema commands carry nothing to check here
  new Checker(opts).query(stmt.body, new Map(), 'top');
}

// ---------------------------------------------------------------- scopes

interface VarInfo {
  type: StaticType;
  /**
   * Seen from an enclosing query without being imported explicitly (`CALL { … }` without an
   * importing list): usable, but a new binding of the name replaces it without complaint.
   */
  soft: boolean;
}

type Scope = Map<string, VarInfo>;

type QueryKind = 'top' | 'exists' | 'count' | 'collect' | 'call';

type PatternMode = 'match' | 'create' | 'merge' | 'predicate' | 'local';

const UPDATING_CLAUSES: ReadonlySet<Clause['kind']> = new Set(['Create', 'Merge', 'Set', 'Remove', 'Delete', 'Foreach']);

/** Types that are certainly not booleans (null and unknown types may be). */
const NOT_BOOLEAN: readonly TypeTag[] = ['integer', 'float', 'string', 'list', 'map', 'node', 'relationship', 'path'];
/** Types that arithmetic other than `+` rejects. */
const NOT_NUMERIC: readonly TypeTag[] = ['string', 'boolean', 'map', 'node', 'relationship', 'path', 'list'];
/** Types that cannot hold a node / a relationship. */
const NOT_NODE: readonly TypeTag[] = ['boolean', 'integer', 'float', 'string', 'list', 'map', 'relationship', 'path'];
const NOT_RELATIONSHIP: readonly TypeTag[] = ['boolean', 'integer', 'float', 'string', 'map', 'node', 'path'];

function semantic(detail: string, message: string, pos: Pos): never {
  throw new QuerySemanticError(message, detail, pos);
}

function clauseName(c: Clause): string {
  switch (c.kind) {
    case 'Match':
      return c.optional ? 'OPTIONAL MATCH' : 'MATCH';
    case 'SubqueryCall':
      return 'CALL { … }';
    case 'LoadCsv':
      return 'LOAD CSV';
    case 'OrderByPage':
      return 'ORDER BY';
    default:
      return c.kind.toUpperCase();
  }
}

/** A projected column: its name and the expression it was computed from. */
interface Column {
  name: string;
  expr: Expr;
  type: StaticType;
}

class Checker {
  constructor(private readonly opts: CheckOptions) {}

  // ------------------------------------------------------------ queries

  /** Checks a query (all UNION parts) and returns its column names. */
  query(q: Query, outer: Scope, kind: QueryKind): string[] {
    if (q.unionAll.length > 1 && q.unionAll.some((all) => all !== q.unionAll[0])) {
      semantic('InvalidClauseComposition', 'UNION and UNION ALL cannot be mixed in one query', q.pos);
    }
    let columns: string[] | undefined;
    for (const part of q.parts) {
      const standalone = kind === 'top' && q.parts.length === 1;
      const cols = this.singleQuery(part, outer, kind, standalone);
      if (columns === undefined) {
        columns = cols;
      } else if (!sameColumns(columns, cols)) {
        semantic(
          'DifferentColumnsInUnion',
          `All parts of a UNION must return the same column names: (${columns.join(', ')}) differs from (${cols.join(', ')})`,
          part.pos,
        );
      }
    }
    return columns ?? [];
  }

  private singleQuery(sq: SingleQuery, outer: Scope, kind: QueryKind, mayBeStandalone: boolean): string[] {
    let scope: Scope = new Map(outer);
    let columns: string[] = [];
    const clauses = sq.clauses;
    const standaloneCall = mayBeStandalone && clauses.length === 1 && clauses[0]!.kind === 'Call';
    clauses.forEach((clause, i) => {
      const last = i === clauses.length - 1;
      if (clause.kind === 'Return' && !last) {
        semantic('InvalidClauseComposition', 'RETURN can only be used at the end of a query', clause.pos);
      }
      if (UPDATING_CLAUSES.has(clause.kind) && (kind === 'exists' || kind === 'count' || kind === 'collect')) {
        semantic(
          'InvalidClauseComposition',
          `An ${kind.toUpperCase()} subquery cannot contain an updating clause such as ${clauseName(clause)}`,
          clause.pos,
        );
      }
      const result = this.clause(clause, scope, standaloneCall);
      scope = result.scope;
      if (result.columns) columns = result.columns;
    });
    const lastClause = clauses[clauses.length - 1];
    if (lastClause && (kind === 'top' || kind === 'call' || kind === 'collect')) {
      const ok =
        lastClause.kind === 'Return' ||
        (kind !== 'collect' &&
          (UPDATING_CLAUSES.has(lastClause.kind) || lastClause.kind === 'Call' || lastClause.kind === 'SubqueryCall'));
      if (!ok) {
        semantic(
          'InvalidClauseComposition',
          kind === 'collect'
            ? 'A COLLECT subquery must end with a RETURN clause'
            : `A query cannot end with ${clauseName(lastClause)}: it must end with RETURN or an updating clause`,
          lastClause.pos,
        );
      }
    }
    return columns;
  }

  // ------------------------------------------------------------ clauses

  private clause(c: Clause, scopeIn: Scope, standaloneCall: boolean): { scope: Scope; columns?: string[] } {
    switch (c.kind) {
      case 'Match': {
        const scope = new Map(scopeIn);
        const relsHere = new Set<string>();
        for (const p of c.patterns) this.bindPath(p, scope, 'match', relsHere);
        if (c.where) this.predicate(c.where, scope, 'WHERE');
        return { scope };
      }
      case 'Unwind': {
        this.noAggregates(c.expr, 'UNWIND');
        const t = this.expr(c.expr, scopeIn);
        const scope = new Map(scopeIn);
        this.declare(scope, c.variable, elementType(t), c.pos);
        return { scope };
      }
      case 'With':
      case 'Return':
        return this.projection(c, scopeIn);
      case 'Create': {
        const scope = new Map(scopeIn);
        for (const p of c.patterns) this.bindPath(p, scope, 'create', new Set());
        return { scope };
      }
      case 'Merge': {
        const scope = new Map(scopeIn);
        this.bindPath(c.pattern, scope, 'merge', new Set());
        for (const item of [...c.onCreate, ...c.onMatch]) this.setItem(item, scope);
        return { scope };
      }
      case 'Set':
        for (const item of c.items) this.setItem(item, scopeIn);
        return { scope: scopeIn };
      case 'Remove':
        for (const item of c.items) this.removeItem(item, scopeIn);
        return { scope: scopeIn };
      case 'Delete':
        for (const e of c.exprs) {
          if (e.kind === 'LabelCheck') {
            semantic('InvalidDelete', 'DELETE removes nodes, relationships and paths; use REMOVE to remove a label', e.pos);
          }
          this.noAggregates(e, 'DELETE');
          const t = this.expr(e, scopeIn);
          if (isOneOf(t, ['boolean', 'integer', 'float', 'string', 'map'])) {
            semantic('InvalidArgumentType', `DELETE expects a node, relationship or path, not a value of type ${typeName(t)}`, e.pos);
          }
        }
        return { scope: scopeIn };
      case 'Call':
        return this.call(c, scopeIn, standaloneCall);
      case 'SubqueryCall': {
        let inner: Scope;
        if (Array.isArray(c.importing)) {
          inner = new Map();
          for (const name of c.importing) {
            const info = scopeIn.get(name);
            if (!info) semantic('UndefinedVariable', `Variable \`${name}\` not defined`, c.pos);
            inner.set(name, { type: info.type, soft: false });
          }
        } else if (c.importing === '*') {
          inner = new Map(scopeIn);
        } else {
          inner = new Map([...scopeIn].map(([k, v]) => [k, { type: v.type, soft: true }]));
        }
        if (c.inTransactions?.batchSize) this.expr(c.inTransactions.batchSize, new Map());
        const cols = this.query(c.query, inner, 'call');
        const scope = new Map(scopeIn);
        for (const col of cols) this.declare(scope, col, ANY, c.pos);
        return { scope };
      }
      case 'Foreach': {
        this.noAggregates(c.source, 'FOREACH');
        const t = this.expr(c.source, scopeIn);
        let inner: Scope = new Map(scopeIn);
        inner.set(c.variable, { type: elementType(t), soft: false });
        for (const sub of c.clauses) {
          if (!UPDATING_CLAUSES.has(sub.kind)) {
            semantic('InvalidClauseComposition', `FOREACH may only contain updating clauses, not ${clauseName(sub)}`, sub.pos);
          }
          inner = this.clause(sub, inner, false).scope;
        }
        return { scope: scopeIn };
      }
      case 'LoadCsv': {
        this.noAggregates(c.url, 'LOAD CSV');
        this.expr(c.url, scopeIn);
        const scope = new Map(scopeIn);
        this.declare(scope, c.variable, ANY, c.pos);
        return { scope };
      }
      case 'Filter':
        this.predicate(c.where, scopeIn, 'FILTER');
        return { scope: scopeIn };
      case 'Let': {
        const scope = new Map(scopeIn);
        for (const b of c.bindings) {
          this.noAggregates(b.expr, 'LET');
          const t = this.expr(b.expr, scope);
          this.declare(scope, b.variable, t, c.pos);
        }
        return { scope };
      }
      case 'OrderByPage':
        for (const s of c.orderBy ?? []) {
          this.noAggregates(s.expr, 'ORDER BY');
          this.expr(s.expr, scopeIn);
        }
        if (c.skip) this.skipLimit(c.skip, 'SKIP');
        if (c.limit) this.skipLimit(c.limit, 'LIMIT');
        return { scope: scopeIn };
    }
  }

  /** Introduces a new variable; an existing one of the same name (not merely visible from outside) is an error. */
  private declare(scope: Scope, name: string, type: StaticType, pos: Pos): void {
    const existing = scope.get(name);
    if (existing && !existing.soft) {
      semantic('VariableAlreadyBound', `Variable \`${name}\` is already declared`, pos);
    }
    scope.set(name, { type, soft: false });
  }

  private setItem(item: SetItem, scope: Scope): void {
    switch (item.kind) {
      case 'SetProperty':
        this.expr(item.target, scope);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetDynamicProperty':
        this.expr(item.target, scope);
        this.noAggregates(item.key, 'SET');
        this.expr(item.key, scope);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetProperties':
        this.requireVariable(item.variable, scope, item.pos);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetLabels':
        this.requireVariable(item.variable, scope, item.pos);
        return;
    }
  }

  private removeItem(item: RemoveItem, scope: Scope): void {
    if (item.kind === 'RemoveProperty') this.expr(item.target, scope);
    else this.requireVariable(item.variable, scope, item.pos);
  }

  private requireVariable(name: string, scope: Scope, pos: Pos): VarInfo {
    const info = scope.get(name);
    if (!info) semantic('UndefinedVariable', `Variable \`${name}\` not defined`, pos);
    return info;
  }

  // ------------------------------------------------------------ CALL

  private call(c: CallClause, scopeIn: Scope, standalone: boolean): { scope: Scope; columns?: string[] } {
    const argTypes: StaticType[] = [];
    for (const a of c.args ?? []) {
      this.noAggregates(a, 'procedure call arguments');
      argTypes.push(this.expr(a, scopeIn));
    }
    let sig: ProcedureSignature | undefined;
    if (this.opts.lookupProcedure) {
      sig = this.opts.lookupProcedure(c.procedure);
      if (!sig) throw new ProcedureError(`There is no procedure named \`${c.procedure}\``, 'ProcedureNotFound', 'compile', c.pos);
      if (c.args === undefined) {
        if (!standalone && sig.inputs.length > 0) {
          semantic(
            'InvalidArgumentPassingMode',
            `Procedure \`${c.procedure}\` takes arguments; inside a larger query they must be passed explicitly in parentheses`,
            c.pos,
          );
        }
      } else {
        const required = sig.inputs.findIndex((f) => f.default !== undefined);
        const min = required < 0 ? sig.inputs.length : required;
        if (c.args.length < min || c.args.length > sig.inputs.length) {
          semantic(
            'InvalidNumberOfArguments',
            `Procedure \`${c.procedure}\` takes ${sig.inputs.length} argument(s) but ${c.args.length} were given`,
            c.pos,
          );
        }
        c.args.forEach((a, i) => {
          const input = sig!.inputs[i]!;
          if (!acceptsDeclared(input.type, argTypes[i]!)) {
            semantic(
              'InvalidArgumentType',
              `Argument \`${input.name}\` of procedure \`${c.procedure}\` must be of type ${input.type}, not ${typeName(argTypes[i]!)}`,
              a.pos,
            );
          }
        });
      }
    }
    const scope = new Map(scopeIn);
    const outputType = (name: string): StaticType => {
      const decl = sig?.outputs.find((o) => o.name === name)?.type.replace(/\?$/, '').trim().toUpperCase();
      switch (decl) {
        case 'INTEGER':
          return INTEGER;
        case 'FLOAT':
          return FLOAT;
        case 'STRING':
          return STRING;
        case 'BOOLEAN':
          return BOOLEAN;
        case 'NODE':
          return NODE;
        case 'RELATIONSHIP':
          return RELATIONSHIP;
        case 'PATH':
          return PATH;
        default:
          return ANY;
      }
    };
    let columns: string[] | undefined;
    if (c.yields === '*') {
      if (!standalone) {
        throw new QuerySyntaxError('YIELD * is only allowed when the CALL is the whole query', c.pos, 'UnexpectedSyntax');
      }
      columns = sig?.outputs.map((o) => o.name);
    } else if (c.yields) {
      for (const y of c.yields) {
        const name = y.alias ?? y.name;
        this.declare(scope, name, outputType(y.name), y.pos);
      }
      columns = c.yields.map((y) => y.alias ?? y.name);
    } else if (standalone) {
      columns = sig?.outputs.map((o) => o.name);
    }
    if (c.where) this.predicate(c.where, scope, 'WHERE');
    return { scope, columns: standalone ? (columns ?? []) : undefined };
  }

  // ------------------------------------------------------------ WITH / RETURN

  private projection(c: WithClause | ReturnClause, scopeIn: Scope): { scope: Scope; columns?: string[] } {
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
    for (const col of columns) projected.set(col.name, { type: col.type, soft: false });
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

  private sortItem(
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

  /**
   * Outside its aggregates, an expression that aggregates may only use variables and
   * property accesses that are grouping keys themselves, plus literals and parameters.
   */
  private checkGrouping(expr: Expr, groupingKeys: Expr[]): void {
    // The variable of a map projection outside aggregates is an implicit grouping key.
    const keys = [...groupingKeys];
    const collectImplicit = (e: Expr): void => {
      if (isAggregate(e)) return;
      if (e.kind === 'MapProjection' && e.object.kind === 'Var') keys.push(e.object);
      for (const child of exprChildren(e)) collectImplicit(child);
    };
    collectImplicit(expr);
    const isKey = (e: Expr): boolean => keys.some((k) => exprEquals(k, e));
    const visit = (e: Expr, locals: ReadonlySet<string>): void => {
      if (isAggregate(e)) return;
      switch (e.kind) {
        case 'Var':
          if (locals.has(e.name) || isKey(e)) return;
          semantic(
            'AmbiguousAggregationExpression',
            `Expression mixes an aggregate with \`${e.name}\`, which is not a grouping key; project it on its own first`,
            e.pos,
          );
          break;
        case 'Property':
          if (e.object.kind === 'Var' && !locals.has(e.object.name)) {
            if (isKey(e) || isKey(e.object)) return;
            semantic(
              'AmbiguousAggregationExpression',
              `Expression mixes an aggregate with \`${e.object.name}.${e.key}\`, which is not a grouping key; project it on its own first`,
              e.pos,
            );
          }
          visit(e.object, locals);
          return;
        case 'MapProjection':
          // `n {.name, friends: collect(f)}`: the projected variable is itself an implicit grouping key.
          if (e.object.kind !== 'Var') visit(e.object, locals);
          for (const item of e.items) {
            if (item.kind === 'LiteralEntry') visit(item.value, locals);
            else if (item.kind === 'VariableSelector') visit({ kind: 'Var', name: item.name, pos: e.pos }, locals);
          }
          return;
        case 'ListComprehension':
        case 'Quantifier': {
          visit(e.source, locals);
          const inner = new Set([...locals, e.variable]);
          if (e.where) visit(e.where, inner);
          if (e.kind === 'ListComprehension' && e.projection) visit(e.projection, inner);
          return;
        }
        case 'Reduce': {
          visit(e.init, locals);
          visit(e.source, locals);
          visit(e.expr, new Set([...locals, e.accumulator, e.variable]));
          return;
        }
        case 'PatternComprehension':
        case 'PatternPredicate':
        case 'ExistsSubquery':
        case 'CountSubquery':
        case 'CollectSubquery':
          return;
        default:
          for (const child of exprChildren(e)) visit(child, locals);
      }
    };
    visit(expr, new Set());
  }

  private skipLimit(e: Expr, what: 'SKIP' | 'LIMIT'): void {
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

  // ------------------------------------------------------------ aggregates

  private noAggregates(e: Expr, where: string): void {
    this.aggregates(e, false, where);
  }

  /** Where aggregates may stand: only in projections, never nested, never in comprehension bodies. */
  private aggregates(expr: Expr, allowed: boolean, where: string): void {
    const visit = (e: Expr, inAggregate: boolean, inLocal: boolean): void => {
      if (isAggregate(e)) {
        if (!allowed) semantic('InvalidAggregation', `Aggregate functions are not allowed in ${where}`, e.pos);
        if (inAggregate) semantic('NestedAggregation', 'An aggregate function cannot be used inside another aggregate function', e.pos);
        if (inLocal) {
          semantic(
            'InvalidAggregation',
            'Aggregate functions are not allowed inside list comprehensions, quantifiers, reduce or pattern comprehensions',
            e.pos,
          );
        }
        if (e.kind === 'FunctionCall') for (const a of e.args) visit(a, true, inLocal);
        return;
      }
      if (inAggregate && e.kind === 'FunctionCall' && NON_DETERMINISTIC_FUNCTIONS.has(e.name.toLowerCase())) {
        semantic('NonConstantExpression', `\`${e.name}()\` gives a different value on each call and cannot be aggregated`, e.pos);
      }
      switch (e.kind) {
        case 'ListComprehension':
          visit(e.source, inAggregate, inLocal);
          if (e.where) visit(e.where, inAggregate, true);
          if (e.projection) visit(e.projection, inAggregate, true);
          return;
        case 'Quantifier':
          visit(e.source, inAggregate, inLocal);
          if (e.where) visit(e.where, inAggregate, true);
          return;
        case 'Reduce':
          visit(e.init, inAggregate, inLocal);
          visit(e.source, inAggregate, inLocal);
          visit(e.expr, inAggregate, true);
          return;
        case 'PatternComprehension':
          for (const child of exprChildren(e)) visit(child, inAggregate, true);
          return;
        default:
          for (const child of exprChildren(e)) visit(child, inAggregate, inLocal);
      }
    };
    visit(expr, false, false);
  }

  // ------------------------------------------------------------ patterns

  private bindPath(path: PathPattern, scope: Scope, mode: PatternMode, relsHere: Set<string>): void {
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
          if (!scope.has(name)) scope.set(name, { type: listOf(info.type), soft: false });
        }
      }
      this.bindNode(step.node, scope, mode, false);
    }
    if (path.variable !== undefined) {
      const existing = scope.get(path.variable);
      if (mode === 'predicate') {
        semantic('UndefinedVariable', `A pattern used as a predicate cannot introduce the path variable \`${path.variable}\``, path.pos);
      }
      if (existing && !existing.soft) {
        semantic('VariableAlreadyBound', `Variable \`${path.variable}\` is already declared and cannot name a path`, path.pos);
      }
      scope.set(path.variable, { type: PATH, soft: false });
    }
  }

  private bindNode(node: NodePattern, scope: Scope, mode: PatternMode, standalone: boolean): void {
    const v = node.variable;
    if (v !== undefined) {
      const existing = scope.get(v);
      if (existing && !existing.soft) {
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
        scope.set(v, { type: NODE, soft: false });
      }
    }
    this.elementProperties(node.properties, scope, mode);
    if (node.where) this.predicate(node.where, scope, 'WHERE');
  }

  private bindRel(rel: RelPattern, scope: Scope, mode: PatternMode, relsHere: Set<string>): void {
    const v = rel.variable;
    if (v !== undefined) {
      const existing = scope.get(v);
      if (existing && !existing.soft) {
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
        scope.set(v, { type: rel.length ? listOf(RELATIONSHIP) : RELATIONSHIP, soft: false });
        relsHere.add(v);
      }
    }
    if (mode === 'create' || mode === 'merge') {
      const clause = mode.toUpperCase();
      if (rel.types === undefined || rel.types.kind !== 'Label') {
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

  private elementProperties(props: Expr | undefined, scope: Scope, mode: PatternMode): void {
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

  // ------------------------------------------------------------ expressions

  /** A boolean condition (WHERE and the like): pattern predicates are welcome, aggregates and non-booleans are not. */
  private predicate(e: Expr, scope: Scope, where: string): void {
    this.noAggregates(e, where);
    const t = this.expr(e, scope, true);
    if (isOneOf(t, NOT_BOOLEAN)) {
      semantic('InvalidArgumentType', `${where} expects a boolean, not a value of type ${typeName(t)}`, e.pos);
    }
  }

  /** Checks one expression against the variables in `scope` and returns what the text proves about its type. */
  private expr(e: Expr, scope: Scope, predicatePosition = false): StaticType {
    switch (e.kind) {
      case 'Literal':
        if (e.value === null) return NULL;
        if (typeof e.value === 'boolean') return BOOLEAN;
        if (typeof e.value === 'bigint') return INTEGER;
        if (typeof e.value === 'number') return FLOAT;
        return STRING;
      case 'Param':
        return ANY;
      case 'Var': {
        const info = scope.get(e.name);
        if (!info) semantic('UndefinedVariable', `Variable \`${e.name}\` not defined`, e.pos);
        return info.type;
      }
      case 'Property': {
        const t = this.expr(e.object, scope);
        if (t.t === 'path') {
          semantic('InvalidArgumentType', `Cannot read property \`${e.key}\` of a path`, e.pos);
        }
        if (isOneOf(t, ['boolean', 'integer', 'float', 'string', 'list'])) {
          throw new ValueTypeError(
            `Cannot read property \`${e.key}\` of a value of type ${typeName(t)}; only nodes, relationships and maps have properties`,
            'InvalidArgumentType',
            'compile',
            e.pos,
          );
        }
        return ANY;
      }
      case 'Index':
        this.expr(e.object, scope);
        this.expr(e.index, scope);
        return ANY;
      case 'Slice': {
        const t = this.expr(e.object, scope);
        if (e.from) this.expr(e.from, scope);
        if (e.to) this.expr(e.to, scope);
        return t.t === 'list' ? t : ANY;
      }
      case 'List':
        return listOf(unify(e.items.map((item) => this.expr(item, scope))));
      case 'Map':
        for (const entry of e.entries) this.expr(entry.value, scope);
        return MAP;
      case 'MapProjection': {
        const t = this.expr(e.object, scope);
        if (isOneOf(t, ['boolean', 'integer', 'float', 'string', 'list', 'path'])) {
          throw new ValueTypeError(
            `A map projection needs a node, relationship or map, not a value of type ${typeName(t)}`,
            'InvalidArgumentType',
            'compile',
            e.pos,
          );
        }
        for (const item of e.items) {
          if (item.kind === 'LiteralEntry') this.expr(item.value, scope);
          else if (item.kind === 'VariableSelector') this.requireVariable(item.name, scope, e.pos);
        }
        return MAP;
      }
      case 'Unary': {
        if (e.op === 'not') {
          // A pattern under NOT can only mean a predicate, wherever the NOT stands.
          const t = this.expr(e.operand, scope, true);
          if (isOneOf(t, NOT_BOOLEAN)) {
            semantic('InvalidArgumentType', `NOT expects a boolean, not a value of type ${typeName(t)}`, e.operand.pos);
          }
          return BOOLEAN;
        }
        const t = this.expr(e.operand, scope);
        if (isOneOf(t, NOT_NUMERIC)) {
          semantic('InvalidArgumentType', `Unary ${e.op} expects a number, not a value of type ${typeName(t)}`, e.operand.pos);
        }
        return t.t === 'integer' || t.t === 'float' ? t : ANY;
      }
      case 'Binary':
        return this.binary(e.op, e.left, e.right, scope);
      case 'ComparisonChain':
        for (const operand of e.operands) this.expr(operand, scope);
        return BOOLEAN;
      case 'IsNull':
      case 'TypePredicate':
        this.expr(e.operand, scope);
        return BOOLEAN;
      case 'LabelCheck':
        this.expr(e.operand, scope);
        return BOOLEAN;
      case 'FunctionCall':
        return this.functionCall(e, scope);
      case 'CountStar':
        return INTEGER;
      case 'Case': {
        if (e.test) this.expr(e.test, scope);
        const results: StaticType[] = [];
        for (const w of e.whens) {
          this.expr(w.when, scope, e.test === undefined);
          results.push(this.expr(w.then, scope));
        }
        results.push(e.else ? this.expr(e.else, scope) : NULL);
        return unify(results);
      }
      case 'ListComprehension': {
        const source = this.expr(e.source, scope);
        const inner = new Map(scope);
        inner.set(e.variable, { type: elementType(source), soft: false });
        if (e.where) this.localPredicate(e.where, inner);
        const projected = e.projection ? this.expr(e.projection, inner) : elementType(source);
        return listOf(projected);
      }
      case 'Quantifier': {
        const source = this.expr(e.source, scope);
        const inner = new Map(scope);
        inner.set(e.variable, { type: elementType(source), soft: false });
        if (e.where) this.localPredicate(e.where, inner);
        return BOOLEAN;
      }
      case 'Reduce': {
        this.expr(e.init, scope);
        const source = this.expr(e.source, scope);
        const inner = new Map(scope);
        inner.set(e.accumulator, { type: ANY, soft: false });
        inner.set(e.variable, { type: elementType(source), soft: false });
        this.expr(e.expr, inner);
        return ANY;
      }
      case 'PatternComprehension': {
        const inner = new Map(scope);
        this.bindPath(e.pattern, inner, 'local', new Set());
        if (e.where) this.localPredicate(e.where, inner);
        return listOf(this.expr(e.projection, inner));
      }
      case 'PatternPredicate': {
        if (e.pattern.steps.length === 0 && e.pattern.variable === undefined) {
          // `(n)` on its own is just the node variable in parentheses.
          const v = e.pattern.start.variable;
          if (v !== undefined && !e.pattern.start.labels && !e.pattern.start.properties && !e.pattern.start.where) {
            return this.expr({ kind: 'Var', name: v, pos: e.pattern.start.pos }, scope);
          }
        }
        if (!predicatePosition) {
          throw new QuerySyntaxError(
            'A pattern can only be used as a predicate here (in WHERE or exists()); use a pattern comprehension or COUNT { } for its matches',
            e.pos,
            'UnexpectedSyntax',
          );
        }
        const inner = new Map(scope);
        this.bindPath(e.pattern, inner, 'predicate', new Set());
        return BOOLEAN;
      }
      case 'ExistsSubquery':
      case 'CountSubquery': {
        if (e.query) {
          this.query(e.query, scope, e.kind === 'ExistsSubquery' ? 'exists' : 'count');
        } else {
          const inner = new Map(scope);
          const rels = new Set<string>();
          for (const p of e.patterns ?? []) this.bindPath(p, inner, 'local', rels);
          if (e.where) this.localPredicate(e.where, inner);
        }
        return e.kind === 'ExistsSubquery' ? BOOLEAN : INTEGER;
      }
      case 'CollectSubquery': {
        const cols = this.query(e.query, scope, 'collect');
        if (cols.length !== 1) {
          semantic('InvalidClauseComposition', `A COLLECT subquery must return exactly one column, not ${cols.length}`, e.pos);
        }
        return listOf(ANY);
      }
    }
  }

  /** A WHERE inside an expression (comprehensions, subqueries): like `predicate`, without the aggregate rule (checked by the enclosing clause). */
  private localPredicate(e: Expr, scope: Scope): void {
    const t = this.expr(e, scope, true);
    if (isOneOf(t, NOT_BOOLEAN)) {
      semantic('InvalidArgumentType', `WHERE expects a boolean, not a value of type ${typeName(t)}`, e.pos);
    }
  }

  private binary(op: string, left: Expr, right: Expr, scope: Scope): StaticType {
    switch (op) {
      case 'and':
      case 'or':
      case 'xor': {
        const lt = this.expr(left, scope, true);
        const rt = this.expr(right, scope, true);
        for (const [t, side] of [
          [lt, left],
          [rt, right],
        ] as const) {
          if (isOneOf(t, NOT_BOOLEAN)) {
            semantic('InvalidArgumentType', `${op.toUpperCase()} expects booleans, not a value of type ${typeName(t)}`, side.pos);
          }
        }
        return BOOLEAN;
      }
      case 'in': {
        this.expr(left, scope);
        const rt = this.expr(right, scope);
        if (isOneOf(rt, ['boolean', 'integer', 'float', 'string', 'map', 'node', 'relationship', 'path'])) {
          semantic('InvalidArgumentType', `IN expects a list on its right, not a value of type ${typeName(rt)}`, right.pos);
        }
        return BOOLEAN;
      }
      case '+': {
        const lt = this.expr(left, scope);
        const rt = this.expr(right, scope);
        if (lt.t === 'integer' && rt.t === 'integer') return INTEGER;
        if ((lt.t === 'integer' || lt.t === 'float') && (rt.t === 'integer' || rt.t === 'float')) return FLOAT;
        if (lt.t === 'string' && rt.t === 'string') return STRING;
        if (lt.t === 'list' || rt.t === 'list') return listOf(ANY);
        return ANY;
      }
      case '-':
      case '*':
      case '/':
      case '%':
      case '^': {
        const lt = this.expr(left, scope);
        const rt = this.expr(right, scope);
        for (const [t, side] of [
          [lt, left],
          [rt, right],
        ] as const) {
          if (isOneOf(t, NOT_NUMERIC)) {
            semantic('InvalidArgumentType', `Operator ${op} expects numbers, not a value of type ${typeName(t)}`, side.pos);
          }
        }
        if (op !== '^' && lt.t === 'integer' && rt.t === 'integer') return INTEGER;
        if ((lt.t === 'integer' || lt.t === 'float') && (rt.t === 'integer' || rt.t === 'float')) return FLOAT;
        return ANY;
      }
      default:
        // comparisons and string predicates
        this.expr(left, scope);
        this.expr(right, scope);
        return BOOLEAN;
    }
  }

  private functionCall(e: FunctionCallExpr, scope: Scope): StaticType {
    const lower = e.name.toLowerCase();
    if (this.opts.isKnownFunction && !this.opts.isKnownFunction(e.name)) {
      semantic('UnknownFunction', `Unknown function \`${e.name}\``, e.pos);
    }
    const arity = BUILTIN_ARITY.get(lower);
    if (arity && (e.args.length < arity.min || e.args.length > arity.max)) {
      const expected = arity.min === arity.max ? `${arity.min}` : arity.max === Infinity ? `at least ${arity.min}` : `${arity.min} to ${arity.max}`;
      semantic(
        'InvalidNumberOfArguments',
        `Function \`${e.name}\` takes ${expected} argument(s) but ${e.args.length} were given`,
        e.pos,
      );
    }
    const allowPattern = lower === 'exists';
    const types = e.args.map((a) => this.expr(a, scope, allowPattern));
    const arg = types[0];
    const reject = (allowed: string): never =>
      semantic('InvalidArgumentType', `Function \`${e.name}\` expects ${allowed}, not a value of type ${typeName(arg!)}`, e.args[0]!.pos);
    if (arg && e.args.length === 1) {
      switch (lower) {
        case 'labels':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'string', 'list', 'map', 'relationship', 'path'])) reject('a node');
          break;
        case 'type':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'string', 'list', 'map', 'node', 'path'])) reject('a relationship');
          break;
        case 'properties':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'string', 'list', 'path'])) reject('a node, relationship or map');
          break;
        case 'size':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'map', 'node', 'relationship', 'path'])) reject('a list or a string');
          break;
        case 'length':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'map', 'node', 'relationship'])) reject('a path');
          break;
        case 'nodes':
        case 'relationships':
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'string', 'list', 'map', 'node', 'relationship'])) reject('a path');
          break;
        default:
          break;
      }
    }
    switch (lower) {
      case 'tostring':
      case 'toupper':
      case 'tolower':
      case 'trim':
      case 'ltrim':
      case 'rtrim':
      case 'substring':
      case 'replace':
      case 'left':
      case 'right':
      case 'type':
        return STRING;
      case 'labels':
      case 'keys':
        return listOf(STRING);
      case 'nodes':
        return listOf(NODE);
      case 'relationships':
        return listOf(RELATIONSHIP);
      case 'startnode':
      case 'endnode':
        return NODE;
      default:
        return ANY;
    }
  }
}

// ---------------------------------------------------------------- helpers

/** The name of a projected column: its alias, the variable's name, or the expression's text. */
function columnName(item: ReturnItem): string {
  if (item.alias !== undefined) return item.alias;
  if (item.expr.kind === 'Var') return item.expr.name;
  return item.text;
}

function sameColumns(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((name) => set.has(name));
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

