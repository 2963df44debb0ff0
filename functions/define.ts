/**
 * Small constructors for function definitions, so implementation modules read as tables.
 * `nullSafe` wraps an implementation so that a null in any of the first `n` arguments
 * yields null without calling it — the usual openCypher rule.
 */

import type { Value } from '../runtime/values.js';
import type { ContextFunctionDef, FunctionContext, PureFunctionDef } from './types.js';

export function pure(
  name: string,
  category: string,
  args: [number, number],
  description: string,
  impl: (...args: Value[]) => Value,
): PureFunctionDef {
  return { name, category, minArgs: args[0], maxArgs: args[1], description, needsContext: false, impl };
}

export function withContext(
  name: string,
  category: string,
  args: [number, number],
  description: string,
  impl: (ctx: FunctionContext, ...args: Value[]) => Value,
): ContextFunctionDef {
  return { name, category, minArgs: args[0], maxArgs: args[1], description, needsContext: true, impl };
}

/** Null in the first argument → null. */
export function nullSafe1(f: (a: Value) => Value): (...args: Value[]) => Value {
  return (a = null) => (a === null ? null : f(a));
}

/** Null in either of the first two arguments → null. */
export function nullSafe2(f: (a: Value, b: Value) => Value): (...args: Value[]) => Value {
  return (a = null, b = null) => (a === null || b === null ? null : f(a, b));
}

/** Null in any argument → null. */
export function nullSafeAll(f: (...args: Value[]) => Value): (...args: Value[]) => Value {
  return (...args) => {
    for (let i = 0; i < args.length; i++) if (args[i] === null) return null;
    return f(...args);
  };
}
