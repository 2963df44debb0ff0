/**
 * Planner-made expressions over pattern slots, lowered by codegen's hidden helper
 * functions (names starting with a space, which user text cannot produce): every
 * relationship of a variable-length match has the given properties, a relationship bound
 * earlier joins the pattern's endpoints, and the other end of such a relationship.
 */

import type { Expr } from '../frontend/ast.js';
import type { PatternNode, PatternRel } from './context.js';
import { HIDDEN } from './names.js';
import type { BoundExpr } from './plan.js';

export function allRelsHaveProps(slot: string, props: Expr): Expr {
// all(r IN <list> WHERE r matches props) — expressed with a hidden function understood by codegen.
return {
  kind: 'FunctionCall',
  name: ' allRelsMatch',
  distinct: false,
  args: [{ kind: 'Var', name: HIDDEN + slot, pos: props.pos }, props],
  pos: props.pos,
};
}
export function relConnects(r: PatternRel, direction: 'out' | 'in' | 'both', from: PatternNode, to: PatternNode, into: boolean): BoundExpr {
const scope = new Map<string, string>([
  [HIDDEN + 'r', r.slot],
  [HIDDEN + 'a', from.slot],
  [HIDDEN + 'b', to.slot],
]);
const pos = r.pattern.pos;
return {
  expr: {
    kind: 'FunctionCall',
    name: ' relConnects',
    distinct: false,
    args: [
      { kind: 'Var', name: HIDDEN + 'r', pos },
      { kind: 'Var', name: HIDDEN + 'a', pos },
      into ? { kind: 'Var', name: HIDDEN + 'b', pos } : { kind: 'Literal', value: null, pos },
      { kind: 'Literal', value: direction, pos },
    ],
    pos,
  },
  scope,
};
}
export function otherEndExpr(relSlot: string, fromSlot: string, direction: 'out' | 'in' | 'both'): BoundExpr {
const pos = { line: 0, column: 0 };
return {
  expr: {
    kind: 'FunctionCall',
    name: ' otherEnd',
    distinct: false,
    args: [
      { kind: 'Var', name: HIDDEN + 'r', pos },
      { kind: 'Var', name: HIDDEN + 'a', pos },
      { kind: 'Literal', value: direction, pos },
    ],
    pos,
  },
  scope: new Map([
    [HIDDEN + 'r', relSlot],
    [HIDDEN + 'a', fromSlot],
  ]),
};
}
