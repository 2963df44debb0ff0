/**
 * What a skill is: a named, described, parameterised query an agent can discover and run.
 * This module owns the shape, the parameter types and the checks of a call's arguments
 * against a skill's declared parameters (missing, unknown, mistyped → typed errors).
 */

import type { Value } from '../../runtime/values.js';
import { isTyped } from '../../runtime/graph/typed.js';
import { ArgumentError, ValueTypeError } from '../errors.js';

export const PARAMETER_TYPES = ['STRING', 'INTEGER', 'FLOAT', 'NUMBER', 'BOOLEAN', 'LIST', 'MAP', 'NODE', 'RELATIONSHIP', 'ANY'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface SkillParameter {
  type: ParameterType;
  description: string;
  required: boolean;
}

export interface Skill {
  name: string;
  description: string;
  query: string;
  parameters: Record<string, SkillParameter>;
  /** Decided at registration by compiling the query. */
  mode: 'read' | 'write';
}

/** Skill names: letters, digits, `_`, `-` and `.`, starting with a letter; at most 100 characters. */
export const SKILL_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

export function isParameterType(t: string): t is ParameterType {
  return (PARAMETER_TYPES as readonly string[]).includes(t);
}

/** Whether `v` has the parameter's type (the engine's own type test; FLOAT also takes an integer, as Cypher's arithmetic does). */
function hasType(type: ParameterType, v: Value): boolean {
  return isTyped(v, type === 'FLOAT' ? 'NUMBER' : type, false);
}

/** The query parameters for a run: every declared required parameter present, each of its type, nothing undeclared. */
export function bindArguments(skill: Skill, args: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const key of args.keys()) {
    if (!(key in skill.parameters)) {
      const declared = Object.keys(skill.parameters);
      throw new ArgumentError(
        `Skill ${skill.name} has no parameter \`${key}\`; its parameters are ${declared.length > 0 ? declared.join(', ') : '(none)'}`,
        'UnknownSkillParameter',
      );
    }
  }
  for (const [name, p] of Object.entries(skill.parameters)) {
    const v = args.get(name);
    if (v === undefined || v === null) {
      if (p.required) throw new ArgumentError(`Skill ${skill.name} needs the parameter \`${name}\` (${p.type}${p.description ? `: ${p.description}` : ''})`, 'SkillParameterMissing');
      out.set(name, null);
      continue;
    }
    if (!hasType(p.type, v)) throw new ValueTypeError(`Skill ${skill.name}: parameter \`${name}\` must be ${p.type}`, 'SkillParameterType');
    out.set(name, v);
  }
  return out;
}

/** A JSON Schema of the skill's parameters (for MCP get_capabilities). */
export function parameterSchema(skill: Skill): Record<string, unknown> {
  const json: Record<ParameterType, string | undefined> = {
    STRING: 'string', INTEGER: 'integer', FLOAT: 'number', NUMBER: 'number', BOOLEAN: 'boolean', LIST: 'array', MAP: 'object',
    NODE: undefined, RELATIONSHIP: undefined, ANY: undefined,
  };
  const properties: Record<string, Record<string, string>> = {};
  for (const [name, p] of Object.entries(skill.parameters)) {
    const t = json[p.type];
    properties[name] = { ...(t ? { type: t } : {}), ...(p.description ? { description: p.description } : {}) };
  }
  const required = Object.entries(skill.parameters).filter(([, p]) => p.required).map(([n]) => n);
  return { type: 'object', properties, required, additionalProperties: false };
}
