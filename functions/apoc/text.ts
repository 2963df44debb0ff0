/**
 * `apoc.text.*`: joining and splitting, regular-expression replace and groups, case
 * styles (capitalize, camelCase, snake_case), padding, printf-style formatting, cleaning,
 * edit and similarity distances (Levenshtein, Jaro-Winkler, Hamming, Sørensen-Dice),
 * fuzzy matching, and URL / Base64 coding. Null text gives null.
 *
 * Hostile input is bounded like the rest of a query (runtime/governor.ts): regular
 * expressions run through runtime/regex.ts (no exponential backtracking), strings and
 * lists are checked against the memory limits before they are built, and loops that are
 * quadratic (edit distances, match lists) check the query's deadline as they go.
 */

import { ArgumentError } from '../../src/errors.js';
import type { Value } from '../../runtime/values.js';
import { formatValue } from '../../runtime/format.js';
import { charge, checkListSize, checkStringLength, step, work } from '../../runtime/governor.js';
import { boundedSearch, compileSearchRegex } from '../../runtime/regex.js';
import { pure } from '../define.js';
import { countArg, fl, intArg, listArg, strArg, type FunctionDef } from '../types.js';

const C = 'string';

function regex(fn: string, pattern: Value): RegExp {
  return compileSearchRegex(strArg(fn, pattern));
}

/**
 * Every match of `re` in `s`, checking the deadline per match and the list limit as the
 * list grows; `cost` is the cells one match will hold (charged to the query's budget).
 */
function eachMatch<T>(fn: string, s: string, re: RegExp, keep: (m: RegExpExecArray) => T, cost: (m: RegExpExecArray) => number): T[] {
  return boundedSearch(re, () => {
    const out: T[] = [];
    for (const m of s.matchAll(re)) {
      step();
      checkListSize(out.length + 1, `${fn}()`);
      charge(cost(m));
      out.push(keep(m));
    }
    return out;
  });
}

/**
 * `s` split around the matches of `re` as Java's `String.split(regex, limit)` does, which is
 * what APOC calls: groups are not spliced in (unlike JavaScript's `split`); a zero-width match
 * at the start gives no leading empty part; with `limit > 0` at most `limit` parts, the last
 * holding the rest of the text unsplit; with `limit` 0 trailing empty parts are dropped;
 * with a negative `limit` they are kept. No match: the whole text.
 */
function javaSplit(s: string, re: RegExp, limit: number): string[] {
  const matches = eachMatch('apoc.text.split', s, re, (m) => [m.index, m[0].length] as const, () => 1);
  const parts: string[] = [];
  let from = 0;
  for (const [at, length] of matches) {
    if (limit > 0 && parts.length === limit - 1) break;
    if (length === 0 && (at === 0 || at >= s.length)) continue;
    parts.push(s.slice(from, at));
    from = at + length;
  }
  parts.push(s.slice(from));
  if (limit === 0) while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (limit === 0 && parts.length === 1 && parts[0] === '' && s !== '') parts.pop();
  return parts;
}

/**
 * `s` with every match of `re` replaced by the template `r` ($1, $&, … as JavaScript reads
 * them). The result's length is bounded before it is built: each match adds at most the
 * template plus, per `$` reference, the match (or the whole text for $` and $').
 */
function replaceAll(fn: string, s: string, re: RegExp, r: string): string {
  return boundedSearch(re, () => replaceBounded(fn, s, re, r));
}

function replaceBounded(fn: string, s: string, re: RegExp, r: string): string {
  let matches = 0;
  let matched = 0;
  let longest = 0;
  for (const m of s.matchAll(re)) {
    step();
    matches++;
    matched += m[0].length;
    if (m[0].length > longest) longest = m[0].length;
  }
  const refs = r.split('$').length - 1;
  const wholeRefs = r.split('$`').length + r.split("$'").length - 2;
  const perMatch = r.length + refs * longest + wholeRefs * s.length;
  checkStringLength(s.length - matched + matches * perMatch, `${fn}()`);
  work(s.length);
  return s.replace(re, r);
}

/** `n` copies of `part` as one string, refused beforehand when it would be over the string limit. */
function repeatChecked(fn: string, part: string, n: number): string {
  checkStringLength(part.length * n, `${fn}()`);
  work(part.length * n);
  return part.repeat(n);
}

/** Text (may be null) → null-propagating string function. */
function text(name: string, args: [number, number], description: string, f: (s: string, ...rest: Value[]) => Value): FunctionDef {
  return pure(name, C, args, description, (s = null, ...rest) => (s === null ? null : f(strArg(name, s), ...rest)));
}

/** The strings of `parts` joined by `sep`, refused beforehand when the result would be over the string limit. */
function joinChecked(fn: string, parts: string[], sep: string): string {
  let n = Math.max(0, parts.length - 1) * sep.length;
  for (const p of parts) n += p.length;
  checkStringLength(n, `${fn}()`);
  return parts.join(sep);
}

function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

const cap = (w: string) => (w === '' ? w : w[0].toUpperCase() + w.slice(1));

export function levenshtein(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    work(y.length);
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length === 0 || y.length === 0) return 0;
  const range = Math.max(0, Math.floor(Math.max(x.length, y.length) / 2) - 1);
  const mx = new Array<boolean>(x.length).fill(false);
  const my = new Array<boolean>(y.length).fill(false);
  let matches = 0;
  for (let i = 0; i < x.length; i++) {
    work(2 * range + 1);
    for (let j = Math.max(0, i - range); j < Math.min(y.length, i + range + 1); j++) {
      if (my[j] || x[i] !== y[j]) continue;
      mx[i] = my[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let t = 0;
  for (let i = 0, k = 0; i < x.length; i++) {
    if (!mx[i]) continue;
    while (!my[k]) k++;
    if (x[i] !== y[k]) t++;
    k++;
  }
  const jaro = (matches / x.length + matches / y.length + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < Math.min(4, x.length, y.length) && x[prefix] === y[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** How many times each pair of adjacent characters occurs in `s`. */
function bigramCounts(s: string): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) {
    step();
    const g = s.slice(i, i + 2);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return { counts, total: Math.max(0, s.length - 1) };
}

/** Java's String.format for the conversions Cypher users write: %s %d %f %.Nf %x %n %%. */
function javaFormat(fmt: string, params: Value[]): string {
  let i = 0;
  let length = fmt.length;
  return fmt.replace(/%(\.\d+)?([sdfxbn%])/g, (m, prec: string | undefined, conv: string) => {
    const piece = formatOne(params, () => i++, prec, conv);
    length += piece.length - m.length;
    checkStringLength(length, 'apoc.text.format()');
    step();
    return piece;
  });
}

/** The text of one conversion; `next` gives the index of the parameter it uses. */
function formatOne(params: Value[], next: () => number, prec: string | undefined, conv: string): string {
  if (conv === '%') return '%';
  if (conv === 'n') return '\n';
  const digits = prec ? Number(prec.slice(1)) : 6;
  // Number.prototype.toFixed throws a RangeError beyond 100 decimals.
  if (conv === 'f' && digits > 100) throw new ArgumentError(`apoc.text.format() allows at most 100 decimals, got %.${digits}f`, 'InvalidArgumentValue');
  const v = params[next()] ?? null;
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v !== null && typeof v === 'object' && 'value' in v ? Number((v as { value: number }).value) : NaN;
  switch (conv) {
    case 'd':
      return Number.isNaN(n) ? formatPlain(v) : String(Math.trunc(n));
    case 'f':
      return Number.isNaN(n) ? formatPlain(v) : n.toFixed(digits);
    case 'x':
      return Number.isNaN(n) ? formatPlain(v) : Math.trunc(n).toString(16);
    case 'b':
      return String(v !== null && v !== false);
    default:
      return formatPlain(v);
  }
}

function formatPlain(v: Value): string {
  return typeof v === 'string' ? v : v === null ? 'null' : formatValue(v);
}

function pad(fn: string, s: string, count: Value, delim: Value, left: boolean): string {
  const n = countArg(fn, count);
  const d = delim === null || delim === undefined ? ' ' : strArg(fn, delim);
  if (d === '' || s.length >= n) return s;
  checkStringLength(n, `${fn}()`);
  const fill = repeatChecked(fn, d, Math.ceil((n - s.length) / d.length)).slice(0, n - s.length);
  return left ? fill + s : s + fill;
}

const clean = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();

export const apocTextFunctions: FunctionDef[] = [
  pure('apoc.text.join', C, [2, 2], 'The strings of a list joined with a delimiter', (xs = null, d = null) =>
    xs === null || d === null ? null : joinChecked('apoc.text.join', listArg('apoc.text.join', xs).map((x) => (x === null ? '' : strArg('apoc.text.join', x))), strArg('apoc.text.join', d)),
  ),
  text('apoc.text.split', [2, 3], 'The text split on a regular expression (at most `limit` parts)', (s, re = null, limit = null) =>
    re === null ? null : javaSplit(s, regex('apoc.text.split', re), limit === null ? 0 : intArg('apoc.text.split', limit)),
  ),
  text('apoc.text.replace', [3, 3], 'The text with every match of a regular expression replaced', (s, re = null, r = null) =>
    re === null || r === null ? null : replaceAll('apoc.text.replace', s, regex('apoc.text.replace', re), strArg('apoc.text.replace', r)),
  ),
  text('apoc.text.regreplace', [3, 3], 'The text with every match of a regular expression replaced (alias of replace)', (s, re = null, r = null) =>
    re === null || r === null ? null : replaceAll('apoc.text.regreplace', s, regex('apoc.text.regreplace', re), strArg('apoc.text.regreplace', r)),
  ),
  text('apoc.text.regexGroups', [2, 2], 'For each match of a regular expression: the whole match and its groups', (s, re = null) =>
    re === null
      ? null
      : eachMatch('apoc.text.regexGroups', s, regex('apoc.text.regexGroups', re), (m) => m.map((g) => g ?? null), (m) => 1 + m.length + (m[0].length >>> 4)),
  ),
  text('apoc.text.capitalize', [1, 1], 'The text with its first letter in upper case', (s) => cap(s)),
  text('apoc.text.capitalizeAll', [1, 1], 'The text with the first letter of every word in upper case', (s) => s.replace(/(^|\s)(\S)/g, (_m, a: string, b: string) => a + b.toUpperCase())),
  text('apoc.text.decapitalize', [1, 1], 'The text with its first letter in lower case', (s) => (s === '' ? s : s[0].toLowerCase() + s.slice(1))),
  text('apoc.text.camelCase', [1, 1], 'The words of the text as camelCase', (s) => words(s).map((w, i) => (i === 0 ? w.toLowerCase() : cap(w.toLowerCase()))).join('')),
  text('apoc.text.upperCamelCase', [1, 1], 'The words of the text as UpperCamelCase', (s) => words(s).map((w) => cap(w.toLowerCase())).join('')),
  text('apoc.text.snakeCase', [1, 1], 'The words of the text as snake_case', (s) => words(s).map((w) => w.toLowerCase()).join('_')),
  text('apoc.text.toUpperCase', [1, 1], 'The words of the text as UPPER_SNAKE_CASE', (s) => words(s).map((w) => w.toUpperCase()).join('_')),
  text('apoc.text.slug', [1, 2], 'The words of the text joined with a delimiter (default -)', (s, d = '-') => joinChecked('apoc.text.slug', words(s), d === null ? '-' : strArg('apoc.text.slug', d))),
  text('apoc.text.clean', [1, 1], 'The text in lower case with accents, punctuation and spaces removed', (s) => clean(s)),
  pure('apoc.text.compareCleaned', C, [2, 2], 'Whether two texts are equal once cleaned', (a = null, b = null) =>
    a === null || b === null ? null : clean(strArg('apoc.text.compareCleaned', a)) === clean(strArg('apoc.text.compareCleaned', b)),
  ),
  text('apoc.text.lpad', [2, 3], 'The text padded on the left to a length (with spaces or a given string)', (s, n = null, d = null) => (n === null ? null : pad('apoc.text.lpad', s, n, d, true))),
  text('apoc.text.rpad', [2, 3], 'The text padded on the right to a length (with spaces or a given string)', (s, n = null, d = null) => (n === null ? null : pad('apoc.text.rpad', s, n, d, false))),
  text('apoc.text.format', [2, 2], 'The text with %s, %d, %f (…) replaced by the listed values, as Java String.format', (s, params = null) => javaFormat(s, params === null ? [] : listArg('apoc.text.format', params))),
  pure('apoc.text.levenshteinDistance', C, [2, 2], 'The number of single-character edits turning one text into the other', (a = null, b = null) =>
    a === null || b === null ? null : levenshtein(strArg('apoc.text.levenshteinDistance', a), strArg('apoc.text.levenshteinDistance', b)),
  ),
  pure('apoc.text.distance', C, [2, 2], 'The Levenshtein distance between two texts (alias of levenshteinDistance)', (a = null, b = null) =>
    a === null || b === null ? null : levenshtein(strArg('apoc.text.distance', a), strArg('apoc.text.distance', b)),
  ),
  pure('apoc.text.levenshteinSimilarity', C, [2, 2], '1 minus the Levenshtein distance over the longer length', (a = null, b = null) => {
    if (a === null || b === null) return null;
    const x = strArg('apoc.text.levenshteinSimilarity', a);
    const y = strArg('apoc.text.levenshteinSimilarity', b);
    const longest = Math.max(Array.from(x).length, Array.from(y).length);
    return fl(longest === 0 ? 1 : 1 - levenshtein(x, y) / longest);
  }),
  pure('apoc.text.jaroWinklerDistance', C, [2, 2], 'The Jaro-Winkler similarity of two texts (1.0 for equal texts)', (a = null, b = null) =>
    a === null || b === null ? null : fl(jaroWinkler(strArg('apoc.text.jaroWinklerDistance', a), strArg('apoc.text.jaroWinklerDistance', b))),
  ),
  pure('apoc.text.hammingDistance', C, [2, 2], 'The number of positions where two texts of equal length differ', (a = null, b = null) => {
    if (a === null || b === null) return null;
    const x = Array.from(strArg('apoc.text.hammingDistance', a));
    const y = Array.from(strArg('apoc.text.hammingDistance', b));
    if (x.length !== y.length) throw new ArgumentError('apoc.text.hammingDistance() needs texts of the same length', 'InvalidArgumentValue');
    return x.filter((c, i) => c !== y[i]).length;
  }),
  pure('apoc.text.sorensenDiceSimilarity', C, [2, 2], 'The Sørensen-Dice coefficient of the two texts\' letter pairs', (a = null, b = null) => {
    if (a === null || b === null) return null;
    const x = bigramCounts(strArg('apoc.text.sorensenDiceSimilarity', a).toLowerCase());
    const y = bigramCounts(strArg('apoc.text.sorensenDiceSimilarity', b).toLowerCase());
    if (x.total + y.total === 0) return fl(1);
    // Pairs shared as a multiset: each pair counts as often as it occurs in both texts.
    let shared = 0;
    for (const [g, n] of x.counts) shared += Math.min(n, y.counts.get(g) ?? 0);
    return fl((2 * shared) / (x.total + y.total));
  }),
  pure('apoc.text.fuzzyMatch', C, [2, 2], 'Whether two texts are within a small edit distance (0 up to 2 letters, 1 up to 5, else 2)', (a = null, b = null) => {
    if (a === null || b === null) return false;
    const x = strArg('apoc.text.fuzzyMatch', a);
    const y = strArg('apoc.text.fuzzyMatch', b);
    const len = Math.min(x.length, y.length);
    return levenshtein(x, y) <= (len < 3 ? 0 : len < 6 ? 1 : 2);
  }),
  text('apoc.text.indexOf', [2, 4], 'The 0-based position of a substring (from an offset, before an end), or -1', (s, lookup = null, from = 0, to = null) => {
    if (lookup === null) return null;
    const end = to === null || to === -1 ? s.length : intArg('apoc.text.indexOf', to);
    const i = s.slice(0, end).indexOf(strArg('apoc.text.indexOf', lookup), from === null ? 0 : intArg('apoc.text.indexOf', from));
    return i;
  }),
  text('apoc.text.repeat', [2, 2], 'The text repeated a number of times', (s, n = null) => {
    if (n === null) return null;
    return repeatChecked('apoc.text.repeat', s, countArg('apoc.text.repeat', n));
  }),
  text('apoc.text.urlencode', [1, 1], 'The text URL-encoded', (s) => encodeURIComponent(s)),
  text('apoc.text.urldecode', [1, 1], 'URL-encoded text decoded', (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new ArgumentError('apoc.text.urldecode() got malformed URL encoding', 'InvalidArgumentValue');
    }
  }),
  text('apoc.text.base64Encode', [1, 1], 'The UTF-8 bytes of the text in Base64', (s) => Buffer.from(s, 'utf8').toString('base64')),
  text('apoc.text.base64Decode', [1, 1], 'Base64 decoded to UTF-8 text', (s) => {
    if (!/^[A-Za-z0-9+/=\s]*$/.test(s)) throw new ArgumentError('apoc.text.base64Decode() got text that is not Base64', 'InvalidArgumentValue');
    return Buffer.from(s, 'base64').toString('utf8');
  }),
  text('apoc.text.byteCount', [1, 2], 'The number of bytes of the text in UTF-8', (s) => Buffer.byteLength(s, 'utf8')),
  pure('apoc.text.code', C, [1, 1], 'The character with a Unicode code point', (n = null) => {
    if (n === null) return null;
    const cp = countArg('apoc.text.code', n);
    if (cp > 0x10ffff) throw new ArgumentError(`apoc.text.code() got ${cp}, which is not a code point`, 'InvalidArgumentValue');
    return String.fromCodePoint(cp);
  }),
  text('apoc.text.charAt', [2, 2], 'The code point at a 0-based index (null past the end)', (s, i = null) => {
    if (i === null) return null;
    const cps = Array.from(s);
    const k = countArg('apoc.text.charAt', i);
    return k < cps.length ? (cps[k].codePointAt(0) ?? null) : null;
  }),
];
