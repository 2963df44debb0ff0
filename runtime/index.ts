/**
 * One import for generated code and engine modules: every value-semantics entry point of
 * runtime/ (arithmetic, comparison and ordering, grouping keys, value operations,
 * formatting and JS conversion). Graph-access helpers live in runtime/graph/.
 */

export { add, sub, mul, div, mod, pow, neg, pos, type ArithOp, type ArithmeticOperand } from './arith.js';
export { equals, notEquals, compare, lt, lte, gt, gte, orderCompare, orderCompareDesc, compareStrings } from './compare.js';
export { groupKey, rowKey, type GroupKey } from './groupkey.js';
export {
  and,
  or,
  xor,
  not,
  isTrue,
  asBoolean,
  isNull,
  inList,
  unwindList,
  index,
  slice,
  property,
  hasLabels,
  hasAnyLabel,
  startsWith,
  endsWith,
  contains,
  regexMatch,
  toNumberOrNull,
  type PropertyAccessible,
} from './ops.js';
export { compileRegex, type Matcher } from './regex.js';
export { formatValue, formatFloat, formatName, quoteString, cellText, fromJs, toJs, type JsNode, type JsRelationship, type JsPath } from './format.js';
export { typeName, describe, isExtendedValue } from './types.js';
