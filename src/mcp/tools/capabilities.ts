/**
 * get_capabilities' answer: what this engine can do, read from the live registries where
 * they exist (procedures, functions) so the list never drifts from the code. Returned as
 * JSON text: algorithms, procedures, functions, observation classes, query features, and the
 * registered skills with their descriptions and parameter schemas (run one with
 * `CALL skills.run(name, params)` through read_query, or skills.runWrite through write_query).
 */

import { functionCatalogue } from '../../../functions/registry.js';
import type { Database } from '../../engine/database.js';
import { procedureSignature } from '../../../procedures/registry.js';
import { OBSERVATION_CLASSES } from '../../observation/model.js';
import { parameterSchema } from '../../skills/skill.js';

/** Query-language features this version supports (checked against the engine's tests). */
const QUERY_FEATURES: readonly string[] = [
  'MATCH', 'OPTIONAL MATCH', 'WHERE', 'RETURN', 'WITH', 'UNWIND', 'ORDER BY / SKIP / LIMIT', 'DISTINCT',
  'UNION / UNION ALL', 'CREATE', 'MERGE (ON CREATE / ON MATCH)', 'SET', 'REMOVE', 'DELETE', 'DETACH DELETE',
  'FOREACH', 'CALL procedure YIELD', 'CALL { subquery }', 'EXISTS / COUNT / COLLECT subqueries',
  'variable-length relationships', 'shortestPath', 'label expressions (:A|B, :!A, :%)', 'list comprehensions',
  'pattern comprehensions', 'map projections', 'CASE', 'FILTER / LET', 'parameters ($name)', 'EXPLAIN',
  'aggregation with implicit grouping',
];

export interface Capabilities {
  algorithms: string[];
  procedures: { name: string; mode: string; signature: string; description: string }[];
  functions: { name: string; category: string }[];
  function_count: number;
  observation_classes: string[];
  query_features: string[];
  skills: { name: string; description: string; mode: string; parameters: Record<string, unknown>; run: string }[];
}

export function capabilities(db: Database): Capabilities {
  const procedures = db.procedures.list();
  const functions = functionCatalogue().map((f) => ({ name: f.name, category: f.category }));
  return {
    algorithms: procedures.filter((p) => p.name.startsWith('algo.')).map((p) => p.name),
    procedures: procedures.map((p) => ({ name: p.name, mode: p.mode.toUpperCase(), signature: procedureSignature(p), description: p.description })),
    functions,
    function_count: functions.length,
    observation_classes: [...OBSERVATION_CLASSES],
    query_features: [...QUERY_FEATURES],
    skills: db.skills.list().map((s) => ({
      name: s.name,
      description: s.description,
      mode: s.mode,
      parameters: parameterSchema(s),
      run: `${s.mode === 'read' ? 'read_query' : 'write_query'}: CALL ${s.mode === 'read' ? 'skills.run' : 'skills.runWrite'}('${s.name}', {…}) YIELD value RETURN value`,
    })),
  };
}
