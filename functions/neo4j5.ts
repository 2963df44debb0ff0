/**
 * Neo4j 5 built-ins that the other modules do not cover: nullIf, valueType, linenumber,
 * file, db.nameFromElementId; and the listing entries of the functions Cypher writes as
 * syntax (all/any/none/single/reduce), which SHOW FUNCTIONS lists as Neo4j does but which
 * compile through their own AST nodes, never through the function registry.
 */

import { Node, Rel } from '../src/store/entities.js';
import { Path, type Value } from '../runtime/values.js';
import { equals } from '../runtime/compare.js';
import { typeName } from '../runtime/types.js';
import { pure, withContext } from './define.js';
import { parseElementId } from './graph.js';
import { strArg, type FunctionDef } from './types.js';

/** Neo4j's type text of a value: `INTEGER NOT NULL`, `LIST<STRING NOT NULL> NOT NULL`, `NULL`. */
export function valueTypeOf(v: Value): string {
  if (v === null) return 'NULL';
  return `${innerType(v)} NOT NULL`;
}

function innerType(v: Value): string {
  if (Array.isArray(v)) {
    const types = new Set(v.filter((x) => x !== null).map(innerType));
    const hasNull = v.some((x) => x === null);
    if (types.size === 0) return hasNull ? 'LIST<NULL>' : 'LIST<NOTHING>';
    const t = types.size === 1 ? [...types][0] : 'ANY';
    return `LIST<${t}${hasNull || t === 'ANY' ? '' : ' NOT NULL'}>`;
  }
  if (v instanceof Node) return 'NODE';
  if (v instanceof Rel) return 'RELATIONSHIP';
  if (v instanceof Path) return 'PATH';
  const t = typeName(v);
  return t === 'VECTOR' ? 'LIST<FLOAT NOT NULL>' : t;
}

export const neo4j5Functions: FunctionDef[] = [
  pure('nullIf', 'scalar', [2, 2], 'Null when the two values are equal, else the first value', (a = null, b = null) => (equals(a, b) === true ? null : a)),
  pure('valueType', 'scalar', [1, 1], "The type of a value as Neo4j writes it ('INTEGER NOT NULL', 'LIST<STRING NOT NULL> NOT NULL', …)", (v = null) => valueTypeOf(v)),
  withContext('linenumber', 'scalar', [0, 0], 'The 1-based line of the file on which the row LOAD CSV produced last ends (null outside LOAD CSV)', (ctx) => ctx.csvPosition?.line ?? null),
  withContext('file', 'scalar', [0, 0], 'The absolute path of the file LOAD CSV is reading (null outside LOAD CSV)', (ctx) => ctx.csvPosition?.file ?? null),
  pure('db.nameFromElementId', 'graph', [1, 1], 'The name of the database an element id belongs to (null for a malformed id)', (id = null) =>
    id === null ? null : parseElementId(strArg('db.nameFromElementId', id)) === undefined ? null : 'neo4j',
  ),
];

/** Functions Cypher writes as syntax; listed for SHOW FUNCTIONS only. */
export const syntaxFunctionListing: { name: string; category: string; description: string; signature: string; minArgs: number; maxArgs: number }[] = [
  { name: 'all', category: 'predicate', description: 'True when the predicate holds for every element of a list', signature: 'all(variable :: VARIABLE IN list :: LIST<ANY> WHERE predicate :: ANY) :: BOOLEAN', minArgs: 1, maxArgs: 1 },
  { name: 'any', category: 'predicate', description: 'True when the predicate holds for at least one element of a list', signature: 'any(variable :: VARIABLE IN list :: LIST<ANY> WHERE predicate :: ANY) :: BOOLEAN', minArgs: 1, maxArgs: 1 },
  { name: 'none', category: 'predicate', description: 'True when the predicate holds for no element of a list', signature: 'none(variable :: VARIABLE IN list :: LIST<ANY> WHERE predicate :: ANY) :: BOOLEAN', minArgs: 1, maxArgs: 1 },
  { name: 'single', category: 'predicate', description: 'True when the predicate holds for exactly one element of a list', signature: 'single(variable :: VARIABLE IN list :: LIST<ANY> WHERE predicate :: ANY) :: BOOLEAN', minArgs: 1, maxArgs: 1 },
  { name: 'reduce', category: 'list', description: 'Folds a list into one value with an accumulator expression', signature: 'reduce(accumulator :: VARIABLE = initial :: ANY, variable :: VARIABLE IN list :: LIST<ANY> | expression :: ANY) :: ANY', minArgs: 1, maxArgs: 1 },
];
