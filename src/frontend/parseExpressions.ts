/**
 * AST building for expressions: the precedence levels of the grammar folded into
 * left-associative Unary/Binary nodes, comparison chains, string/list/null/type/label
 * predicates, postfix property/index/slice/label operations and every kind of atom
 * (literals, parameters, CASE, comprehensions, quantifiers, reduce, pattern predicates,
 * EXISTS / COUNT / COLLECT subqueries, function calls, map projections).
 */

import { ParserRuleContext, TerminalNode, type Token } from 'antlr4ng';
import type { BinaryOp, ComparisonOp, Expr, MapExpr, MapProjectionItem } from './ast.js';
import {
  AllPropertiesSelectorContext,
  type AtomContext,
  CaseAtomContext,
  CollectAtomContext,
  type ComparisonExpressionContext,
  ContainsSuffixContext,
  CountStarAtomContext,
  CountSubqueryAtomContext,
  type CypherTypeContext,
  EndsWithSuffixContext,
  ExistsAtomContext,
  type ExpressionContext,
  FunctionAtomContext,
  type FunctionInvocationContext,
  InSuffixContext,
  IndexPostfixContext,
  IsLabelSuffixContext,
  LabelPostfixContext,
  ListComprehensionAtomContext,
  type ListLiteralContext,
  LiteralAtomContext,
  type LiteralContext,
  LiteralEntrySelectorContext,
  type MapLiteralContext,
  MapProjectionAtomContext,
  type MapProjectionItemContext,
  NullSuffixContext,
  type NumberLiteralContext,
  ParameterAtomContext,
  ParenthesizedAtomContext,
  PatternAtomContext,
  PatternComprehensionAtomContext,
  type PostfixExpressionContext,
  type PredicateExpressionContext,
  PropertyPostfixContext,
  PropertySelectorContext,
  QuantifierAtomContext,
  ReduceAtomContext,
  RegexSuffixContext,
  ShortestPathAtomContext,
  SlicePostfixContext,
  StartsWithSuffixContext,
  type SubqueryBodyContext,
  TypeColonSuffixContext,
  TypedSuffixContext,
  type UnaryExpressionContext,
  VariableAtomContext,
  VariableSelectorContext,
  GqlParser,
  type AdditiveExpressionContext,
  type MultiplicativeExpressionContext,
  type PowerExpressionContext,
  type OrExpressionContext,
  type XorExpressionContext,
  type AndExpressionContext,
  type NotExpressionContext,
} from './generated/GqlParser.js';
import {
  posOf,
  schemaNameText,
  symbolicNameText,
  syntaxError,
  tokenPos,
  variableName,
} from './parseCommon.js';
import { decodeEscapedName, decodeFloat, decodeInteger, decodeString, invalidNumber } from './parseLiterals.js';
import { buildLabelOr, buildPatternElement, buildPatternList, buildRelationshipsChain } from './parsePatterns.js';
import { buildQuery } from './astBuilder.js';

export function buildExpression(ctx: ExpressionContext): Expr {
  return buildOr(ctx.orExpression());
}

/** Folds `operand (OP operand)*` children into a left-associative chain of Binary nodes. */
function foldBinary<C extends ParserRuleContext>(
  ctx: ParserRuleContext,
  build: (operand: C) => Expr,
  opOf: (token: Token) => BinaryOp,
): Expr {
  const children = ctx.children;
  let result: Expr | undefined;
  let pendingOp: BinaryOp | undefined;
  for (const child of children) {
    if (child instanceof TerminalNode) {
      pendingOp = opOf(child.symbol);
    } else if (child instanceof ParserRuleContext) {
      const operand = build(child as C);
      if (result === undefined) result = operand;
      else result = { kind: 'Binary', op: pendingOp ?? 'and', left: result, right: operand, pos: posOf(ctx) };
    }
  }
  if (result === undefined) throw syntaxError('Expected an expression', ctx);
  return result;
}

function buildOr(ctx: OrExpressionContext): Expr {
  const parts = ctx.xorExpression();
  if (parts.length === 1) return buildXor(parts[0]);
  return foldBinary(ctx, buildXor, () => 'or');
}

function buildXor(ctx: XorExpressionContext): Expr {
  const parts = ctx.andExpression();
  if (parts.length === 1) return buildAnd(parts[0]);
  return foldBinary(ctx, buildAnd, () => 'xor');
}

function buildAnd(ctx: AndExpressionContext): Expr {
  const parts = ctx.notExpression();
  if (parts.length === 1) return buildNot(parts[0]);
  return foldBinary(ctx, buildNot, () => 'and');
}

function buildNot(ctx: NotExpressionContext): Expr {
  const inner = ctx.notExpression();
  if (inner) return { kind: 'Unary', op: 'not', operand: buildNot(inner), pos: posOf(ctx) };
  const cmp = ctx.comparisonExpression();
  if (!cmp) throw syntaxError('Expected an expression', ctx);
  return buildComparison(cmp);
}

function buildComparison(ctx: ComparisonExpressionContext): Expr {
  const operands = ctx.predicateExpression().map(buildPredicate);
  const ops = ctx.comparisonOperator().map((o) => (o.getText() === '<>' ? '<>' : o.getText()) as ComparisonOp);
  if (ops.length === 0) return operands[0];
  if (ops.length === 1) return { kind: 'Binary', op: ops[0], left: operands[0], right: operands[1], pos: posOf(ctx) };
  return { kind: 'ComparisonChain', operands, ops, pos: posOf(ctx) };
}

function buildPredicate(ctx: PredicateExpressionContext): Expr {
  let expr = buildAdditive(ctx.additiveExpression());
  const pos = posOf(ctx);
  for (const suffix of ctx.predicateSuffix()) {
    if (suffix instanceof NullSuffixContext) {
      expr = { kind: 'IsNull', operand: expr, negated: suffix.NOT() !== null, pos };
    } else if (suffix instanceof TypedSuffixContext) {
      expr = { kind: 'TypePredicate', operand: expr, typeName: typeNameOf(suffix.cypherType()), negated: suffix.NOT() !== null, pos };
    } else if (suffix instanceof TypeColonSuffixContext) {
      expr = { kind: 'TypePredicate', operand: expr, typeName: typeNameOf(suffix.cypherType()), negated: false, pos };
    } else if (suffix instanceof IsLabelSuffixContext) {
      expr = { kind: 'LabelCheck', operand: expr, labels: buildLabelOr(suffix.labelOr()), pos };
    } else if (suffix instanceof StartsWithSuffixContext) {
      expr = { kind: 'Binary', op: 'startsWith', left: expr, right: buildAdditive(suffix.additiveExpression()), pos };
    } else if (suffix instanceof EndsWithSuffixContext) {
      expr = { kind: 'Binary', op: 'endsWith', left: expr, right: buildAdditive(suffix.additiveExpression()), pos };
    } else if (suffix instanceof ContainsSuffixContext) {
      expr = { kind: 'Binary', op: 'contains', left: expr, right: buildAdditive(suffix.additiveExpression()), pos };
    } else if (suffix instanceof RegexSuffixContext) {
      expr = { kind: 'Binary', op: '=~', left: expr, right: buildAdditive(suffix.additiveExpression()), pos };
    } else if (suffix instanceof InSuffixContext) {
      expr = { kind: 'Binary', op: 'in', left: expr, right: buildAdditive(suffix.additiveExpression()), pos };
    } else {
      throw syntaxError('Unsupported predicate', suffix);
    }
  }
  return expr;
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

function buildAdditive(ctx: AdditiveExpressionContext): Expr {
  const parts = ctx.multiplicativeExpression();
  if (parts.length === 1) return buildMultiplicative(parts[0]);
  return foldBinary(ctx, buildMultiplicative, (t) => (t.type === GqlParser.PLUS ? '+' : '-'));
}

function buildMultiplicative(ctx: MultiplicativeExpressionContext): Expr {
  const parts = ctx.powerExpression();
  if (parts.length === 1) return buildPower(parts[0]);
  return foldBinary(ctx, buildPower, (t) => (t.type === GqlParser.STAR ? '*' : t.type === GqlParser.SLASH ? '/' : '%'));
}

function buildPower(ctx: PowerExpressionContext): Expr {
  const parts = ctx.unaryExpression();
  if (parts.length === 1) return buildUnary(parts[0]);
  return foldBinary(ctx, buildUnary, () => '^');
}

/** The number literal of a unary operand that is nothing but a number, for folding `-literal`. */
function bareNumber(ctx: UnaryExpressionContext): NumberLiteralContext | null {
  const postfix = ctx.postfixExpression();
  if (!postfix || postfix.postfix().length > 0) return null;
  const atom = postfix.atom();
  if (!(atom instanceof LiteralAtomContext)) return null;
  return atom.literal().numberLiteral();
}

function buildUnary(ctx: UnaryExpressionContext): Expr {
  const inner = ctx.unaryExpression();
  if (!inner) {
    const postfix = ctx.postfixExpression();
    if (!postfix) throw syntaxError('Expected an expression', ctx);
    return buildPostfix(postfix);
  }
  const pos = posOf(ctx);
  if (ctx.MINUS()) {
    const number = bareNumber(inner);
    if (number) return { kind: 'Literal', value: numberValue(number, true), pos };
    return { kind: 'Unary', op: '-', operand: buildUnary(inner), pos };
  }
  return { kind: 'Unary', op: '+', operand: buildUnary(inner), pos };
}

function buildPostfix(ctx: PostfixExpressionContext): Expr {
  let expr = buildAtom(ctx.atom());
  const pos = posOf(ctx);
  for (const p of ctx.postfix()) {
    if (p instanceof PropertyPostfixContext) {
      expr = { kind: 'Property', object: expr, key: schemaNameText(p.schemaName()), pos };
    } else if (p instanceof IndexPostfixContext) {
      expr = { kind: 'Index', object: expr, index: buildExpression(p.expression()), pos };
    } else if (p instanceof SlicePostfixContext) {
      const slice: Expr = { kind: 'Slice', object: expr, pos };
      if (p._from_) slice.from = buildExpression(p._from_);
      if (p._to) slice.to = buildExpression(p._to);
      expr = slice;
    } else if (p instanceof LabelPostfixContext) {
      expr = { kind: 'LabelCheck', operand: expr, labels: buildLabelOr(p.labelOr()), pos };
    } else {
      throw syntaxError('Unsupported expression suffix', p);
    }
  }
  return expr;
}

export function paramName(text: string): string {
  const name = text.slice(1);
  return name.startsWith('`') ? decodeEscapedName(name) : name;
}

export function buildAtom(ctx: AtomContext): Expr {
  const pos = posOf(ctx);
  if (ctx instanceof VariableAtomContext) return { kind: 'Var', name: variableName(ctx.variable()), pos };
  if (ctx instanceof LiteralAtomContext) return buildLiteral(ctx.literal());
  if (ctx instanceof FunctionAtomContext) return buildFunction(ctx.functionInvocation());
  if (ctx instanceof ParameterAtomContext) return { kind: 'Param', name: paramName(ctx.PARAMETER().getText()), pos };
  if (ctx instanceof ParenthesizedAtomContext) return buildExpression(ctx.expression());
  if (ctx instanceof CountStarAtomContext) return { kind: 'CountStar', pos };
  if (ctx instanceof CaseAtomContext) {
    const c = ctx.caseExpression();
    const expr: Expr = {
      kind: 'Case',
      whens: c.caseAlternative().map((w) => ({
        when: buildExpression(w.expression(0)!),
        then: buildExpression(w.expression(1)!),
      })),
      pos,
    };
    if (c._test) expr.test = buildExpression(c._test);
    if (c._elseExpr) expr.else = buildExpression(c._elseExpr);
    return expr;
  }
  if (ctx instanceof ListComprehensionAtomContext) {
    const c = ctx.listComprehension();
    const expr: Expr = {
      kind: 'ListComprehension',
      variable: variableName(c.variable()),
      source: buildExpression(c.expression(0)!),
      pos,
    };
    if (c._where) expr.where = buildExpression(c._where);
    if (c._projection) expr.projection = buildExpression(c._projection);
    return expr;
  }
  if (ctx instanceof PatternComprehensionAtomContext) {
    const c = ctx.patternComprehension();
    const pattern = buildRelationshipsChain(c.relationshipsChain());
    const variable = c.variable();
    if (variable) pattern.variable = variableName(variable);
    const expr: Expr = {
      kind: 'PatternComprehension',
      pattern,
      projection: buildExpression(c._projection!),
      pos,
    };
    if (c._where) expr.where = buildExpression(c._where);
    return expr;
  }
  if (ctx instanceof QuantifierAtomContext) {
    const c = ctx.quantifierExpression();
    const quantifier = c.ALL() ? 'all' : c.ANY() ? 'any' : c.NONE() ? 'none' : 'single';
    const expr: Expr = {
      kind: 'Quantifier',
      quantifier,
      variable: variableName(c.variable()),
      source: buildExpression(c.expression(0)!),
      pos,
    };
    if (c._where) expr.where = buildExpression(c._where);
    return expr;
  }
  if (ctx instanceof ReduceAtomContext) {
    const c = ctx.reduceExpression();
    return {
      kind: 'Reduce',
      accumulator: variableName(c._acc!),
      init: buildExpression(c._init!),
      variable: variableName(c._item!),
      source: buildExpression(c._source!),
      expr: buildExpression(c._body!),
      pos,
    };
  }
  if (ctx instanceof PatternAtomContext) {
    return { kind: 'PatternPredicate', pattern: buildRelationshipsChain(ctx.relationshipsChain()), pos };
  }
  if (ctx instanceof ShortestPathAtomContext) {
    const pattern = buildPatternElement(ctx.patternElement());
    pattern.shortest = { kind: ctx.SHORTESTPATH() ? 'shortest' : 'allShortest' };
    pattern.pos = pos;
    return { kind: 'PatternPredicate', pattern, pos };
  }
  if (ctx instanceof ExistsAtomContext) return { kind: 'ExistsSubquery', ...buildSubqueryBody(ctx.subqueryBody()), pos };
  if (ctx instanceof CountSubqueryAtomContext) return { kind: 'CountSubquery', ...buildSubqueryBody(ctx.subqueryBody()), pos };
  if (ctx instanceof CollectAtomContext) return { kind: 'CollectSubquery', query: buildQuery(ctx.query()), pos };
  if (ctx instanceof MapProjectionAtomContext) {
    const object: Expr = { kind: 'Var', name: variableName(ctx.variable()), pos };
    return { kind: 'MapProjection', object, items: ctx.mapProjectionItem().map(buildMapProjectionItem), pos };
  }
  throw syntaxError('Unsupported expression', ctx);
}

function buildSubqueryBody(ctx: SubqueryBodyContext): Pick<Extract<Expr, { kind: 'ExistsSubquery' }>, 'query' | 'patterns' | 'where'> {
  const query = ctx.query();
  if (query) return { query: buildQuery(query) };
  const patterns = ctx.patternList();
  if (!patterns) throw syntaxError('Expected a query or a pattern', ctx);
  const where = ctx.whereClause();
  return where ? { patterns: buildPatternList(patterns), where: buildExpression(where.expression()) } : { patterns: buildPatternList(patterns) };
}

function buildMapProjectionItem(ctx: MapProjectionItemContext): MapProjectionItem {
  if (ctx instanceof AllPropertiesSelectorContext) return { kind: 'AllProperties' };
  if (ctx instanceof PropertySelectorContext) return { kind: 'PropertySelector', key: schemaNameText(ctx.schemaName()) };
  if (ctx instanceof LiteralEntrySelectorContext) {
    return { kind: 'LiteralEntry', key: schemaNameText(ctx.schemaName()), value: buildExpression(ctx.expression()) };
  }
  if (ctx instanceof VariableSelectorContext) return { kind: 'VariableSelector', name: variableName(ctx.variable()) };
  throw syntaxError('Unsupported map projection item', ctx);
}

function buildFunction(ctx: FunctionInvocationContext): Expr {
  const nameCtx = ctx.functionName();
  const parts = nameCtx.schemaName().map(schemaNameText);
  parts.push(symbolicNameText(nameCtx.symbolicName()));
  return {
    kind: 'FunctionCall',
    name: parts.join('.'),
    distinct: ctx.DISTINCT() !== null,
    args: ctx.expression().map(buildExpression),
    pos: posOf(ctx),
  };
}

// ---------------------------------------------------------------- literals

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

function buildLiteral(ctx: LiteralContext): Expr {
  const pos = posOf(ctx);
  const number = ctx.numberLiteral();
  if (number) return { kind: 'Literal', value: numberValue(number, false), pos };
  const str = ctx.STRING_LITERAL();
  if (str) return { kind: 'Literal', value: decodeString(str.getText(), pos), pos };
  if (ctx.TRUE()) return { kind: 'Literal', value: true, pos };
  if (ctx.FALSE()) return { kind: 'Literal', value: false, pos };
  if (ctx.NULL()) return { kind: 'Literal', value: null, pos };
  const list = ctx.listLiteral();
  if (list) return buildListLiteral(list);
  const map = ctx.mapLiteral();
  if (map) return buildMapLiteral(map);
  throw syntaxError('Unsupported literal', ctx);
}

function buildListLiteral(ctx: ListLiteralContext): Expr {
  return { kind: 'List', items: ctx.expression().map(buildExpression), pos: posOf(ctx) };
}

export function buildMapLiteral(ctx: MapLiteralContext): MapExpr {
  return {
    kind: 'Map',
    entries: ctx.mapEntry().map((e) => ({ key: schemaNameText(e.schemaName()), value: buildExpression(e.expression()) })),
    pos: posOf(ctx),
  };
}
