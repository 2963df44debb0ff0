/**
 * fast-check arbitraries of query text, shared by every fuzzer that sends queries (the
 * query pipeline itself, and the PG, HTTP and MCP doors): soups of the grammar's tokens,
 * seed queries mutated (cut, spliced, sprinkled with tokens) and raw strings.
 */

import fc from 'fast-check';
import { GRAMMAR_TOKENS, IDENTIFIERS, LITERALS, seedQueries } from './query-corpus.js';

export const { seeds, fromTck } = seedQueries();

export const token = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...GRAMMAR_TOKENS) },
  { weight: 2, arbitrary: fc.constantFrom(...IDENTIFIERS) },
  { weight: 2, arbitrary: fc.constantFrom(...LITERALS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3, unit: 'binary' }) },
);

export const soup = fc
  .tuple(fc.array(token, { maxLength: 40 }), fc.constantFrom(' ', '', '\n', ' \t'))
  .map(([tokens, sep]) => tokens.join(sep));

interface Mutation {
  kind: 'delete' | 'insert' | 'replace' | 'duplicate' | 'truncate';
  at: number;
  len: number;
  token: string;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'insert', 'replace', 'duplicate', 'truncate'),
  at: fc.nat(),
  len: fc.nat({ max: 24 }),
  token,
});

function mutate(query: string, m: Mutation): string {
  const at = m.at % (query.length + 1);
  const end = Math.min(query.length, at + m.len);
  switch (m.kind) {
    case 'delete':
      return query.slice(0, at) + query.slice(end);
    case 'insert':
      return `${query.slice(0, at)} ${m.token} ${query.slice(at)}`;
    case 'replace':
      return query.slice(0, at) + m.token + query.slice(end);
    case 'duplicate':
      return query.slice(0, end) + query.slice(at, end) + query.slice(end);
    case 'truncate':
      return query.slice(0, at);
  }
}

export const seed = fc.nat({ max: seeds.length - 1 }).map((i) => seeds[i]);
export const mutated = fc.tuple(seed, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([q, ms]) => ms.reduce(mutate, q));
const spliced = fc.tuple(seed, seed, fc.nat(), fc.nat()).map(([a, b, i, j]) => a.slice(0, i % (a.length + 1)) + b.slice(j % (b.length + 1)));

/** Any query text: mostly near-misses of real queries, some real ones, some noise. */
export const queryText = fc.oneof(
  { weight: 3, arbitrary: soup },
  { weight: 4, arbitrary: mutated },
  { weight: 1, arbitrary: spliced },
  { weight: 1, arbitrary: seed },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
);
