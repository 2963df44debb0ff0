/**
 * The parser as the engine reaches it: the same two functions as parser.ts, loading the
 * grammar (antlr4ng and the generated lexer and parser, the largest modules of the engine)
 * on the first query text rather than when the library is imported (src/lazy-module.ts). The
 * build also bundles parser.ts with everything only it uses into parser.bundle.cjs
 * (scripts/build-parser-bundle.mjs), which loads through a V8 code cache (src/code-cache.ts).
 */

import { LazyModule } from '../lazy-module.js';
import type { Query, Statement } from './ast.js';

const parser = new LazyModule(import.meta.url, './parser.js', () => import('./parser.js'), './parser.bundle.cjs');

/** Whether the grammar has loaded in this process (the start-up tests ask). */
export function grammarLoaded(): boolean {
  return parser.loaded;
}

/** Parses one statement: a query or schema command, optionally prefixed by EXPLAIN / PROFILE. */
export function parseStatement(text: string): Statement {
  return parser.get().parseStatement(text);
}

/** Parses text that must be a query (no schema command, no EXPLAIN / PROFILE prefix). */
export function parseQuery(text: string): Query {
  return parser.get().parseQuery(text);
}
