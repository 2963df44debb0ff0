/**
 * An estimate of the fraction of rows a WHERE predicate keeps, for operators that must size
 * their work before seeing the rows (a filtered vector search decides how far to over-fetch,
 * or whether to scan exactly). Label checks use the graph's label counts. A comparison of a
 * property of a *subject* — a variable whose label is known, such as the entity a vector
 * index search yields — with a literal (or a parameter) asks the store's property statistics
 * (`Statistics.propertySelectivity`: a property index, else a sample of the label). Other
 * predicates use the customary fixed guesses (equality 10 %, ranges a third). A wrong guess
 * costs time only: the search widens until the quota is met.
 */

import type { Expr, LabelExpr } from '../frontend/ast.js';
import type { PlanLiteral, PropertyTest, Statistics } from './context.js';

const EQUALITY = 0.1;
const RANGE = 1 / 3;
const OTHER = 0.5;

/** A variable whose entities are known to carry a label (type). */
export interface FilterSubject {
  entity: 'node' | 'relationship';
  label: string;
}

/** The estimate and what it was read from (for EXPLAIN). */
export interface FilterEstimate {
  selectivity: number;
  /** Statistics used, e.g. `property index on :Doc(lang)`; empty when only fixed guesses applied. */
  basis: string[];
}

const FLIP: Record<string, PropertyTest> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '=': '=', '<>': '<>' };

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
    case 'Dynamic':
      return 0.5;
  }
}

const clamp = (x: number): number => Math.max(1e-6, Math.min(1, x));

class Estimator {
  readonly basis = new Set<string>();

  constructor(
    private readonly stats: Statistics,
    private readonly subjects: ReadonlyMap<string, FilterSubject>,
  ) {}

  /** `subject.key` on one side and a literal or parameter on the other: the property statistic, when there is one. */
  private property(test: PropertyTest, left: Expr, right: Expr): number | undefined {
    const flipped = left.kind !== 'Property' && right.kind === 'Property';
    const [prop, other] = flipped ? [right, left] : [left, right];
    if (prop.kind !== 'Property' || prop.object.kind !== 'Var') return undefined;
    const subject = this.subjects.get(prop.object.name);
    if (!subject || !this.stats.propertySelectivity) return undefined;
    let value: PlanLiteral | undefined;
    if (other.kind === 'Literal') value = other.value;
    else if (other.kind !== 'Param') return undefined;
    const found = this.stats.propertySelectivity(subject.entity, subject.label, prop.key, flipped ? FLIP[test] : test, value);
    if (!found) return undefined;
    this.basis.add(found.basis);
    return clamp(found.fraction);
  }

  estimate(e: Expr): number {
    switch (e.kind) {
      case 'Binary':
        switch (e.op) {
          case 'and':
            return clamp(this.estimate(e.left) * this.estimate(e.right));
          case 'or':
            return clamp(this.estimate(e.left) + this.estimate(e.right));
          case '=':
          case '<>':
          case '<':
          case '>':
          case '<=':
          case '>=':
            return this.property(e.op, e.left, e.right) ?? (e.op === '=' ? EQUALITY : e.op === '<>' ? 1 - EQUALITY : RANGE);
          case 'in':
            if (e.right.kind === 'List') {
              const list = e.right;
              return clamp(list.items.reduce((s, item) => s + (this.property('=', e.left, item) ?? EQUALITY), 0));
            }
            return RANGE;
          default:
            return OTHER;
        }
      case 'ComparisonChain': {
        let s = 1;
        for (let i = 0; i < e.ops.length; i++) s *= this.property(e.ops[i], e.operands[i], e.operands[i + 1]) ?? RANGE;
        return clamp(s);
      }
      case 'IsNull': {
        const known = e.operand.kind === 'Property' ? this.property(e.negated ? 'isNotNull' : 'isNull', e.operand, { kind: 'Literal', value: null, pos: e.pos }) : undefined;
        return known ?? OTHER;
      }
      case 'Unary':
        return e.op === 'not' ? clamp(1 - this.estimate(e.operand)) : OTHER;
      case 'LabelCheck':
        return clamp(labelFraction(e.labels, this.stats));
      case 'Literal':
        return e.value === true ? 1 : 1e-6;
      default:
        return OTHER;
    }
  }
}

/** The selectivity of `e`, knowing the labels of `subjects`, with the statistics it used. */
export function estimateFilter(e: Expr, stats: Statistics, subjects: ReadonlyMap<string, FilterSubject>): FilterEstimate {
  const estimator = new Estimator(stats, subjects);
  const selectivity = estimator.estimate(e);
  return { selectivity, basis: [...estimator.basis] };
}
