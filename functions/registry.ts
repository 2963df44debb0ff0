/**
 * The built-in function catalogue: one registry, looked up case-insensitively by name
 * (namespaced names keep their dots: `db.x`, `vector.similarity.cosine`). Other modules
 * (temporal, spatial, vector) add theirs with `registerFunction`. Aggregates live in
 * aggregates.ts with their own lookup.
 */

import { aggregateCatalogue } from './aggregates.js';
import { convertFunctions } from './convert.js';
import { existsFunctions } from './existsPattern.js';
import { graphFunctions } from './graph.js';
import { listFunctions } from './list.js';
import { mathFunctions } from './math.js';
import { spatialFunctions } from './spatial.js';
import { stringFunctions } from './string.js';
import { temporalFunctions } from './temporal.js';
import type { FunctionDef } from './types.js';
import { neo4j5Functions, syntaxFunctionListing } from './neo4j5.js';
import { similarityFunctions } from '../src/vector/similarity.js';
import { embeddingFunctions } from '../src/embed/functions.js';
import { observationFunctions } from '../src/observation/functions.js';
import { LazyModule } from '../src/lazy-module.js';

export type { ContextFunctionDef, FunctionContext, FunctionDef, PureFunctionDef } from './types.js';

const byName = new Map<string, FunctionDef>();

/** Adds a function; a second definition of the same name (case-insensitively) is a programming error. */
export function registerFunction(def: FunctionDef): void {
  const key = def.name.toLowerCase();
  if (byName.has(key)) throw new Error(`Function ${def.name} is already registered`);
  byName.set(key, def);
}

for (const group of [
  mathFunctions,
  stringFunctions,
  listFunctions,
  graphFunctions,
  convertFunctions,
  temporalFunctions,
  spatialFunctions,
  neo4j5Functions,
  existsFunctions,
  similarityFunctions,
  embeddingFunctions,
  observationFunctions,
]) {
  for (const def of group) registerFunction(def);
}

// APOC's scalar functions are the largest family and most queries call none: they register on
// the first lookup of an apoc. name not yet known, or the first full listing.
const apocScalar = new LazyModule<typeof import('./apoc/scalar.js')>(import.meta.url, './apoc/scalar.js', () => import('./apoc/scalar.js'));
let apocRegistered = false;

function registerApoc(): void {
  if (apocRegistered) return;
  const defs = apocScalar.get().apocScalarFunctions;
  apocRegistered = true;
  for (const def of defs) registerFunction(def);
}

/** The function called `name` (any letter case), or undefined. */
export function lookupFunction(name: string): FunctionDef | undefined {
  const key = name.toLowerCase();
  const def = byName.get(key);
  if (def !== undefined || apocRegistered || !key.startsWith('apoc.')) return def;
  registerApoc();
  return byName.get(key);
}

export interface FunctionSummary {
  name: string;
  category: string;
  description: string;
  minArgs: number;
  /** `Infinity` for variadic functions such as coalesce. */
  maxArgs: number;
  aggregate: boolean;
  /** Neo4j's signature text: `toUpper(input :: ANY) :: ANY`. */
  signature: string;
}

function signatureOf(name: string, min: number, max: number, aggregate: boolean): string {
  const args: string[] = [];
  const shown = max === Infinity ? min + 1 : max;
  for (let i = 0; i < shown; i++) args.push(`${i >= min ? '[' : ''}arg${i + 1} :: ANY${i >= min ? ']' : ''}${max === Infinity && i === shown - 1 ? '...' : ''}`);
  return `${aggregate ? 'aggregate ' : ''}${name}(${args.join(', ')}) :: ANY`;
}

/** Every function, scalar and aggregate, sorted by name (for SHOW FUNCTIONS and capability listings). */
export function functionCatalogue(): FunctionSummary[] {
  registerApoc();
  const scalar = [...byName.values()].map((d) => ({
    name: d.name,
    category: d.category,
    description: d.description,
    minArgs: d.minArgs,
    maxArgs: d.maxArgs,
    aggregate: false,
    signature: d.signature ?? signatureOf(d.name, d.minArgs, d.maxArgs, false),
  }));
  const aggregate = aggregateCatalogue().map((a) => ({
    name: a.name,
    category: 'aggregating',
    description: a.description,
    minArgs: a.minArgs,
    maxArgs: a.args,
    aggregate: true,
    signature: signatureOf(a.name, a.minArgs, a.args, true),
  }));
  const syntax = syntaxFunctionListing.map((d) => ({ ...d, aggregate: false }));
  return [...scalar, ...aggregate, ...syntax].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
}

export { isAggregateName, lookupAggregate } from './aggregates.js';
export type { AggregateDef, Aggregator } from './aggregates.js';
