/**
 * `exists(pattern)`, Neo4j 5's predicate function: whether the pattern has at least one
 * match. The semantic checker accepts only a pattern as its argument (Neo4j 5 removed
 * `exists(n.prop)`: use `n.prop IS NOT NULL`), and the code generator inlines the match as
 * an early-exit loop, so `impl` only receives that loop's boolean.
 */

import { pure } from './define.js';
import type { FunctionDef } from './types.js';

export const existsFunctions: FunctionDef[] = [
  pure('exists', 'predicate', [1, 1], 'Whether the pattern given as the argument has at least one match', (found) => found),
];
