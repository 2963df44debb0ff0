/**
 * AST building for expressions: the precedence levels of the grammar folded into
 * left-associative Unary/Binary nodes, comparison chains, string/list/null/type/label
 * predicates, postfix property/index/slice/label operations and every kind of atom
 * (literals, parameters, CASE, comprehensions, quantifiers, reduce, pattern predicates,
 * EXISTS / COUNT / COLLECT subqueries, function calls, map projections).
 */

import type { TerminalNode } from 'antlr4ng';
import type { BinaryOp, ComparisonOp, Expr, MapExpr, MapProjectionItem } from './ast.js';
import {
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
  posOf,
  schemaNameText,
  symbolicNameText,
  syntaxError,
  tokenPos,
  variableName,
} from './parseCommon.js';
import { decodeEscapedName, decodeFloat, decodeInteger, decodeString, invalidNumber } from './parseLiterals.js';
import { buildLabelExpr, buildPatternElement, buildPatternList, buildRelationshipsChain } from './parsePatterns.js';
import { buildQuery } from './astBuilder.js';

export function buildExpression(ctx: ExpressionContext): Expr {
  const pos = posOf(ctx);
  if (ctx instanceof AtomExpressionContext) return buildAtom(ctx.atom());
  if (ctx instanceof PropertyExpressionContext) {
    return { kind: 'Property', object: buildExpression(ctx.expression()), key: schemaNameText(ctx.schemaName()), pos };
  }
  if (ctx instanceof IndexExpressionContext) {
    return { kind: 'Index', object: buildExpression(ctx.expression(0)!), index: buildExpression(ctx._index!), pos };
  }
  if (ctx instanceof SliceExpressionContext) {
    const slice: Expr = { kind: 'Slice', object: buildExpression(ctx.expression(0)!), pos };
    if (ctx._from_) slice.from = buildExpression(ctx._from_);
    if (ctx._to) slice.to = buildExpression(ctx._to);
    return slice;
  }
  if (ctx instanceof LabelCheckExpressionContext) {
    return { kind: 'LabelCheck', operand: buildExpression(ctx.expression()), labels: buildLabelExpr(ctx.labelExpr()), pos };
  }
  if (ctx instanceof UnaryExpressionContext) {
    const operand = ctx.expression();
    if (ctx.MINUS()) {
      const number = bareNumber(operand);
      if (number) return { kind: 'Literal', value: numberValue(number, true), pos };
      return { kind: 'Unary', op: '-', operand: buildExpression(operand), pos };
    }
    return { kind: 'Unary', op: '+', operand: buildExpression(operand), pos };
  }
  if (ctx instanceof NotExpressionContext) return { kind: 'Unary', op: 'not', operand: buildExpression(ctx.expression()), pos };
  if (ctx instanceof PowerExpressionContext) return binary(ctx, '^', pos);
  if (ctx instanceof MultiplicativeExpressionContext) {
    return binary(ctx, ctx.STAR() ? '*' : ctx.SLASH() ? '/' : '%', pos);
  }
  if (ctx instanceof AdditiveExpressionContext) return binary(ctx, ctx.PLUS() ? '+' : '-', pos);
  if (ctx instanceof StringListExpressionContext) {
    const op: BinaryOp = ctx.STARTS() ? 'startsWith' : ctx.ENDS() ? 'endsWith' : ctx.CONTAINS() ? 'contains' : ctx.REGEQ() ? '=~' : 'in';
    return binary(ctx, op, pos);
  }
  if (ctx instanceof NullCheckExpressionContext) {
    return { kind: 'IsNull', operand: buildExpression(ctx.expression()), negated: ctx.NOT() !== null, pos };
  }
  if (ctx instanceof TypedExpressionContext) {
    return { kind: 'TypePredicate', operand: buildExpression(ctx.expression()), typeName: typeNameOf(ctx.cypherType()), negated: ctx.NOT() !== null, pos };
  }
  if (ctx instanceof TypeColonExpressionContext) {
    return { kind: 'TypePredicate', operand: buildExpression(ctx.expression()), typeName: typeNameOf(ctx.cypherType()), negated: false, pos };
  }
  if (ctx instanceof IsLabelExpressionContext) {
    return { kind: 'LabelCheck', operand: buildExpression(ctx.expression()), labels: buildLabelExpr(ctx.labelExpr()), pos };
  }
  if (ctx instanceof ComparisonExpressionContext) return buildComparison(ctx, pos);
  if (ctx instanceof AndExpressionContext) return binary(ctx, 'and', pos);
  if (ctx instanceof XorExpressionContext) return binary(ctx, 'xor', pos);
  if (ctx instanceof OrExpressionContext) return binary(ctx, 'or', pos);
  throw syntaxError('Unsupported expression', ctx);
}

type BinaryContext = { expression(i: number): ExpressionContext | null };

function binary(ctx: BinaryContext & ExpressionContext, op: BinaryOp, pos: Expr['pos']): Expr {
  return { kind: 'Binary', op, left: buildExpression(ctx.expression(0)!), right: buildExpression(ctx.expression(1)!), pos };
}

/** `a < b <= c` parses left-nested; unparenthesised nested comparisons become one chain. */
function buildComparison(ctx: ComparisonExpressionContext, pos: Expr['pos']): Expr {
  const operands: ExpressionContext[] = [];
  const ops: ComparisonOp[] = [];
  let current: ExpressionContext = ctx;
  while (current instanceof ComparisonExpressionContext) {
    operands.unshift(current.expression(1)!);
    ops.unshift(current.comparisonOperator().getText() as ComparisonOp);
    current = current.expression(0)!;
  }
  operands.unshift(current);
  const built = operands.map(buildExpression);
  if (ops.length === 1) return { kind: 'Binary', op: ops[0], left: built[0], right: built[1], pos };
  return { kind: 'ComparisonChain', operands: built, ops, pos };
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
    else if (c._where && expr.where) {
      const split = splitTrailingLabelAlternative(c._where, expr.where);
      if (split) expr.projection = split;
    }
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
  const parts = nameCtx.symbolicName().map(symbolicNameText);
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
