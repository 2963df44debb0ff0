/**
 * Property type names as Neo4j's schema procedures report them (`String`, `Long`,
 * `DoubleArray`, …), and the per-label / per-type property survey that
 * db.schema.nodeTypeProperties, db.schema.relTypeProperties and apoc.meta.* share.
 */

import type { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import type { Value } from '../../runtime/values.js';
import { typeName } from '../../runtime/types.js';

const SCALAR_NAMES: Record<string, string> = {
  STRING: 'String',
  INTEGER: 'Long',
  FLOAT: 'Double',
  BOOLEAN: 'Boolean',
  DATE: 'Date',
  'ZONED DATETIME': 'DateTime',
  'LOCAL DATETIME': 'LocalDateTime',
  'ZONED TIME': 'Time',
  'LOCAL TIME': 'LocalTime',
  DURATION: 'Duration',
  POINT: 'Point',
  VECTOR: 'FloatArray',
};

/** Neo4j's name for the type of a stored property value. */
export function propertyTypeName(v: Value): string {
  if (Array.isArray(v)) {
    const first = v.find((x) => x !== null);
    return `${first === undefined ? 'String' : (SCALAR_NAMES[typeName(first)] ?? 'Any')}Array`;
  }
  return SCALAR_NAMES[typeName(v)] ?? 'Any';
}

/** One property seen on the entities of one label combination (or relationship type). */
export interface PropertySurvey {
  /** Label names (sorted) or the relationship type, as one element. */
  owner: string[];
  /** Entities with this owner. */
  total: number;
  /** Property key → types seen and how many entities carry it. */
  properties: Map<string, { types: Set<string>; count: number }>;
}

function survey<E extends Node | Rel>(entities: Iterable<E>, ownerOf: (e: E) => string[], tick: () => void): PropertySurvey[] {
  const out = new Map<string, PropertySurvey>();
  for (const e of entities) {
    tick();
    const owner = ownerOf(e);
    const key = owner.join('\u0000');
    let s = out.get(key);
    if (s === undefined) out.set(key, (s = { owner, total: 0, properties: new Map() }));
    s.total++;
    for (const [k, v] of e.propertyMap()) {
      let p = s.properties.get(k);
      if (p === undefined) s.properties.set(k, (p = { types: new Set(), count: 0 }));
      p.types.add(propertyTypeName(v));
      p.count++;
    }
  }
  return [...out.values()].sort((a, b) => (a.owner.join(':') < b.owner.join(':') ? -1 : 1));
}

/** Properties by label combination of the nodes that carry them. */
export function surveyNodes(g: Graph, tick: () => void): PropertySurvey[] {
  return survey(g.allNodes(), (n) => [...n.labels].sort(), tick);
}

/** Properties by relationship type. */
export function surveyRels(g: Graph, tick: () => void): PropertySurvey[] {
  return survey(g.allRels(), (r) => [r.type], tick);
}

/** A deadline check that only looks at the clock every 4096 calls. */
export function everyFewThousand(check: () => void): () => void {
  let n = 0;
  return () => {
    if ((++n & 4095) === 0) check();
  };
}

/** A label or type as Neo4j's schema procedures print it: always in backticks (`:\`Person\``). */
export function backticked(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
