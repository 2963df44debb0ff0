/**
 * The runtime object generated code receives as `rt`: one flat namespace gathering the
 * value semantics (runtime/), graph helpers (runtime/graph/) and write operations that
 * compiled queries call. Keeping it flat makes every call site a single property load.
 */

import * as arith from '../runtime/arith.js';
import * as compare from '../runtime/compare.js';
import * as ops from '../runtime/ops.js';
import { groupKey, rowKey } from '../runtime/groupkey.js';
import * as patterns from '../runtime/graph/patterns.js';
import * as writes from '../runtime/graph/writes.js';
import { dynamicType, hasDynamic, withDynamicLabels } from '../runtime/graph/dynamic-labels.js';
import * as misc from '../runtime/graph/misc.js';
import { kShortestPaths, shortestPaths } from '../runtime/graph/shortest.js';
import { isTyped } from '../runtime/graph/typed.js';
import { loadCsv } from '../runtime/graph/csv.js';
import { propertyAt, propertyRef, valueAt } from '../runtime/graph/columns.js';
import { intoProbe, mayConnect } from '../runtime/graph/into-probe.js';
import { scanRange, topKCandidates } from '../runtime/graph/column-scan.js';
import { held, heldValue, release, tooManyRows } from '../runtime/governor.js';
import { rangeSpan } from '../functions/list.js';

export const RT = {
  // arithmetic
  add: arith.add,
  sub: arith.sub,
  mul: arith.mul,
  div: arith.div,
  mod: arith.mod,
  pow: arith.pow,
  neg: arith.neg,
  unaryPlus: arith.pos,
  // comparison
  equals: compare.equals,
  notEquals: compare.notEquals,
  lt: compare.lt,
  lte: compare.lte,
  gt: compare.gt,
  gte: compare.gte,
  orderCompare: compare.orderCompare,
  groupKey,
  groupKeyOf: rowKey,
  // logic, strings, lists, properties
  and: ops.and,
  or: ops.or,
  xor: ops.xor,
  not: ops.not,
  inList: ops.inList,
  startsWith: ops.startsWith,
  endsWith: ops.endsWith,
  contains: ops.contains,
  regexMatch: ops.regexMatch,
  index: ops.index,
  slice: ops.slice,
  property: ops.property,
  propertyRef,
  propertyAt,
  valueAt,
  scanRange,
  topKCandidates,
  toList: ops.unwindList,
  rangeSpan,
  // patterns
  typeIds: patterns.typeIds,
  intoProbe,
  mayConnect,
  varExpand: patterns.varExpand,
  hasDynamic,
  withDynamicLabels,
  dynamicType,
  tick: patterns.tick,
  buildPath: patterns.buildPath,
  hasAllLabels: patterns.hasAllLabels,
  labelCheck: patterns.labelCheck,
  relTypeMatches: patterns.relTypeMatches,
  matchProperties: patterns.matchProperties,
  allRelsMatch: patterns.allRelsMatch,
  isBoundNode: patterns.isBoundNode,
  relConnects: patterns.relConnects,
  otherEnd: patterns.otherEnd,
  disjoint: patterns.disjoint,
  allDistinctRels: patterns.allDistinctRels,
  shortestPaths,
  kShortestPaths,
  repeatGroup: patterns.repeatGroup,
  pathModeHolds: patterns.pathModeHolds,
  distinctEnds: patterns.distinctEnds,
  nodeById: patterns.nodeById,
  indexSeek: patterns.indexSeek,
  indexRange: patterns.indexRange,
  // writes
  createNode: writes.createNode,
  createRel: writes.createRel,
  requireNodeForCreate: writes.requireNodeForCreate,
  checkMergeable: writes.checkMergeable,
  setProperty: writes.setProperty,
  setDynamicProperty: writes.setDynamicProperty,
  setProperties: writes.setProperties,
  addLabels: writes.addLabels,
  removeLabels: writes.removeLabels,
  removeProperty: writes.removeProperty,
  deleteValue: writes.deleteValue,
  // misc
  param: misc.param,
  countValue: misc.countValue,
  listComprehension: misc.listComprehension,
  quantifier: misc.quantifier,
  reduce: misc.reduce,
  mapProjection: misc.mapProjection,
  distinctRows: misc.distinctRows,
  callProcedure: misc.callProcedure,
  isTyped,
  loadCsv,
  // memory accounting of held rows (runtime/governor.ts)
  held,
  heldValue,
  tooManyRows,
  release,
};

export type Runtime = typeof RT;
