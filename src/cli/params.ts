/**
 * Query parameters typed on the command line (`--param name=value`) or in the REPL
 * (`:param name=value`). The value is read as JSON when it is valid JSON (`42`, `1.5`,
 * `true`, `null`, `"text"`, `[1,2]`, `{"a":1}`) and as a plain string otherwise, so
 * `--param name=Ann` needs no quoting.
 */

import { ArgumentError } from '../errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads `name=value`; the name may carry a leading `$`. */
export function parseParam(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq < 0) {
    throw new ArgumentError(
      `Parameter "${text}" is not of the form name=value (put the query before --param, e.g. graphdb query "RETURN $x" --param x=1)`,
    );
  }
  const name = text.slice(0, eq).trim().replace(/^\$/, '');
  if (!NAME.test(name)) throw new ArgumentError(`Parameter name "${name}" is not a valid name (letters, digits and _; not starting with a digit)`);
  return [name, parseParamValue(text.slice(eq + 1))];
}

export function parseParamValue(raw: string): unknown {
  const text = raw.trim();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return raw;
  }
}

/** All `name=value` texts as one parameter object; a later value for a name wins. */
export function parseParams(texts: readonly string[]): Record<string, unknown> {
  // A null-prototype object: `--param __proto__=…` names an ordinary parameter.
  const params = Object.create(null) as Record<string, unknown>;
  for (const text of texts) {
    const [name, value] = parseParam(text);
    params[name] = value;
  }
  return params;
}
