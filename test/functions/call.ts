/** Test helper: calls a registered function by name the way generated code would. */
import { lookupFunction, type FunctionContext } from '../../functions/registry.js';
import type { Value } from '../../runtime/values.js';

export const ctx: FunctionContext = { statementTime: 1700000000123, random: () => 0.25 };

export function call(name: string, ...args: Value[]): Value {
  const def = lookupFunction(name);
  if (!def) throw new Error(`no function ${name}`);
  if (args.length < def.minArgs || args.length > def.maxArgs) throw new Error(`bad arity for ${name}`);
  return def.needsContext ? def.impl(ctx, ...args) : def.impl(...args);
}
