/**
 * Where aggregates may stand (only in projections, never nested, never inside
 * comprehension bodies) and the grouping rule: outside its aggregates, an aggregating
 * expression may only use grouping keys.
 */

import type { Expr } from './ast.js';
import { NON_DETERMINISTIC_FUNCTIONS, exprChildren, exprEquals, isAggregate, semantic } from './semanticHelpers.js';
import { ScopeChecker } from './semanticScope.js';

export abstract class AggregateChecker extends ScopeChecker {
  protected noAggregates(e: Expr, where: string): void {
    this.aggregates(e, false, where);
  }

  /** Where aggregates may stand: only in projections, never nested, never in comprehension bodies. */
  protected aggregates(expr: Expr, allowed: boolean, where: string): void {
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

  /**
   * Outside its aggregates, an expression that aggregates may only use variables and
   * property accesses that are grouping keys themselves, plus literals and parameters.
   */
  protected checkGrouping(expr: Expr, groupingKeys: Expr[]): void {
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
}
