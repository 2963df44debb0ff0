/**
 * The skill procedures:
 *
 * - `skills.register(name, description, query, {parameters})`: checks the name, compiles the
 *   query (a compile error, or a `$param` the parameters do not declare, is refused), records
 *   whether it reads or writes, and stores the skill durably; registering a name again
 *   replaces the skill;
 * - `skills.list()`: name, description, mode, parameters, query;
 * - `skills.run(name, params) YIELD value`: runs a read-only skill inside the calling query,
 *   one map per row (as apoc.cypher.run yields); `skills.runWrite` runs any skill, and is
 *   itself a write, so read-only doors (MCP read_query) refuse it;
 * - `skills.remove(name)`.
 *
 * `parameters` maps each name to a type (`'STRING'`; `'STRING?'` for optional) or to
 * `{type, description, required}`.
 */

import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { field, hostOf, mapOrEmpty, procedure, withAccess } from '../../procedures/define.js';
import type { Value } from '../../runtime/values.js';
import { ArgumentError, ProcedureError, ValueTypeError } from '../errors.js';
import { bindArguments, isParameterType, PARAMETER_TYPES, SKILL_NAME, type Skill, type SkillParameter } from './skill.js';
import type { SkillStore } from './store.js';

/** What registration learns from compiling a skill's query. */
export type InspectQuery = (query: string) => { mutates: boolean; params: readonly string[] } | undefined;

function parameterOf(skill: string, name: string, v: Value): SkillParameter {
  let type: string;
  let description = '';
  let required = true;
  if (typeof v === 'string') {
    type = v.trim().toUpperCase();
    if (type.endsWith('?')) {
      required = false;
      type = type.slice(0, -1);
    }
  } else if (v instanceof Map) {
    type = String(v.get('type') ?? 'ANY').toUpperCase();
    const d = v.get('description');
    if (typeof d === 'string') description = d;
    if (v.get('required') === false) required = false;
  } else {
    throw new ValueTypeError(`skills.register: parameter \`${name}\` of ${skill} must be a type name or a map {type, description, required}`, 'InvalidArgumentType');
  }
  if (!isParameterType(type)) {
    throw new ArgumentError(`skills.register: parameter \`${name}\` of ${skill} has the unknown type ${type}; the types are ${PARAMETER_TYPES.join(', ')}`, 'InvalidArgumentValue');
  }
  return { type, description, required };
}

export function defineSkill(inspect: InspectQuery, name: Value, description: Value, query: Value, config: Value): Skill {
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    throw new ArgumentError('skills.register: the name must start with a letter and hold only letters, digits, _, - and . (at most 100 characters)', 'InvalidSkillName');
  }
  if (typeof description !== 'string' || description.trim() === '') throw new ArgumentError(`skills.register: skill ${name} needs a description (agents choose skills by it)`, 'InvalidArgumentValue');
  if (typeof query !== 'string' || query.trim() === '') throw new ArgumentError(`skills.register: skill ${name} needs a query`, 'InvalidArgumentValue');
  const cfg = mapOrEmpty(config, 'skills.register', 'config');
  for (const key of cfg.keys()) if (key !== 'parameters') throw new ArgumentError(`skills.register: unknown option \`${key}\`; the option is parameters`, 'InvalidArgumentValue');
  const parameters: Record<string, SkillParameter> = {};
  for (const [p, v] of mapOrEmpty(cfg.get('parameters') ?? null, 'skills.register', 'parameters')) parameters[p] = parameterOf(name, p, v);
  let compiled: ReturnType<InspectQuery>;
  try {
    compiled = inspect(query);
  } catch (err) {
    throw new ArgumentError(`skills.register: the query of skill ${name} does not compile: ${err instanceof Error ? err.message : String(err)}`, 'InvalidSkillQuery');
  }
  if (compiled === undefined) throw new ArgumentError(`skills.register: the query of skill ${name} must be a query (not a schema command or EXPLAIN)`, 'InvalidSkillQuery');
  const undeclared = compiled.params.filter((p) => !(p in parameters));
  if (undeclared.length > 0) {
    throw new ArgumentError(`skills.register: the query of skill ${name} uses ${undeclared.map((p) => '$' + p).join(', ')}, which its parameters do not declare`, 'InvalidSkillQuery');
  }
  return { name, description: description.trim(), query, parameters, mode: compiled.mutates ? 'write' : 'read' };
}

/** Runs the skill `name` inside the calling query (`skills` looks it up: the store, or on a query worker the primary's list). */
export function runSkill(skills: Pick<SkillStore, 'get'>, ctx: ProcedureContext, proc: string, name: Value, params: Value, allowWrites: boolean): Value[][] {
  if (typeof name !== 'string') throw new ValueTypeError(`${proc}: the skill name must be a string`, 'InvalidArgumentType');
  const skill = skills.get(name);
  if (!skill) throw new ProcedureError(`There is no skill called ${JSON.stringify(name)}; CALL skills.list() shows them`, 'SkillNotFound', 'runtime');
  if (skill.mode === 'write' && !allowWrites) {
    throw new ProcedureError(`Skill ${name} changes the graph; run it with skills.runWrite (a write call)`, 'WriteSkillInReadCall', 'runtime');
  }
  const args = bindArguments(skill, mapOrEmpty(params, proc, 'params'));
  const result = hostOf(ctx, proc).runNested(skill.query, args, allowWrites);
  return result.records.map((rec) => [new Map(result.columns.map((c, i) => [c, rec[i]]))]);
}

function runProcedure(store: SkillStore, name: string, mode: 'read' | 'write', description: string): ProcedureDef {
  return procedure(name, mode, description, [field('name', 'STRING?'), field('params', 'MAP?', new Map())], [field('value', 'MAP?')], (ctx, [skill, params]) =>
    runSkill(store, ctx, name, skill, params, mode === 'write'),
  );
}

export function skillProcedures(store: SkillStore, inspect: InspectQuery): ProcedureDef[] {
  return [
    // Registering and removing skills changes what every agent is offered: administration.
    withAccess('admin', procedure(
      'skills.register',
      'write',
      'Registers (or replaces) a skill: a named, described, parameterised query agents can discover (skills.list, MCP get_capabilities) and run (skills.run).',
      [field('name', 'STRING?'), field('description', 'STRING?'), field('query', 'STRING?'), field('config', 'MAP?', new Map())],
      [field('name', 'STRING?'), field('mode', 'STRING?'), field('parameters', 'LIST? OF STRING?')],
      (_ctx, [name, description, query, config]) => {
        const skill = defineSkill(inspect, name, description, query, config);
        store.put(skill);
        return [[skill.name, skill.mode, Object.keys(skill.parameters)]];
      },
    )),
    procedure(
      'skills.list',
      'read',
      'The registered skills: name, description, mode (read or write), parameters (name → type) and query.',
      [],
      [field('name', 'STRING?'), field('description', 'STRING?'), field('mode', 'STRING?'), field('parameters', 'MAP?'), field('query', 'STRING?')],
      () =>
        store.list().map((s) => [
          s.name,
          s.description,
          s.mode,
          new Map(Object.entries(s.parameters).map(([n, p]) => [n, p.required ? p.type : `${p.type}?`])),
          s.query,
        ]),
    ),
    runProcedure(store, 'skills.run', 'read', 'Runs a read-only skill with a map of parameters; yields one map per result row.'),
    runProcedure(store, 'skills.runWrite', 'write', 'Runs any skill (including one that changes the graph) with a map of parameters; yields one map per result row.'),
    withAccess('admin', procedure(
      'skills.remove',
      'write',
      'Removes a skill; `removed` is false when there was none of that name.',
      [field('name', 'STRING?')],
      [field('name', 'STRING?'), field('removed', 'BOOLEAN?')],
      (_ctx, [name]) => {
        if (typeof name !== 'string') throw new ValueTypeError('skills.remove: the skill name must be a string', 'InvalidArgumentType');
        return [[name, store.remove(name)]];
      },
    )),
  ];
}

export function registerSkillProcedures(registry: ProcedureRegistry, store: SkillStore, inspect: InspectQuery): void {
  for (const def of skillProcedures(store, inspect)) registry.register(def);
}
