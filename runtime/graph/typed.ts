/**
 * GQL value type predicates: `x IS [NOT] TYPED <type>` and `x :: <type>`. The type text
 * comes from the parser as written (upper-cased); it is parsed once per distinct text into
 * a small type tree and cached.
 */

import { Node, Rel } from '../../src/store/entities.js';
import { QuerySemanticError } from '../../src/errors.js';
import { FloatBox, Path, type Value } from '../values.js';
import { isExtendedValue } from '../types.js';

interface TypeSpec {
  name: string;
  nullable: boolean;
  element?: TypeSpec;
}

const SYNONYMS: Record<string, string> = {
  INT: 'INTEGER',
  INT64: 'INTEGER',
  SIGNED_INTEGER: 'INTEGER',
  FLOAT64: 'FLOAT',
  DOUBLE: 'FLOAT',
  BOOL: 'BOOLEAN',
  VARCHAR: 'STRING',
  NODE: 'NODE',
  ANY_NODE: 'NODE',
  VERTEX: 'NODE',
  RELATIONSHIP: 'RELATIONSHIP',
  EDGE: 'RELATIONSHIP',
  ANY_RELATIONSHIP: 'RELATIONSHIP',
  ARRAY: 'LIST',
  ANY: 'ANY',
  NOTHING: 'NOTHING',
  NULL: 'NULL',
};

const cache = new Map<string, TypeSpec>();

function parseType(text: string): TypeSpec {
  let t = text.trim().toUpperCase().replace(/\s+/g, ' ');
  let nullable = true;
  if (t.endsWith(' NOT NULL')) {
    nullable = false;
    t = t.slice(0, -' NOT NULL'.length).trim();
  } else if (t.endsWith('!')) {
    nullable = false;
    t = t.slice(0, -1).trim();
  }
  const list = /^(?:LIST|ARRAY)\s*<(.*)>$/.exec(t);
  if (list) return { name: 'LIST', nullable, element: parseType(list[1]) };
  const name = SYNONYMS[t.replace(/ /g, '_')] ?? t;
  const known = ['ANY', 'NOTHING', 'NULL', 'BOOLEAN', 'STRING', 'INTEGER', 'FLOAT', 'NUMBER', 'LIST', 'MAP', 'NODE', 'RELATIONSHIP', 'PATH', 'POINT', 'DATE', 'DURATION', 'LOCAL_TIME', 'LOCAL TIME', 'ZONED_TIME', 'ZONED TIME', 'TIME', 'LOCAL_DATETIME', 'LOCAL DATETIME', 'ZONED_DATETIME', 'ZONED DATETIME', 'DATETIME', 'LOCALTIME', 'LOCALDATETIME'];
  if (!known.includes(name)) throw new QuerySemanticError(`Unknown type in a type predicate: ${text}`, 'InvalidTypeName');
  return { name, nullable: name === 'NOTHING' ? false : nullable };
}

function normalise(name: string): string {
  return name.replace(/ /g, '_').replace('LOCALTIME', 'LOCAL_TIME').replace('LOCALDATETIME', 'LOCAL_DATETIME');
}

function matches(v: Value, t: TypeSpec): boolean {
  if (v === null) return t.nullable || t.name === 'NULL';
  switch (normalise(t.name)) {
    case 'ANY':
      return true;
    case 'NOTHING':
    case 'NULL':
      return false;
    case 'BOOLEAN':
      return typeof v === 'boolean';
    case 'STRING':
      return typeof v === 'string';
    case 'INTEGER':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'FLOAT':
      return (typeof v === 'number' && !Number.isInteger(v)) || v instanceof FloatBox;
    case 'NUMBER':
      return typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox;
    case 'LIST':
      return Array.isArray(v) && (t.element === undefined || v.every((x) => matches(x, t.element as TypeSpec)));
    case 'MAP':
      return v instanceof Map;
    case 'NODE':
      return v instanceof Node;
    case 'RELATIONSHIP':
      return v instanceof Rel;
    case 'PATH':
      return v instanceof Path;
    default: {
      if (!isExtendedValue(v)) return false;
      const want = normalise(t.name).replace('ZONED_DATETIME', 'DATETIME').replace('ZONED_TIME', 'TIME');
      const have = normalise(v.cypherType.toUpperCase()).replace('ZONED_DATETIME', 'DATETIME').replace('ZONED_TIME', 'TIME');
      return want === have;
    }
  }
}

export function isTyped(v: Value, typeName: Value, negated: boolean): boolean {
  const text = String(typeName);
  let spec = cache.get(text);
  if (spec === undefined) {
    spec = parseType(text);
    cache.set(text, spec);
  }
  const r = matches(v, spec);
  return negated ? !r : r;
}
