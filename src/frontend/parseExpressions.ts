/**
 * AST building for expressions: the precedence levels of the grammar folded into
 * left-associative Unary/Binary nodes, comparison chains, string/list/null/type/label
 * predicates, postfix property/index/slice/label operations and every kind of atom
 * (literals, parameters, CASE, comprehensions, quantifiers, reduce, pattern predicates,
 * EXISTS / COUNT / COLLECT subqueries, function calls, map projections).
 */

import type { TerminalNode } from 'antlr4ng';
import type { BinaryOp, ComparisonOp, Expr, MapExpr, MapProjectionItem, Query } from './ast.js';
import {
  type QueryContext,
  AdditiveExpressionContext,
  AllPropertiesSelectorContext,
  AndExpressionContext,
  type AtomContext,
  AtomExpressionContext,
  CaseAtomContext,
  CollectAtomContext,
  ComparisonExpressionContext,
  CountStarAtomContext,
  CountSubqueryAtomContext,
  type CypherTypeContext,
  ExistsAtomContext,
  ExpressionContext,
  FunctionAtomContext,
  type FunctionInvocationContext,
  GqlParser,
  IndexExpressionContext,
  IsLabelExpressionContext,
  LabelCheckExpressionContext,
  LabelDisjunctionContext,
  LabelNameContext,
  ListComprehensionAtomContext,
  type ListLiteralContext,
  LiteralAtomContext,
  type LiteralContext,
  LiteralEntrySelectorContext,
  type MapLiteralContext,
  MapProjectionAtomContext,
  type MapProjectionItemContext,
  MultiplicativeExpressionContext,
  NotExpressionContext,
  NullCheckExpressionContext,
  type NumberLiteralContext,
  OrExpressionContext,
  ParameterAtomContext,
  ParenthesizedAtomContext,
  PatternAtomContext,
  PatternComprehensionAtomContext,
  PowerExpressionContext,
  PropertyExpressionContext,
  PropertySelectorContext,
  QuantifierAtomContext,
  ReduceAtomContext,
  ShortestPathAtomContext,
  SliceExpressionContext,
  StringListExpressionContext,
  type SubqueryBodyContext,
  TypeColonExpressionContext,
  TypedExpressionContext,
  UnaryExpressionContext,
  VariableAtomContext,
  VariableSelectorContext,
  XorExpressionContext,
} from './generated/GqlParser.js';
import {
  paramName,
  posOf,
  schemaNameText,
  symbolicNameText,
  syntaxError,
  tokenPos,
  variableName,
} from './parseCommon.js';
import { decodeFloat, decodeInteger, decodeString, invalidNumber } from './parseLiterals.js';
import { PatternBuilder } from './parsePatterns.js';

type BinaryContext = { expression(i: number): ExpressionContext | null };

// ---------------------------------------------------------------- literals

/** The expression layer of the AST builder; subquery expressions need the clause layer above it. */
export abstract class ExpressionBuilder extends PatternBuilder {
  abstract buildQuery(ctx: QueryContext): Query;

  buildExpression(ctx: ExpressionContext): Expr {
    const pos = posOf(ctx);
    if (ctx instanceof AtomExpressionContext) return this.buildAtom(ctx.atom());
    if (ctx instanceof PropertyExpressionContext) {
      return { kind: 'Property', object: this.buildExpression(ctx.expression()), key: schemaNameText(ctx.schemaName()), pos };
    }
    if (ctx instanceof IndexExpressionContext) {
      return { kind: 'Index', object: this.buildExpression(ctx.expression(0)!), index: this.buildExpression(ctx._index!), pos };
    }
    if (ctx instanceof SliceExpressionContext) {
      const slice: Expr = { kind: 'Slice', object: this.buildExpression(ctx.expression(0)!), pos };
      if (ctx._from_) slice.from = this.buildExpression(ctx._from_);
      if (ctx._to) slice.to = this.buildExpression(ctx._to);
      return slice;
    }
    if (ctx instanceof LabelCheckExpressionContext) {
      return { kind: 'LabelCheck', operand: this.buildExpression(ctx.expression()), labels: this.buildLabelExpr(ctx.labelExpr()), pos };
    }
    if (ctx instanceof UnaryExpressionContext) {
      const operand = ctx.expression();
      if (ctx.MINUS()) {
        const number = bareNumber(operand);
        if (number) return { kind: 'Literal', value: numberValue(number, true), pos };
        return { kind: 'Unary', op: '-', operand: this.buildExpression(operand), pos };
      }
      return { kind: 'Unary', op: '+', operand: this.buildExpression(operand), pos };
    }
    if (ctx instanceof NotExpressionContext) return { kind: 'Unary', op: 'not', operand: this.buildExpression(ctx.expression()), pos };
    if (ctx instanceof PowerExpressionContext) return this.binary(ctx, '^', pos);
    if (ctx instanceof MultiplicativeExpressionContext) {
      return this.binary(ctx, ctx.STAR() ? '*' : ctx.SLASH() ? '/' : '%', pos);
    }
    if (ctx instanceof AdditiveExpressionContext) return this.binary(ctx, ctx.PLUS() ? '+' : '-', pos);
    if (ctx instanceof StringListExpressionContext) {
      const op: BinaryOp = ctx.STARTS() ? 'startsWith' : ctx.ENDS() ? 'endsWith' : ctx.CONTAINS() ? 'contains' : ctx.REGEQ() ? '=~' : 'in';
      return this.binary(ctx, op, pos);
    }
    if (ctx instanceof NullCheckExpressionContext) {
      return { kind: 'IsNull', operand: this.buildExpression(ctx.expression()), negated: ctx.NOT() !== null, pos };
    }
    if (ctx instanceof TypedExpressionContext) {
      return { kind: 'TypePredicate', operand: this.buildExpression(ctx.expression()), typeName: typeNameOf(ctx.cypherType()), negated: ctx.NOT() !== null, pos };
    }
    if (ctx instanceof TypeColonExpressionContext) {
      return { kind: 'TypePredicate', operand: this.buildExpression(ctx.expression()), typeName: typeNameOf(ctx.cypherType()), negated: false, pos };
    }
    if (ctx instanceof IsLabelExpressionContext) {
      return { kind: 'LabelCheck', operand: this.buildExpression(ctx.expression()), labels: this.buildLabelExpr(ctx.labelExpr()), pos };
    }
    if (ctx instanceof ComparisonExpressionContext) return this.buildComparison(ctx, pos);
    if (ctx instanceof AndExpressionContext) return this.binary(ctx, 'and', pos);
    if (ctx instanceof XorExpressionContext) return this.binary(ctx, 'xor', pos);
    if (ctx instanceof OrExpressionContext) return this.binary(ctx, 'or', pos);
    throw syntaxError('Unsupported expression', ctx);
  }

  binary(ctx: BinaryContext & ExpressionContext, op: BinaryOp, pos: Expr['pos']): Expr {
    return { kind: 'Binary', op, left: this.buildExpression(ctx.expression(0)!), right: this.buildExpression(ctx.expression(1)!), pos };
  }

  /** `a < b <= c` parses left-nested; unparenthesised nested comparisons become one chain. */
  buildComparison(ctx: ComparisonExpressionContext, pos: Expr['pos']): Expr {
    const operands: ExpressionContext[] = [];
    const ops: ComparisonOp[] = [];
    let current: ExpressionContext = ctx;
    while (current instanceof ComparisonExpressionContext) {
      operands.unshift(current.expression(1)!);
      ops.unshift(current.comparisonOperator().getText() as ComparisonOp);
      current = current.expression(0)!;
    }
    operands.unshift(current);
    const built = operands.map((c) => this.buildExpression(c));
    if (ops.length === 1) return { kind: 'Binary', op: ops[0], left: built[0], right: built[1], pos };
    return { kind: 'ComparisonChain', operands: built, ops, pos };
  }

  buildAtom(ctx: AtomContext): Expr {
    const pos = posOf(ctx);
    if (ctx instanceof VariableAtomContext) return { kind: 'Var', name: variableName(ctx.variable()), pos };
    if (ctx instanceof LiteralAtomContext) return this.buildLiteral(ctx.literal());
    if (ctx instanceof FunctionAtomContext) return this.buildFunction(ctx.functionInvocation());
    if (ctx instanceof ParameterAtomContext) return { kind: 'Param', name: paramName(ctx.PARAMETER().getText()), pos };
    if (ctx instanceof ParenthesizedAtomContext) return this.buildExpression(ctx.expression());
    if (ctx instanceof CountStarAtomContext) return { kind: 'CountStar', pos };
    if (ctx instanceof CaseAtomContext) {
      const c = ctx.caseExpression();
      const expr: Expr = {
        kind: 'Case',
        whens: c.caseAlternative().map((w) => ({
          when: this.buildExpression(w.expression(0)!),
          then: this.buildExpression(w.expression(1)!),
        })),
        pos,
      };
      if (c._test) expr.test = this.buildExpression(c._test);
      if (c._elseExpr) expr.else = this.buildExpression(c._elseExpr);
      return expr;
    }
    if (ctx instanceof ListComprehensionAtomContext) {
      const c = ctx.listComprehension();
      const expr: Expr = {
        kind: 'ListComprehension',
        variable: variableName(c.variable()),
        source: this.buildExpression(c.expression(0)!),
        pos,
      };
      if (c._where) expr.where = this.buildExpression(c._where);
      if (c._projection) expr.projection = this.buildExpression(c._projection);
      else if (c._where && expr.where) {
        const split = splitTrailingLabelAlternative(c._where, expr.where);
        if (split) expr.projection = split;
      }
      return expr;
    }
    if (ctx instanceof PatternComprehensionAtomContext) {
      const c = ctx.patternComprehension();
      const pattern = this.buildRelationshipsChain(c.relationshipsChain());
      const variable = c.variable();
      if (variable) pattern.variable = variableName(variable);
      const expr: Expr = {
        kind: 'PatternComprehension',
        pattern,
        projection: this.buildExpression(c._projection!),
        pos,
      };
      if (c._where) expr.where = this.buildExpression(c._where);
      return expr;
    }
    if (ctx instanceof QuantifierAtomContext) {
      const c = ctx.quantifierExpression();
      const quantifier = c.ALL() ? 'all' : c.ANY() ? 'any' : c.NONE() ? 'none' : 'single';
      const expr: Expr = {
        kind: 'Quantifier',
        quantifier,
        variable: variableName(c.variable()),
        source: this.buildExpression(c.expression(0)!),
        pos,
      };
      if (c._where) expr.where = this.buildExpression(c._where);
      return expr;
    }
    if (ctx instanceof ReduceAtomContext) {
      const c = ctx.reduceExpression();
      return {
        kind: 'Reduce',
        accumulator: variableName(c._acc!),
        init: this.buildExpression(c._init!),
        variable: variableName(c._item!),
        source: this.buildExpression(c._source!),
        expr: this.buildExpression(c._body!),
        pos,
      };
    }
    if (ctx instanceof PatternAtomContext) {
      return { kind: 'PatternPredicate', pattern: this.buildRelationshipsChain(ctx.relationshipsChain()), pos };
    }
    if (ctx instanceof ShortestPathAtomContext) {
      const pattern = this.buildPatternElement(ctx.patternElement());
      pattern.shortest = { kind: ctx.SHORTESTPATH() ? 'shortest' : 'allShortest' };
      pattern.pos = pos;
      return { kind: 'PatternPredicate', pattern, pos };
    }
    if (ctx instanceof ExistsAtomContext) return { kind: 'ExistsSubquery', ...this.buildSubqueryBody(ctx.subqueryBody()), pos };
    if (ctx instanceof CountSubqueryAtomContext) return { kind: 'CountSubquery', ...this.buildSubqueryBody(ctx.subqueryBody()), pos };
    if (ctx instanceof CollectAtomContext) return { kind: 'CollectSubquery', query: this.buildQuery(ctx.query()), pos };
    if (ctx instanceof MapProjectionAtomContext) {
      const object: Expr = { kind: 'Var', name: variableName(ctx.variable()), pos };
      return { kind: 'MapProjection', object, items: ctx.mapProjectionItem().map((c) => this.buildMapProjectionItem(c)), pos };
    }
    throw syntaxError('Unsupported expression', ctx);
  }

  buildSubqueryBody(ctx: SubqueryBodyContext): Pick<Extract<Expr, { kind: 'ExistsSubquery' }>, 'query' | 'patterns' | 'where'> {
    const query = ctx.query();
    if (query) return { query: this.buildQuery(query) };
    const patterns = ctx.patternList();
    if (!patterns) throw syntaxError('Expected a query or a pattern', ctx);
    const where = ctx.whereClause();
    return where ? { patterns: this.buildPatternList(patterns), where: this.buildExpression(where.expression()) } : { patterns: this.buildPatternList(patterns) };
  }

  buildMapProjectionItem(ctx: MapProjectionItemContext): MapProjectionItem {
    if (ctx instanceof AllPropertiesSelectorContext) return { kind: 'AllProperties' };
    if (ctx instanceof PropertySelectorContext) return { kind: 'PropertySelector', key: schemaNameText(ctx.schemaName()) };
    if (ctx instanceof LiteralEntrySelectorContext) {
      return { kind: 'LiteralEntry', key: schemaNameText(ctx.schemaName()), value: this.buildExpression(ctx.expression()) };
    }
    if (ctx instanceof VariableSelectorContext) return { kind: 'VariableSelector', name: variableName(ctx.variable()) };
    throw syntaxError('Unsupported map projection item', ctx);
  }

  buildFunction(ctx: FunctionInvocationContext): Expr {
    const nameCtx = ctx.functionName();
    const parts = [symbolicNameText(nameCtx.symbolicName()), ...nameCtx.schemaName().map(schemaNameText)];
    return {
      kind: 'FunctionCall',
      name: parts.join('.'),
      distinct: ctx.DISTINCT() !== null,
      args: ctx.expression().map((c) => this.buildExpression(c)),
      pos: posOf(ctx),
    };
  }

  buildLiteral(ctx: LiteralContext): Expr {
    const pos = posOf(ctx);
    const number = ctx.numberLiteral();
    if (number) return { kind: 'Literal', value: numberValue(number, false), pos };
    const str = ctx.STRING_LITERAL();
    if (str) return { kind: 'Literal', value: decodeString(str.getText(), pos), pos };
    if (ctx.TRUE()) return { kind: 'Literal', value: true, pos };
    if (ctx.FALSE()) return { kind: 'Literal', value: false, pos };
    if (ctx.NULL()) return { kind: 'Literal', value: null, pos };
    const list = ctx.listLiteral();
    if (list) return this.buildListLiteral(list);
    const map = ctx.mapLiteral();
    if (map) return this.buildMapLiteral(map);
    throw syntaxError('Unsupported literal', ctx);
  }

  buildListLiteral(ctx: ListLiteralContext): Expr {
    return { kind: 'List', items: ctx.expression().map((c) => this.buildExpression(c)), pos: posOf(ctx) };
  }

  buildMapLiteral(ctx: MapLiteralContext): MapExpr {
    return {
      kind: 'Map',
      entries: ctx.mapEntry().map((e) => ({ key: schemaNameText(e.schemaName()), value: this.buildExpression(e.expression()) })),
      pos: posOf(ctx),
    };
  }
}

/**
 * `[x IN l WHERE x:A | x]` is ambiguous: the grammar reads `A | x` as a label disjunction,
 * openCypher means a projection. When a comprehension has no projection and its WHERE ends
 * in an unparenthesised label disjunction whose last alternative is a plain name, that
 * alternative is taken back out as the projection (a variable). Returns the projection,
 * having removed it from `where`, or undefined when the WHERE does not end that way.
 */
function splitTrailingLabelAlternative(whereCtx: ExpressionContext, where: Expr): Expr | undefined {
  // Walk the right spine of the parse tree and of the AST together.
  let ctx: ExpressionContext = whereCtx;
  let node: Expr = where;
  for (;;) {
    if (ctx instanceof LabelCheckExpressionContext || ctx instanceof IsLabelExpressionContext) break;
    const children = ctx.getRuleContexts(ExpressionContext);
    const last = children[children.length - 1];
    if (!last || ctx instanceof AtomExpressionContext) return undefined;
    if (node.kind === 'Binary') node = node.right;
    else if (node.kind === 'Unary') node = node.operand;
    else if (node.kind === 'ComparisonChain') node = node.operands[node.operands.length - 1];
    else return undefined;
    ctx = last;
  }
  const labelCtx = ctx.labelExpr();
  if (!(labelCtx instanceof LabelDisjunctionContext) || labelCtx.COLON()) return undefined;
  const lastAlt = labelCtx.labelExpr(1);
  if (!(lastAlt instanceof LabelNameContext) || node.kind !== 'LabelCheck' || node.labels.kind !== 'Or') return undefined;
  const removed = node.labels.items.pop();
  if (!removed || removed.kind !== 'Label') return undefined;
  if (node.labels.items.length === 1) node.labels = node.labels.items[0];
  const token = lastAlt.start;
  return { kind: 'Var', name: removed.name, pos: token ? tokenPos(token) : node.pos };
}

/** `LIST<INTEGER> NOT NULL | STRING` in the upper-cased canonical spelling. */
function typeNameOf(ctx: CypherTypeContext): string {
  return ctx
    .cypherTypeAlternative()
    .map((alt) => {
      const base = alt.cypherTypeBase();
      let text: string;
      if (base.NULL()) text = 'NULL';
      else {
        text = base.symbolicName().map((n) => symbolicNameText(n).toUpperCase()).join(' ');
        const inner = base.cypherType();
        if (inner) text += `<${typeNameOf(inner)}>`;
      }
      if (alt.NULL() || alt.BANG()) text += ' NOT NULL';
      return text;
    })
    .join(' | ');
}

/** The number literal of an operand that is nothing but a number, for folding `-literal`. */
function bareNumber(ctx: ExpressionContext): NumberLiteralContext | null {
  if (!(ctx instanceof AtomExpressionContext)) return null;
  const atom = ctx.atom();
  if (!(atom instanceof LiteralAtomContext)) return null;
  return atom.literal().numberLiteral();
}

function numberValue(ctx: NumberLiteralContext, negative: boolean): bigint | number {
  const token = (ctx.getChild(0) as TerminalNode).symbol;
  const text = token.text ?? '';
  const pos = tokenPos(token);
  switch (token.type) {
    case GqlParser.DECIMAL_INTEGER:
    case GqlParser.HEX_INTEGER:
    case GqlParser.OCTAL_INTEGER:
      return decodeInteger(text, negative, pos);
    case GqlParser.FLOAT_LITERAL:
      return decodeFloat(text, negative, pos);
    default:
      throw invalidNumber(text, pos);
  }
}
