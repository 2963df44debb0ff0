/**
 * Regular expressions for `=~`, in bounded time. A pattern is Java-style (leading inline
 * flags such as `(?i)`, `(?s)`, `(?m)`; whole-string match) and runs on V8's linear-time
 * regular expression engine (the `l` flag, enabled here once), so no pattern can
 * backtrack exponentially (`'aaaa…!' =~ '(a+)+'` answers at once).
 *
 * The linear engine has no Unicode mode, no case-insensitive mode, no backreferences and
 * no lookaround. Case-insensitivity is done by folding the pattern's literal characters
 * and the subject to lower case. Patterns it cannot express (backreferences, lookaround,
 * `\p{…}` classes, characters outside the BMP) run on the backtracking engine only when
 * they repeat no group that itself repeats or alternates (the shape of catastrophic
 * backtracking); otherwise they are refused with an ArgumentError saying why. On the
 * linear engine a character outside the BMP counts as two characters for `.` and classes.
 * `compileSearchRegex` gives the same guarantee to patterns that search inside text
 * (the APOC split, replace and regexGroups functions).
 *
 * That shape test cannot bound every pattern (`(.*)(.*)(.*)(.*)\1x` is polynomial, and
 * lookaround or backreferences can make it so with no nested repetition), and a match on the
 * backtracking engine has no deadline checks. On a query worker the pool stops such a match
 * by replacing the thread; on the main thread, where nothing else could, every backtracking
 * match of a query with a deadline runs within the time it has left (`runWithin`), so it ends
 * with the query's time limit (or with the router's main-thread slice, which sends the query
 * to a worker) instead of holding every door for good.
 */

import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { ArgumentError, QueryTimeoutError } from '../src/errors.js';
import { runWithin, TIMED_OUT } from './bounded-run.js';
import { activeGovernor } from './governor.js';

setFlagsFromString('--enable-experimental-regexp-engine');

/** A compiled pattern: `test` matches a whole string. */
export interface Matcher {
  test(s: string): boolean;
}

const cache = new Map<string, Matcher>();
const CACHE_LIMIT = 500;

export function compileRegex(pattern: string): Matcher {
  let m = cache.get(pattern);
  if (m !== undefined) return m;
  m = build(pattern);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, m);
  return m;
}

/** A pattern without its leading Java inline flags: `(?i)` as `ignoreCase`, `(?m)` and `(?s)` as JS flags. */
function splitInlineFlags(pattern: string): { body: string; ignoreCase: boolean; flags: string } {
  let body = pattern;
  let ignoreCase = false;
  let flags = '';
  const inline = /^\(\?([imsux]+)\)/.exec(body);
  if (inline) {
    body = body.slice(inline[0].length);
    for (const f of inline[1]) {
      if (f === 'i') ignoreCase = true;
      else if ((f === 'm' || f === 's') && !flags.includes(f)) flags += f;
    }
  }
  return { body, ignoreCase, flags };
}

const searchCache = new Map<string, RegExp>();

/**
 * A pattern for searching inside text (split, replace, find every match: the APOC text
 * functions), as a global RegExp. It runs on the linear engine when it can; case-insensitive
 * patterns and those the linear engine cannot express run on the backtracking engine only
 * in the shapes that cannot explode, else they are refused with an ArgumentError, as for
 * `compileRegex`. The same RegExp may be returned again: callers must not rely on `lastIndex`.
 */
export function compileSearchRegex(pattern: string): RegExp {
  let re = searchCache.get(pattern);
  if (re !== undefined) return re;
  const { body, ignoreCase, flags } = splitInlineFlags(pattern);
  re = !ignoreCase && !needsUnicode(body) ? tryRegExp(body, flags + 'gl') : undefined;
  if (re === undefined) {
    re = backtracking(pattern, body, flags + (ignoreCase ? 'i' : '') + 'g');
    onBacktrackingEngine.add(re);
  }
  if (searchCache.size >= CACHE_LIMIT) searchCache.clear();
  searchCache.set(pattern, re);
  return re;
}

/** Search patterns that run on the backtracking engine (see `boundedSearch`). */
const onBacktrackingEngine = new WeakSet<RegExp>();

/**
 * Runs `work`, which searches with `re` (from `compileSearchRegex`), within the active
 * query's remaining time when `re` is on the backtracking engine and this is the main thread.
 */
export function boundedSearch<T>(re: RegExp, work: () => T): T {
  return onBacktrackingEngine.has(re) ? bounded(work) : work();
}

/** `work` within the active query's deadline when on the main thread with one (see the module comment). */
function bounded<T>(work: () => T): T {
  if (!isMainThread) return work();
  const g = activeGovernor();
  const left = g.remainingMs();
  if (left === Number.POSITIVE_INFINITY) return work();
  // A deadline already passed still gets a millisecond: the check that follows reports it.
  const out = runWithin(work, Math.max(1, left));
  if (out === TIMED_OUT) throw new QueryTimeoutError(g.timeoutMs);
  return out;
}

/** `source` on the backtracking engine, refused when it is invalid or has the shape of exponential backtracking. */
function backtracking(pattern: string, source: string, jsFlags: string): RegExp {
  const re = tryRegExp(source, jsFlags + 'u') ?? tryRegExp(source, jsFlags);
  if (re === undefined) {
    const why = syntaxError(source, jsFlags);
    throw new ArgumentError(`Invalid regular expression '${pattern}': ${why}`, 'InvalidArgumentValue');
  }
  if (repeatsRepetition(source)) {
    throw new ArgumentError(
      `Regular expression '${pattern}' cannot be matched in bounded time: it uses backreferences, lookaround, \\p classes or case-insensitivity together with a repeated group that itself repeats or alternates; simplify the pattern`,
      'InvalidArgumentValue',
    );
  }
  return re;
}

function build(pattern: string): Matcher {
  const { body, ignoreCase, flags } = splitInlineFlags(pattern);
  if (!needsUnicode(body)) {
    const source = '^(?:' + (ignoreCase ? foldLiterals(body) : body) + ')$';
    const linear = tryRegExp(source, flags + 'l');
    if (linear !== undefined) return ignoreCase ? { test: (s) => linear.test(s.toLowerCase()) } : linear;
  }
  // Beyond the linear engine: the backtracking one, for shapes that cannot explode (and bounded in time where nothing else would stop it).
  const re = backtracking(pattern, '^(?:' + body + ')$', flags + (ignoreCase ? 'i' : ''));
  return { test: (s) => bounded(() => re.test(s)) };
}

function tryRegExp(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

function syntaxError(source: string, flags: string): string {
  try {
    new RegExp(source, flags);
    return 'unsupported';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Features that mean something else (or nothing) without Unicode mode. */
function needsUnicode(body: string): boolean {
  return /\\[pPu]\{|\\k<|[\uD800-\uDFFF]/.test(body);
}

/** Lower-cases literal characters (not escapes, not `\p{…}` names) for case-insensitive matching. */
function foldLiterals(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      out += c + body[++i];
      continue;
    }
    out += c.toLowerCase();
  }
  return out;
}

/**
 * True when a group that contains a quantifier or an alternation is itself repeated
 * without a small bound (`(a+)+`, `(a|aa)*`, `(x*){2,}`): the shape of exponential
 * backtracking.
 */
function repeatsRepetition(body: string): boolean {
  const open: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') open.push(false);
    else if (c === ')') {
      const inner = open.pop() ?? false;
      if (inner && isUnboundedQuantifier(body, i + 1)) return true;
      if (inner && open.length) open[open.length - 1] = true;
    } else if ((c === '|' || isUnboundedQuantifier(body, i)) && open.length) {
      open[open.length - 1] = true;
    }
  }
  return false;
}

function isUnboundedQuantifier(body: string, i: number): boolean {
  const c = body[i];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(body.slice(i, i + 24));
  if (!m) return false;
  if (m[2] === undefined) return Number(m[1]) > 1;
  return m[3] === '' || Number(m[3]) > 1;
}
