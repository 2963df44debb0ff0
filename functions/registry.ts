/**
 * The built-in function catalogue: one registry, looked up case-insensitively by name
 * (namespaced names keep their dots: `db.x`, `vector.similarity.cosine`). Other modules
 * (temporal, spatial, vector) add theirs with `registerFunction`. Aggregates live in
 * aggregates.ts with their own lookup.
 */

import { aggregateCatalogue } from './aggregates.js';
import { convertFunctions } from './convert.js';
import { graphFunctions } from './graph.js';
import { listFunctions } from './list.js';
import { mathFunctions } from './math.js';
import { spatialFunctions } from './spatial.js';
import { stringFunctions } from './string.js';
import { temporalFunctions } from './temporal.js';
import type { FunctionDef } from './types.js';

export type { ContextFunctionDef, FunctionContext, FunctionDef, PureFunctionDef } from './types.js';

const byName = new Map<string, FunctionDef>();

/** Adds a function; a second definition of the same name (case-insensitively) is a programming error. */
export function registerFunction(def: FunctionDef): void {
  const key = def.name.toLowerCase();
  if (byName.has(key)) throw new Error(`Function ${def.name} is already registered`);
  byName.set(key, def);
}

for (const group of [mathFunctions, stringFunctions, listFunctions, graphFunctions, convertFunctions, temporalFunctions, spatialFunctions]) {
  for (const def of group) registerFunction(def);
}

/** The function called `name` (any letter case), or undefined. */
export function lookupFunction(name: string): FunctionDef | undefined {
  return byName.get(name.toLowerCase());
}

export interface FunctionSummary {
  name: string;
  category: string;
  description: string;
  minArgs: number;
  /** `Infinity` for variadic functions such as coalesce. */
  maxArgs: number;
  aggregate: boolean;
}

/** Every function, scalar and aggregate, sorted by name (for SHOW FUNCTIONS and capability listings). */
export function functionCatalogue(): FunctionSummary[] {
  const scalar = [...byName.values()].map((d) => ({
    name: d.name,
    category: d.category,
    description: d.description,
    minArgs: d.minArgs,
    maxArgs: d.maxArgs,
    aggregate: false,
  }));
  const aggregate = aggregateCatalogue().map((a) => ({
    name: a.name,
    category: 'aggregating',
    description: a.description,
    minArgs: a.args,
    maxArgs: a.args,
    aggregate: true,
  }));
  return [...scalar, ...aggregate].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
}

export { isAggregateName, lookupAggregate } from './aggregates.js';
export type { AggregateDef, Aggregator } from './aggregates.js';
