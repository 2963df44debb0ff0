/**
 * Reads the `OPTIONS {…}` map of an index definition. Options are literals (maps, lists,
 * strings, numbers, booleans) known when the command runs; anything else is rejected with a
 * typed error rather than evaluated.
 */

import type { Expr } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';

export type OptionValue = string | number | boolean | null | OptionValue[] | { [key: string]: OptionValue };

export function optionValue(e: Expr): OptionValue {
  switch (e.kind) {
    case 'Literal':
      return typeof e.value === 'bigint' ? Number(e.value) : e.value;
    case 'List':
      return e.items.map(optionValue);
    case 'Map': {
      const out: { [key: string]: OptionValue } = {};
      for (const entry of e.entries) out[entry.key] = optionValue(entry.value);
      return out;
    }
    case 'Unary':
      if (e.op === '-' && e.operand.kind === 'Literal' && (typeof e.operand.value === 'number' || typeof e.operand.value === 'bigint')) {
        return -Number(e.operand.value);
      }
      break;
    default:
      break;
  }
  throw new QuerySemanticError('Index options must be literal values', 'InvalidIndexOptions', e.pos);
}

/** The `indexConfig` map of the options (empty when absent), keyed by setting name. */
export function indexConfig(options: Expr | undefined): Record<string, OptionValue> {
  if (!options) return {};
  const all = optionValue(options);
  if (all === null || typeof all !== 'object' || Array.isArray(all)) throw new QuerySemanticError('OPTIONS must be a map', 'InvalidIndexOptions', options.pos);
  const config = all.indexConfig;
  if (config === undefined || config === null) return {};
  if (typeof config !== 'object' || Array.isArray(config)) throw new QuerySemanticError('indexConfig must be a map', 'InvalidIndexOptions', options.pos);
  return config;
}
