/**
 * Test procedures declared by scenarios (`And there exists a procedure ns.name(in :: T?, …)
 * :: (out :: T?, …):` plus a table). Parses the signature, and builds a ProcedureDef whose
 * `invoke` yields the output columns of every table row whose input columns equal the
 * call's arguments, in table order.
 *
 * Argument matching follows the Call features: a `FLOAT?` input accepts an integer
 * argument as the equal float (Call3 [5]: `CALL test.my.proc(42)` selects the row `42.0`);
 * otherwise values match only when they are the same value of the same type (a `NUMBER?`
 * input called with `42` selects the row `42`, not `42.3`). A table whose header is empty
 * (a lone `|`) has no rows.
 */

import type { ProcedureDef, ProcedureField } from '../../procedures/registry.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { literalToValue, parseLiteral } from './literals.js';
import { valueKey } from './sideEffects.js';

export interface ProcedureSignature {
  name: string;
  inputs: ProcedureField[];
  outputs: ProcedureField[];
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '(' || c === '[' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '>') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function parseFields(list: string): ProcedureField[] {
  return splitTopLevel(list).map((f) => {
    const i = f.indexOf('::');
    if (i < 0) throw new Error(`procedure field without a type: '${f}'`);
    return { name: f.slice(0, i).trim(), type: f.slice(i + 2).trim() };
  });
}

/** Parses the step text `there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?):`. */
export function parseProcedureSignature(stepText: string): ProcedureSignature {
  const m = /^there exists a procedure\s+([\w.]+)\s*\((.*?)\)\s*::\s*\((.*)\)\s*:?\s*$/.exec(stepText.trim());
  if (!m) throw new Error(`cannot read procedure signature: ${stepText}`);
  return { name: m[1]!, inputs: parseFields(m[2]!), outputs: parseFields(m[3]!) };
}

function isFloatType(type: string): boolean {
  return /^FLOAT\??$/i.test(type.trim());
}

/** The value as a `FLOAT?` input sees it: integers become the equal float. */
function coerceForType(v: Value, type: string): Value {
  if (!isFloatType(type)) return v;
  if (typeof v === 'bigint') return new FloatBox(Number(v));
  if (typeof v === 'number' && Number.isInteger(v)) return new FloatBox(v);
  return v;
}

/** Builds the procedure a scenario declares from its signature and table. */
export function buildProcedure(sig: ProcedureSignature, table: string[][]): ProcedureDef {
  const header = table[0] ?? [];
  const nIn = sig.inputs.length;
  const nOut = sig.outputs.length;
  const rows: { keys: string[]; outputs: Value[] }[] = [];
  if (header.length > 0) {
    if (header.length !== nIn + nOut) {
      throw new Error(`procedure table has ${header.length} columns, signature has ${nIn} inputs and ${nOut} outputs`);
    }
    for (const row of table.slice(1)) {
      const values = row.map((c) => literalToValue(parseLiteral(c)));
      rows.push({
        keys: sig.inputs.map((f, i) => valueKey(coerceForType(values[i] ?? null, f.type))),
        outputs: values.slice(nIn),
      });
    }
  }
  return {
    name: sig.name,
    inputs: sig.inputs,
    outputs: sig.outputs,
    mode: 'read',
    description: 'Test procedure declared by a TCK scenario',
    *invoke(_ctx, args: Value[]): Iterable<Value[]> {
      const argKeys = sig.inputs.map((f, i) => valueKey(coerceForType(args[i] ?? null, f.type)));
      for (const r of rows) {
        if (r.keys.every((k, i) => k === argKeys[i])) yield [...r.outputs];
      }
    },
  };
}
