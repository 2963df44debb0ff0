/**
 * Functions that read a value's observation: `graphdb.observation.class(x)`,
 * `graphdb.observation.confidence(x)`, `graphdb.observation.source(x)` and
 * `graphdb.observation.evidence(x)` for a node, relationship or map (null gives null). A fact
 * without the properties reads as observed with confidence 1.0.
 */

import { nullSafe1, pure } from '../../functions/define.js';
import { badArg, type FunctionDef } from '../../functions/types.js';
import { makeFloat, type Value } from '../../runtime/values.js';
import { Node, Rel } from '../store/entities.js';
import { evidenceIds, readObservation } from './model.js';

function reader(fn: string, v: Value): (key: string) => Value | undefined {
  if (v instanceof Node || v instanceof Rel) return (k) => v.prop(k);
  if (v instanceof Map) return (k) => v.get(k);
  throw badArg(fn, v, 'a node, relationship or map');
}

export const observationFunctions: readonly FunctionDef[] = [
  pure('graphdb.observation.class', 'graph', [1, 1], "A node's or relationship's observation class: observed (the default), inferred or predicted",
    nullSafe1((v) => readObservation(reader('graphdb.observation.class', v)).observationClass)),
  pure('graphdb.observation.confidence', 'graph', [1, 1], "A node's or relationship's confidence in [0, 1] (1.0 when it states none)",
    nullSafe1((v) => makeFloat(readObservation(reader('graphdb.observation.confidence', v)).confidence))),
  pure('graphdb.observation.source', 'graph', [1, 1], "A node's or relationship's provenance source, or null",
    nullSafe1((v) => readObservation(reader('graphdb.observation.source', v)).source)),
  pure('graphdb.observation.evidence', 'graph', [1, 1], 'The element ids an inferred fact was derived from (empty when none)',
    nullSafe1((v) => evidenceIds(reader('graphdb.observation.evidence', v)))),
];
