/**
 * Expression checking: every variable must be in scope, and what the text alone proves
 * about a value's type (a literal, a comparison, a function's result) is checked where an
 * operator or function cannot accept it. Pattern predicates, pattern comprehensions and
 * subquery expressions open their own scopes here.
 */

import type { Expr, FunctionCallExpr, Query, SingleQuery } from './ast.js';
import { QuerySyntaxError, ValueTypeError } from '../errors.js';
import { semantic } from './semanticHelpers.js';
import { AggregateChecker } from './semanticAggregates.js';
import type { QueryKind, Scope } from './semanticScope.js';
import {
  ANY,
  BOOLEAN,
  FLOAT,
  INTEGER,
  MAP,
  NODE,
  NULL,
  RELATIONSHIP,
  STRING,
  BUILTIN_ARITY,
  elementType,
  isOneOf,
  listOf,
  typeName,
  unify,
  type StaticType,
  type TypeTag,
} from './semanticTypes.js';

/** Types that are certainly not booleans (null and unknown types may be). */
const NOT_BOOLEAN: readonly TypeTag[] = ['integer', 'float', 'string', 'list', 'map', 'node', 'relationship', 'path'];
/** Types that arithmetic other than `+` rejects. */
const NOT_NUMERIC: readonly TypeTag[] = ['string', 'boolean', 'map', 'node', 'relationship', 'path', 'list'];

export abstract class ExpressionChecker extends AggregateChecker {
  /** Checks a query (all UNION parts, each seeing `outer` or what it gives for the part) and returns its column names. */
  abstract query(q: Query, outer: Scope | ((part: SingleQuery) => Scope), kind: QueryKind): string[];

  /** A boolean condition (WHERE and the like): pattern predicates are welcome, aggregates and non-booleans are not. */
  protected predicate(e: Expr, scope: Scope, where: string): void {
    this.noAggregates(e, where);
    const t = this.expr(e, scope, true);
    if (isOneOf(t, NOT_BOOLEAN)) {
      semantic('InvalidArgumentType', `${where} expects a boolean, not a value of type ${typeName(t)}`, e.pos);
    }
  }

  /** Checks one expression against the variables in `scope` and returns what the text proves about its type. */
  protected expr(e: Expr, scope: Scope, predicatePosition = false): StaticType {
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
        const inner = this.withLocal(scope, e.variable, elementType(source));
        if (e.where) this.localPredicate(e.where, inner);
        const projected = e.projection ? this.expr(e.projection, inner) : elementType(source);
        return listOf(projected);
      }
      case 'Quantifier': {
        const source = this.expr(e.source, scope);
        const inner = this.withLocal(scope, e.variable, elementType(source));
        if (e.where) this.localPredicate(e.where, inner);
        return BOOLEAN;
      }
      case 'Reduce': {
        this.expr(e.init, scope);
        const source = this.expr(e.source, scope);
        const inner = new Map(scope);
        inner.set(e.accumulator, { type: ANY });
        inner.set(e.variable, { type: elementType(source) });
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
  protected localPredicate(e: Expr, scope: Scope): void {
    const t = this.expr(e, scope, true);
    if (isOneOf(t, NOT_BOOLEAN)) {
      semantic('InvalidArgumentType', `WHERE expects a boolean, not a value of type ${typeName(t)}`, e.pos);
    }
  }

  protected binary(op: string, left: Expr, right: Expr, scope: Scope): StaticType {
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

  protected functionCall(e: FunctionCallExpr, scope: Scope): StaticType {
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
    if (allowPattern && e.args.length === 1 && e.args[0]!.kind !== 'PatternPredicate') {
      const a = e.args[0]!;
      throw new QuerySyntaxError(
        a.kind === 'Property'
          ? `exists() takes a pattern; to test whether a property is set write \`${a.object.kind === 'Var' ? a.object.name : 'x'}.${a.key} IS NOT NULL\``
          : 'exists() takes a pattern such as exists((a)-[:KNOWS]->(b))',
        a.pos,
        'InvalidArgumentExpression',
      );
    }
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
          // Neo4j 5 takes only paths here: size() is for lists and strings.
          if (isOneOf(arg, ['boolean', 'integer', 'float', 'string', 'list', 'map', 'node', 'relationship'])) reject('a path');
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
