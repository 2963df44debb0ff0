/**
 * AST building for graph patterns: path patterns with their selectors and modes, node and
 * relationship patterns, variable-length ranges and GQL quantifiers, quantified groups and
 * label expressions (`:A:B`, `:A|B`, `:A&!B`, `:%`, `IS A`).
 */

import {
  AllShortestPathsBodyContext,
  type ExpressionContext,
  type MapLiteralContext,
  AllShortestSelectorContext,
  AnyKSelectorContext,
  AnyShortestSelectorContext,
  LabelConjunctionContext,
  LabelDisjunctionContext,
  type LabelExprContext,
  type LabelExpressionContext,
  LabelNameContext,
  LabelNegationContext,
  LabelParenthesizedContext,
  LabelWildcardContext,
  LabelDynamicContext,
  type DynamicLabelContext,
  type NodePatternContext,
  type PatternElementContext,
  type PatternListContext,
  type PatternPartContext,
  type PatternStepContext,
  type PropertiesContext,
  type QuantifiedGroupContext,
  type QuantifierContext,
  type RangeLiteralContext,
  type RelationshipPatternContext,
  type RelationshipsChainContext,
  ShortestKSelectorContext,
  ShortestPathBodyContext,
  PlainPathBodyContext,
  type PathSelectorContext,
} from './generated/GqlParser.js';
import type {
  Direction,
  Expr,
  MapExpr,
  LabelExpr,
  NodePattern,
  PathMode,
  PathPattern,
  PathStep,
  QuantifiedGroup,
  RelPattern,
} from './ast.js';
import { paramName, posOf, schemaNameText, smallInteger, syntaxError, tokenPos, variableName } from './parseCommon.js';

// ---------------------------------------------------------------- label expressions

/**
 * The pattern part of the AST builder. Patterns hold expressions (property maps, WHERE)
 * and expressions hold patterns, so the builder is one class in layers: patterns here,
 * expressions (parseExpressions.ts) and clauses (astBuilder.ts) in subclasses; each file
 * imports only the layer below it.
 */
export abstract class PatternBuilder {
  abstract buildExpression(ctx: ExpressionContext): Expr;
  abstract buildMapLiteral(ctx: MapLiteralContext): MapExpr;

  buildPatternList(ctx: PatternListContext): PathPattern[] {
    return ctx.patternPart().map((c) => this.buildPatternPart(c));
  }

  buildPatternPart(ctx: PatternPartContext): PathPattern {
    const body = ctx.pathPatternBody();
    let path: PathPattern;
    if (body instanceof ShortestPathBodyContext) {
      path = this.buildPatternElement(body.patternElement());
      path.shortest = { kind: 'shortest' };
    } else if (body instanceof AllShortestPathsBodyContext) {
      path = this.buildPatternElement(body.patternElement());
      path.shortest = { kind: 'allShortest' };
    } else if (body instanceof PlainPathBodyContext) {
      path = this.buildPatternElement(body.patternElement());
      const selector = body.pathSelector();
      if (selector) path.shortest = buildSelector(selector);
      const mode = body.pathMode();
      if (mode) path.mode = (mode.getChild(0)?.getText() ?? 'WALK').toUpperCase() as PathMode;
    } else {
      throw syntaxError('Unsupported path pattern', ctx);
    }
    const variable = ctx.variable();
    if (variable) path.variable = variableName(variable);
    path.pos = posOf(ctx);
    return path;
  }

  /** A pattern element (possibly parenthesised) as a path without variable. */
  buildPatternElement(ctx: PatternElementContext): PathPattern {
    const inner = ctx.patternElement();
    if (inner) return this.buildPatternElement(inner);
    const node = ctx.nodePattern();
    if (!node) throw syntaxError('Expected a node pattern', ctx);
    return {
      kind: 'PathPattern',
      start: this.buildNodePattern(node),
      steps: ctx.patternStep().map((c) => this.buildPatternStep(c)),
      pos: posOf(ctx),
    };
  }

  /** A path used as an expression or in a pattern comprehension. */
  buildRelationshipsChain(ctx: RelationshipsChainContext): PathPattern {
    return {
      kind: 'PathPattern',
      start: this.buildNodePattern(ctx.nodePattern()),
      steps: ctx.patternStep().map((c) => this.buildPatternStep(c)),
      pos: posOf(ctx),
    };
  }

  buildPatternStep(ctx: PatternStepContext): PathStep {
    const node = this.buildNodePattern(ctx.nodePattern());
    const rel = ctx.relationshipPattern();
    if (rel) return { rel: this.buildRelationshipPattern(rel), node };
    const group = ctx.quantifiedGroup();
    if (!group) throw syntaxError('Expected a relationship pattern', ctx);
    return { group: this.buildQuantifiedGroup(group), node };
  }

  buildQuantifiedGroup(ctx: QuantifiedGroupContext): QuantifiedGroup {
    const path = this.buildPatternElement(ctx.patternElement());
    const variable = ctx.variable();
    if (variable) path.variable = variableName(variable);
    const bounds = buildQuantifier(ctx.quantifier());
    const group: QuantifiedGroup = { kind: 'QuantifiedGroup', path, min: bounds.min ?? 1, pos: posOf(ctx) };
    if (bounds.max !== undefined) group.max = bounds.max;
    const where = ctx.whereClause();
    if (where) group.where = this.buildExpression(where.expression());
    return group;
  }

  buildNodePattern(ctx: NodePatternContext): NodePattern {
    const node: NodePattern = { kind: 'NodePattern', pos: posOf(ctx) };
    const variable = ctx.variable();
    if (variable) node.variable = variableName(variable);
    const labels = ctx.labelExpression();
    if (labels) node.labels = this.buildLabelExpression(labels);
    const props = ctx.properties();
    if (props) node.properties = this.buildProperties(props);
    const where = ctx.whereClause();
    if (where) node.where = this.buildExpression(where.expression());
    return node;
  }

  buildProperties(ctx: PropertiesContext): Expr {
    const map = ctx.mapLiteral();
    if (map) return this.buildMapLiteral(map);
    const param = ctx.PARAMETER();
    if (!param) throw syntaxError('Expected a map or a parameter', ctx);
    return { kind: 'Param', name: paramName(param.getText()), pos: tokenPos(param.symbol) };
  }

  buildRelationshipPattern(ctx: RelationshipPatternContext): RelPattern {
    const left = ctx._left !== null && ctx._left !== undefined;
    const right = ctx._right !== null && ctx._right !== undefined;
    const direction: Direction = left && !right ? 'in' : right && !left ? 'out' : 'both';
    const rel: RelPattern = { kind: 'RelPattern', direction, pos: posOf(ctx) };
    const detail = ctx.relationshipDetail();
    if (detail) {
      const variable = detail.variable();
      if (variable) rel.variable = variableName(variable);
      const types = detail.labelExpression();
      if (types) rel.types = this.buildLabelExpression(types);
      const range = detail.rangeLiteral();
      if (range) rel.length = buildRange(range);
      const props = detail.properties();
      if (props) rel.properties = this.buildProperties(props);
      const where = detail.whereClause();
      if (where) rel.where = this.buildExpression(where.expression());
    }
    const quantifier = ctx.quantifier();
    if (quantifier) {
      if (rel.length) throw syntaxError('A relationship cannot have both a variable length and a quantifier', quantifier, 'InvalidRelationshipPattern');
      rel.length = buildQuantifier(quantifier);
    }
    return rel;
  }

  buildLabelExpression(ctx: LabelExpressionContext): LabelExpr {
    return this.buildLabelExpr(ctx.labelExpr());
  }

  /** `$(e)`, `$all(e)` or `$any(e)`: any other `$name(` is a syntax error. */
  buildDynamicLabel(ctx: DynamicLabelContext): Extract<LabelExpr, { kind: 'Dynamic' }> {
    const quantifier = ctx.PARAMETER()?.getText().slice(1).toLowerCase();
    if (quantifier !== undefined && quantifier !== 'all' && quantifier !== 'any') {
      throw syntaxError(`Invalid input '$${quantifier}(': a dynamic label or type is written $(…), $all(…) or $any(…)`, ctx);
    }
    return { kind: 'Dynamic', expr: this.buildExpression(ctx.expression()), any: quantifier === 'any' };
  }

  /** Builds a label expression; nested conjunctions (disjunctions) are flattened into one item list. */
  buildLabelExpr(ctx: LabelExprContext): LabelExpr {
    if (ctx instanceof LabelNameContext) return { kind: 'Label', name: schemaNameText(ctx.schemaName()) };
    if (ctx instanceof LabelWildcardContext) return { kind: 'Wildcard' };
    if (ctx instanceof LabelDynamicContext) return this.buildDynamicLabel(ctx.dynamicLabel());
    if (ctx instanceof LabelParenthesizedContext) return this.buildLabelExpr(ctx.labelExpr());
    if (ctx instanceof LabelNegationContext) return { kind: 'Not', item: this.buildLabelExpr(ctx.labelExpr()) };
    if (ctx instanceof LabelConjunctionContext || ctx instanceof LabelDisjunctionContext) {
      const kind = ctx instanceof LabelConjunctionContext ? 'And' : 'Or';
      const items: LabelExpr[] = [];
      for (const side of ctx.labelExpr()) {
        const built = this.buildLabelExpr(side);
        if (built.kind === kind) items.push(...built.items);
        else items.push(built);
      }
      return { kind, items };
    }
    throw syntaxError('Expected a label', ctx);
  }
}

function buildSelector(ctx: PathSelectorContext): NonNullable<PathPattern['shortest']> {
  if (ctx instanceof AnyShortestSelectorContext) return { kind: 'shortest' };
  if (ctx instanceof AllShortestSelectorContext) return { kind: 'allShortest' };
  if (ctx instanceof ShortestKSelectorContext) {
    return { kind: 'shortestK', k: smallInteger(ctx.DECIMAL_INTEGER().symbol, ctx) };
  }
  if (ctx instanceof AnyKSelectorContext) {
    const k = ctx.DECIMAL_INTEGER();
    return { kind: 'anyK', k: k ? smallInteger(k.symbol, ctx) : 1 };
  }
  throw syntaxError('Unsupported path selector', ctx);
}

/** GQL quantifiers: `{m,n}`, `{,n}`, `{m,}`, `{n}`, `+`, `*`. */
function buildQuantifier(ctx: QuantifierContext): { min?: number; max?: number } {
  if (ctx.PLUS()) return { min: 1 };
  if (ctx.STAR() && !ctx.LBRACE()) return { min: 0 };
  if (ctx._exact) {
    const n = smallInteger(ctx._exact, ctx);
    return { min: n, max: n };
  }
  const min = ctx._lower ? smallInteger(ctx._lower, ctx) : 0;
  const max = ctx._upper ? smallInteger(ctx._upper, ctx) : undefined;
  if (max !== undefined && max < min) {
    throw syntaxError(`Quantifier {${min},${max}} has an upper bound below its lower bound`, ctx, 'InvalidQuantifier');
  }
  return max === undefined ? { min } : { min, max };
}

/** `*`, `*n`, `*m..n`, `*..n`, `*m..` */
function buildRange(ctx: RangeLiteralContext): { min?: number; max?: number } {
  const lower = ctx._lower ? smallInteger(ctx._lower, ctx) : undefined;
  const upper = ctx._upper ? smallInteger(ctx._upper, ctx) : undefined;
  if (!ctx.DOTDOT()) return lower === undefined ? {} : { min: lower, max: lower };
  const length: { min?: number; max?: number } = {};
  if (lower !== undefined) length.min = lower;
  if (upper !== undefined) length.max = upper;
  return length;
}
