/**
 * String functions: toUpper/toLower (and upper/lower), trim/ltrim/rtrim/btrim, left,
 * right, substring, replace, split, char_length/character_length, normalize. Positions
 * and lengths count Unicode code points, not UTF-16 units.
 */

import { activeLimits, checkListSize, checkStringLength } from '../runtime/governor.js';
import { ArgumentError } from '../src/errors.js';
import type { Value } from '../runtime/values.js';
import { nullSafe1, nullSafeAll, pure } from './define.js';
import { badArg, countArg, strArg, type FunctionDef } from './types.js';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether every code point of `s` is one UTF-16 unit (then unit offsets are code point offsets). */
function isSimple(s: string): boolean {
  return !SURROGATE.test(s);
}

/** Number of code points. */
export function codePointLength(s: string): number {
  let n = s.length;
  if (isSimple(s)) return n;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const p = s.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

/** Substring by code point offsets [start, start + length). */
export function codePointSlice(s: string, start: number, length = Infinity): string {
  if (isSimple(s)) return s.slice(start, length === Infinity ? undefined : start + length);
  return Array.from(s)
    .slice(start, length === Infinity ? undefined : start + length)
    .join('');
}

function trimChars(fn: string, s: string, chars: Value | undefined, left: boolean, right: boolean): string {
  if (chars === undefined) return left && right ? s.trim() : left ? s.trimStart() : s.trimEnd();
  const set = new Set(Array.from(strArg(fn, chars)));
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  if (left) while (a < b && set.has(cps[a])) a++;
  if (right) while (b > a && set.has(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
}

function trimFn(name: string, left: boolean, right: boolean, description: string): FunctionDef {
  return pure(name, 'string', [1, 2], description, (s = null, chars) => {
    if (s === null || chars === null) return null;
    return trimChars(name, strArg(name, s), chars, left, right);
  });
}

function substring(...args: Value[]): Value {
  const [s = null, start = null, length] = args;
  if (s === null || start === null || length === null) return null;
  const str = strArg('substring', s);
  const from = countArg('substring', start);
  if (length === undefined) return codePointSlice(str, from);
  return codePointSlice(str, from, countArg('substring', length));
}

function left(s: Value, n: Value): Value {
  return codePointSlice(strArg('left', s), 0, countArg('left', n));
}

function right(s: Value, n: Value): Value {
  const str = strArg('right', s);
  const k = countArg('right', n);
  const len = codePointLength(str);
  return k >= len ? str : codePointSlice(str, len - k);
}

/** How many parts `str.split(delim)` makes, counted without making them (and only just past the list limit). */
function splitCount(str: string, delim: string): number {
  if (delim === '') return str.length;
  const max = activeLimits().maxListSize;
  let n = 1;
  for (let at = str.indexOf(delim); at >= 0 && n <= max; at = str.indexOf(delim, at + delim.length)) n++;
  return n;
}

function split(s: Value, delim: Value): Value {
  const str = strArg('split', s);
  if (typeof delim === 'string') {
    checkListSize(splitCount(str, delim), 'split()');
    return str.split(delim);
  }
  if (Array.isArray(delim)) {
    const ds = delim.map((d) => strArg('split', d)).filter((d) => d.length > 0);
    if (ds.length === 0) {
      checkListSize(str.length, 'split()');
      return str.split('');
    }
    const parts: Value[] = [];
    let from = 0;
    let i = 0;
    while (i < str.length) {
      const d = ds.find((x) => str.startsWith(x, i));
      if (d !== undefined) {
        checkListSize(parts.length + 2, 'split()');
        parts.push(str.slice(from, i));
        i += d.length;
        from = i;
      } else i++;
    }
    parts.push(str.slice(from));
    return parts;
  }
  throw badArg('split', delim, 'a string or a list of strings');
}

function replace(s: Value, search: Value, repl: Value): Value {
  const str = strArg('replace', s);
  const from = strArg('replace', search);
  const to = strArg('replace', repl);
  if (to.length > from.length) {
    // Checked before building: an empty search inserts between every two characters.
    const occurrences = from.length === 0 ? str.length + 1 : str.split(from).length - 1;
    checkStringLength(str.length + occurrences * (to.length - from.length), 'replace()');
  }
  return str.replaceAll(from, () => to);
}

function normalize(...args: Value[]): Value {
  const [s = null, form = 'NFC'] = args;
  if (s === null || form === null) return null;
  const f = strArg('normalize', form).toUpperCase();
  if (f !== 'NFC' && f !== 'NFD' && f !== 'NFKC' && f !== 'NFKD') {
    throw new ArgumentError(`normalize() expects NFC, NFD, NFKC or NFKD, got '${f}'`, 'InvalidArgumentValue');
  }
  return strArg('normalize', s).normalize(f);
}

/** Case mapping may lengthen a string (ß → SS, at most threefold): the result is held to the string limit. */
function caseMapped(fn: string, s: string, upper: boolean): string {
  const out = upper ? s.toUpperCase() : s.toLowerCase();
  if (out.length > s.length) checkStringLength(out.length, `${fn}()`);
  return out;
}

const toUpper = nullSafe1((s) => caseMapped('toUpper', strArg('toUpper', s), true));
const toLower = nullSafe1((s) => caseMapped('toLower', strArg('toLower', s), false));
const charLength = nullSafe1((s) => codePointLength(strArg('char_length', s)));

export const stringFunctions: FunctionDef[] = [
  pure('toUpper', 'string', [1, 1], 'A string in upper case', toUpper),
  pure('upper', 'string', [1, 1], 'A string in upper case (alias of toUpper)', toUpper),
  pure('toLower', 'string', [1, 1], 'A string in lower case', toLower),
  pure('lower', 'string', [1, 1], 'A string in lower case (alias of toLower)', toLower),
  trimFn('trim', true, true, 'A string without leading and trailing whitespace'),
  trimFn('btrim', true, true, 'A string without leading and trailing whitespace (or given characters)'),
  trimFn('ltrim', true, false, 'A string without leading whitespace (or given characters)'),
  trimFn('rtrim', false, true, 'A string without trailing whitespace (or given characters)'),
  pure('left', 'string', [2, 2], 'The first n characters of a string', nullSafeAll(left)),
  pure('right', 'string', [2, 2], 'The last n characters of a string', nullSafeAll(right)),
  pure('substring', 'string', [2, 3], 'Part of a string from a 0-based start, optionally of a given length', substring),
  pure('replace', 'string', [3, 3], 'A string with every occurrence of a search string replaced', nullSafeAll(replace)),
  pure('split', 'string', [2, 2], 'A string split on a delimiter (or any of a list of delimiters)', nullSafeAll(split)),
  pure('char_length', 'string', [1, 1], 'Number of characters in a string', charLength),
  pure('character_length', 'string', [1, 1], 'Number of characters in a string', charLength),
  pure('normalize', 'string', [1, 2], 'A string in a Unicode normal form (NFC by default)', normalize),
];

