/**
 * Lowers AST expressions to JavaScript expression source. Variables become the slot locals
 * the planner assigned; literals that are not plain numbers, and every name or string from
 * the query, go into the constants table (`C[i]`) so user text never appears in generated
 * source. Value semantics are calls into the runtime (`rt.*`); built-in functions are
 * resolved at compile time to entries of the constants table.
 */

import type { Expr, LabelExpr, MapProjectionItem } from '../src/frontend/ast.js';
import type { Scope } from '../src/planner/plan.js';
import { QuerySemanticError, ValueTypeError } from '../src/errors.js';
import { FloatBox, intFromBigInt } from '../runtime/values.js';
import { isAggregateCall } from '../src/planner/exprUtil.js';
import { lookupFunction } from '../functions/registry.js';

/** What the expression compiler needs from the code emitter around it. */
export interface EmitContext {
  /** A local holding this execution's column handle for property `key` (`rt.propertyRef`). */
  propertyRef(key: string): string;
  /** Source reading property `key` of the entity in `slot` from its column by id, when a loop holds the id (read-only queries). */
  propertyById(slot: string, key: string): string | undefined;
  /** Registers a constant and returns the source that reads it. */
  constant(value: unknown): string;
  /** A fresh function-level temporary variable. */
  temp(): string;
  /** A fresh identifier for a closure parameter. */
  local(): string;
  /** Records that the query reads parameter `name` (checked before it runs); returns the prologue local holding its value. */
  useParam(name: string): string;
  /** Source of an expression that evaluates a nested pattern or subquery (EXISTS, pattern comprehension, …). */
  subquery(e: Expr, scope: Scope, compile: (e: Expr, scope: Scope) => string): string;
}

const BINARY_RUNTIME: Record<string, string> = {
  or: 'rt.or',
  xor: 'rt.xor',
  and: 'rt.and',
  '+': 'rt.add',
  '-': 'rt.sub',
  '*': 'rt.mul',
  '/': 'rt.div',
  '%': 'rt.mod',
  '^': 'rt.pow',
  in: 'rt.inList',
  startsWith: 'rt.startsWith',
  endsWith: 'rt.endsWith',
  contains: 'rt.contains',
  '=~': 'rt.regexMatch',
  '=': 'rt.equals',
  '<>': 'rt.notEquals',
  '<': 'rt.lt',
  '>': 'rt.gt',
  '<=': 'rt.lte',
  '>=': 'rt.gte',
};

export class ExprCompiler {
  constructor(private readonly ctx: EmitContext) {}

  compile(e: Expr, scope: Scope): string {
    const c = (x: Expr, s: Scope = scope) => this.compile(x, s);
    switch (e.kind) {
      case 'Literal':
        return this.literal(e.value);
      case 'Param':
        return this.ctx.useParam(e.name);
      case 'Var': {
        const slot = scope.get(e.name);
        if (slot === undefined) {
          throw new QuerySemanticError(`Variable \`${e.name}\` not defined`, 'UndefinedVariable', e.pos);
        }
        return slot;
      }
      case 'Property': {
        const slot = e.object.kind === 'Var' ? scope.get(e.object.name) : undefined;
        const byId = slot === undefined ? undefined : this.ctx.propertyById(slot, e.key);
        if (byId !== undefined) return byId;
        return `rt.propertyAt(${c(e.object)}, ${this.ctx.propertyRef(e.key)})`;
      }
      case 'Index':
        return `rt.index(${c(e.object)}, ${c(e.index)})`;
      case 'Slice':
        // An omitted bound is `undefined`; a bound written as an expression that is null yields null.
        return `rt.slice(${c(e.object)}, ${e.from ? c(e.from) : 'undefined'}, ${e.to ? c(e.to) : 'undefined'})`;
      case 'List':
        return `[${e.items.map((x) => c(x)).join(', ')}]`;
      case 'Map':
        if (e.entries.length === 0) return 'new Map()';
        return `new Map([${e.entries.map((en) => `[${this.ctx.constant(en.key)}, ${c(en.value)}]`).join(', ')}])`;
      case 'MapProjection':
        return this.mapProjection(e.object, e.items, scope);
      case 'Unary':
        if (e.op === 'not') return `rt.not(${c(e.operand)})`;
        if (e.op === '-') return `rt.neg(${c(e.operand)})`;
        return `rt.unaryPlus(${c(e.operand)})`;
      case 'Binary':
        return `${BINARY_RUNTIME[e.op]}(${c(e.left)}, ${c(e.right)})`;
      case 'ComparisonChain': {
        const temps = e.operands.map(() => this.ctx.temp());
        const assigns = e.operands.map((x, i) => `${temps[i]} = ${c(x)}`);
        let acc = '';
        for (let i = 0; i < e.ops.length; i++) {
          const cmp = `${BINARY_RUNTIME[e.ops[i]]}(${temps[i]}, ${temps[i + 1]})`;
          acc = acc ? `rt.and(${acc}, ${cmp})` : cmp;
        }
        return `(${assigns.join(', ')}, ${acc})`;
      }
      case 'IsNull':
        return e.negated ? `(${c(e.operand)} !== null)` : `(${c(e.operand)} === null)`;
      case 'LabelCheck':
        // `n:$(e)` / `n:A:$(e)`: each dynamic part is checked at run time; plain labels stay a constant check.
        if (e.labels.kind === 'Dynamic' || (e.labels.kind === 'And' && e.labels.items.some((it) => it.kind === 'Dynamic'))) {
          const items = e.labels.kind === 'And' ? e.labels.items : [e.labels];
          const v = this.ctx.local();
          const checks = items.map((it) => (it.kind === 'Dynamic' ? `rt.hasDynamic(${v}, ${c(it.expr)}, ${it.any})` : `rt.labelCheck(${v}, ${this.ctx.constant(it)})`));
          return `((${v}) => ${checks.reduce((acc, x) => `rt.and(${acc}, ${x})`)})(${c(e.operand)})`;
        }
        return `rt.labelCheck(${c(e.operand)}, ${this.ctx.constant(e.labels)})`;
      case 'FunctionCall':
        return this.functionCall(e, scope);
      case 'CountStar':
        throw new QuerySemanticError('count(*) can only be used in RETURN or WITH', 'InvalidAggregation', e.pos);
      case 'Case':
        return this.caseExpr(e, scope);
      case 'ListComprehension': {
        const v = this.ctx.local();
        const inner = new Map(scope).set(e.variable, v);
        const where = e.where ? `(${v}) => ${c(e.where, inner)}` : 'null';
        const proj = e.projection ? `(${v}) => ${c(e.projection, inner)}` : 'null';
        return `rt.listComprehension(${c(e.source)}, ${where}, ${proj})`;
      }
      case 'Quantifier': {
        const v = this.ctx.local();
        const inner = new Map(scope).set(e.variable, v);
        const where = e.where ? c(e.where, inner) : 'true';
        return `rt.quantifier(${this.ctx.constant(e.quantifier)}, ${c(e.source)}, (${v}) => ${where})`;
      }
      case 'Reduce': {
        const acc = this.ctx.local();
        const v = this.ctx.local();
        const inner = new Map(scope).set(e.accumulator, acc).set(e.variable, v);
        return `rt.reduce(${c(e.init)}, ${c(e.source)}, (${acc}, ${v}) => ${c(e.expr, inner)})`;
      }
      case 'PatternComprehension':
      case 'PatternPredicate':
      case 'ExistsSubquery':
      case 'CountSubquery':
      case 'CollectSubquery':
        return this.ctx.subquery(e, scope, (x, s) => this.compile(x, s));
      case 'TypePredicate':
        return `rt.isTyped(${c(e.operand)}, ${this.ctx.constant(e.typeName)}, ${e.negated})`;
    }
  }

  private literal(v: null | boolean | bigint | number | string): string {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'bigint') {
      const n = intFromBigInt(v);
      if (typeof n === 'bigint') return this.ctx.constant(n);
      return n < 0 || Object.is(n, -0) ? `(${n})` : `${n}`;
    }
    if (typeof v === 'number') {
      if (Number.isInteger(v) || !Number.isFinite(v)) return this.ctx.constant(Number.isInteger(v) ? new FloatBox(v) : v);
      return v < 0 ? `(${String(v)})` : String(v);
    }
    return this.ctx.constant(v);
  }

  private mapProjection(object: Expr, items: MapProjectionItem[], scope: Scope): string {
    const spec = items.map((it) => {
      switch (it.kind) {
        case 'PropertySelector':
          return { kind: 'prop', key: it.key };
        case 'AllProperties':
          return { kind: 'all', key: '' };
        case 'LiteralEntry':
          return { kind: 'value', key: it.key };
        case 'VariableSelector':
          return { kind: 'value', key: it.name };
      }
    });
    const values = items.map((it) => {
      if (it.kind === 'LiteralEntry') return this.compile(it.value, scope);
      if (it.kind === 'VariableSelector') return this.compile({ kind: 'Var', name: it.name, pos: object.pos }, scope);
      return 'null';
    });
    return `rt.mapProjection(${this.compile(object, scope)}, ${this.ctx.constant(spec)}, [${values.join(', ')}])`;
  }

  private caseExpr(e: Extract<Expr, { kind: 'Case' }>, scope: Scope): string {
    const elseCode = e.else ? this.compile(e.else, scope) : 'null';
    if (e.test) {
      const t = this.ctx.temp();
      let code = elseCode;
      for (let i = e.whens.length - 1; i >= 0; i--) {
        const w = e.whens[i];
        code = `(rt.equals(${t}, ${this.compile(w.when, scope)}) === true ? ${this.compile(w.then, scope)} : ${code})`;
      }
      return `(${t} = ${this.compile(e.test, scope)}, ${code})`;
    }
    let code = elseCode;
    for (let i = e.whens.length - 1; i >= 0; i--) {
      const w = e.whens[i];
      code = `(${this.compile(w.when, scope)} === true ? ${this.compile(w.then, scope)} : ${code})`;
    }
    return code;
  }

  private functionCall(e: Extract<Expr, { kind: 'FunctionCall' }>, scope: Scope): string {
    const args = e.args.map((a) => this.compile(a, scope));
    // Planner-internal helpers (names start with a space, which user text cannot produce).
    switch (e.name) {
      case ' allRelsMatch':
        return `rt.allRelsMatch(${args.join(', ')})`;
      case ' relConnects':
        return `rt.relConnects(${args.join(', ')})`;
      case ' otherEnd':
        return `rt.otherEnd(${args.join(', ')})`;
      case ' hasDynamic':
        return `rt.hasDynamic(${args.join(', ')})`;
    }
    if (isAggregateCall(e)) {
      throw new QuerySemanticError(
        `Invalid use of aggregating function ${e.name}(...) in this context`,
        'InvalidAggregation',
        e.pos,
      );
    }
    const lower = e.name.toLowerCase();
    if (lower === 'exists') {
      if (e.args.length !== 1) {
        throw new QuerySemanticError('exists() takes exactly one argument', 'InvalidNumberOfArguments', e.pos);
      }
      // The semantic checker admits only a pattern, which compiles to a boolean.
      if (e.args[0].kind !== 'PatternPredicate') {
        throw new QuerySemanticError('exists() takes a pattern', 'InvalidArgumentExpression', e.pos);
      }
      return args[0];
    }
    const def = lookupFunction(e.name);
    if (!def) throw new QuerySemanticError(`Unknown function '${e.name}'`, 'UnknownFunction', e.pos);
    if (e.args.length < def.minArgs || e.args.length > def.maxArgs) {
      throw new QuerySemanticError(
        `Function ${def.name}() takes ${def.minArgs === def.maxArgs ? def.minArgs : `${def.minArgs} to ${def.maxArgs}`} argument(s), got ${e.args.length}`,
        'InvalidNumberOfArguments',
        e.pos,
      );
    }
    if (e.distinct) {
      throw new ValueTypeError(`DISTINCT can only be used with aggregating functions, not ${e.name}()`, 'InvalidArgumentType', 'compile', e.pos);
    }
    const fn = this.ctx.constant(def.impl);
    return def.needsContext ? `${fn}(ctx.fn${args.length ? ', ' : ''}${args.join(', ')})` : `${fn}(${args.join(', ')})`;
  }
}

/** Label expressions are evaluated by the runtime from their AST, kept as a constant. */
export type { LabelExpr };
