/**
 * The one place that says which SPEC command-line options the CLI accepts but cannot honour
 * yet. Durable storage (`--data-dir`) and the servers (`--http`, `--pg`, `--serve` and their
 * companions) arrive in later work: delete an entry here when its feature lands and wire the
 * feature in `main.ts`. Using an option listed here is a usage error (exit status 2).
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
  { key: 'http', flag: '--http', what: 'the HTTP server' },
  { key: 'apiKey', flag: '--api-key', what: 'HTTP authentication' },
  { key: 'pg', flag: '--pg', what: 'the PostgreSQL-wire server' },
  { key: 'pgPassword', flag: '--pg-password', what: 'PostgreSQL-wire authentication' },
  { key: 'pgLogQueries', flag: '--pg-log-queries', what: 'PostgreSQL-wire query logging' },
  { key: 'serve', flag: '--serve', what: 'the TCP server' },
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
