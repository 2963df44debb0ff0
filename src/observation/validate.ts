/**
 * The write-path check of observation properties: every transaction's change records are
 * scanned before it commits (the engine calls this on each commit path), and a record that
 * gives `observation_class` or `confidence` a value the model does not allow makes
 * the whole transaction fail with an ObservationValueError. Checking the change records
 * rather than each write API means no write path (CREATE, SET, MERGE, procedures, LOAD CSV,
 * bulk loads) can slip past it.
 */

import type { Value } from '../../runtime/values.js';
import type { ChangeRecord } from '../store/changes.js';
import { CLASS_KEY, CONFIDENCE_KEY, ObservationValueError, observationProblem } from './model.js';

function check(what: string, key: string, value: Value): void {
  if (key !== CLASS_KEY && key !== CONFIDENCE_KEY) return;
  const problem = observationProblem(key, value);
  if (problem) throw new ObservationValueError(`${what}: ${problem.why}`, problem.detail);
}

/** Whether a creation sets a key the model constrains: two lookups, where most creations set neither. */
function observed(props: ReadonlyMap<string, Value>): boolean {
  return props.has(CLASS_KEY) || props.has(CONFIDENCE_KEY);
}

/** Throws ObservationValueError for the first change that breaks the observation model. */
export function validateObservationChanges(changes: readonly ChangeRecord[]): void {
  for (const c of changes) {
    switch (c.op) {
      case 'createNode':
        if (observed(c.props)) for (const [k, v] of c.props) check(`Node(${c.id})`, k, v);
        break;
      case 'createRel':
        if (observed(c.props)) for (const [k, v] of c.props) check(`Relationship(${c.id}) of type ${c.type}`, k, v);
        break;
      case 'setProperty':
        check(c.entity === 'node' ? `Node(${c.id})` : `Relationship(${c.id})`, c.key, c.value);
        break;
      default:
        break;
    }
  }
}
