/**
 * The one place that says which SPEC command-line options the CLI accepts but cannot honour
 * yet (the servers, `--http`/`--serve`/`--pg` and companions, are wired in `serve.ts`).
 * Delete an entry here when its feature lands and wire the feature in `main.ts`. Using an
 * option listed here is a usage error (exit status 2).
 */

import { CliUsageError } from './cli-error.js';

/** Option values as commander gives them (camel-cased names). */
export type OptionValues = Record<string, unknown>;

interface PendingOption {
  /** commander's key for the option. */
  key: string;
  flag: string;
  what: string;
}

const PENDING: PendingOption[] = [
];

/** Throws a CliUsageError naming every not-yet-available option that was given. */
export function rejectUnavailableOptions(options: OptionValues): void {
  const used = PENDING.filter((p) => options[p.key] !== undefined && options[p.key] !== false);
  if (used.length === 0) return;
  const lines = used.map((p) => `${p.flag} (${p.what}) is not available yet in this version of graphdb.`);
  const hint = used.some((p) => p.key === 'dataDir')
    ? 'Leave out --data-dir to work on an in-memory graph.'
    : 'Use the REPL (graphdb) or a single query (graphdb query "...") for now.';
  throw new CliUsageError([...lines, hint].join('\n'));
}
