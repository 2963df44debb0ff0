/**
 * A rough estimate of the fraction of rows a WHERE predicate keeps, for operators that
 * must size their work before seeing the rows (a filtered vector search decides how far to
 * over-fetch, or whether to scan exactly). Label checks use the graph's label counts; other
 * predicates use the customary fixed guesses (equality 10 %, ranges a third). A wrong guess
 * costs time only: the search widens until the quota is met.
 */

import type { Expr, LabelExpr } from '../frontend/ast.js';
import type { Statistics } from './context.js';

const EQUALITY = 0.1;
const RANGE = 1 / 3;
const OTHER = 0.5;

function labelFraction(l: LabelExpr, stats: Statistics): number {
  const total = Math.max(1, stats.nodeCount);
  switch (l.kind) {
    case 'Label':
      return Math.min(1, stats.labelCount(l.name) / total);
    case 'And':
      return l.items.reduce((p, i) => p * labelFraction(i, stats), 1);
    case 'Or':
      return Math.min(1, l.items.reduce((p, i) => p + labelFraction(i, stats), 0));
    case 'Not':
      return 1 - labelFraction(l.item, stats);
    case 'Wildcard':
      return 1;
  }
}

export function estimateSelectivity(e: Expr, stats: Statistics): number {
  const clamp = (x: number): number => Math.max(1e-6, Math.min(1, x));
  switch (e.kind) {
    case 'Binary':
      switch (e.op) {
        case 'and':
          return clamp(estimateSelectivity(e.left, stats) * estimateSelectivity(e.right, stats));
        case 'or':
          return clamp(estimateSelectivity(e.left, stats) + estimateSelectivity(e.right, stats));
        case '=':
          return EQUALITY;
        case '<>':
          return 1 - EQUALITY;
        case '<':
        case '>':
        case '<=':
        case '>=':
          return RANGE;
        case 'in':
          return clamp(e.right.kind === 'List' ? e.right.items.length * EQUALITY : RANGE);
        default:
          return OTHER;
      }
    case 'ComparisonChain':
      return RANGE * RANGE;
    case 'Unary':
      return e.op === 'not' ? clamp(1 - estimateSelectivity(e.operand, stats)) : OTHER;
    case 'LabelCheck':
      return clamp(labelFraction(e.labels, stats));
    case 'Literal':
      return e.value === true ? 1 : 1e-6;
    default:
      return OTHER;
  }
}
